"""BUILD PHASE: costs, the Land Lease discount, the Iron Bridge and Patents."""

from __future__ import annotations

import pytest

from rules.iron_bridge_gorge import GAME

from .helpers import at_turn, keys, play, rejected, texts


@pytest.mark.parametrize(("card", "cost"), [("coal-mine", 5), ("clay-mine", 3), ("porcelain-works", 7)])
def test_build_costs_5_unskilled_3_skilled_7(card: str, cost: int):
    """BUILD PHASE: 'pay 5 coin to put a card into play... Unskilled resources cost 3 coin. Skilled
    resources cost 7 coin.'"""
    state = at_turn(hands={0: [card]})
    assert f"build:{card}" in keys(state, 0)
    state, events = play(state, 0, {"kind": "build", "card": card})
    assert state.players[0].coins == 10 - cost and state.players[0].in_play == [card]
    assert state.phase == "build"
    assert texts(events).endswith(f"for {cost} coins.")  # the money named: "for 5" said 5 of what?


def test_land_lease_makes_other_resources_one_cheaper():
    """BUILD PHASE: 'If you have a Land Lease resource in play other resources cost 1 less to play.'
    Decisions: two Land Leases do not stack; a Land Lease and the Iron Bridge are not discounted."""
    state = at_turn(in_play={0: ["land-lease"]}, hands={0: ["coal-mine", "clay-mine", "land-lease"]})
    labels = {choice.key: choice.label for choice in GAME.legal_actions(state, 0)}
    assert labels["build:coal-mine"] == "Build Coal Mine for 4 coins"
    assert labels["build:clay-mine"] == "Build Clay Mine for 2 coins"
    assert labels["build:land-lease"] == "Build Land Lease for 5 coins"


def test_iron_bridge_needs_a_wrought_iron_forge_costs_20_and_awards_5_vp():
    """NOTES: 'To build the Iron Bridge, you must have Wrought Iron Forge in play. The Bridge costs 20
    Coin and gives a one time award of 5 VP.'"""
    state = at_turn(hands={0: ["iron-bridge"]}, coins={0: 30}, in_play={0: ["land-lease"]})
    assert "build:iron-bridge" not in keys(state, 0)
    rejected(state, 0, {"kind": "build", "card": "iron-bridge"}, "needs Wrought Iron Forge in play")
    state = at_turn(hands={0: ["iron-bridge"]}, coins={0: 19}, in_play={0: ["wrought-iron-forge"]})
    rejected(state, 0, {"kind": "build", "card": "iron-bridge"}, "costs 20 coins; you have 19 coins")
    state = at_turn(
        hands={0: ["iron-bridge"]}, coins={0: 20}, in_play={0: ["wrought-iron-forge", "land-lease"]}
    )
    state, events = play(state, 0, {"kind": "build", "card": "iron-bridge"})
    assert (state.players[0].coins, state.players[0].vp) == (0, 5)
    assert "built Iron Bridge for 20 coins and gained 5 VP" in texts(events)


def test_patents_award_3_vp_once():
    """NOTES: 'A Patents Resource gives you a one time award of 3 VP.' (decision: when built; a Patents
    resource received in a trade awards nothing)."""
    state = at_turn(hands={0: ["patents"]}, in_play={1: ["patents"]})
    state, _ = play(state, 0, {"kind": "build", "card": "patents"})
    assert state.players[0].vp == 3
    state = at_turn(in_play={1: ["patents"]}, phase="trade")
    state, _ = play(
        state, 0, {"kind": "propose", "partner": 1, "give": {"coins": 5}, "get": {"in_play": ["patents"]}}
    )
    state, _ = play(state, 1, {"kind": "accept"})
    assert state.players[0].in_play == ["patents"] and state.players[0].vp == 0
