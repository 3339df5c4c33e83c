"""Round actions: the bank, influence and the rival city's exchange."""

from __future__ import annotations

from rules.city_heroes import GAME

from .helpers import at_phase, give, play, rejected


def test_bank_prices():
    """'The bank will buy any Natural Resource for 2 Ducats and sell it for 3 Ducats. ... any Good for 4
    Ducats and sell it for 6 Ducats, except for Jewellery, which it buys at 8 Ducats and sells at 12.'"""
    assert [GAME.bank_price(r) for r in ("iron", "tools", "jewellery")] == [(2, 3), (4, 6), (8, 12)]
    state = at_phase("construction")
    give(state, 0, ducats=20)
    state, _ = play(state, 0, {"kind": "bank", "resource": "jewellery", "count": 1, "sell": False})
    assert state.players[0].ducats == 8 and state.bank_ducats == 150 - 15 + 12


def test_influence_exchange():
    """'sell any amount of influence they have ... 1 ducats per point ... or buy influence for 2 ducats'."""
    state = at_phase("construction")
    state, _ = play(state, 0, {"kind": "influence", "amount": 2, "sell": False})
    assert (state.players[0].influence, state.players[0].ducats) == (2, 1)
    rejected(state, 0, {"kind": "influence", "amount": 3, "sell": True}, "only 2 influence")


def test_rival_exchange_rates_limit_and_prestige():
    """THEY SELL WHEAT 4:1 at the start, purchase prestige -2; 'The limit is 1 + your Festival Grounds +
    2*your Grand Bazaar'; markets move a token right: 3:1."""
    state = at_phase("construction")
    give(state, 0, ducats=20)
    state, events = play(state, 0, {"kind": "rival", "row": "buy-wheat", "lots": 1})
    assert state.players[0].stock["wheat"] == 6 and state.players[0].ducats == 16 and state.prestige == -2
    rejected(state, 0, {"kind": "rival", "row": "buy-wheat", "lots": 1}, "at most 1 lot of")
    state.players[0].rate_moves = 1
    state, _ = play(state, 0, {"kind": "token", "row": "sell-iron"})
    assert GAME.rival_terms(state, 0, "sell-iron") == (3, 2, 0)
