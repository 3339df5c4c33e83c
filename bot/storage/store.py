"""Persistence: every game, seat, move and posted message, in SQLite or PostgreSQL (bot/storage/database.py).

All SQL of the bot lives here, written once for both databases. A move is one transaction that
appends to the action log and moves the snapshot from version v to v+1 only if it is still at v, so
two racing clicks, a retried interaction or a second process can never apply a move twice. The log plus the game's seed replays
any game, which is how a snapshot is checked and how a game survives a bug in a later version.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from bot.storage.database import POSTGRESQL, Database, IntegrityError, Row, connect, migrations, split_sql
from bot.storage.shards import Shards


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class GameStatus(StrEnum):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


OPEN_STATUSES = (GameStatus.LOBBY, GameStatus.ACTIVE)


class GameRecord(BaseModel):
    id: int
    kind: str
    guild_id: int | None
    channel_id: int
    host_id: int
    status: GameStatus
    options: dict[str, Any]
    seed: int
    version: int
    state: str | None
    result: str | None
    created_at: str
    updated_at: str
    finished_at: str | None
    table_settings: dict[str, Any] = {}
    channel_lost: str | None = None
    """Why the game's channel can no longer be posted in (deleted, access lost); None while it can."""

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


class SeatRecord(BaseModel):
    game_id: int
    seat: int
    user_id: int
    name: str
    dm_closed: bool
    vacation: bool = False
    dropped: bool = False


class ActionRecord(BaseModel):
    game_id: int
    version: int
    seat: int
    user_id: int
    action: dict[str, Any]
    events: list[dict[str, Any]]
    interaction_id: int | None
    created_at: str


class Timer(BaseModel):
    game_id: int
    seat: int
    kind: str
    due_at: float
    count: int
    claimed_at: float | None


TimerPlan = tuple[int, str, float]
"""(seat, kind, due_at) of a timer a move starts."""


class Delivery(BaseModel):
    """One thing a move owes Discord, as written to the outbox: a channel post, an edit of the live
    turn post, a late repaint of its picture, a direct message, a plain channel notice, a thread post.

    `payload` is everything the delivery worker needs (text, who to ping, the view to draw), so the
    worker never reads the game again and a delivery is the same whenever, and by whichever process,
    it happens."""

    kind: str
    target: int
    """The channel id (post, edit, repaint, notice, thread: the game's channel) or the user id (dm)."""
    payload: dict[str, Any]
    due_at: float


class OutboxRow(Delivery):
    id: int
    game_id: int
    version: int
    status: str
    attempts: int
    claimed_at: float | None
    message_id: int | None
    reason: str | None


class MoveConflict(Exception):
    """The game moved on (another move was committed first); nothing was written."""


class DuplicateInteraction(Exception):
    """This interaction was already applied; nothing was written."""


class ChannelBusy(Exception):
    """The channel already has an open game."""


