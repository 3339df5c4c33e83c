"""Outbox queries: what moves owe Discord, claimed in order per game by the delivery worker."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from bot.storage.database import POSTGRESQL, Database, Row
from bot.storage.records import Delivery, OutboxRow
from bot.storage.shards import Shards, games_on


class OutboxQueries:
    """The store's `outbox` table (a part of `Store`)."""

    _db: Database
    _now: Callable[[], str]

    async def enqueue(self, game_id: int, version: int, deliveries: Iterable[Delivery]) -> None:
        """Deliveries owed by something other than a move (a reminder, a timeout, a notice)."""
        async with self._db.transaction() as tx:
            await enqueue_in(tx, game_id, version, deliveries, self._now())

    async def live_payload(self, game_id: int) -> dict[str, Any] | None:
        """The payload of the game's latest post or edit: what its live turn post shows and carries."""
        row = await self._db.fetchone(
            "SELECT payload FROM outbox WHERE game_id = ? AND kind IN ('post', 'edit')"
            " ORDER BY id DESC LIMIT 1",
            (game_id,),
        )
        return json.loads(row[0]) if row else None

    async def claim_outbox(
        self, now: float, *, limit: int = 200, shards: Shards | None = None, stale_after: float = 300.0
    ) -> list[OutboxRow]:
        """Take the due deliveries, oldest first, so one worker sends each: a row is skipped while an
        earlier row of its game still waits (a retry's backoff) or is being sent, so a game's deliveries
        keep their order (an edit needs the post before it). Repaints wait at the end of a game's queue
        and hold nothing up.

        Claims are released by `outbox_done`/`outbox_retry`; one older than `stale_after` (its worker
        died, or lost its database mid-send) is taken again, and a restarted process takes back its own
        at once (`release_outbox_claims`)."""
        stale = now - stale_after
        blocked = (
            " AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.game_id = o.game_id AND p.status = 'pending'"
            " AND p.id < o.id AND p.kind != 'repaint' AND (p.due_at > ? OR p.claimed_at >= ?))"
        )
        select = (
            "SELECT o.id FROM outbox o WHERE o.status = 'pending' AND o.due_at <= ?"
            " AND (o.claimed_at IS NULL OR o.claimed_at < ?)"
            + blocked
            + games_on(shards, "o.game_id")
            + " ORDER BY o.id LIMIT ?"
        )
        params = (float(now), float(stale), float(now), float(stale), limit)
        # One statement picks and marks them, atomic on its own (SQLite runs it alone on the file;
        # PostgreSQL skips rows another worker has locked): one trip to the database, not one per row.
        locking = " FOR UPDATE SKIP LOCKED" if self._db.dialect == POSTGRESQL else ""
        rows = await self._db.fetchall(
            "UPDATE outbox SET claimed_at = ? WHERE id IN (" + select + locking + ") RETURNING *",
            (float(now), *params),
        )
        return sorted((_outbox_row(row) for row in rows), key=lambda row: row.id)

    async def outbox_done(
        self, row_id: int, *, status: str = "sent", message_id: int | None = None, reason: str | None = None
    ) -> None:
        await self._db.execute(
            "UPDATE outbox SET status = ?, message_id = COALESCE(?, message_id), reason = ?, claimed_at = NULL,"
            " attempts = attempts + 1, sent_at = ?, picture = NULL WHERE id = ?",
            (status, message_id, reason, datetime.now(UTC).timestamp(), row_id),
        )

    async def outbox_retry(self, row_id: int, due_at: float, reason: str) -> None:
        await self._db.execute(
            "UPDATE outbox SET due_at = ?, attempts = attempts + 1, reason = ?, claimed_at = NULL WHERE id = ?",
            (float(due_at), reason, row_id),
        )

    async def release_outbox(self, row_ids: Iterable[int]) -> None:
        """Hand claimed rows back untouched (a worker stopping, or a game's queue stopped by a retry)."""
        for row_id in row_ids:
            await self._db.execute(
                "UPDATE outbox SET claimed_at = NULL WHERE id = ? AND status = 'pending'", (row_id,)
            )

    async def release_outbox_claims(self, *, shards: Shards | None = None) -> int:
        """At start-up: the rows a dead process held are this process's to deliver (its shards' games
        belong to it alone). Nonces make a post that did reach Discord come back as the same message."""
        return await self._db.execute(
            "UPDATE outbox SET claimed_at = NULL WHERE status = 'pending' AND claimed_at IS NOT NULL"
            + games_on(shards, "game_id")
        )

    async def next_outbox_due(self, *, shards: Shards | None = None) -> float | None:
        row = await self._db.fetchone(
            "SELECT MIN(due_at) FROM outbox WHERE status = 'pending' AND claimed_at IS NULL"
            + games_on(shards, "game_id")
        )
        return row[0] if row else None

    async def live_message(self, game_id: int, before: int) -> tuple[int, int] | None:
        """(channel, message) of the turn post that rows of the game before `before` left live."""
        row = await self._db.fetchone(
            "SELECT target, message_id FROM outbox WHERE game_id = ? AND id < ? AND message_id IS NOT NULL"
            " AND kind IN ('post', 'edit', 'repaint') ORDER BY id DESC LIMIT 1",
            (game_id, before),
        )
        return (row[0], row[1]) if row else None

    async def games_holding_a_run(self, *, shards: Shards | None = None) -> list[int]:
        """Games in play whose latest announcement is held for a computer seat's run: a process that
        died between a move and the computer's answer left them waiting; the next one plays on."""
        rows = await self._db.fetchall(
            "SELECT g.id FROM games g WHERE g.status = 'active' AND EXISTS (SELECT 1 FROM outbox o"
            " WHERE o.game_id = g.id AND o.kind = 'edit' AND o.status = 'superseded' AND o.id ="
            " (SELECT MAX(p.id) FROM outbox p WHERE p.game_id = g.id AND p.kind IN ('post', 'edit')))"
            + games_on(shards, "g.id")
            + " ORDER BY g.id",
        )
        return [row[0] for row in rows]

    async def outbox_backlog(self, now: float) -> tuple[int, float]:
        """(rows waiting to be delivered, seconds the oldest due one has waited): for /healthz and
        /metrics."""
        row = await self._db.fetchone(
            "SELECT COUNT(*), MIN(CASE WHEN due_at <= ? THEN due_at END) FROM outbox WHERE status = 'pending'",
            (float(now),),
        )
        if row is None:
            return 0, 0.0
        return int(row[0]), (max(0.0, now - float(row[1])) if row[1] is not None else 0.0)

    async def prune(self, delivered_before: float) -> dict[str, int]:
        """Delete what no one reads again, so the database grows only by the moves themselves: outbox
        rows delivered (or given up, or superseded) before `delivered_before`, and the votes and timers
        of games that are over. Kept: every row of a game that still has one pending (a pending edit
        looks back for the post it edits), and each game's latest turn post and edit (the live post
        the next move edits, and what it shows). Returns the rows deleted per table."""
        done = (
            "status != 'pending' AND COALESCE(sent_at, 0) < ?"
            " AND game_id NOT IN (SELECT game_id FROM outbox WHERE status = 'pending')"
            " AND id NOT IN (SELECT MAX(id) FROM outbox WHERE kind IN ('post', 'edit', 'repaint')"
            " AND message_id IS NOT NULL GROUP BY game_id)"
            " AND id NOT IN (SELECT MAX(id) FROM outbox WHERE kind IN ('post', 'edit') GROUP BY game_id)"
        )
        over = "game_id IN (SELECT id FROM games WHERE status IN ('finished', 'abandoned'))"
        async with self._db.transaction() as tx:
            return {
                "outbox": await tx.execute("DELETE FROM outbox WHERE " + done, (float(delivered_before),)),
                "votes": await tx.execute("DELETE FROM votes WHERE " + over),
                "timers": await tx.execute("DELETE FROM timers WHERE " + over),
            }

    async def outbox(self, game_id: int) -> list[OutboxRow]:
        rows = await self._db.fetchall("SELECT * FROM outbox WHERE game_id = ? ORDER BY id", (game_id,))
        return [_outbox_row(row) for row in rows]

    async def set_channel_lost(self, game_id: int, reason: str | None) -> bool:
        """Record (or clear, with None) why the game's channel cannot be posted in; True if it changed."""
        changed = await self._db.execute(
            "UPDATE games SET channel_lost = ? WHERE id = ? AND COALESCE(channel_lost, '') != COALESCE(?, '')",
            (reason, game_id, reason),
        )
        return changed == 1


