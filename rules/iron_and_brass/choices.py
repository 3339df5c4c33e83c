"""What turns Iron & Brass's legal moves into `Choice` objects: the one builder every family uses,
the choices of the turn itself ('End turn', 'Back') and the labels shared by several families."""

from __future__ import annotations

from typing import Any

from rules import words
from rules.core import Choice, assembled
from rules.iron_and_brass.data import PieceSpec
from rules.iron_and_brass.state import IronAndBrassState

_SET_FIELDS = frozenset({"key", "label", "action", "group", "style"})
"""The fields `choice` sets: `model_fields_set` as `Choice.model_construct(...)` would record it."""


def choice(*, key: str, label: str, action: dict[str, Any], group: str, style: str = "secondary") -> Choice:
    """A Choice without re-validation: the choice list is rebuilt after every move and its keys and
    labels are built to the contract's limits (the tests check every one against `Choice`).

    Built by hand, exactly as `Choice.model_construct(key=..., label=..., action=..., group=...,
    style=...)` builds it: pydantic's `model_construct` inspects the signature of `path`'s default
    factory on every call (about 1 ms each), which made the choice list the engine's hotspot."""
    values = {
        "key": key,
        "label": label,
        "action": action,
        "group": group,
        "path": [],
        "style": style,
        "timeout": None,
    }
    return assembled(Choice, values, set(_SET_FIELDS))


def cost(spec: PieceSpec) -> str:
    """'7 gold + 1 crew': what a build costs, in the menu and in the event."""
    return f"{spec.gold} gold" + (" + 1 crew" if spec.crew else "")


def end_turn(state: IronAndBrassState) -> Choice:
    return choice(
        key="end",
        label=f"End turn ({words.count(state.actions_left, 'action')} unused)",
        action={"kind": "end_turn"},
        group="Turn",
        style="primary",
    )


def back() -> Choice:
    """Leave a two-step choice (a build's square, a concentrated fire's pair of units)."""
    return choice(key="back", label="Back", action={"kind": "back"}, group="Turn")