class Store:
    """The one store interface, on SQLite or PostgreSQL; open with `await Store.open(url_or_path)`."""

    def __init__(self, db: Database, now: Callable[[], str] = utc_now) -> None:
        self._db = db
        self._now = now

    @classmethod
    async def open(cls, url: str | Path, *, now: Callable[[], str] = utc_now) -> Store:
        """`sqlite:///file.db`, `postgresql://…` (DATABASE_URL) or a SQLite file path; migrates on open."""
        store = cls(await connect(url), now)
        try:
            await store.migrate()
        except BaseException:
            await store.close()
            raise
        return store

    @property
    def dialect(self) -> str:
        return self._db.dialect

    async def close(self) -> None:
        await self._db.close()

    # ---- schema -------------------------------------------------------------------------
    async def schema_version(self) -> int:
        async with self._db.transaction() as tx:
            return await self._schema_version(tx)

    @staticmethod
    async def _schema_version(tx: Any) -> int:
        await tx.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        row = await tx.fetchone("SELECT MAX(version) FROM schema_version")
        return int(row[0] or 0)

    async def migrate(self) -> int:
        """Apply every numbered migration newer than the database's version, each in its own transaction.

        Several processes may start at once: each migration re-reads the version under the schema
        lock, so every migration runs exactly once.
        """
        current = 0
        for number, sql in migrations(self._db.dialect):
            async with self._db.transaction() as tx:
                await tx.lock_schema()
                current = await self._schema_version(tx)
                if number <= current:
                    continue
                for statement in split_sql(sql):
                    await tx.execute(statement)
                await tx.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
                current = number
        return current

    # ---- games --------------------------------------------------------------------------
    async def create_game(
        self,
        *,
        kind: str,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: dict[str, Any],
        seed: int,
    ) -> GameRecord:
        now = self._now()
        async with self._db.transaction() as tx:
            try:
                row = await tx.fetchone(
                    "INSERT INTO games (kind, guild_id, channel_id, host_id, status, options, seed, created_at,"
                    " updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?) RETURNING id",
                    (kind, guild_id, channel_id, host_id, json.dumps(options), seed, now, now),
                )
            except IntegrityError:
                raise ChannelBusy from None
            assert row is not None
            game_id = int(row[0])
            await tx.execute(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                (game_id, host_id, host_name),
            )
        record = await self.game(game_id)
        assert record is not None
        return record

    async def game(self, game_id: int) -> GameRecord | None:
        row = await self._db.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def open_game_in(self, channel_id: int) -> GameRecord | None:
        row = await self._db.fetchone(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,)
        )
        return _game(row) if row else None

    async def latest_game_in(self, channel_id: int) -> GameRecord | None:
        """The channel's newest game: its open game if it has one (a game can only be opened when none is),
        else the last one played, so its final board and log stay available."""
        row = await self._db.fetchone(
            "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        return _game(row) if row else None

    async def games_of_user(self, user_id: int, statuses: Iterable[str] = OPEN_STATUSES) -> list[GameRecord]:
        wanted = [str(status) for status in statuses]
        marks = ",".join("?" for _ in wanted)
        rows = await self._db.fetchall(
            f"SELECT g.* FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? AND g.status IN ({marks})"
            " ORDER BY g.updated_at DESC",
            (user_id, *wanted),
        )
        return [_game(row) for row in rows]

    async def set_options(self, game_id: int, options: dict[str, Any]) -> None:
        await self._db.execute(
            "UPDATE games SET options = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
            (json.dumps(options), self._now(), game_id),
        )

    async def start_game(
        self,
        game_id: int,
        state: str,
        timers: Iterable[TimerPlan] = (),
        outbox: Iterable[Delivery] = (),
    ) -> bool:
        """Lobby -> active with the initial snapshot at version 0. False if it was not in the lobby."""
        async with self._db.transaction() as tx:
            changed = await tx.execute(
                "UPDATE games SET status = 'active', state = ?, version = 0, updated_at = ?"
                " WHERE id = ? AND status = 'lobby'",
                (state, self._now(), game_id),
            )
            if changed != 1:
                return False
            await _plan_timers(tx, game_id, timers, ())
            await _enqueue(tx, game_id, 0, outbox, self._now())
            return True

    async def set_table_settings(self, game_id: int, settings: dict[str, Any]) -> None:
        await self._db.execute(
            "UPDATE games SET table_settings = ?, updated_at = ? WHERE id = ?",
            (json.dumps(settings), self._now(), game_id),
        )

    async def set_status(self, game_id: int, status: GameStatus, *, result: str | None = None) -> bool:
        """Close an open game; True only for the one caller whose update closed it (across processes)."""
        finished = self._now() if status in (GameStatus.FINISHED, GameStatus.ABANDONED) else None
        changed = await self._db.execute(
            "UPDATE games SET status = ?, result = COALESCE(?, result), finished_at = ?, updated_at = ?"
            " WHERE id = ? AND status IN ('lobby', 'active')",
            (status.value, result, finished, self._now(), game_id),
        )
        return changed == 1

    # ---- seats --------------------------------------------------------------------------
    async def seats(self, game_id: int) -> list[SeatRecord]:
        rows = await self._db.fetchall("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [SeatRecord(**dict(row)) for row in rows]

    async def add_seat(self, game_id: int, user_id: int, name: str, max_players: int) -> int | None:
        """Seat the user at the next free seat; None if the game is full or not in its lobby."""
        try:
            async with self._db.transaction() as tx:
                # Locking the game's row makes racing joins count the seats one after the other.
                row = await tx.fetchone(
                    "SELECT status FROM games WHERE id = ?" + self._db.for_update, (game_id,)
                )
                if row is None or row[0] != GameStatus.LOBBY:
                    return None
                count_row = await tx.fetchone("SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,))
                assert count_row is not None
                count = int(count_row[0])
                if count >= max_players:
                    return None
                await tx.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                    (game_id, count, user_id, name),
                )
                return count
        except IntegrityError:  # already seated; raised out of the transaction so it rolls back
            return None

    async def remove_seat(self, game_id: int, user_id: int) -> bool:
        """Leave a lobby; later seats move up so seat numbers stay 0..n-1."""
        async with self._db.transaction() as tx:
            locked = await tx.fetchone(
                "SELECT status FROM games WHERE id = ?" + self._db.for_update, (game_id,)
            )
            if locked is None or locked[0] != GameStatus.LOBBY:
                return False
            row = await tx.fetchone(
                "SELECT seat FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
            if row is None:
                return False
            await tx.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))
            # Two steps through negative numbers so the primary key never collides mid-update.
            await tx.execute(
                "UPDATE seats SET seat = -seat - 1 WHERE game_id = ? AND seat > ?", (game_id, row[0])
            )
            await tx.execute("UPDATE seats SET seat = -seat - 2 WHERE game_id = ? AND seat < 0", (game_id,))
            return True

    async def set_seat_flag(self, game_id: int, seat: int, flag: str, value: bool) -> bool:
        if flag not in {"vacation", "dropped"}:
            raise ValueError(flag)
        changed = await self._db.execute(
            f"UPDATE seats SET {flag} = ? WHERE game_id = ? AND seat = ? AND {flag} != ?",
            (int(value), game_id, seat, int(value)),
        )
        return changed == 1

    async def replace_seat(self, game_id: int, seat: int, user_id: int, name: str) -> bool:
        """Give a seat to another user, keeping the seat (and so its private information)."""
        try:
            changed = await self._db.execute(
                "UPDATE seats SET user_id = ?, name = ?, dm_closed = 0, vacation = 0, dropped = 0"
                " WHERE game_id = ? AND seat = ?",
                (user_id, name, game_id, seat),
            )
        except IntegrityError:
            return False  # already seated in this game
        return changed == 1

    async def set_dm_closed(self, game_id: int, user_id: int, closed: bool) -> bool:
        """Record whether DMs to this seat fail; True if that changed (so the notice is posted once)."""
        changed = await self._db.execute(
            "UPDATE seats SET dm_closed = ? WHERE game_id = ? AND user_id = ? AND dm_closed != ?",
            (int(closed), game_id, user_id, int(closed)),
        )
        return changed == 1

    # ---- moves --------------------------------------------------------------------------
    async def commit_move(
        self,
        game: GameRecord,
        *,
        seat: int,
        user_id: int,
        action: dict[str, Any],
        events: list[dict[str, Any]],
        state: str,
        interaction_id: int | None,
        finished_result: str | None = None,
        timers: list[TimerPlan] = (),  # type: ignore[assignment]
        clear_timers: list[int] = (),  # type: ignore[assignment]
        outbox: list[Delivery] = (),  # type: ignore[assignment]
    ) -> int:
        """Append the move at game.version + 1 and move the snapshot there; returns the new version.

        Raises DuplicateInteraction if this interaction was already applied, MoveConflict if the game
        is no longer at `game.version` (another move won the race). The conditional UPDATE is the
        arbiter on both databases: SQLite runs one writer at a time, PostgreSQL makes the second
        writer wait for the row and re-check `version = ?` against the committed row.
        """
        new_version = game.version + 1
        now = self._now()
        async with self._db.transaction() as tx:
            if interaction_id is not None and await tx.fetchone(
                "SELECT 1 FROM actions WHERE interaction_id = ?", (interaction_id,)
            ):
                raise DuplicateInteraction
            status = "finished" if finished_result is not None else "active"
            changed = await tx.execute(
                "UPDATE games SET version = ?, state = ?, status = ?, result = ?, updated_at = ?,"
                " finished_at = CASE WHEN ? = 'finished' THEN ? ELSE finished_at END"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (new_version, state, status, finished_result, now, status, now, game.id, game.version),
            )
            if changed != 1:
                raise MoveConflict
            try:
                await tx.execute(
                    "INSERT INTO actions (game_id, version, seat, user_id, action, events, interaction_id,"
                    " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        game.id,
                        new_version,
                        seat,
                        user_id,
                        json.dumps(action),
                        json.dumps(events),
                        interaction_id,
                        now,
                    ),
                )
            except IntegrityError:
                # The same interaction committed meanwhile on another game's row; roll this one back.
                raise DuplicateInteraction from None
            if finished_result is not None:
                await tx.execute("DELETE FROM timers WHERE game_id = ?", (game.id,))
            else:
                await _plan_timers(tx, game.id, timers, clear_timers)
            await _enqueue(tx, game.id, new_version, outbox, now)
        return new_version

    async def actions(self, game_id: int, *, since: int = 0, limit: int | None = None) -> list[ActionRecord]:
        sql = "SELECT * FROM actions WHERE game_id = ? AND version > ? ORDER BY version"
        params: tuple[Any, ...] = (game_id, since)
        if limit is not None:
            sql = (
                "SELECT * FROM (SELECT * FROM actions WHERE game_id = ? AND version > ? ORDER BY version DESC"
                " LIMIT ?) AS recent ORDER BY version"
            )
            params = (game_id, since, limit)
        rows = await self._db.fetchall(sql, params)
        return [
            ActionRecord(
                **{**dict(row), "action": json.loads(row["action"]), "events": json.loads(row["events"])}
            )
            for row in rows
        ]

    # ---- timers -----------------------------------------------------------------------------
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
                + _games_on(shards, "game_id")
                + " ORDER BY due_at FOR UPDATE SKIP LOCKED) RETURNING *",
                (now, now, stale),
            )
            return sorted((Timer(**dict(row)) for row in rows), key=lambda timer: timer.due_at)
        async with self._db.transaction() as tx:
            rows = await tx.fetchall(
                "SELECT * FROM timers WHERE due_at <= ? AND (claimed_at IS NULL OR claimed_at < ?)"
                + _games_on(shards, "game_id")
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

    async def plan_timers(self, game_id: int, timers: list[TimerPlan], clear: list[int] = ()) -> None:  # type: ignore[assignment]
        async with self._db.transaction() as tx:
            await _plan_timers(tx, game_id, timers, clear)

    async def next_timer_due(self, *, shards: Shards | None = None) -> float | None:
        row = await self._db.fetchone(
            "SELECT MIN(due_at) FROM timers WHERE claimed_at IS NULL" + _games_on(shards, "game_id")
        )
        return row[0] if row else None

    # ---- players, guilds, followers ---------------------------------------------------------------
    async def player(self, user_id: int) -> dict[str, Any] | None:
        row = await self._db.fetchone("SELECT * FROM players WHERE user_id = ?", (user_id,))
        return dict(row) if row else None

    async def set_player(
        self, user_id: int, quiet_start: int | None, quiet_end: int | None, offset: int
    ) -> None:
        await self._db.execute(
            "INSERT INTO players (user_id, quiet_start, quiet_end, utc_offset_minutes) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET quiet_start = excluded.quiet_start,"
            " quiet_end = excluded.quiet_end, utc_offset_minutes = excluded.utc_offset_minutes",
            (user_id, quiet_start, quiet_end, offset),
        )

    async def set_time_zone(self, user_id: int, time_zone: str | None) -> None:
        """Keeps the player's quiet hours; a new player gets none."""
        await self._db.execute(
            "INSERT INTO players (user_id, time_zone) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET time_zone = excluded.time_zone",
            (user_id, time_zone),
        )

    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        if guild_id is None:
            return {}
        row = await self._db.fetchone("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return json.loads(row[0]) if row else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        await self._db.execute(
            "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
            (guild_id, json.dumps(settings)),
        )

    async def set_follower(self, game_id: int, user_id: int, mode: str | None) -> None:
        if mode is None:
            await self._db.execute(
                "DELETE FROM followers WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
        else:
            await self._db.execute(
                "INSERT INTO followers (game_id, user_id, mode) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id, user_id) DO UPDATE SET mode = excluded.mode",
                (game_id, user_id, mode),
            )

    async def followers(self, game_id: int) -> list[tuple[int, str]]:
        rows = await self._db.fetchall("SELECT user_id, mode FROM followers WHERE game_id = ?", (game_id,))
        return [(row[0], row[1]) for row in rows]

    async def list_games(
        self,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
        user_id: int | None = None,
        limit: int = 20,
    ) -> list[GameRecord]:
        clauses, params = [], []
        if channel_id is not None:
            clauses.append("g.channel_id = ?")
            params.append(channel_id)
        if guild_id is not None:
            clauses.append("g.guild_id = ?")
            params.append(guild_id)
        if user_id is not None:
            clauses.append("EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?)")
            params.append(user_id)
        where = " AND ".join(clauses) or "TRUE"
        rows = await self._db.fetchall(
            f"SELECT g.* FROM games g WHERE {where} ORDER BY g.id DESC LIMIT ?", (*params, limit)
        )
        return [_game(row) for row in rows]

    # ---- messages, votes, settings ----------------------------------------------------------
    async def remember_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, version: int
    ) -> None:
        await self._db.execute(
            "INSERT INTO messages (game_id, kind, channel_id, message_id, version) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, kind) DO UPDATE SET channel_id = excluded.channel_id,"
            " message_id = excluded.message_id, version = excluded.version",
            (game_id, kind, channel_id, message_id, version),
        )

    async def forget_message(self, game_id: int, kind: str) -> None:
        await self._db.execute("DELETE FROM messages WHERE game_id = ? AND kind = ?", (game_id, kind))

    async def games_with_message(self, guild_id: int, kind: str) -> list[int]:
        """Ids of the guild's games that have a stored message (or calendar event) of `kind`."""
        rows = await self._db.fetchall(
            "SELECT m.game_id FROM messages m JOIN games g ON g.id = m.game_id"
            " WHERE g.guild_id = ? AND m.kind = ? ORDER BY m.game_id",
            (guild_id, kind),
        )
        return [row[0] for row in rows]

    async def message(self, game_id: int, kind: str) -> tuple[int, int, int] | None:
        row = await self._db.fetchone(
            "SELECT channel_id, message_id, version FROM messages WHERE game_id = ? AND kind = ?",
            (game_id, kind),
        )
        return (row[0], row[1], row[2]) if row else None

    async def add_vote(self, game_id: int, kind: str, user_id: int) -> set[int]:
        await self._db.execute(
            "INSERT INTO votes (game_id, kind, user_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (game_id, kind, user_id),
        )
        rows = await self._db.fetchall(
            "SELECT user_id FROM votes WHERE game_id = ? AND kind = ?", (game_id, kind)
        )
        return {row[0] for row in rows}

    async def clear_votes(self, game_id: int, kind: str) -> None:
        await self._db.execute("DELETE FROM votes WHERE game_id = ? AND kind = ?", (game_id, kind))

    async def get_setting(self, key: str) -> str | None:
        row = await self._db.fetchone("SELECT value FROM settings WHERE key = ?", (key,))
        return row[0] if row else None

    async def set_setting(self, key: str, value: str) -> None:
        await self._db.execute(
            "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # ---- the outbox ---------------------------------------------------------------------------
    async def enqueue(self, game_id: int, version: int, deliveries: Iterable[Delivery]) -> None:
        """Deliveries owed by something other than a move (a reminder, a timeout, a notice)."""
        async with self._db.transaction() as tx:
            await _enqueue(tx, game_id, version, deliveries, self._now())

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
            + _games_on(shards, "o.game_id")
            + " ORDER BY o.id LIMIT ?"
        )
        params = (float(now), float(stale), float(now), float(stale), limit)
        async with self._db.transaction() as tx:
            if self._db.dialect == POSTGRESQL:
                rows = await tx.fetchall(
                    "UPDATE outbox SET claimed_at = ? WHERE id IN (" + select + " FOR UPDATE SKIP LOCKED)"
                    " RETURNING *",
                    (float(now), *params),
                )
            else:
                ids = [row[0] for row in await tx.fetchall(select, params)]
                rows = []
                for row_id in ids:
                    row = await tx.fetchone(
                        "UPDATE outbox SET claimed_at = ? WHERE id = ? RETURNING *", (now, row_id)
                    )
                    if row is not None:
                        rows.append(row)
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
            + _games_on(shards, "game_id")
        )

    async def next_outbox_due(self, *, shards: Shards | None = None) -> float | None:
        row = await self._db.fetchone(
            "SELECT MIN(due_at) FROM outbox WHERE status = 'pending' AND claimed_at IS NULL"
            + _games_on(shards, "game_id")
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

    # ---- copying between databases (`python -m bot migrate`) --------------------------------
    async def tables(self) -> dict[str, list[str]]:
        """The tables a copy carries, with their columns: all but the migrations' own bookkeeping."""
        return {
            name: columns for name, columns in (await self._db.columns()).items() if name != "schema_version"
        }

    async def game_ids(self) -> list[int]:
        return [int(row[0]) for row in await self._db.fetchall("SELECT id FROM games ORDER BY id")]

    async def export_rows(
        self, table: str, columns: list[str], game_ids: list[int] | None = None
    ) -> list[tuple]:
        """Rows of `table` (only those of `game_ids` when given) as tuples in `columns`' order."""
        listed = ", ".join(f'"{column}"' for column in columns)
        if game_ids is None:
            rows = await self._db.fetchall(f'SELECT {listed} FROM "{table}"')
        else:
            key = "id" if table == "games" else "game_id"
            marks = ",".join("?" for _ in game_ids)
            rows = await self._db.fetchall(
                f'SELECT {listed} FROM "{table}" WHERE {key} IN ({marks})', tuple(game_ids)
            )
        return [tuple(row) for row in rows]

    async def import_rows(self, batch: list[tuple[str, list[str], list[tuple]]]) -> None:
        """Insert rows as they are (ids included), in one transaction, parents before children."""
        async with self._db.transaction() as tx:
            for table, columns, rows in batch:
                if rows:
                    listed = ", ".join(f'"{column}"' for column in columns)
                    marks = ", ".join("?" for _ in columns)
                    await tx.executemany(f'INSERT INTO "{table}" ({listed}) VALUES ({marks})', rows)
            if self._db.dialect == POSTGRESQL:
                # Copied ids were given explicitly: move the id sequence past them for new games.
                for table in ("games", "outbox"):
                    await tx.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                        f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                    )


