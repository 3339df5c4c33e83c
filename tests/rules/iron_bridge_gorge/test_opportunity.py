"""The Opportunity cards: the Development Step's row, the Decision Phase's card, the Expansion Phase's draws."""

from __future__ import annotations

from rules.iron_bridge_gorge import GAME
from rules.iron_bridge_gorge.data import catalogue

from .helpers import at_turn, dice_rng, keys, new_game, play, rejected, texts


def test_development_reshuffles_the_discard_when_the_deck_runs_out():
    """DEVELOPMENT STEP: 'If the deck runs out, shuffle the discard and draw from it.'"""
    state = new_game(2)
    state.discard = state.deck[2:] + state.row
    state.deck = state.deck[:2]
    state.row = []
    state.rng = dice_rng(6)
    events: list = []
    GAME._start_round(state, events)
    assert len(state.row) == 2 + 6
    assert "shuffled into a new deck" in texts(events)
    assert state.discard == []


def test_decision_phase_takes_one_opportunity_card():
    """DECISION PHASE: 'Take any one card from the Opportunity Row, and put it in your hand.'"""
    state = at_turn(phase="decision")
    state.row = ["coal-mine", "farmland", "coal-mine"]
    assert keys(state, 0) == ["take:coal-mine", "take:farmland"]
    rejected(state, 0, {"kind": "end_turn"}, "First take one opportunity card")
    rejected(state, 0, {"kind": "take", "card": "canals"}, "not in the opportunity row")
    state, _ = play(state, 0, {"kind": "take", "card": "farmland"})
    assert state.players[0].hand == ["farmland"] and state.row == ["coal-mine", "coal-mine"]
    assert state.phase == "expansion"
    rejected(state, 0, {"kind": "take", "card": "coal-mine"}, "already took")


def test_expansion_draws_for_ten_and_keeps_the_card_private():
    """EXPANSION PHASE: 'You may pay 10 coin to draw 1 card from the deck... multiple times.'"""
    state = at_turn(coins={0: 20})
    top = state.deck[-1]
    state, events = play(state, 0, {"kind": "draw"})
    assert state.players[0].coins == 10 and state.players[0].hand == [top]
    assert events[0].text == "Alice paid 10 coins to draw a card." and events[0].reveals
    assert catalogue()[top].name in events[0].private[0]
    state, _ = play(state, 0, {"kind": "draw"})
    assert "draw" not in keys(state, 0)
    rejected(state, 0, {"kind": "draw"}, "costs 10 coins; you have 0 coins")
