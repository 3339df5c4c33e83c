"""Positions of City Heroes built for the tests, and the checks every test repeats."""

from __future__ import annotations

from typing import Any

import pytest

from rules.city_heroes import GAME
from rules.city_heroes.state import CityHeroesState
from rules.core import RuleError

NAMES = ("Teal", "Red", "Magenta", "Dave", "Erin")


def new_game(players: int = 2, seed: int = 1, **options: Any) -> CityHeroesState:
    return GAME.setup(list(NAMES[:players]), options, seed)


def own(state: CityHeroesState, seat: int, *tiles: int, terrain: str | None = None) -> None:
    """Give `seat` the tiles (with a House), optionally forcing their terrain."""
    for tile_id in tiles:
        tile = state.tiles[tile_id - 1]
        tile.owner = seat
        tile.house = "house"
        if terrain:
            tile.terrain = terrain  # type: ignore[assignment]


def at_phase(
    phase: str = "construction", players: int = 2, seat: int = 0, seed: int = 1, clear: bool = True
) -> CityHeroesState:
    """A fresh game moved to `phase` with `seat` to act; with `clear`, every tile is an empty plain."""
    state = new_game(players, seed)
    state.phase = phase  # type: ignore[assignment]
    state.current = seat
    if clear:
        for tile in state.tiles:
            tile.terrain = "plain"
            tile.resource = None
    return state


def give(state: CityHeroesState, seat: int, **stock: int) -> None:
    """Set a player's stock, booking the difference to the bank so totals stay conserved."""
    player = state.players[seat]
    for key, count in stock.items():
        if key == "ducats":
            state.bank_ducats += player.ducats - count
            player.ducats = count
        else:
            state.bank[key] += player.stock[key] - count
            player.stock[key] = count


def dump(state: CityHeroesState) -> str:
    return GAME.dump_state(state)


def play(state: CityHeroesState, seat: int, action: dict[str, Any]) -> tuple[CityHeroesState, list]:
    applied = GAME.apply(state, seat, action)
    return applied.state, applied.events


def rejected(state: CityHeroesState, seat: int, action: dict[str, Any], match: str) -> RuleError:
    """RuleError with a sentence matching `match`; neither `apply` nor `_apply` on a copy changes a thing."""
    before = dump(state)
    with pytest.raises(RuleError, match=match) as raised:
        GAME.apply(state, seat, action)
    assert dump(state) == before
    working = GAME.copy_state(state)
    if seat in GAME.to_act(working):
        with pytest.raises(RuleError, match=match):
            GAME._apply(working, seat, GAME.parse_action(action))
        assert dump(working) == before
    return raised.value


def keys(state: CityHeroesState, seat: int) -> list[str]:
    return [choice.key for choice in GAME.legal_actions(state, seat)]


def texts(events: list) -> str:
    return "\n".join(event.text for event in events)


def cleanup(state: CityHeroesState) -> tuple[CityHeroesState, list[Any]]:
    """Run the Cleanup by having everyone pass the Interaction phase."""
    state.phase = "interaction"
    state.acted = None
    events = []
    for _ in range(len(state.players)):
        state, more = play(state, state.current, {"kind": "pass"})
        events += more
    return state, events


def finish_work(state: CityHeroesState, tile_id: int, work: str) -> None:
    """Put a finished public work on a tile."""
    tile = state.tiles[tile_id - 1]
    tile.work = work
    tile.stages = GAME.cat.works[work].stages
