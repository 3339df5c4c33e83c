"""Iron Bridge Gorge's state as `Record` dataclasses (issue 21: the random playout the search lives on):
what the rules gained in speed must not change what pydantic guarantees. The snapshot is the same JSON
and is validated as strictly when loaded, a copy shares nothing, and the one side of a trade
(`TradeItems`, also the payload of a Propose action) is still checked when an action is parsed. The
rules read the cards through read-only records that hold what the models hold."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from pydantic import BaseModel

from rules.core import MalformedAction, Record
from rules.iron_bridge_gorge import GAME
from rules.iron_bridge_gorge.data import catalogue, rules_catalogue
from rules.iron_bridge_gorge.state import IronBridgeGorgeState, Proposal, TradeItems
from tests.support.records import assert_refused, assert_round_trips

from .helpers import NAMES
from .test_playouts import WEIGHTS


def _played(moves: int, seed: int = 5) -> IronBridgeGorgeState:
    """A four-player position some moves in (hands and resources in play by then)."""
    rng = random.Random(seed)
    state = GAME.setup(list(NAMES[:4]), {}, seed)
    for _ in range(moves):
        seat = rng.choice(sorted(GAME.to_act(state)))
        choices = GAME.legal_actions(state, seat)
        choice = rng.choices(choices, [WEIGHTS(c, seat) for c in choices])[0]
        state = GAME.apply(state, seat, choice.action).state
    return state


def _with_offer(state: IronBridgeGorgeState) -> IronBridgeGorgeState:
    state.proposal = Proposal(proposer=0, partner=1, give=TradeItems(coins=2), get=TradeItems(vp=1))
    return state


def test_the_state_is_a_record_and_its_snapshot_loads_back_as_it_was() -> None:
    state = _with_offer(_played(80))
    loaded = assert_round_trips(GAME, state, IronBridgeGorgeState)
    assert isinstance(state.players[0], Record) and not isinstance(state.players[0], BaseModel)
    assert isinstance(loaded.proposal.give, TradeItems) and loaded.proposal.give.coins == 2


@pytest.mark.parametrize(
    "spoil, words",
    [
        (lambda d: d["players"][0].update(favourite="tea"), "favourite"),
        (lambda d: d.update(phase="lunch"), "phase"),
        (lambda d: d["players"][1].update(coins="many"), "coins"),
        (lambda d: d.pop("deck"), "deck"),
        (lambda d: d["proposal"]["give"].update(coins=-1), "coins"),
    ],
)
def test_a_snapshot_with_an_unknown_key_or_a_bad_value_is_refused(spoil: Any, words: str) -> None:
    assert_refused(GAME, _with_offer(_played(30)), spoil, words)


def test_a_copy_shares_no_list_with_the_original() -> None:
    state = _with_offer(_played(60))
    copy = GAME.copy_state(state)
    assert copy == state and copy is not state
    copy.players[0].hand.append("x")
    copy.deck.append("y")
    copy.proposal.give.hand.append("z")
    copy.rng.counter += 1
    assert copy != state and "x" not in state.players[0].hand and "y" not in state.deck
    assert state.proposal.give.hand == [] and state.rng.counter == copy.rng.counter - 1


@pytest.mark.parametrize(
    "give",
    [{"coins": -1}, {"vp": 10_001}, {"hand": ["x"] * 21}, {"in_play": ["x"] * 41}, {"wood": 1}],
)
def test_a_propose_action_out_of_bounds_is_malformed(give: dict[str, Any]) -> None:
    with pytest.raises(MalformedAction):
        GAME.parse_action({"kind": "propose", "partner": 1, "give": give})


def test_the_rules_read_the_same_cards_as_the_models_hold() -> None:
    """`rules_catalogue()` (read-only records, for the rules) holds every field and property
    (`label`, `base_cost`) of `catalogue()` (the models, for views and the renderer), and cannot be changed."""
    models, records = catalogue(), rules_catalogue()
    assert records.order == models.order and records.counts() == models.counts()
    for card_id in models.order:
        model, record = models[card_id], records[card_id]
        assert not isinstance(record, BaseModel)
        assert dataclasses.asdict(record) == model.model_dump()
        assert (record.label, record.base_cost) == (model.label, model.base_cost)
    with pytest.raises(dataclasses.FrozenInstanceError):
        records[models.order[0]].revenue = 9  # type: ignore[misc]
