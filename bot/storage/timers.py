"""Timer queries: the reminders and deadlines of waiting seats, claimed once across processes."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from bot.storage.database import POSTGRESQL, Database
from bot.storage.records import Timer, TimerPlan
from bot.storage.shards import Shards, games_on


class TimerQueries:
    """The store's `timers` table (a part of `Store`)."""

    _db: Database
    _now: Callable[[], str]

    async def claim_due_timers(
        self, now: float, *, stale_after: float = 300.0, shards: Shards | None = None
    ) -> list[Timer]:
        """Take the due timers, so one process fires each once; a claim older than `stale_after`
        (its process died before finishing) is taken again. With `shards`, only timers of games whose
        guild is on them: the other shards' processes fire theirs.

        SQLite: the transaction holds the file's write lock, so claims are one after the other.
        PostgreSQL: the due rows are locked as they are picked, and rows another process is claiming
        right now are skipped rather than waited for (`FOR UPDATE SKIP LOCKED`); when that process
        commits, its rows are no longer unclaimed, so nobody takes them twice.
        """
        stale = now - stale_after
        if self._db.dialect == POSTGRESQL:
            now = float(now)
            rows = await self._db.fetchall(
                "UPDATE timers SET claimed_at = ? WHERE (game_id, seat, kind) IN ("
                " SELECT game_id, seat, kind FROM timers WHERE due_at <= ? AND (claimed_at IS NULL OR claimed_at < ?)"
                + games_on(shards, "game_id")
                + " ORDER BY due_at FOR UPDATE SKIP LOCKED) RETURNING *",
                (now, now, stale),
            )
            return sorted((Timer(**dict(row)) for row in rows), key=lambda timer: timer.due_at)
        async with self._db.transaction() as tx:
            rows = await tx.fetchall(
                "SELECT * FROM timers WHERE due_at <= ? AND (claimed_at IS NULL OR claimed_at < ?)"
                + games_on(shards, "game_id")
                + " ORDER BY due_at",
                (now, stale),
            )
            timers = [Timer(**dict(row)) for row in rows]
            for timer in timers:
                await tx.execute(
                    "UPDATE timers SET claimed_at = ? WHERE game_id = ? AND seat = ? AND kind = ?",
                    (now, timer.game_id, timer.seat, timer.kind),
                )
        return [timer.model_copy(update={"claimed_at": now}) for timer in timers]

    async def finish_timer(self, timer: Timer, *, next_due: float | None = None) -> None:
        """Done with a claimed timer: delete it, or set it to fire again at `next_due`.

        Only the claim that fired it may finish it: a move that rescheduled the timer meanwhile wins.
        """
        if next_due is None:
            await self._db.execute(
                "DELETE FROM timers WHERE game_id = ? AND seat = ? AND kind = ? AND claimed_at = ?",
                (timer.game_id, timer.seat, timer.kind, timer.claimed_at),
            )
        else:
            await self._db.execute(
                "UPDATE timers SET due_at = ?, count = count + 1, claimed_at = NULL"
                " WHERE game_id = ? AND seat = ? AND kind = ? AND claimed_at = ?",
                (float(next_due), timer.game_id, timer.seat, timer.kind, timer.claimed_at),
            )

    async def timers(self, game_id: int) -> list[Timer]:
        rows = await self._db.fetchall(
            "SELECT * FROM timers WHERE game_id = ? ORDER BY seat, kind", (game_id,)
        )
        return [Timer(**dict(row)) for row in rows]

    async def plan_timers(self, game_id: int, timers: list[TimerPlan], clear: Sequence[int] = ()) -> None:
        async with self._db.transaction() as tx:
            await plan_timers_in(tx, game_id, timers, clear)

    async def next_timer_due(self, *, shards: Shards | None = None) -> float | None:
        row = await self._db.fetchone(
            "SELECT MIN(due_at) FROM timers WHERE claimed_at IS NULL" + games_on(shards, "game_id")
        )
        return row[0] if row else None


async def plan_timers_in(tx: Any, game_id: int, timers: Iterable[TimerPlan], clear: Iterable[int]) -> None:
    """Inside the move's transaction, so a committed move always has its reminders and deadlines."""
    for seat in clear:
        await tx.execute("DELETE FROM timers WHERE game_id = ? AND seat = ?", (game_id, seat))
    for seat, kind, due_at in timers:
        await tx.execute(
            "INSERT INTO timers (game_id, seat, kind, due_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, seat, kind) DO UPDATE SET due_at = excluded.due_at, count = 0,"
            " claimed_at = NULL",
            (game_id, seat, kind, float(due_at)),
        )
