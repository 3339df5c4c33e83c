"""What turns City Heroes' legal moves into `Choice` objects: the fast builder every family uses and
the turn's own choices (end the action, pass)."""

from __future__ import annotations

from rules.city_heroes.state import CityHeroesState
from rules.core import Choice, built_choice, declared


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
            timeout="pass",  # the clock ends the action (not the phase: 'and pass' stays the player's)
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
        timeout="pass",
    )


def with_safe_move(choices: list[Choice]) -> list[Choice]:
    """A turn that may not pass ('If a player has no tiles, they must select a tile'; no pass after a
    round action while a phase action is possible): the clock plays its first move that is not a trade
    offer (an offer needs the player's own terms), as it always has. Nothing declared if there is none."""
    for index, choice in enumerate(choices):
        if choice.action["kind"] != "propose":
            return [*choices[:index], declared(choice, "safe"), *choices[index + 1 :]]
    return choices
