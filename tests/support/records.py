"""Checks every game's `Record` state and `read_only` data records share (issue 21's rules speed): the
speed must not cost what pydantic guaranteed when the state was a model and the data models only."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from rules.core import Game, Record


def assert_round_trips(game: Game[Any], state: Any, state_class: type) -> Any:
    """`state` is a Record (not a model) whose snapshot loads back equal and dumps to the same JSON,
    its keys in the class's field order (the JSON the model gave), a field left out only while it holds
    its default (City of Iron's `ordering`, left out so older snapshots hash the same); returns the
    loaded state."""
    assert isinstance(state, state_class) and isinstance(state, Record) and not isinstance(state, BaseModel)
    raw = game.dump_state(state)
    loaded = game.load_state(raw)
    assert loaded == state and game.dump_state(loaded) == raw
    keys = list(json.loads(raw))
    fields = dataclasses.fields(state_class)
    assert keys == [field.name for field in fields if field.name in keys]
    for field in fields:
        if field.name not in keys:
            assert getattr(state, field.name) == field.default, field.name
    return loaded


def assert_refused(game: Game[Any], state: Any, spoil: Callable[[dict[str, Any]], Any], words: str) -> None:
    """The snapshot of `state`, damaged by `spoil`, fails to load with an error naming `words`, as the
    models did (`extra="forbid"`, typed and bounded fields)."""
    data = json.loads(game.dump_state(state))
    spoil(data)
    with pytest.raises(ValidationError, match=words):
        game.load_state(json.dumps(data))


def assert_same(record: Any, model: Any, where: str = "data") -> None:
    """A `read_only` record holds what its model holds: every field, every property the game's model
    class adds (`produces_goods`...), lists and dicts item by item, the same plain values."""
    if isinstance(model, BaseModel):
        assert type(record).__name__ == type(model).__name__ and not isinstance(record, BaseModel), where
        for name in type(model).model_fields:
            assert_same(getattr(record, name), getattr(model, name), f"{where}.{name}")
        own = type(model).__mro__[: type(model).__mro__.index(BaseModel)]
        for name in {
            name for klass in own for name, member in vars(klass).items() if isinstance(member, property)
        }:
            assert getattr(record, name) == getattr(model, name), f"{where}.{name}"
    elif isinstance(model, dict):
        assert type(record) is dict and list(record) == list(model), where
        for key in model:
            assert_same(record[key], model[key], f"{where}[{key!r}]")
    elif isinstance(model, list):
        assert type(record) is list and len(record) == len(model), where
        for index, (one, other) in enumerate(zip(record, model, strict=True)):
            assert_same(one, other, f"{where}[{index}]")
    else:
        assert record == model and type(record) is type(model), where
