"""The turn's phases: whose turn it is, which phases are still open, and moving forward through them.

Phases of a turn only move forward. A player may act in the current phase or any later one: taking a
later phase's action ends the phases before it, and entering the Bank Phase with a loan charges the
interest even when the phase is skipped.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules import words
from rules.core import Event, RuleError, Seat
from rules.iron_bridge_gorge.data import rules_catalogue
from rules.iron_bridge_gorge.state import PHASES, IronBridgeGorgeState, Phase, PlayerState

State = IronBridgeGorgeState

INTEREST = 1


def names(ids: Iterable[str]) -> str:
    """Card names as a list in words ('Coal Mine, Canals and Roads')."""
    cards = rules_catalogue()
    return words.listed(cards[card_id].name for card_id in ids)


def current(state: State) -> Seat:
    return state.order[state.turn]


def current_player(state: State) -> PlayerState:
    return state.players[current(state)]


def phase_open(state: State, phase: Phase) -> bool:
    """The current player may still act in `phase` (the decision must be made first)."""
    return state.phase != "decision" and PHASES.index(state.phase) <= PHASES.index(phase) <= PHASES.index(
        "bank"
    )


def require_phase(state: State, phase: Phase, doing: str) -> None:
    if not phase_open(state, phase):
        raise RuleError(
            f"It is too late in your turn to {doing} (you are in the {state.phase.title()} Phase)."
        )


def enter(state: State, phase: Phase, events: list[Event]) -> None:
    """Move the turn forward to `phase`; passing into the Bank Phase charges the loan interest."""
    start, end = PHASES.index(state.phase), PHASES.index(phase)
    player = current_player(state)
    if start < PHASES.index("bank") <= end and player.loan:
        # BANK PHASE: 'If you have a Loan, you must pay the Bank 1 coin interest.'
        if player.coins >= INTEREST:
            player.coins -= INTEREST
            state.bank += INTEREST
            events.append(
                Event(text=f"{player.name} paid {words.count(INTEREST, 'coin')} interest on the loan.")
            )
        else:
            events.append(
                Event(text=f"{player.name} has no coin to pay the loan interest; the bank waives it.")
            )
    state.phase = phase
