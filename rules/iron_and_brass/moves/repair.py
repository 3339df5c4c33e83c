"""Undoing a disable: repairing a vehicle, artillery or structure with 1 crew, healing infantry with an
advantage token played for Heal."""

from __future__ import annotations

from rules.core import Choice, Event, RuleError, Seat, built_choice
from rules.iron_and_brass.moves.common import (
    State,
    label,
    own_piece,
    own_pieces,
    play_token,
    spec,
    token_problem,
)
from rules.iron_and_brass.state import Heal, Piece, Repair, square_name


def choices(state: State, seat: Seat) -> list[Choice]:
    player = state.players[seat]
    out: list[Choice] = []
    for piece in own_pieces(state, seat):
        if not piece.disabled:
            continue
        here = square_name(piece.col, piece.row)
        name = spec(piece).name
        if spec(piece).category == "infantry":
            if player.advantage_tokens > 0:
                out.append(
                    built_choice(
                        key=f"heal:{here}",
                        label=f"Heal {name} {here} (advantage token)",
                        action={"kind": "heal", "square": here},
                        group="Repair",
                        style="success",
                    )
                )
        elif player.crew > 0:
            out.append(
                built_choice(
                    key=f"rep:{here}",
                    label=f"Repair {name} {here} (1 crew)",
                    action={"kind": "repair", "square": here},
                    group="Repair",
                    style="success",
                )
            )
    return out


def _disabled(state: State, seat: Seat, square: str, infantry: bool) -> Piece:
    """The seat's disabled piece on `square`, of the kind this action mends (infantry or not)."""
    piece = own_piece(state, seat, square)
    piece_spec = spec(piece)
    if infantry and piece_spec.category != "infantry":
        raise RuleError(f"Heal heals infantry only; the {piece_spec.name} is repaired with 1 crew.")
    if not infantry and piece_spec.category == "infantry":
        raise RuleError(
            f"The {piece_spec.name} is infantry: infantry are healed with an advantage token (Heal), not repaired."
        )
    if not piece.disabled:
        raise RuleError(f"The {label(piece)} is not disabled.")
    return piece


def repair(state: State, seat: Seat, action: Repair, events: list[Event]) -> None:
    piece = _disabled(state, seat, action.square, infantry=False)
    player = state.players[seat]
    if player.crew < 1:
        raise RuleError("Repairing costs 1 crew; you have none.")
    player.crew -= 1
    piece.disabled = False
    state.actions_left -= 1
    events.append(Event(text=f"{player.name} repaired the {label(piece)} with 1 crew."))


def heal(state: State, seat: Seat, action: Heal, events: list[Event]) -> None:
    piece = _disabled(state, seat, action.square, infantry=True)
    player = state.players[seat]
    problem = token_problem(player)
    if problem:
        raise RuleError(problem)
    play_token(player, "heal")
    piece.disabled = False
    state.actions_left -= 1
    events.append(Event(text=f"{player.name} healed the {label(piece)} with an advantage token (Heal)."))
