"""Moving units: where a unit may go (plainly, or with an advantage token played for Open Road) and why
not."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rules import words
from rules.core import Choice, Event, RuleError, Seat, built_choice
from rules.iron_and_brass.board import Obstacles, Square, occupancy, reach, reach_split, reserved
from rules.iron_and_brass.moves.common import (
    State,
    can_move,
    cards,
    label,
    own_piece,
    own_pieces,
    play_token,
    spec,
    token_problem,
)
from rules.iron_and_brass.state import Move, Piece, parse_square, square_name


def choices(state: State, seat: Seat) -> list[Choice]:
    out: list[Choice] = []
    obstacles = Obstacles(state, cards())
    extra = 1 if state.players[seat].advantage_tokens > 0 else 0
    for piece in own_pieces(state, seat):
        if not can_move(piece):
            continue
        plain, wider = reach_split(obstacles, cards(), piece, spec(piece).move, extra)
        here = square_name(piece.col, piece.row)
        name = spec(piece).name
        for squares, flag in ((plain, False), (wider, True)):
            out += [_move_choice(name, here, there, flag) for there in squares]
    return out


@lru_cache(maxsize=4096)
def _move_choice(name: str, here: str, there: str, open_road: bool) -> Choice:
    """One move, built once per unit type, square and destination: a menu offers dozens of them after
    every move, and the search asks for menus thousands of times a decision (choices are read-only;
    about 1.5 KB each, so at most ~6 MB a process)."""
    action: dict[str, Any] = {"kind": "move", "unit": here, "to": there, "open_road": open_road}
    return built_choice(
        key=f"mv:{here}:{there}" + (":r" if open_road else ""),
        label=f"{name} {here} → move {there}" + (" (Open Road)" if open_road else ""),
        action=action,
        group="Move",
    )


def _movable(state: State, seat: Seat, square: str) -> Piece:
    piece = own_piece(state, seat, square)
    piece_spec = spec(piece)
    if not piece_spec.military:
        raise RuleError(f"The {piece_spec.name} is a structure: structures do not move.")
    if not can_move(piece):
        if piece_spec.category == "artillery" and piece.attacked:
            raise RuleError(f"The {label(piece)} attacked this turn: artillery moves OR attacks.")
        raise RuleError(f"The {label(piece)} already moved this turn (no move-move).")
    return piece


def move(state: State, seat: Seat, action: Move, events: list[Event]) -> None:
    piece = _movable(state, seat, action.unit)
    player = state.players[seat]
    problem = token_problem(player) if action.open_road else None
    if problem:
        raise RuleError(problem)
    destination = parse_square(action.to, state.size)
    if destination is None:
        raise RuleError(f"{action.to!r} is not a square of this {state.size}x{state.size} map.")
    movement = spec(piece).move + (1 if action.open_road else 0)
    options = reach(state, cards(), piece, movement)
    if destination not in options:
        raise RuleError(_why_not_reachable(state, piece, destination, movement))
    source = label(piece)
    piece.col, piece.row = destination
    piece.moved = True
    state.actions_left -= 1
    extra = ""
    if action.open_road:
        play_token(player, "open_road")
        extra = " with Open Road (+1 movement)"
    events.append(Event(text=f"{player.name}'s {source} moved to {square_name(*destination)}{extra}."))


def _why_not_reachable(state: State, piece: Piece, square: Square, movement: int) -> str:
    piece_spec = spec(piece)
    name = square_name(*square)
    occupant = occupancy(state).get(square)
    if occupant is not None:
        return f"{name} is occupied by {words.a(spec(occupant).name)}: a move ends on an empty square."
    if square in reserved(state):
        return f"{name} is held by a build under way."
    dx, dy = abs(square[0] - piece.col), abs(square[1] - piece.row)
    if movement >= 2 and dx == dy == movement:
        return f"{name} needs {words.count(movement, 'diagonal step')}: a move cannot be diagonal for all its steps."
    if max(dx, dy) > movement:
        return f"{name} is out of the {piece_spec.name}'s movement of {movement}."
    if piece_spec.category == "infantry":
        return (
            f"No path of {words.count(movement, 'step')} reaches {name}: infantry cannot pass enemy pieces."
        )
    return (
        f"No path of {words.count(movement, 'step')} reaches {name}: vehicles and artillery pass no structure "
        "and no enemy piece."
    )
