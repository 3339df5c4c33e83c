"""INITIATIVE STEP: secret bids, the turn order, ties."""

from __future__ import annotations

from rules.iron_bridge_gorge import GAME

from .helpers import all_bid, at_turn, dice_rng, keys, new_game, play, rejected, texts


def test_bids_are_secret_until_the_last_seat_bids():
    """INITIATIVE STEP: 'Each player bids coins' - decision: in secret, revealed together."""
    state = new_game(3)
    state, events = play(state, 1, {"kind": "bid", "amount": 4})
    assert events[0].text == "Bob placed a secret bid."
    assert events[0].private == {1: "You bid 4 coins."}
    assert GAME.to_act(state) == {0, 2}
    public = GAME.view(state, None)
    assert [seat.bid for seat in public.seats] == [None, None, None]
    assert [seat.bid_placed for seat in public.seats] == [False, True, False]
    assert GAME.view(state, 1).my_bid == 4 and GAME.view(state, 0).my_bid is None
    assert GAME.view(state, 0).seats[1].bid is None
    rejected(state, 1, {"kind": "bid", "amount": 2}, "not your turn")


def test_highest_bid_goes_first_then_clockwise_and_bids_are_lost():
    """INITIATIVE STEP: 'Highest bid gets the first turn... Other players get to go clockwise... All Bid
    money is lost.'"""
    state = new_game(4)
    bank = state.bank
    state, events = all_bid(state, [1, 0, 3, 2])
    assert state.order == [2, 3, 0, 1]
    assert [player.coins for player in state.players] == [9, 10, 7, 8]
    assert state.bank == bank + 6
    assert state.last_bids == [1, 0, 3, 2]
    assert "Bids revealed: Alice 1, Bob 0, Carol 3, Dave 2." in texts(events)
    assert GAME.to_act(state) == {2}


def test_tied_bids_roll_high_on_a_die():
    """INITIATIVE STEP: 'If tied, roll high on 1D6 to see who goes first.' (rerolled while still tied)."""
    state = new_game(3)
    state.rng = dice_rng(4, 6)  # Alice and Carol tie at 2: Alice rolls 4, Carol 6
    state, events = all_bid(state, [2, 1, 2])
    assert state.order == [2, 0, 1]
    assert "Tie at 2: Alice rolls 4, Carol rolls 6." in texts(events)
    state = new_game(2)
    state.rng = dice_rng(3, 3, 1, 5)
    state, events = all_bid(state, [0, 0])
    assert state.order == [1, 0]
    assert texts(events).count("Tie at 0") == 2


def test_bids_offer_every_amount_up_to_the_coins():
    state = new_game(2)
    assert keys(state, 0) == [f"bid:{amount}" for amount in range(11)]
    rejected(state, 0, {"kind": "bid", "amount": 11}, "you have 10 coins")
    rejected(state, 0, {"kind": "build", "card": "coal-mine"}, "bidding for initiative")


def test_a_seat_without_coins_bids_zero_without_being_asked():
    state = at_turn(2, coins={0: 0})
    state.rng = dice_rng(1, 1)
    GAME._start_round(state, [])
    assert state.players[0].bid == 0
    assert GAME.to_act(state) == {1}
