"""BANK PHASE: 'If you have a Loan, you must pay the Bank 1 coin interest. You may take a loan from the
Bank' of 10 (one at a time), repay it, or sell a card from your hand or a resource in play for 5."""

from __future__ import annotations

from rules import words
from rules.core import Choice, Event, RuleError, Seat
from rules.iron_bridge_gorge.data import rules_catalogue
from rules.iron_bridge_gorge.moves.phases import INTEREST, enter, phase_open, require_phase
from rules.iron_bridge_gorge.state import IronBridgeGorgeState, Loan, PlayerState, Repay, Sell

State = IronBridgeGorgeState

LOAN = 10
SALE_PRICE = 5


def coins_at_bank(state: State, player: PlayerState) -> int:
    """The player's coins once in the Bank Phase (the interest is charged on entering it)."""
    if player.loan and state.phase != "bank" and player.coins >= INTEREST:
        return player.coins - INTEREST
    return player.coins


ENDS_BUILDING = " (ends your building this turn)"
"""Said on a Bank action offered while the Build Phase is still open: the phases only move forward, so
taking it closes the Build Phase (and any before it) at once, which the bare label did not tell (issue 36)."""


def choices(state: State, seat: Seat) -> list[Choice]:
    cards = rules_catalogue()
    player = state.players[seat]
    ends = ENDS_BUILDING if phase_open(state, "build") else ""
    listed: list[Choice] = []
    if not player.loan:
        listed.append(
            Choice(
                key="loan",
                label=f"Take a loan of {words.count(LOAN, 'coin')}{ends}",
                action={"kind": "loan"},
                group="Bank",
            )
        )
    elif coins_at_bank(state, player) >= LOAN:
        listed.append(
            Choice(
                key="repay", label=f"Repay the loan ({LOAN}){ends}", action={"kind": "repay"}, group="Bank"
            )
        )
    for source, pool in (("hand", player.hand), ("play", player.in_play)):
        where = "card" if source == "hand" else "resource"
        listed += [
            Choice(
                key=f"sell:{source}:{card}",
                label=f"Sell {cards[card].name} ({where}) for {words.count(SALE_PRICE, 'coin')}{ends}",
                action={"kind": "sell", "card": card, "source": source},
                group="Bank",
            )
            for card in dict.fromkeys(pool)
        ]
    return listed


def loan(state: State, seat: Seat, action: Loan, events: list[Event]) -> None:
    player = state.players[seat]
    require_phase(state, "bank", "take a loan")
    if player.loan:
        raise RuleError("You may only have one loan at a time.")
    enter(state, "bank", events)
    player.loan = True
    player.coins += LOAN
    state.bank -= LOAN
    events.append(Event(text=f"{player.name} took a loan of {words.count(LOAN, 'coin')}."))


def repay(state: State, seat: Seat, action: Repay, events: list[Event]) -> None:
    player = state.players[seat]
    require_phase(state, "bank", "repay a loan")
    if not player.loan:
        raise RuleError("You have no loan to repay.")
    if coins_at_bank(state, player) < LOAN:
        raise RuleError(f"Repaying the loan takes {words.count(LOAN, 'coin')} (after the interest).")
    enter(state, "bank", events)
    player.loan = False
    player.coins -= LOAN
    state.bank += LOAN
    events.append(Event(text=f"{player.name} repaid the loan."))


def sell(state: State, seat: Seat, action: Sell, events: list[Event]) -> None:
    player = state.players[seat]
    card, source = action.card, action.source
    require_phase(state, "bank", "sell to the bank")
    pool = player.hand if source == "hand" else player.in_play
    if card not in pool:
        where = "in your hand" if source == "hand" else "in play"
        raise RuleError(f"You have no such card {where}.")
    enter(state, "bank", events)
    pool.remove(card)
    state.discard.append(card)
    player.coins += SALE_PRICE
    state.bank -= SALE_PRICE
    what = "card" if source == "hand" else "resource"
    events.append(
        Event(
            text=f"{player.name} sold {rules_catalogue()[card].name} ({what}) to the bank for {words.count(SALE_PRICE, 'coin')}."
        )
    )
