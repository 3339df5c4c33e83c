"""The plain actions: buying science, taxing, drawing cards."""

from __future__ import annotations

from rules.city_of_iron import GAME

from .helpers import act, rejected, start_actions


def test_buy_science_for_four_coins() -> None:
    """Buy Science: "You may gain one Science token by paying four coins"."""
    state = start_actions(2)
    seat = state.current
    state.players[seat].coins = 3
    assert "science" not in [choice.key for choice in GAME.legal_actions(state, seat)]
    rejected(state, seat, {"kind": "science"}, "4 coins")
    state.players[seat].coins = 5
    state = act(state, seat, {"kind": "science"})
    assert (state.players[seat].coins, state.players[seat].science) == (1, 1)


def test_tax_gains_one_coin_and_uses_an_action() -> None:
    """Tax: "Gain one coin"; "Each player has three Actions in the round, but may only use one each turn"."""
    state = start_actions(2)
    seat = state.current
    coins = state.players[seat].coins
    state = act(state, seat, {"kind": "tax"})
    assert state.players[seat].coins == coins + 1 and state.players[seat].actions_left == 2
    assert state.current != seat


def test_draw_flips_discard_without_shuffling() -> None:
    """Draw: "If there are no remaining cards in the draw pile, pick up the discard pile (do not change the order)"."""
    state = start_actions(2)
    seat = state.current
    player = state.players[seat]
    player.hand += player.citizen_draw
    player.citizen_draw = []
    player.citizen_discard = list(player.hand)
    player.hand = []
    order = list(player.citizen_discard)
    state = act(state, seat, {"kind": "draw", "deck": "citizen"})
    assert state.players[seat].hand == order[:1] and state.players[seat].citizen_draw == order[1:]


def test_draw_from_empty_deck_is_refused() -> None:
    """Draw: "If there are no cards in the discard or draw pile, you may not draw"."""
    state = start_actions(2)
    seat = state.current
    state.players[seat].hand += state.players[seat].citizen_draw
    state.players[seat].citizen_draw = []
    rejected(state, seat, {"kind": "draw", "deck": "citizen"}, "empty")
