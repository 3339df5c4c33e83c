"""Trades between players: the offer, the answer and who sees the terms."""

from __future__ import annotations

from rules.city_heroes import GAME

from .helpers import at_phase, play, rejected


def test_trade_flow_and_privacy():
    """'the trade can't be empty, and they can't trade an identical amount of identical resources' 'Trades
    can be gifts' 'The other player will then get an alert ... where they can accept or deny the trade
    request. The initiator may also choose to cancel.'"""
    state = at_phase("interaction", players=3)
    rejected(state, 0, {"kind": "propose", "partner": 1, "give": {}, "get": {}}, "cannot be empty")
    rejected(
        state,
        0,
        {"kind": "propose", "partner": 1, "give": {"iron": 0, "stone": 2}, "get": {"stone": 2}},
        "identical",
    )
    state, events = play(
        state, 0, {"kind": "propose", "partner": 1, "give": {"stone": 2}, "get": {"wheat": 1}}
    )
    assert "stone" not in events[0].text and set(events[0].private) == {0, 1}
    assert GAME.to_act(state) == {0, 1}
    assert GAME.view(state, 2).proposal.give is None and GAME.view(state, 1).proposal.give == {"stone": 2}
    declined, _ = play(state, 1, {"kind": "decline"})
    assert declined.proposal is None and declined.acted is None
    state, _ = play(state, 1, {"kind": "accept"})
    assert state.players[0].stock["stone"] == 3 and state.players[1].stock["wheat"] == 4
    assert state.acted == "trade" and state.players[0].ready == 5  # trading uses no worker
    state, _ = play(state, 0, {"kind": "end"})
    state, _ = play(state, 1, {"kind": "propose", "partner": 0, "give": {"timber": 1}})  # a gift
    state, _ = play(state, 1, {"kind": "cancel"})
    assert state.proposal is None


def test_ready_made_offers_name_the_goods_before_the_partner():
    """'Trades can be gifts': the ready-made offers read 'Offer AI 1 1 wheat' when the partner's name
    ended in a number (issue 36); the goods come first now, then to whom."""
    state = at_phase("interaction", players=2)
    state.players[1].name = "AI 1"
    labels = {c.key: c.label for c in GAME.legal_actions(state, 0)}
    assert labels["gift:1:wheat"] == "Offer 1 wheat to AI 1 as a gift"
    assert labels["ask:1:wheat"] == "Offer 2 ducats to AI 1 for 1 wheat"
