"""A seeded scheduler for races between coroutines that share a database.

`Interleaver` wraps a store's database so that, while racing, every statement and transaction first
yields to the event loop a number of times drawn from a seeded generator (now and then for a real
millisecond, so the database's own threads and connections interleave too). The same seed gives the
same pauses; many seeds give many interleavings. It also records which racer ran each statement
(`racer`, a context variable each racing task sets), so a test can tell whether the two racers were
really in flight together (`overlapped`) and not one after the other.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

LATE = (0.0, 0.0, 0.0, 0.0, 0.002, 0.01, 0.05)
"""Seconds a racer may start after the others, drawn per racer and run."""

racer: contextvars.ContextVar[str | None] = contextvars.ContextVar("racer", default=None)


@dataclass
class Interleaver:
    """Pauses racers at every database call, by a seeded draw, and records who called when."""

    rng: random.Random = field(default_factory=random.Random)
    active: bool = False
    clock: int = 0
    spans: dict[str, list[int]] = field(default_factory=dict)
    """racer -> [first statement, end of its work] on `clock`."""

    def wrap(self, store: Any) -> None:
        """Make `store` pause its racers (its database object is replaced by a pausing proxy)."""
        store._db = _Pausing(store._db, self)

    def wrap_locks(self, locks: Any) -> None:
        """Make a lock map (`bot.app.locks.KeyedLocks`) pause its racers before they ask for a lock,
        so a racer waiting for the other's lock counts as in flight."""
        original = locks.hold

        @contextlib.asynccontextmanager
        async def hold(key: Any) -> AsyncIterator[None]:
            await self.pause()
            async with original(key):
                yield

        locks.hold = hold

    def reset(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.spans = {}

    async def pause(self) -> None:
        name = racer.get()
        if not self.active or name is None:
            return
        self.clock += 1
        self.spans.setdefault(name, [self.clock, self.clock])
        draw = self.rng.random()
        if draw < 0.1:
            await asyncio.sleep(0.001)
        else:
            for _ in range(int(draw * 6)):
                await asyncio.sleep(0)

    def finished(self, name: str) -> None:
        self.clock += 1
        self.spans.setdefault(name, [self.clock, self.clock])[1] = self.clock

    def overlapped(self) -> bool:
        """Whether every racer started before every other one had finished: all in flight at once."""
        spans = list(self.spans.values())
        return len(spans) > 1 and max(start for start, _ in spans) < min(end for _, end in spans)

    async def race(self, racers: Sequence[tuple[str, Callable[[], Awaitable[Any]]]]) -> list[Outcome]:
        """Run the racers at once (released together), pausing them at the database; each one's
        outcome is its value or the refusal it raised."""
        gate = asyncio.Event()

        async def run(name: str, work: Callable[[], Awaitable[Any]]) -> Outcome:
            racer.set(name)
            late = self.rng.choice(LATE)
            await gate.wait()
            if late:  # now and then one racer comes a little later, or much later (no race)
                await asyncio.sleep(late)
            try:
                return Outcome(name, value=await work())
            except Exception as error:  # a refusal is an outcome; anything else fails the test later
                return Outcome(name, error=error)
            finally:
                self.finished(name)

        tasks = [asyncio.create_task(run(name, work)) for name, work in racers]
        self.active = True
        try:
            await asyncio.sleep(0)
            gate.set()
            return list(await asyncio.gather(*tasks))
        finally:
            self.active = False


@dataclass
class Outcome:
    name: str
    value: Any = None
    error: Exception | None = None

    @property
    def refusal(self) -> str | None:
        """The sentence of a refusal (a UserError), None when it applied."""
        if self.error is None:
            return None
        message = getattr(self.error, "message", None)
        if message is None:
            raise self.error  # not a refusal: a bug, shown as it is
        return message


class _Pausing:
    """A database whose calls first pause the racer that makes them."""

    def __init__(self, db: Any, interleaver: Interleaver) -> None:
        self._db = db
        self._interleaver = interleaver

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        await self._interleaver.pause()
        return await self._db.execute(sql, params)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any:
        await self._interleaver.pause()
        return await self._db.fetchone(sql, params)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        await self._interleaver.pause()
        return await self._db.fetchall(sql, params)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._interleaver.pause()
        await self._db.executemany(sql, rows)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Any]:
        await self._interleaver.pause()
        async with self._db.transaction() as tx:
            yield tx
