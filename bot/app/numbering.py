"""One move count for every place that names one: a game's moves are its **effective moves**.

The effective moves are the moves that stand: every move of the log, less the moves an undo took back
(the undo entries themselves are no moves). They are the moves players saw stand on the board, the moves
a saved file holds and an import replays, the replay's frames count, so "move 41" means the same in
the turn post, `/game status`, `/game export`, `/game import`, `/game replay`, `/log`, `/catchup` and
the history file.

The log's version is not a move count: it numbers every entry (undone moves and undo entries
included), orders the log and keys buttons and votes, and is never shown to players as a move number.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.app.undo import UNDO, undone_count

UNDO_MARK = UNDO
"""Text every undo entry's stored action contains: the store counts entries and returns only these."""


def is_undo(action: dict[str, Any]) -> bool:
    return action.get("kind") == UNDO


def effective_count(entries: int, undo_actions: Iterable[dict[str, Any]]) -> int:
    """The effective moves of a log of `entries` entries whose undo entries are `undo_actions`: each undo
    entry is no move and takes back `count` moves."""
    undos = [action for action in undo_actions if is_undo(action)]
    return entries - len(undos) - sum(undone_count(action) for action in undos)


def after(count: int, action: dict[str, Any]) -> int:
    """The effective moves once the log entry `action` is added to a game that had `count`."""
    return max(0, count - undone_count(action)) if is_undo(action) else count + 1


@dataclass(frozen=True)
class Numbered:
    """One log entry as the history file shows it."""

    record: Any
    """The `ActionRecord`."""
    move: int
    """The effective moves right after this entry: its own number for a move, what is left for an undo."""
    undo: bool
    """This entry is an undo (it takes back moves; it is no move)."""
    undone: bool
    """This move was later taken back by an undo."""


def numbered(records: Sequence[Any]) -> list[Numbered]:
    """Every log entry with its move number: a move is numbered by the effective moves it makes, so a
    move that replaces an undone one takes its number again (the undone one is marked)."""
    out: list[Numbered] = []
    standing: list[int] = []  # indexes in `out` of the moves that stand
    undone: set[int] = set()
    for record in records:
        if is_undo(record.action):
            cut = len(standing) - min(undone_count(record.action), len(standing))
            undone.update(standing[cut:])
            del standing[cut:]
            out.append(Numbered(record, len(standing), True, False))
        else:
            standing.append(len(out))
            out.append(Numbered(record, len(standing), False, False))
    return [Numbered(n.record, n.move, n.undo, index in undone) for index, n in enumerate(out)]
