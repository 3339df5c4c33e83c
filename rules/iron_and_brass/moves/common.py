"""What every family of Iron & Brass moves asks of a piece: its stats now, whether it may still move
or attack this turn, where it stands, and the dice."""

from __future__ import annotations

from rules import words
from rules.core import Rng, RuleError, Seat
from rules.iron_and_brass.board import Square
from rules.iron_and_brass.data import Catalogue, PieceSpec, Token, rules_catalogue
from rules.iron_and_brass.state import Build, IronAndBrassState, Piece, PlayerState, parse_square, square_name

State = IronAndBrassState
DISABLED_PENALTY = 2
"""'A disabled unit's Attack and defense modifiers are reduced by 2 until the unit is healed/repaired.'"""
SURGE = 2
NO_CONCENTRATED_FIRE = {"heavy-artillery"}
"""'Two units (except Tanks or Heavy Artillery)': tanks are the vehicle category."""
COMMANDS = {"headquarters", "fortress"}
"""Destroying the opponent's Headquarters/Fortress wins the game."""


def token_problem(player: PlayerState) -> str | None:
    """Why the player cannot play an advantage token now: 'Each player begins the game with 8 Advantage
    tokens. Each of these tokens may be used once per game ... for any 1 of the actions listed on the
    token', so only when none is left, whatever the advantage."""
    if player.advantage_tokens > 0:
        return None
    count = words.count(rules_catalogue().setup.advantage_tokens, "advantage token")
    return f"You have no advantage tokens left: each of your {count} can be played once per game."


def play_token(player: PlayerState, advantage: Token) -> None:
    """Spend one advantage token for `advantage` ('Once an Advantage token is played, it is removed from
    the game'); the caller checked `token_problem` before changing anything."""
    player.advantage_tokens -= 1
    player.played[advantage] += 1


def d3(rng: Rng) -> int:
    """The game's dice are D6s marked 1,1,2,2,3,3: a D3."""
    return rng.randint(1, 3)


def cards() -> Catalogue:
    """The pieces as read-only records (`rules_catalogue`): what the rules read."""
    return rules_catalogue()


def spec(piece: Piece | Build | str) -> PieceSpec:
    return rules_catalogue().pieces[piece if isinstance(piece, str) else piece.kind]


def attack_of(piece: Piece) -> int:
    return spec(piece).attack - (DISABLED_PENALTY if piece.disabled else 0)


def defence_of(piece: Piece) -> int:
    return spec(piece).defence - (DISABLED_PENALTY if piece.disabled else 0)


def label(piece: Piece) -> str:
    return f"{spec(piece).name} {square_name(piece.col, piece.row)}"


def can_move(piece: Piece) -> bool:
    """'Units cannot ... move-move, or move-attack-move'; artillery 'can move OR attack'."""
    piece_spec = spec(piece)
    if not piece_spec.military or piece.moved:
        return False
    return not (piece_spec.category == "artillery" and piece.attacked)


def can_attack(piece: Piece) -> bool:
    """'Units cannot attack-attack'; artillery 'can move OR attack'; structures with a cannon
    (Turret, Fortress) attack once a turn."""
    piece_spec = spec(piece)
    if piece_spec.range <= 0 or piece.attacked:
        return False
    return not (piece_spec.category == "artillery" and piece.moved)


def at(state: State, square: str) -> Piece | None:
    where = parse_square(square, state.size)
    if where is None:
        raise RuleError(f"{square!r} is not a square of this {state.size}x{state.size} map.")
    return next((p for p in state.pieces if (p.col, p.row) == where), None)


def own_piece(state: State, seat: Seat, square: str) -> Piece:
    piece = at(state, square)
    if piece is None:
        raise RuleError(f"There is nothing on {square.upper()}.")
    if piece.owner != seat:
        raise RuleError(f"The {label(piece)} is not yours.")
    return piece


def enemy_at(state: State, seat: Seat, square: str) -> Piece:
    """The enemy piece on `square`, or a RuleError."""
    target = at(state, square)
    if target is None or target.owner == seat:
        raise RuleError(f"There is no enemy piece on {square.upper()}.")
    return target


def piece_by_id(state: State, piece_id: int) -> Piece:
    return next(piece for piece in state.pieces if piece.id == piece_id)


def square_of(state: State, piece_id: int) -> str:
    piece = piece_by_id(state, piece_id)
    return square_name(piece.col, piece.row)


def by_square(pieces: list[Piece]) -> list[Piece]:
    """Pieces in map order: row by row from A1."""
    return sorted(pieces, key=lambda p: (p.row, p.col))


def own_pieces(state: State, seat: Seat) -> list[Piece]:
    """The seat's pieces in map order."""
    return by_square([piece for piece in state.pieces if piece.owner == seat])


def military_units(state: State, seat: Seat) -> int:
    """Units on the map plus units in training/commissioned."""
    return sum(1 for p in state.pieces if p.owner == seat and spec(p).military) + sum(
        1 for b in state.builds if b.owner == seat and spec(b).military
    )


def place(state: State, kind: str, seat: Seat, square: Square) -> Piece:
    piece = Piece(id=state.next_id, kind=kind, owner=seat, col=square[0], row=square[1])
    state.next_id += 1
    state.pieces.append(piece)
    return piece
