"""City Heroes' state as `Record` dataclasses and its catalogue read through `read_only` records (issue 21:
the rules' speed): the snapshot is the same JSON and is validated as strictly when loaded, copies share
nothing, and the records the rules read hold exactly what the models hold."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from rules.city_heroes import GAME
from rules.city_heroes.data import catalogue, rules_catalogue
from rules.city_heroes.state import CityHeroesState, Tile
from rules.core import FlatRecord
from tests.support.records import assert_refused, assert_round_trips, assert_same


def _played(moves: int, seed: int = 5) -> CityHeroesState:
    """A four-player position some moves in (tiles bought and built on by then)."""
    rng = random.Random(seed)
    state = GAME.setup(["A", "B", "C", "D"], {}, seed)
    for _ in range(moves):
        if GAME.result(state) is not None:
            break
        seat = rng.choice(sorted(GAME.to_act(state)))
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)).action).state
    return state


def test_the_state_is_a_record_and_its_snapshot_loads_back_as_it_was() -> None:
    state = _played(150)
    loaded = assert_round_trips(GAME, state, CityHeroesState)
    assert isinstance(state.tiles[0], FlatRecord)
    assert list(json.loads(GAME.dump_state(state))["tiles"][0]) == [f.name for f in dataclasses.fields(Tile)]
    assert type(loaded.tiles[0]) is Tile and type(loaded.players[0]) is type(state.players[0])


@pytest.mark.parametrize(
    "spoil, words",
    [
        (lambda d: d["tiles"][0].update(colour="red"), "colour"),
        (lambda d: d["players"][0].update(favourite="tea"), "favourite"),
        (lambda d: d.update(phase="lunch"), "phase"),
        (lambda d: d["tiles"][1].update(terrain="sea"), "terrain"),
        (lambda d: d["players"][1].update(ducats="many"), "ducats"),
        (lambda d: d.pop("tiles"), "tiles"),
    ],
)
def test_a_snapshot_with_an_unknown_key_or_a_bad_value_is_refused(spoil: Any, words: str) -> None:
    assert_refused(GAME, _played(30), spoil, words)


def test_a_copy_shares_nothing_with_the_original() -> None:
    state = _played(60)
    copy = GAME.copy_state(state)
    assert copy == state and copy is not state
    copy.tiles[0].garrison += 1
    copy.players[0].stock["wheat"] += 1
    copy.players[0].tokens["sales"] = 9
    copy.outside["iron"] += 1
    copy.log_pillaged.append(1)
    copy.rng.counter += 1
    assert copy != state
    assert copy.tiles[0].garrison == state.tiles[0].garrison + 1
    assert copy.players[0].stock["wheat"] == state.players[0].stock["wheat"] + 1
    assert "sales" not in state.players[0].tokens and not state.log_pillaged
    assert state.rng.counter == copy.rng.counter - 1


def test_the_rules_read_the_same_catalogue_as_the_models_hold() -> None:
    """Every building, public work, rival row, recipe and setup value, and `is_unique`, read alike
    from the records the rules use and the validated models the views and `/card` use."""
    records, models = rules_catalogue(), catalogue()
    for name in ("buildings", "works", "rows", "recipes", "upgrades_from", "upgrades_to"):
        assert_same(getattr(records, name), getattr(models, name), name)
    assert_same(records.rival, models.rival, "rival")
    assert_same(records.setup, models.setup, "setup")
    with pytest.raises(dataclasses.FrozenInstanceError):
        records.buildings["house"].level = 2  # type: ignore[misc]
