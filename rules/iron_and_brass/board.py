"""Geometry of the Iron & Brass map: occupancy, movement, attack range and placement.

Pure functions of the state; the engine uses them for the choice list and for checking actions,
and the view uses them for each unit's reach, so all three always agree.
"""

from __future__ import annotations

from rules.core import Seat
from rules.iron_and_brass.data import FACTORY, Catalogue
from rules.iron_and_brass.state import IronAndBrassState, Piece

Square = tuple[int, int]
STEPS: tuple[Square, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
"""'all units and vehicles may move in any direction (orthogonal or diagonal)'."""
ORTHOGONAL: tuple[Square, ...] = STEPS[:4]


def base_row(state: IronAndBrassState, seat: Seat) -> int:
    """Seat 0's edge is row 1 (bottom of the map), seat 1's the last row (top)."""
    return 0 if seat == 0 else state.size - 1


def occupancy(state: IronAndBrassState) -> dict[Square, Piece]:
    return {(piece.col, piece.row): piece for piece in state.pieces}


def reserved(state: IronAndBrassState) -> set[Square]:
    """Squares held by pending builds: nothing may end a move or be placed there."""
    return {(build.col, build.row) for build in state.builds}


def manhattan(a: Square, b: Square) -> int:
    """'Movement and Attack ranges are orthogonal': a range counts orthogonal steps."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def chebyshev(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def neighbours(square: Square, size: int) -> list[Square]:
    """The up to 8 squares adjacent to `square` (orthogonally or diagonally)."""
    col, row = square
    return [(col + dx, row + dy) for dx, dy in STEPS if 0 <= col + dx < size and 0 <= row + dy < size]


class Obstacles:
    """What a move must respect, computed once per position: the squares each side may not pass
    (infantry: enemy pieces; vehicles and artillery: enemy pieces and every structure) and the squares
    a move may not end on (any piece, any pending build)."""

    def __init__(self, state: IronAndBrassState, cards: Catalogue) -> None:
        self.size = state.size
        self.taken: set[Square] = reserved(state)
        self.by_owner: list[set[Square]] = [set(), set()]
        self.structures: set[Square] = set()
        for piece in state.pieces:
            square = (piece.col, piece.row)
            self.taken.add(square)
            self.by_owner[piece.owner].add(square)
            if cards.pieces[piece.kind].category == "structure":
                self.structures.add(square)
        self._blocked: dict[tuple[Seat, bool], set[Square]] = {}

    def blocked(self, seat: Seat, infantry: bool) -> set[Square]:
        key = (seat, infantry)
        if key not in self._blocked:
            enemy = self.by_owner[1 - seat]
            self._blocked[key] = set(enemy) if infantry else enemy | self.structures
        return self._blocked[key]


def reach(
    state: IronAndBrassState,
    cards: Catalogue,
    piece: Piece,
    movement: int,
    obstacles: Obstacles | None = None,
) -> dict[Square, int]:
    """Squares `piece` may end a move on with `movement` steps, each with the fewest steps needed.

    MOVE: each step is orthogonal or diagonal and the direction may change between steps, but a move
    of two or more steps may not be diagonal for all of them ('cannot move diagonal for all moves').
    Infantry pass over friendly structures and units; vehicles and artillery pass friendly units but
    never a structure; nobody passes an enemy piece. A move ends on an empty square that no pending
    build holds.
    """
    obstacles = Obstacles(state, cards) if obstacles is None else obstacles
    size = obstacles.size
    blocked = obstacles.blocked(piece.owner, cards.pieces[piece.kind].category == "infantry")
    taken = obstacles.taken
    frontier: list[tuple[int, int, bool]] = [(piece.col, piece.row, False)]
    seen: set[tuple[int, int, bool]] = {(piece.col, piece.row, False)}
    found: dict[Square, int] = {}
    for step in range(1, movement + 1):
        following: list[tuple[int, int, bool]] = []
        for col, row, orthogonal in frontier:
            for dx, dy in STEPS:
                x, y = col + dx, row + dy
                if x < 0 or y < 0 or x >= size or y >= size:
                    continue
                square = (x, y)
                if square in blocked:
                    continue
                straight = orthogonal or dx == 0 or dy == 0
                if (step == 1 or straight) and square not in taken and square not in found:
                    found[square] = step
                key = (x, y, straight)
                if key not in seen:
                    seen.add(key)
                    following.append(key)
        frontier = following
    return found


def in_range(source: Square, target: Square, attack_range: int) -> bool:
    return attack_range > 0 and manhattan(source, target) <= attack_range


def structure_squares(state: IronAndBrassState, cards: Catalogue, seat: Seat) -> list[Square]:
    """'New Structures may be placed anywhere on the base row of the map, or adjacent orthogonally
    (side to side or top to bottom) to an existing structure' (the player's own, completed)."""
    board = occupancy(state)
    held = reserved(state)
    size = state.size
    row = base_row(state, seat)
    options = {(col, row) for col in range(size)}
    for piece in state.pieces:
        if piece.owner == seat and cards[piece.kind].category == "structure":
            for dx, dy in ORTHOGONAL:
                x, y = piece.col + dx, piece.row + dy
                if 0 <= x < size and 0 <= y < size:
                    options.add((x, y))
    return sorted(square for square in options if square not in board and square not in held)


def unit_squares(state: IronAndBrassState, cards: Catalogue, seat: Seat, category: str) -> list[Square]:
    """'New ... units are placed adjacent (or as close as possible) to' their factory: the free squares
    at the smallest distance from it (adjacent = the 8 surrounding squares; farther rings after)."""
    factory_kind = FACTORY[category]
    factory = next(
        (piece for piece in state.pieces if piece.owner == seat and piece.kind == factory_kind), None
    )
    if factory is None:
        return []
    taken = set(occupancy(state)) | reserved(state)
    size = state.size
    col, row = factory.col, factory.row
    for distance in range(1, size):
        ring = [
            (x, y)
            for x in range(max(0, col - distance), min(size, col + distance + 1))
            for y in range(max(0, row - distance), min(size, row + distance + 1))
            if max(abs(x - col), abs(y - row)) == distance and (x, y) not in taken
        ]
        if ring:
            return sorted(ring)
    return []