async def _plan_timers(tx: Any, game_id: int, timers: Iterable[TimerPlan], clear: Iterable[int]) -> None:
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


async def _enqueue(
    tx: Any, game_id: int, version: int, deliveries: Iterable[Delivery], created_at: str
) -> None:
    """Inside the transaction that owes them. A new post or edit makes a pending repaint of the live
    post needless (the post carries a newer picture, the edit a newer repaint)."""
    deliveries = list(deliveries)
    if any(d.kind in ("post", "edit") for d in deliveries):
        await tx.execute(
            "UPDATE outbox SET status = 'superseded', picture = NULL WHERE game_id = ? AND kind = 'repaint'"
            " AND status = 'pending' AND claimed_at IS NULL",
            (game_id,),
        )
    for delivery in deliveries:
        payload = dict(delivery.payload)
        view = payload.pop("view", None)
        await tx.execute(
            "INSERT INTO outbox (game_id, version, kind, target, payload, picture, due_at, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                version,
                delivery.kind,
                delivery.target,
                json.dumps(payload),
                json.dumps(view) if view is not None else None,
                float(delivery.due_at),
                created_at,
            ),
        )


def _outbox_row(row: Row) -> OutboxRow:
    data = dict(row)
    data["payload"] = json.loads(data["payload"])
    if data.get("picture"):
        data["payload"]["view"] = json.loads(data["picture"])
    return OutboxRow(**{key: data[key] for key in OutboxRow.model_fields if key in data})


def _game(row: Row) -> GameRecord:
    data = dict(row)
    data["options"] = json.loads(data["options"])
    data["table_settings"] = json.loads(data.get("table_settings") or "{}")
    return GameRecord(**data)


def _games_on(shards: Shards | None, game_id_column: str) -> str:
    """An extra " AND ..." keeping rows whose game's guild is on `shards` ("" keeps every row).

    The shard is Discord's `(guild_id >> 22) % shard_count`; a game without a guild is shard 0's. The
    numbers are validated integers, written into the SQL so the clause needs no parameters (and it
    reads the same on SQLite and PostgreSQL).
    """
    if shards is None or shards.owns_all:
        return ""
    ids = ", ".join(str(int(shard)) for shard in shards.ids)
    return (
        f" AND {game_id_column} IN (SELECT id FROM games"
        f" WHERE ((COALESCE(guild_id, 0) >> 22) % {int(shards.count)}) IN ({ids}))"
    )
