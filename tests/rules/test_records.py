"""Every game's state is a `Record` (issue 21's rules speed: pydantic dataclasses, whose fields the
interpreter reads as plain attributes): one contract, checked the same way for every registered game.
Each game's own test_records.py checks its fields, its damaged snapshots and its data records."""

from __future__ import annotations

import json
import random

import pytest
from pydantic import ValidationError

from rules import registry
from tests.support.records import assert_round_trips


def _games() -> list[str]:
    return [game.info.id for game in registry.all_games() if not game.info.id.startswith("test-")]


@pytest.mark.parametrize("game_id", _games())
def test_every_games_state_is_a_record_that_round_trips(game_id: str) -> None:
    """A `Record` state, dumped and loaded by pydantic to the same JSON, unknown keys refused, and a
    deep copy that shares nothing with the original."""
    game = registry.get(game_id)
    rng = random.Random(3)
    players = max(game.info.min_players, min(game.info.max_players, 3))
    state = game.setup([f"p{i}" for i in range(players)], {}, 3)
    for _ in range(40):
        if game.result(state) is not None:
            break
        seat = rng.choice(sorted(game.to_act(state)))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)).action).state
    assert_round_trips(game, state, game.state_model)
    raw = game.dump_state(state)
    with pytest.raises(ValidationError, match="favourite"):
        game.load_state(json.dumps({**json.loads(raw), "favourite": "tea"}))
    copy = game.copy_state(state)
    assert copy == state and game.dump_state(copy) == raw
    first_list = next(name for name, value in vars(copy).items() if isinstance(value, list) and value)
    getattr(copy, first_list).clear()
    assert game.dump_state(state) == raw, "changing the copy changed the original"
