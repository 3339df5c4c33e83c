"""Mining and hiring: the two actions that only change a player's gold and crew."""

from __future__ import annotations

from rules.core import Choice, Event, RuleError, Seat, built_choice
from rules.iron_and_brass.moves.common import State, d3
from rules.iron_and_brass.state import Hire, Mine


def choices(state: State, seat: Seat) -> list[Choice]:
    out: list[Choice] = []
    if state.gold_left > 0:
        out.append(
            built_choice(
                key="mine",
                label=f"Mine gold (roll a D3; {state.gold_left} mining left)",
                action={"kind": "mine"},
                group="Economy",
                style="success",
            )
        )
    out.append(
        built_choice(key="hire", label="Hire a crew (+1 crew)", action={"kind": "hire"}, group="Economy")
    )
    return out


def mine(state: State, seat: Seat, action: Mine, events: list[Event]) -> None:
    if state.gold_left <= 0:
        raise RuleError("The Gold Mined marker is at 0: no gold is left to mine.")
    player = state.players[seat]
    roll = d3(state.rng)
    state.gold_left -= 1
    player.gold += roll
    player.mined += roll
    state.actions_left -= 1
    events.append(
        Event(
            text=f"{player.name} mined gold: rolled {roll}, now {player.gold} gold "
            f"({state.gold_left} mining left).",
            reveals=True,
        )
    )


def hire(state: State, seat: Seat, action: Hire, events: list[Event]) -> None:
    player = state.players[seat]
    player.crew += 1
    state.actions_left -= 1
    events.append(Event(text=f"{player.name} hired a crew (now {player.crew})."))
