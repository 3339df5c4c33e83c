"""Time for the bot layer, injected so tests move it forward instead of sleeping.

The rules core never sees a clock; only reminders, deadlines and timestamps do.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime


class Clock:
    def now(self) -> float:
        """Unix time in seconds."""
        return time.time()

    def iso(self) -> str:
        return datetime.fromtimestamp(self.now(), UTC).isoformat(timespec="seconds")


class FakeClock(Clock):
    """A clock that moves only when told to (tests, benchmarks)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> float:
        self._now += seconds
        return self._now
