"""What turns City Heroes' legal moves into `Choice` objects: the fast builder every family uses and
the turn's own choices (end the action, pass)."""

from __future__ import annotations

from typing import Any

from rules.city_heroes.state import CityHeroesState
from rules.core import Choice, assembled

_CHOICE_FIELDS = {"key", "label", "action", "group", "style"}


def choice(key: str, label: str, action: dict[str, Any], group: str, style: str = "secondary") -> Choice:
    """A Choice without re-validation (hundreds are built per call; the tests validate them)."""
    if len(label) > 100:  # what Choice's own validator does: long names must not break a label
        label = label[:99] + "…"
    values = {"key": key, "label": label, "action": action, "group": group, "path": [], "style": style}
    return assembled(Choice, {**values, "timeout": None}, _CHOICE_FIELDS)


def end_choices() -> list[Choice]:
    """A phase action in progress: end it, or end it and pass."""
    return [
        choice(key="end", label="End this action", action={"kind": "end"}, group="Turn", style="primary"),
        choice(
            key="end-pass",
            label="End this action and pass for the phase",
            action={"kind": "end", "and_pass": True},
            group="Turn",
        ),
    ]


def pass_choice(state: CityHeroesState, can_act: bool) -> Choice:
    return choice(
        key="pass",
        label=f"Pass (end your {state.phase} phase)",
        action={"kind": "pass"},
        group="Turn",
        style="primary" if not can_act else "secondary",
    )
