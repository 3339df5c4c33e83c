"""City of Iron's state as `Record` pydantic dataclasses and its data read through `read_only` records
(issue 21: "make the rules core fast", the random playout the search lives on): the snapshot is the same
JSON and is validated as strictly when loaded or built; copies share nothing; every record reads exactly
as the model it stands for."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from pydantic import ValidationError

from rules.city_of_iron import GAME
from rules.city_of_iron.data import game_data, rules_data
from rules.city_of_iron.state import City, CityState, Player
from tests.support.records import assert_refused, assert_round_trips, assert_same

from .test_playouts import weight


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
    loaded = assert_round_trips(GAME, state, CityState)
    assert type(loaded.players[0].cities[0]) is City


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
    assert_refused(GAME, _played(30), spoil, words)


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


def test_the_rules_read_the_same_data_as_the_models_hold() -> None:
    """Every card, building, town, nation and board value, and the models' properties
    (`produces_goods`), read alike from the records the rules use and the validated models."""
    assert_same(rules_data(), game_data(), "data")


def test_the_records_cannot_be_changed() -> None:
    data = rules_data()
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.board.actions_per_round = 9  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.cards["scholar"].action.pay_coins = 5  # type: ignore[union-attr,misc]
