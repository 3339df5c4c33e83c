"""What turns Iron & Brass's legal moves into `Choice` objects: the one builder every family uses,
the choices of the turn itself ('End turn', 'Back') and the labels shared by several families."""

from __future__ import annotations

from rules import words
from rules.core import Choice, built_choice
from rules.iron_and_brass.data import PieceSpec
from rules.iron_and_brass.state import IronAndBrassState


def cost(spec: PieceSpec) -> str:
    """'7 gold + 1 crew': what a build costs, in the menu and in the event."""
    return f"{spec.gold} gold" + (" + 1 crew" if spec.crew else "")


def end_turn(state: IronAndBrassState) -> Choice:
    return built_choice(
        key="end",
        label=f"End turn ({words.count(state.actions_left, 'action')} unused)",
        action={"kind": "end_turn"},
        group="Turn",
        style="primary",
        ends=True,
        timeout="pass",  # 'End turn' is always offered: the clock ends the turn
    )


def back() -> Choice:
    """Leave a two-step choice (a build's square, a concentrated fire's pair of units)."""
    return built_choice(key="back", label="Back", action={"kind": "back"}, group="Turn")
