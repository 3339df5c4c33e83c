"""The seats the bot plays itself, named in one place: the announcer holds back what a move owes while
one of them is to act (its run of moves is decided before anything is posted), and the table's driver
plays exactly these seats. Were the two to disagree, a run would be held with nobody to end it.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage.store import SeatRecord
from rules.core import Seat


def automated(seats: Iterable[SeatRecord], on_timeout: str | None) -> set[Seat]:
    """Computer seats (negative ids), and the seats the clock dropped while the table's policy is
    `autopilot` (the computer plays them until a substitute takes the seat)."""
    return {seat.seat for seat in seats if seat.user_id < 0 or (seat.dropped and on_timeout == "autopilot")}
