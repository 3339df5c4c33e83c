"""Decision queries: a table's votes, proposals, seat changes and deadline actions, each committed in one
transaction that first checks the table is still as the decision saw it.

A move is kept exactly-once by its version check (`Store.commit_move`); a decision gets the same
guarantee here. It locks the game's row (PostgreSQL: `FOR UPDATE`, the row a move's version check
updates; SQLite: the transaction holds the file's only write lock), re-reads what the decision was
taken on (the game's version and status, who holds each seat and whether the clock dropped it, the
ballot counted) and writes only if all of it is unchanged; otherwise it raises `DecisionConflict`,
nothing is written, and the service decides again from what is stored now. So two processes
deciding on one table (two approvals, two proposals for one seat, a deadline and an undo) end with
one outcome, and the other decision sees it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel

from bot.storage.database import Database
from bot.storage.outbox import enqueue_in
from bot.storage.records import Delivery, GameStatus, SeatRecord, TimerPlan
from bot.storage.timers import plan_timers_in


class DecisionConflict(Exception):
    """The table changed after the decision read it (in another process); nothing was written."""


class Seen(BaseModel):
    """What a decision was taken on; it commits only if all of it is still so."""

    version: int
    seats: list[tuple[int, int, bool]]
    """(seat, user, dropped) of every seat, in seat order."""
    ballot: str | None = None
    votes: frozenset[int] = frozenset()
    """The approvals counted on `ballot`."""

    @classmethod
    def of(
        cls, version: int, seats: list[SeatRecord], ballot: str | None = None, votes: Iterable[int] = ()
    ) -> Seen:
        return cls(
            version=version,
            seats=[(s.seat, s.user_id, s.dropped) for s in seats],
            ballot=ballot,
            votes=frozenset(votes),
        )


class SeatChange(BaseModel):
    """A seat given to another user, its private information kept (flags reset: a new player)."""

    seat: int
    user_id: int
    name: str


class Ruling(BaseModel):
    """What a decision writes, all in one transaction."""

    add_votes: list[tuple[str, int]] = []
    """(ballot, user) approvals recorded."""
    clear_votes: list[str] = []
    """Ballots closed: exact kinds, or a prefix ending in '%' (every proposal about a seat)."""
    seat: SeatChange | None = None
    dropped: list[tuple[int, bool]] = []
    """(seat, flag) set by the clock."""
    status: GameStatus | None = None
    timers: list[TimerPlan] = []
    clear_timers: list[int] = []
    outbox: list[Delivery] = []


class DecisionQueries:
    """The store's decision transaction (a part of `Store`)."""

    _db: Database
    _now: Callable[[], str]

    async def commit_decision(self, game_id: int, seen: Seen, ruling: Ruling) -> None:
        """Write `ruling` if the game is still active and as `seen`; else raise DecisionConflict."""
        now = self._now()
        async with self._db.transaction() as tx:
            row = await tx.fetchone(
                "SELECT version, status FROM games WHERE id = ?" + self._db.for_update, (game_id,)
            )
            if row is None or row[1] != GameStatus.ACTIVE or int(row[0]) != seen.version:
                raise DecisionConflict
            seats = await tx.fetchall(
                "SELECT seat, user_id, dropped FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            )
            if [(int(s[0]), int(s[1]), bool(s[2])) for s in seats] != seen.seats:
                raise DecisionConflict
            if seen.ballot is not None:
                votes = await tx.fetchall(
                    "SELECT user_id FROM votes WHERE game_id = ? AND kind = ?", (game_id, seen.ballot)
                )
                if {int(v[0]) for v in votes} != seen.votes:
                    raise DecisionConflict
            await self._write_ruling(tx, game_id, seen.version, ruling, now)

    @staticmethod
    async def _write_ruling(tx: Any, game_id: int, version: int, ruling: Ruling, now: str) -> None:
        for kind in ruling.clear_votes:
            operator = "LIKE" if kind.endswith("%") else "="
            await tx.execute(f"DELETE FROM votes WHERE game_id = ? AND kind {operator} ?", (game_id, kind))
        for kind, user_id in ruling.add_votes:
            await tx.execute(
                "INSERT INTO votes (game_id, kind, user_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (game_id, kind, user_id),
            )
        if ruling.seat is not None:
            change = ruling.seat
            await tx.execute(
                "UPDATE seats SET user_id = ?, name = ?, dm_closed = 0, vacation = 0, dropped = 0"
                " WHERE game_id = ? AND seat = ?",
                (change.user_id, change.name, game_id, change.seat),
            )
        for seat, flag in ruling.dropped:
            await tx.execute(
                "UPDATE seats SET dropped = ? WHERE game_id = ? AND seat = ?", (int(flag), game_id, seat)
            )
        if ruling.status is not None:
            finished = now if ruling.status in (GameStatus.FINISHED, GameStatus.ABANDONED) else None
            await tx.execute(
                "UPDATE games SET status = ?, finished_at = ?, updated_at = ? WHERE id = ?",
                (ruling.status.value, finished, now, game_id),
            )
        if ruling.timers or ruling.clear_timers:
            await plan_timers_in(tx, game_id, ruling.timers, ruling.clear_timers)
        await enqueue_in(tx, game_id, version, ruling.outbox, now)
