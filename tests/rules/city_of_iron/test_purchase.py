"""The secret card purchase."""

from __future__ import annotations

from rules.city_of_iron import GAME

from .helpers import act, end_round, rejected, start_actions


def test_purchases_are_secret_until_revealed() -> None:
    """Purchase: "Players select the cards they want to buy in secret ... each player reveals all new cards and pays"."""
    state = end_round(start_actions(2))
    assert state.phase == "purchase" and GAME.to_act(state) == {0, 1}
    state.players[0].coins = 6
    state = act(state, 0, {"kind": "select", "card": "explorer.0a"})
    rejected(state, 0, {"kind": "select", "card": "iron-dragon.0a"}, "cannot pay")
    rejected(state, 0, {"kind": "select", "card": "explorer.0a"}, "not chosen yet")
    public = GAME.view(state, None).model_dump_json()
    assert "explorer.0a" not in public and "explorer.0a" in GAME.view(state, 0).model_dump_json()
    assert "explorer.0a" not in GAME.view(state, 1).model_dump_json()
    state = act(state, 0, {"kind": "done"})
    assert state.players[0].coins == 6
    state = act(state, 1, {"kind": "done"})
    assert "explorer.0a" in state.players[0].hand and state.players[0].coins == 3
