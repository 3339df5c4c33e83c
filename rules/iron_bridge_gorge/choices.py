"""The choice list of the Turn Step: the current phase's menu, built from each family of moves in the
order the bot lists them (take, or discard, or: draw, trade offers, build, bank, end turn)."""

from __future__ import annotations

from rules.core import Choice, Seat
from rules.iron_bridge_gorge.moves import bank, build, end, opportunity, trade
from rules.iron_bridge_gorge.moves.phases import phase_open
from rules.iron_bridge_gorge.state import IronBridgeGorgeState

State = IronBridgeGorgeState


def turn_choices(state: State, seat: Seat) -> list[Choice]:
    """The current player's choices when no trade is waiting for an answer."""
    if state.phase == "decision":
        return opportunity.take_choices(state)
    if state.phase == "discard":
        return end.discard_choices(state, seat)
    return free_choices(state, seat)


def free_choices(state: State, seat: Seat) -> list[Choice]:
    """Expansion to Bank: any open phase's actions (taking one ends the phases before it), and End turn."""
    choices: list[Choice] = []
    if phase_open(state, "expansion"):
        choices += opportunity.draw_choices(state, seat)
    if phase_open(state, "trade"):
        choices += trade.offer_choices(state, seat)
    if phase_open(state, "build"):
        choices += build.choices(state, seat)
    choices += bank.choices(state, seat)
    choices += end.end_turn_choices()
    return choices
