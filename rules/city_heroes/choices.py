"""What turns City Heroes' legal moves into `Choice` objects: the fast builder every family uses and
the turn's own choices (end the action, pass)."""

from __future__ import annotations

from rules.city_heroes.state import CityHeroesState
from rules.core import Choice, built_choice


def end_choices() -> list[Choice]:
    """A phase action in progress: end it, or end it and pass."""
    return [
        built_choice(
            key="end",
            label="End this action",
            action={"kind": "end"},
            group="Turn",
            style="primary",
            ends=True,
        ),
        built_choice(
            key="end-pass",
            label="End this action and pass for the phase",
            action={"kind": "end", "and_pass": True},
            group="Turn",
            ends=True,
        ),
    ]


def pass_choice(state: CityHeroesState, can_act: bool) -> Choice:
    return built_choice(
        key="pass",
        label=f"Pass (end your {state.phase} phase)",
        action={"kind": "pass"},
        group="Turn",
        style="primary" if not can_act else "secondary",
        ends=True,
    )
