"""One truth for every number (issue 36): the move count every place shows (`bot.app.numbering`) and
spans of time in the unit that reads best (`bot.app.timing.duration_text`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.app import numbering
from bot.app.timing import duration_text, hours_text
from bot.app.undo import UNDO


@dataclass
class Entry:
    version: int
    action: dict[str, Any]


def _log(*kinds: str | int) -> list[Entry]:
    """A log from 'm' (a move) and numbers (an undo taking back that many moves)."""
    return [
        Entry(version, {"kind": "move"} if kind == "m" else {"kind": UNDO, "version": 0, "count": kind})
        for version, kind in enumerate(kinds, start=1)
    ]


def test_effective_moves_are_the_moves_that_stand():
    """Export said 'saved at move 41' (the log's version) and import '39 moves replayed' (the moves that
    stand): an undo entry is no move and takes back its count."""
    log = _log("m", "m", "m", 2, "m", "m", 1, "m")
    undos = [entry.action for entry in log if numbering.is_undo(entry.action)]
    assert numbering.effective_count(len(log), undos) == 3
    assert len(log) == 8, "the version a game would show before"
    count = 0
    for entry in log:
        count = numbering.after(count, entry.action)
    assert count == 3


def test_the_history_numbers_each_entry_by_the_moves_that_stand():
    """A move taken back keeps its number, marked; the move that replaces it takes the same number."""
    numbered = numbering.numbered(_log("m", "m", 1, "m", "m"))
    assert [(n.move, n.undo, n.undone) for n in numbered] == [
        (1, False, False),
        (2, False, True),
        (1, True, False),
        (2, False, False),
        (3, False, False),
    ]
    # An old undo entry without a count took back one move.
    legacy = [Entry(1, {"kind": "m"}), Entry(2, {"kind": UNDO, "version": 1})]
    assert [(n.move, n.undone) for n in numbering.numbered(legacy)] == [(1, True), (0, False)]


def test_times_read_in_the_unit_that_fits():
    """'/stats' printed 'Average time to move: 0.0 h': seconds under a minute, minutes under an hour,
    hours under two days, days after, each counted through the words helper."""
    assert duration_text(0.2) == "under a second"
    assert duration_text(1) == "1 second" and duration_text(40) == "40 seconds"
    assert duration_text(60) == "1 minute" and duration_text(12 * 60 + 10) == "12 minutes"
    assert duration_text(3600) == "1 hour" and duration_text(3.5 * 3600) == "3.5 hours"
    assert duration_text(47 * 3600) == "47 hours" and duration_text(48 * 3600) == "2 days"
    assert duration_text(3.25 * 86400) == "3.2 days"
    assert hours_text(0.5) == "30 minutes" and hours_text(12) == "12 hours" and hours_text(336) == "14 days"
