"""Geometry of the Iron & Brass map: occupancy, movement, attack range and placement.

Pure functions of the state; the engine uses them for the choice list and for checking actions,
and the view uses them for each unit's reach, so all three always agree.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from rules.core import Seat
from rules.iron_and_brass.data import FACTORY, Catalogue
from rules.iron_and_brass.state import IronAndBrassState, Piece, square_name

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


class Grid:
    """The map of one size as bitboards: square (col, row) is bit `row * width + col`, with one empty
    guard column (`width = size + 1`) so that a shift east or west off the map lands outside `board`
    instead of on the next row. A whole ring of moves is then a few shifts of one int, which is what
    makes `reach` cheap enough for the search's thousands of positions per decision."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.width = width = size + 1
        self.bit: dict[Square, int] = {}
        self.board = 0
        for row in range(size):
            for col in range(size):
                index = row * width + col
                self.bit[(col, row)] = 1 << index
                self.board |= 1 << index
        self.row_mask = (1 << size) - 1
        self._squares: list[dict[int, tuple[Square, ...]]] = [{} for _ in range(size)]
        self._names: list[dict[int, tuple[str, ...]]] = [{} for _ in range(size)]
        """Per row, the squares (or their names) a row's bits hold, by the bits (filled as read)."""

    def squares_in(self, squares: int, rows: Iterable[int]) -> list[Square]:
        """The squares of the bitboard `squares` on `rows` (all it holds must lie there), in map order."""
        return self._decode(squares, rows, self._squares, lambda col, row: (col, row))

    def names_in(self, squares: int, rows: Iterable[int]) -> list[str]:
        """As `squares_in`, the squares' names ('C5')."""
        return self._decode(squares, rows, self._names, square_name)

    def _decode(
        self, squares: int, rows: Iterable[int], tables: list[dict[int, Any]], make: Any
    ) -> list[Any]:
        out: list[Any] = []
        width, row_mask = self.width, self.row_mask
        for row in rows:
            bits = (squares >> (row * width)) & row_mask
            if bits:
                table = tables[row]
                found = table.get(bits)
                if found is None:
                    found = table[bits] = tuple(make(col, row) for col in range(self.size) if bits >> col & 1)
                out.extend(found)
        return out

    def orthogonal(self, squares: int) -> int:
        """The squares one orthogonal step from any of `squares`."""
        width = self.width
        return ((squares << 1) | (squares >> 1) | (squares << width) | (squares >> width)) & self.board

    def diagonal(self, squares: int) -> int:
        """The squares one diagonal step from any of `squares`."""
        up, down = squares << self.width, squares >> self.width
        return ((up << 1) | (up >> 1) | (down << 1) | (down >> 1)) & self.board

    def mask(self, squares: Iterable[Square]) -> int:
        bit = self.bit
        out = 0
        for square in squares:
            out |= bit[square]
        return out


@functools.cache
def grid(size: int) -> Grid:
    return Grid(size)


class Obstacles:
    """What a move must respect, computed once per position, as bitboards of `grid(size)`: the squares
    each side may not pass (infantry: enemy pieces; vehicles and artillery: enemy pieces and every
    structure) and the squares a move may not end on (any piece, any pending build)."""

    def __init__(self, state: IronAndBrassState, cards: Catalogue) -> None:
        self.size = state.size
        self.grid = grid(state.size)
        bit = self.grid.bit
        taken = 0
        for build in state.builds:
            taken |= bit[(build.col, build.row)]
        by_owner = [0, 0]
        structures = 0
        for piece in state.pieces:
            square = bit[(piece.col, piece.row)]
            taken |= square
            by_owner[piece.owner] |= square
            if cards.pieces[piece.kind].category == "structure":
                structures |= square
        self.taken = taken
        self.by_owner = by_owner
        self.structures = structures

    def blocked(self, seat: Seat, infantry: bool) -> int:
        enemy = self.by_owner[1 - seat]
        return enemy if infantry else enemy | self.structures


def rings(obstacles: Obstacles, cards: Catalogue, piece: Piece, movement: int) -> list[int]:
    """Bitboards of the squares `piece` may end a move on after exactly 1, 2, ... `movement` steps at
    the fewest (each square in one ring only).

    MOVE: each step is orthogonal or diagonal and the direction may change between steps, but a move
    of two or more steps may not be diagonal for all of them ('cannot move diagonal for all moves').
    Infantry pass over friendly structures and units; vehicles and artillery pass friendly units but
    never a structure; nobody passes an enemy piece. A move ends on an empty square that no pending
    build holds.

    Breadth first over whole rings at once: `diagonal_only` holds the squares reached after exactly
    `step` steps all diagonal, `straight` those reached by walks with an orthogonal step; a square
    may end the move after one step of any kind, or later when reached `straight`.
    """
    board = obstacles.grid
    passable = board.board & ~obstacles.blocked(piece.owner, cards.pieces[piece.kind].category == "infantry")
    free = ~obstacles.taken
    diagonal_only = board.bit[(piece.col, piece.row)]
    straight = 0
    found = 0
    out: list[int] = []
    for step in range(1, movement + 1):
        onward = board.orthogonal(diagonal_only | straight) | board.diagonal(straight)
        diagonal_only = board.diagonal(diagonal_only) & passable
        straight = onward & passable
        new = (straight | diagonal_only if step == 1 else straight) & free & ~found
        found |= new
        out.append(new)
    return out


def _rows(obstacles: Obstacles, piece: Piece, movement: int) -> range:
    """The rows a move of `movement` steps can reach."""
    return range(max(0, piece.row - movement), min(obstacles.size, piece.row + movement + 1))


def reach(
    state: IronAndBrassState,
    cards: Catalogue,
    piece: Piece,
    movement: int,
    obstacles: Obstacles | None = None,
) -> dict[Square, int]:
    """Squares `piece` may end a move on with `movement` steps (see `rings`), each with the fewest
    steps needed: those of one step first, then two, ...; in map order within a step."""
    obstacles = Obstacles(state, cards) if obstacles is None else obstacles
    squares_in = obstacles.grid.squares_in
    rows = _rows(obstacles, piece, movement)
    return {
        square: step
        for step, ring in enumerate(rings(obstacles, cards, piece, movement), start=1)
        for square in squares_in(ring, rows)
    }


def reach_names(obstacles: Obstacles, cards: Catalogue, piece: Piece, movement: int) -> list[str]:
    """The names of the squares of `reach`, in map order (row by row from A1)."""
    found = 0
    for ring in rings(obstacles, cards, piece, movement):
        found |= ring
    return obstacles.grid.names_in(found, _rows(obstacles, piece, movement))


def reach_split(
    obstacles: Obstacles, cards: Catalogue, piece: Piece, movement: int, extra: int
) -> tuple[list[str], list[str]]:
    """The names of the squares of `reach` with `movement` steps, and of those `extra` more steps add,
    each in map order: a unit's plain moves and its moves with an advantage token played for Open Road
    (+1 movement)."""
    found = wider = 0
    for step, ring in enumerate(rings(obstacles, cards, piece, movement + extra), start=1):
        if step <= movement:
            found |= ring
        else:
            wider |= ring
    names_in = obstacles.grid.names_in
    rows = _rows(obstacles, piece, movement + extra)
    return names_in(found, rows), names_in(wider, rows)


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
