"""END PHASE: the hand limit."""

from __future__ import annotations

from rules.iron_bridge_gorge import GAME

from .helpers import at_turn, keys, play, rejected


def test_end_phase_discards_down_to_five():
    """END PHASE: 'Max hand size is 5 cards. Discard excess cards.'"""
    hand = ["coal-mine", "coal-mine", "farmland", "canals", "roads", "tunnels", "patents"]
    state = at_turn(hands={0: hand})
    state, _ = play(state, 0, {"kind": "end_turn"})
    assert state.phase == "discard" and GAME.to_act(state) == {0}
    assert keys(state, 0) == [f"discard:{card}" for card in dict.fromkeys(hand)]
    rejected(state, 0, {"kind": "build", "card": "roads"}, "discard first")
    state, _ = play(state, 0, {"kind": "discard", "card": "tunnels"})
    assert state.phase == "discard"
    state, _ = play(state, 0, {"kind": "discard", "card": "coal-mine"})
    assert len(state.players[0].hand) == 5
    assert GAME.to_act(state) == {1}
