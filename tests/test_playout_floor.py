"""`bench/playout_floor.py` subtracts timings of the same games run four ways; the subtraction means
something only if each way plays the very game the fresh playout played. These check that it does."""

from __future__ import annotations

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


@pytest.mark.parametrize("seed", [100, 101])
def test_every_way_plays_the_fresh_game(floor, seed: int) -> None:
    game = registry.get("city-of-iron")
    weight = floor._weight("city_of_iron")
    fresh = floor.Recording()
    count = floor.playout(game, 4, seed, weight, in_place=True, recording=fresh)
    assert weight is not None and count > 50 and game.result(fresh.final) is not None
    assert len(fresh.menus) == len(fresh.moves) == count
    handed = floor.Recording()
    assert floor.playout(game, 4, seed, weight, in_place=True, menus=fresh.menus, recording=handed) == count
    expected = game.dump_state(fresh.final)
    assert game.dump_state(handed.final) == expected
    assert game.dump_state(floor._moves_only(game, seed, fresh.moves)) == expected
    assert handed.moves == fresh.moves
