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


def test_the_table_hears_once_that_a_player_is_choosing() -> None:
    """Purchase: "Players select the cards they want to buy in secret": each card chosen is the
    player's to know; the table hears once that they are choosing ('alice is choosing cards.' came once
    per card, issue 36), and a cleared choice tells the table nothing."""
    state = end_round(start_actions(2))
    state.players[0].coins = 20
    texts = []
    for action in (
        {"kind": "select", "card": "explorer.0a"},
        {"kind": "select", "card": "junkbot.0a"},
        {"kind": "clear"},
        {"kind": "select", "card": "spy.0a"},
        {"kind": "done"},
    ):
        applied = GAME.apply(state, 0, action)
        state = applied.state
        texts.append([(event.text, event.private.get(0, "")) for event in applied.events])
    name = state.players[0].name
    public = [text for move in texts for text, _ in move if text]
    # Once, and once more only after the player cleared their choices and began again.
    assert public == [
        f"{name} is choosing cards.",
        f"{name} is choosing cards.",
        f"{name} has finished choosing.",
    ]
    assert texts[1] == [("", "You chose Junkbot.")], "the second card is alice's alone"
    assert texts[2] == [("", "You cleared your choices.")]
