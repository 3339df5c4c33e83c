"""Bidding for turn order, and the Toad's second bid."""

from __future__ import annotations

import pytest

from rules.city_of_iron import GAME
from rules.city_of_iron.moves.setup import deal_cards
from rules.core import Rejection, RuleError

from .helpers import act, arrange_all, kinds, new_game, rejected, start_actions


def test_bid_pays_and_turn_order_runs_right_to_left() -> None:
    """Turn Order Bid: "he pays the indicated amount ... Turn order is opposite of bid order, right to left"."""
    state = new_game(["A", "B", "C"])
    state = arrange_all(state)
    first, second, third = state.bid_order
    state = act(state, first, {"kind": "bid", "space": 0})
    rejected(state, second, {"kind": "bid", "space": 0}, "not open")
    state = act(state, second, {"kind": "bid", "space": 4})
    assert state.players[second].coins == 2  # paid 5 of 7
    state = act(state, third, {"kind": "bid", "space": 1})
    assert state.turn_order == [second, third, first]
    assert state.current == second


def test_not_your_turn_is_refused() -> None:
    """Actions: "In turn order, players take Actions one at a time"."""
    state = start_actions(2)
    other = 1 - state.current
    with pytest.raises(RuleError) as error:
        GAME.apply(state, other, {"kind": "tax"})
    assert error.value.reason == Rejection.NOT_YOUR_TURN


def test_toad_second_bid_pays_the_difference() -> None:
    """Toad Inventors of Om: "may bid for turn order a second time, after everyone else has bid, paying the difference"."""
    state = new_game(["A", "B"], abilities=True)
    state.players[0].nation, state.players[1].nation = "om", "arc"
    deal_cards(state)
    state = arrange_all(state)
    assert kinds(state.players[0].citizen_draw + state.players[0].hand).count("fixer") == 1
    for seat in list(state.bid_order):
        state = act(state, seat, {"kind": "bid", "space": 0 if seat == 0 else 1})
    assert state.phase == "rebid" and state.current == 0
    rejected(state, 0, {"kind": "rebid", "space": 1}, "not open")
    coins = state.players[0].coins
    state = act(state, 0, {"kind": "rebid", "space": 2})
    assert state.players[0].coins == coins - 2 and state.turn_order == [0, 1]