async def enqueue_in(
    tx: Any, game_id: int, version: int, deliveries: Iterable[Delivery], created_at: str
) -> None:
    """Inside the transaction that owes them. A new post or edit makes a pending repaint of the live
    post needless (the post carries a newer picture, the edit a newer repaint). A `held` edit (a move
    made while a computer seat plays on, `bot/app/announcer.py`) only carries the live payload to the
    next move: it is stored superseded, never delivered."""
    deliveries = list(deliveries)
    if any(d.kind in ("post", "edit") for d in deliveries):
        await tx.execute(
            "UPDATE outbox SET status = 'superseded', picture = NULL WHERE game_id = ? AND kind = 'repaint'"
            " AND status = 'pending' AND claimed_at IS NULL",
            (game_id,),
        )
    rows = []
    for delivery in deliveries:
        payload = dict(delivery.payload)
        view = payload.pop("view", None)
        rows.append(
            (
                game_id,
                version,
                delivery.kind,
                delivery.target,
                json.dumps(payload),
                json.dumps(view) if view is not None else None,
                "superseded" if payload.get("held") else "pending",
                float(delivery.due_at),
                created_at,
            )
        )
    if rows:  # one statement for the move's rows, inserted in their order (their ids keep it)
        await tx.executemany(
            "INSERT INTO outbox (game_id, version, kind, target, payload, picture, status, due_at, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )


def _outbox_row(row: Row) -> OutboxRow:
    data = dict(row)
    data["payload"] = json.loads(data["payload"])
    if data.get("picture"):
        data["payload"]["view"] = json.loads(data["picture"])
    return OutboxRow(**{key: data[key] for key in OutboxRow.model_fields if key in data})
