"""`bench/playout_floor.py` subtracts timings of the same games run four ways; the subtraction means
something only if each way plays the very game the fresh playout played. These check that it does."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules import registry

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture
def floor(monkeypatch: pytest.MonkeyPatch):
    """The script as it runs by path: `bench/` first on the path, `warm_playouts` importable by name."""
    monkeypatch.syspath_prepend(str(BENCH))
    import playout_floor

    return playout_floor


def _fresh_final(game, seed: int, weight):
    """The final state of `warm_playouts.playout` for this seed (the same loop, keeping the state)."""
    rng = random.Random(seed)
    state = game.setup([f"p{i}" for i in range(4)], {}, seed)
    while game.result(state) is None:
        seat = rng.choice(sorted(game.to_act(state)))
        choices = game.legal_actions(state, seat)
        choice = rng.choices(choices, [weight(choice, seat) for choice in choices])[0]
        game._apply(state, seat, game.parse_action(choice.action))
    return state


@pytest.mark.parametrize("seed", [100, 101])
def test_every_way_plays_the_fresh_game(floor, seed: int) -> None:
    game = registry.get("city-of-iron")
    weight = floor._weight("city_of_iron")
    assert weight is not None and floor.playout(game, 4, seed, weight, in_place=True) > 50
    menus, moves = floor._recorded(game, seed, weight)
    assert len(menus) == len(moves) == floor.playout(game, 4, seed, weight, in_place=True)
    expected = game.dump_state(_fresh_final(game, seed, weight))
    assert game.dump_state(floor._handed_back(game, seed, weight, menus)) == expected
    assert game.dump_state(floor._moves_only(game, seed, moves)) == expected
