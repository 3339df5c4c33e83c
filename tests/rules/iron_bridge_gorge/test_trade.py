"""TRADE PHASE: proposals, answers and what a proposal may reveal."""

from __future__ import annotations

import pytest

from rules.iron_bridge_gorge import GAME

from .helpers import at_turn, keys, play, rejected


def test_trade_proposal_accepted_moves_everything_both_ways():
    """TRADE PHASE: 'You may trade coins, cards in hand, resources in play, VP's... multiple trades.'"""
    state = at_turn(hands={0: ["canals"], 1: ["farmland"]}, in_play={1: ["coal-mine"]})
    state.players[1].vp = 4
    offer = {
        "kind": "propose",
        "partner": 1,
        "give": {"coins": 3, "hand": ["canals"]},
        "get": {"vp": 2, "hand": ["farmland"], "in_play": ["coal-mine"]},
    }
    state, events = play(state, 0, offer)
    assert events[0].text == "Alice proposed a trade to Bob."
    assert set(events[0].private) == {0, 1} and "Canals" in events[0].private[1]
    assert GAME.to_act(state) == {0, 1}
    assert keys(state, 1) == ["accept", "decline"] and keys(state, 0) == ["cancel"]
    assert GAME.view(state, None).proposal.give is None
    assert GAME.view(state, 2).proposal.give is None
    assert GAME.view(state, 1).proposal.give.hand == ["canals"]
    rejected(state, 0, {"kind": "end_turn"}, "Wait for Bob")
    rejected(state, 1, {"kind": "bid", "amount": 1}, "bidding is over")
    state, events = play(state, 1, {"kind": "accept"})
    alice, bob = state.players[0], state.players[1]
    assert (alice.coins, alice.vp, alice.hand, alice.in_play) == (7, 2, ["farmland"], ["coal-mine"])
    assert (bob.coins, bob.vp, bob.hand, bob.in_play) == (13, 2, ["canals"], [])
    assert "Canals" not in events[0].text and "1 card from hand" in events[0].text
    assert "Canals" in events[0].private[0]
    assert state.proposal is None and state.phase == "trade" and GAME.to_act(state) == {0}


def test_trade_declined_or_withdrawn_changes_nothing():
    state = at_turn(hands={0: ["canals"]})
    offer = {"kind": "propose", "partner": 2, "give": {"hand": ["canals"]}, "get": {"coins": 5}}
    assert {
        "kind": "propose",
        "partner": 2,
        "give": {"coins": 0, "vp": 0, "hand": ["canals"], "in_play": []},
        "get": {"coins": 5, "vp": 0, "hand": [], "in_play": []},
    } in [c.action for c in GAME.legal_actions(state, 0)]
    proposed, _ = play(state, 0, offer)
    declined, events = play(proposed, 2, {"kind": "decline"})
    assert events[0].text == "Carol declined Alice's trade."
    cancelled, _ = play(proposed, 0, {"kind": "cancel"})
    for after in (declined, cancelled):
        assert after.proposal is None and after.players == state.players


def test_a_proposal_never_reveals_the_partners_hand():
    """Asking for a card the partner lacks is not refused at proposal time (that would tell the proposer
    what the partner holds); the partner simply cannot accept it."""
    state = at_turn(hands={1: ["roads"]})
    state, _ = play(
        state, 0, {"kind": "propose", "partner": 1, "give": {"coins": 2}, "get": {"hand": ["canals"]}}
    )
    assert keys(state, 1) == ["decline"]
    rejected(state, 1, {"kind": "accept"}, "You have not got Canals in hand")


@pytest.mark.parametrize(
    ("offer", "message"),
    [
        ({"partner": 0, "give": {"coins": 1}}, "another player"),
        ({"partner": 7, "give": {"coins": 1}}, "another player"),
        ({"partner": 1}, "must move something"),
        ({"partner": 1, "give": {"coins": 11}}, "You have only 10 coins"),
        ({"partner": 1, "give": {"vp": 1}}, "You have only 0 VP"),
        ({"partner": 1, "give": {"hand": ["canals"]}}, "You have not got Canals in hand"),
        ({"partner": 1, "get": {"in_play": ["canals"]}}, "Bob has not got Canals in play"),
        ({"partner": 1, "get": {"coins": 50}}, "Bob has only 10 coins"),
        ({"partner": 1, "get": {"hand": ["unobtainium"]}}, "no card called 'unobtainium'"),
    ],
)
def test_impossible_proposals_are_refused(offer, message):
    rejected(at_turn(), 0, {"kind": "propose", **offer}, message)


def test_ready_made_offers_name_the_card_and_price_before_the_partner():
    """TRADE PHASE: 'You may trade coins, cards in hand...': the ready-made offers say what is offered,
    to whom and for what, the partner's name (which may end in a number: 'AI 1') never beside a count."""
    state = at_turn(hands={0: ["canals"]}, in_play={1: ["coal-mine"]})
    state.players[1].name = "AI 1"
    labels = {c.key: c.label for c in GAME.legal_actions(state, 0)}
    assert labels["offer:1:canals"] == "Offer your Canals card to AI 1 for 5 coins"
    assert labels["ask:1:coal-mine"] == "Offer 5 coins to AI 1 for their Coal Mine"
