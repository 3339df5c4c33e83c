"""BANK PHASE: interest, loans, repayment and sales."""

from __future__ import annotations

from .helpers import at_turn, keys, play, rejected, texts


def test_bank_phase_interest_loan_and_repayment():
    """BANK PHASE: 'If you have a Loan, you must pay the Bank 1 coin interest. You may take a loan from the
    Bank for 10 coin. (You may only have one such loan at a time) You may pay back your loan.'"""
    state = at_turn()
    state, events = play(state, 0, {"kind": "loan"})
    assert state.players[0].loan and state.players[0].coins == 20
    assert "interest" not in texts(events)
    rejected(state, 0, {"kind": "loan"}, "only have one loan")
    assert "loan" not in keys(state, 0)
    state, _ = play(state, 0, {"kind": "repay"})
    assert not state.players[0].loan and state.players[0].coins == 10
    rejected(state, 0, {"kind": "repay"}, "no loan to repay")


def test_interest_is_due_even_when_the_bank_phase_is_skipped():
    state = at_turn(coins={0: 4})
    state.players[0].loan = True
    state, events = play(state, 0, {"kind": "end_turn"})
    assert state.players[0].coins == 3
    assert "Alice paid 1 coin interest on the loan." in texts(events)


def test_repaying_counts_the_interest_first():
    state = at_turn(coins={0: 10})
    state.players[0].loan = True
    assert "repay" not in keys(state, 0)
    rejected(state, 0, {"kind": "repay"}, "after the interest")
    state.players[0].coins = 11
    state, _ = play(state, 0, {"kind": "repay"})
    assert state.players[0].coins == 0 and not state.players[0].loan


def test_interest_is_waived_without_coins():
    """Decision: a player with no coin cannot pay the interest; the bank waives it."""
    state = at_turn(coins={0: 0})
    state.players[0].loan = True
    state, events = play(state, 0, {"kind": "end_turn"})
    assert "waives" in texts(events)


def test_sell_cards_and_resources_for_five():
    """BANK PHASE: 'You may sell Cards and Resources to the Bank for 5 coins each.'"""
    state = at_turn(hands={0: ["farmland"]}, in_play={0: ["coal-mine"]})
    assert {"sell:hand:farmland", "sell:play:coal-mine"} <= set(keys(state, 0))
    state, _ = play(state, 0, {"kind": "sell", "card": "farmland", "source": "hand"})
    state, _ = play(state, 0, {"kind": "sell", "card": "coal-mine", "source": "play"})
    assert state.players[0].coins == 20
    assert state.players[0].hand == [] and state.players[0].in_play == []
    assert state.discard[-2:] == ["farmland", "coal-mine"]
    rejected(state, 0, {"kind": "sell", "card": "coal-mine", "source": "play"}, "no such card in play")


def test_a_bank_move_before_the_build_phase_says_it_ends_building():
    """'A turn has 6 phases: ... 4. Build Phase 5. Bank Phase': the phases go forward, so a loan taken
    during the Expansion Phase closes the Build Phase at once. Issue 36: the label did not say so."""
    from .helpers import GAME

    state = at_turn(phase="expansion", hands={0: ["farmland"]})
    labels = {c.key: c.label for c in GAME.legal_actions(state, 0)}
    assert labels["loan"] == "Take a loan of 10 coins (ends your building this turn)"
    assert labels["sell:hand:farmland"].endswith("(ends your building this turn)")
    state, _ = play(state, 0, {"kind": "loan"})
    assert state.phase == "bank" and not any(k.startswith("build") for k in keys(state, 0))
    labels = {c.key: c.label for c in GAME.legal_actions(state, 0)}
    assert labels["repay"] == "Repay the loan (10)", "in the Bank Phase itself nothing more ends"
