"""City of Iron's state as `Record` dataclasses and its data read through `read_only` records (issue 21:
"make the rules core fast", the random playout the search lives on): what the rules gained in speed
must not change what pydantic guarantees. The snapshot is the same JSON and is validated as strictly
when loaded; copies share nothing; every record reads exactly as the model it stands for."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from rules import registry
from rules.city_of_iron import GAME
from rules.city_of_iron.data import game_data, rules_data
from rules.city_of_iron.state import City, CityState, Player
from rules.core import Record
from tests.rules.city_of_iron.test_playouts import weight


def _played(moves: int, seed: int = 5) -> CityState:
    """A four-player position some moves in (cities, towns and buildings held by then)."""
    rng = random.Random(seed)
    state = GAME.setup(["A", "B", "C", "D"], {"expansion": True, "abilities": True}, seed)
    for _ in range(moves):
        seat = rng.choice(sorted(GAME.to_act(state)))
        choices = GAME.legal_actions(state, seat)
        choice = rng.choices(choices, [weight(c, seat) for c in choices])[0]
        state = GAME.apply(state, seat, choice.action).state
    return state


def test_the_state_is_a_record_and_its_snapshot_loads_back_as_it_was() -> None:
    state = _played(120)
    assert isinstance(state, Record) and not isinstance(state, BaseModel)
    raw = GAME.dump_state(state)
    loaded = GAME.load_state(raw)
    assert loaded == state and GAME.dump_state(loaded) == raw
    assert list(json.loads(raw)) == [f.name for f in dataclasses.fields(CityState)]
    assert isinstance(loaded.players[0].cities[0], type(state.players[0].cities[0]))


@pytest.mark.parametrize(
    "spoil, words",
    [
        (lambda d: d["players"][0].update(favourite="tea"), "favourite"),
        (lambda d: d.update(phase="lunch"), "phase"),
        (lambda d: d["players"][1].update(coins="many"), "coins"),
        (lambda d: d.pop("deck"), "deck"),
    ],
)
def test_a_snapshot_with_an_unknown_key_or_a_bad_value_is_refused(spoil: Any, words: str) -> None:
    """As the models did (`extra="forbid"`, typed fields): a damaged snapshot fails loudly on load."""
    data = json.loads(GAME.dump_state(_played(30)))
    spoil(data)
    with pytest.raises(ValidationError, match=words):
        GAME.load_state(json.dumps(data))


def test_a_state_built_in_code_is_validated_as_a_model_was() -> None:
    """Pydantic dataclasses check their fields on construction: a rules bug that builds a bad value
    fails where it is made, not later in a snapshot."""
    with pytest.raises(ValidationError, match="coins"):
        Player(name="A", coins="lots")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="favourite"):
        City(id="0-1", land="brindle-coast", token="t1", favourite=True)  # type: ignore[call-arg]
    assert City(id="0-1", land="brindle-coast", token="t1").buildings == []


def test_a_copy_shares_no_list_with_the_original() -> None:
    state = _played(60)
    copy = GAME.copy_state(state)
    assert copy == state and copy is not state
    copy.players[0].cities[0].buildings.append("x")
    copy.town_piles["1"].append("y")
    copy.rng.counter += 1
    assert copy != state and "x" not in state.players[0].cities[0].buildings
    assert "y" not in state.town_piles["1"] and state.rng.counter == copy.rng.counter - 1


def _same(record: Any, model: Any, where: str) -> None:
    if isinstance(model, BaseModel):
        assert type(record).__name__ == type(model).__name__ and not isinstance(record, BaseModel), where
        for name in type(model).model_fields:
            _same(getattr(record, name), getattr(model, name), f"{where}.{name}")
        own = type(model).__mro__[: type(model).__mro__.index(BaseModel)]
        for name in {
            name for klass in own for name, member in vars(klass).items() if isinstance(member, property)
        }:
            assert getattr(record, name) == getattr(model, name), f"{where}.{name}"
    elif isinstance(model, dict):
        assert type(record) is dict and list(record) == list(model), where
        for key in model:
            _same(record[key], model[key], f"{where}[{key!r}]")
    elif isinstance(model, list):
        assert type(record) is list and len(record) == len(model), where
        for index, (one, other) in enumerate(zip(record, model, strict=True)):
            _same(one, other, f"{where}[{index}]")
    else:
        assert record == model and type(record) is type(model), where


def test_the_rules_read_the_same_data_as_the_models_hold() -> None:
    """Every card, building, town, nation and board value, and the models' properties
    (`produces_goods`), read alike from the records the rules use and the validated models."""
    _same(rules_data(), game_data(), "data")


def test_the_records_cannot_be_changed() -> None:
    data = rules_data()
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.board.actions_per_round = 9  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.cards["scholar"].action.pay_coins = 5  # type: ignore[union-attr,misc]


def _games() -> list[str]:
    return [game.info.id for game in registry.all_games() if not game.info.id.startswith("test-")]


@pytest.mark.parametrize("game_id", _games())
def test_every_games_state_is_a_record_that_round_trips(game_id: str) -> None:
    """One contract for every game: a `Record` state, dumped and loaded by pydantic, the same JSON back,
    unknown keys refused, and a deep copy that shares nothing with the original."""
    game = registry.get(game_id)
    rng = random.Random(3)
    players = max(game.info.min_players, min(game.info.max_players, 3))
    state = game.setup([f"p{i}" for i in range(players)], {}, 3)
    for _ in range(40):
        if game.result(state) is not None:
            break
        seat = rng.choice(sorted(game.to_act(state)))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)).action).state
    assert isinstance(state, Record) and not isinstance(state, BaseModel)
    raw = game.dump_state(state)
    assert game.load_state(raw) == state and game.dump_state(game.load_state(raw)) == raw
    spoiled = {**json.loads(raw), "favourite": "tea"}
    with pytest.raises(ValidationError, match="favourite"):
        game.load_state(json.dumps(spoiled))
    copy = game.copy_state(state)
    assert copy == state and game.dump_state(copy) == raw
    first_list = next(name for name, value in vars(copy).items() if isinstance(value, list) and value)
    getattr(copy, first_list).clear()
    assert game.dump_state(state) == raw, "changing the copy changed the original"
