"""Which moves an undo takes back, decided from the game's own idea of a turn.

The City Heroes client sets the pattern: 'The Undo button moves to the start of a players' turn if they
have taken any action, or to the start of the previous players' turn if the current player has not taken
any actions.' A game marks its turns with `Game.turn_key`; a game without multi-move turns (None) takes
back a single move, as before. The plan is pure so the same answer is given to the request, to each vote
and to the commit, all from the stored log.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.core import Game, Seat

UNDO = "__undo__"


@dataclass(frozen=True)
class UndoPlan:
    moves: list[Any]
    """The log records taken back, oldest first."""
    owner: Seat
    """Whose turn they were: only that player may ask."""
    in_progress: bool
    """The owner is still on that turn: nobody else has begun theirs since."""

    @property
    def last_version(self) -> int:
        return self.moves[-1].version

    @property
    def solitary(self) -> bool:
        """Every move taken back is the owner's own (no trade answer or other seat's step inside)."""
        return all(move.seat == self.owner for move in self.moves)

    @property
    def reveals(self) -> bool:
        return any(event.get("reveals") for move in self.moves for event in move.events)

    def describe(self) -> str:
        count = len(self.moves)
        if count == 1:
            return "their last move"
        if self.in_progress:
            return f"their turn so far ({count} moves)"
        return f"their last turn ({count} moves)"


def plan_undo(rules: Game, states: Sequence[Any], moves: Sequence[Any]) -> UndoPlan | None:
    """`states[i]` is the state before `moves[i]`; `states[-1]` is the current one."""
    span = undo_span([rules.turn_key(state) for state in states])
    if span is None:
        return None
    start, in_progress = span
    taken = list(moves[start:])
    return UndoPlan(moves=taken, owner=taken[0].seat, in_progress=in_progress)


def undo_span(keys: Sequence[Hashable | None]) -> tuple[int, bool] | None:
    """The same decision from the states' turn keys alone (`keys[i]` before move i, the last one now):
    the index of the first move taken back, and whether that turn is still in progress. None when no
    move was made."""
    count = len(keys) - 1
    if count <= 0:
        return None
    if keys[-1] is None:
        return count - 1, False
    start = _turn_start(keys, count, keys[count])
    in_progress = start < count
    if not in_progress:  # nothing done yet in this turn: the previous player's turn
        start = _turn_start(keys, count, keys[count - 1])
    return start, in_progress


def _turn_start(keys: Sequence[Any], end: int, key: Any) -> int:
    """The first move index of the run of moves, ending before `end`, played from states with `key`."""
    start = end
    while start > 0 and keys[start - 1] == key:
        start -= 1
    return start


def undone_count(action: dict[str, Any]) -> int:
    """How many effective moves an undo entry of the log pops (entries from before turns count one)."""
    return int(action.get("count", 1))
