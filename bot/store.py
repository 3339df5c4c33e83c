"""Persistence: every game, seat, move and posted message, in SQLite through aiosqlite.

All SQL of the bot lives here. A move is one transaction that appends to the action log and moves
the snapshot from version v to v+1 only if it is still at v, so two racing clicks, a retried
interaction or a second process can never apply a move twice. The log plus the game's seed replays
any game, which is how a snapshot is checked and how a game survives a bug in a later version.
"""

from __future__ import annotations

import asyncio
import functools
import json
import sqlite3
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import aiosqlite
from pydantic import BaseModel

from bot.shards import Shards


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


class MoveConflict(Exception):
    """The game moved on (another move was committed first); nothing was written."""


class DuplicateInteraction(Exception):
    """This interaction was already applied; nothing was written."""


class ChannelBusy(Exception):
    """The channel already has an open game."""


P = ParamSpec("P")
R = TypeVar("R")


def _serialized(method: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """One statement or transaction at a time on the shared connection.

    aiosqlite runs one connection on one thread; without this, a coroutine's statement could land
    inside another coroutine's open transaction and be rolled back with it.
    """

    @functools.wraps(method)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        self = args[0]
        async with self._lock:  # type: ignore[attr-defined]
            return await method(*args, **kwargs)

    return wrapper


def _migrations() -> list[tuple[int, str]]:
    folder = resources.files("bot") / "migrations"
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.read_text(encoding="utf-8")))
    return sorted(found)


class Store:
    """One SQLite file in WAL mode; open with `await Store.open(path)`."""

    def __init__(self, db: aiosqlite.Connection, now: Callable[[], str] = utc_now) -> None:
        self._db = db
        self._now = now
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, *, now: Callable[[], str] = utc_now) -> Store:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(str(path), isolation_level=None)
        db.row_factory = aiosqlite.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=10000")
        store = cls(db, now)
        await store.migrate()
        return store

    @_serialized
    async def close(self) -> None:
        await self._db.close()

    # ---- schema -------------------------------------------------------------------------
    async def schema_version(self) -> int:
        await self._db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        async with self._db.execute("SELECT MAX(version) FROM schema_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0] or 0)

    @_serialized
    async def migrate(self) -> int:
        """Apply every numbered migration newer than the file's version, each in its own transaction."""
        current = await self.schema_version()
        for number, sql in _migrations():
            if number <= current:
                continue
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                # executescript would commit on its own; run statement by statement inside our transaction.
                for statement in _split_sql(sql):
                    await self._db.execute(statement)
                await self._db.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
                await self._db.execute("COMMIT")
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            current = number
        return current

    # ---- games --------------------------------------------------------------------------
    @_serialized
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
        async with self._transaction():
            try:
                cursor = await self._db.execute(
                    "INSERT INTO games (kind, guild_id, channel_id, host_id, status, options, seed, created_at,"
                    " updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
                    (kind, guild_id, channel_id, host_id, json.dumps(options), seed, now, now),
                )
            except sqlite3.IntegrityError:
                raise ChannelBusy from None
            game_id = cursor.lastrowid
            await self._db.execute(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                (game_id, host_id, host_name),
            )
        record = await self._fetch_game(game_id)
        assert record is not None
        return record

    @_serialized
    async def game(self, game_id: int) -> GameRecord | None:
        return await self._fetch_game(game_id)

    async def _fetch_game(self, game_id: int) -> GameRecord | None:
        async with self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cursor:
            row = await cursor.fetchone()
        return _game(row) if row else None

    @_serialized
    async def open_game_in(self, channel_id: int) -> GameRecord | None:
        async with self._db.execute(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return _game(row) if row else None

    @_serialized
    async def latest_game_in(self, channel_id: int) -> GameRecord | None:
        """The channel's newest game: its open game if it has one (a game can only be opened when none is),
        else the last one played, so its final board and log stay available."""
        async with self._db.execute(
            "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return _game(row) if row else None

    @_serialized
    async def games_of_user(self, user_id: int, statuses: Iterable[str] = OPEN_STATUSES) -> list[GameRecord]:
        wanted = list(statuses)
        marks = ",".join("?" for _ in wanted)
        async with self._db.execute(
            f"SELECT g.* FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? AND g.status IN ({marks})"
            " ORDER BY g.updated_at DESC",
            (user_id, *wanted),
        ) as cursor:
            rows = await cursor.fetchall()
        return [_game(row) for row in rows]

    @_serialized
    async def set_options(self, game_id: int, options: dict[str, Any]) -> None:
        await self._db.execute(
            "UPDATE games SET options = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
            (json.dumps(options), self._now(), game_id),
        )

    @_serialized
    async def start_game(self, game_id: int, state: str, timers: Iterable[TimerPlan] = ()) -> bool:
        """Lobby -> active with the initial snapshot at version 0. False if it was not in the lobby."""
        async with self._transaction():
            cursor = await self._db.execute(
                "UPDATE games SET status = 'active', state = ?, version = 0, updated_at = ?"
                " WHERE id = ? AND status = 'lobby'",
                (state, self._now(), game_id),
            )
            if cursor.rowcount != 1:
                return False
            await self._plan_timers(game_id, timers, ())
            return True

    @_serialized
    async def set_table_settings(self, game_id: int, settings: dict[str, Any]) -> None:
        await self._db.execute(
            "UPDATE games SET table_settings = ?, updated_at = ? WHERE id = ?",
            (json.dumps(settings), self._now(), game_id),
        )

    @_serialized
    async def set_status(self, game_id: int, status: GameStatus, *, result: str | None = None) -> bool:
        finished = self._now() if status in (GameStatus.FINISHED, GameStatus.ABANDONED) else None
        cursor = await self._db.execute(
            "UPDATE games SET status = ?, result = COALESCE(?, result), finished_at = ?, updated_at = ?"
            " WHERE id = ? AND status IN ('lobby', 'active')",
            (status.value, result, finished, self._now(), game_id),
        )
        return cursor.rowcount == 1

    # ---- seats --------------------------------------------------------------------------
    @_serialized
    async def seats(self, game_id: int) -> list[SeatRecord]:
        async with self._db.execute(
            "SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [SeatRecord(**dict(row)) for row in rows]

    @_serialized
    async def add_seat(self, game_id: int, user_id: int, name: str, max_players: int) -> int | None:
        """Seat the user at the next free seat; None if the game is full or not in its lobby."""
        async with self._transaction():
            async with self._db.execute("SELECT status FROM games WHERE id = ?", (game_id,)) as cursor:
                row = await cursor.fetchone()
            if row is None or row[0] != GameStatus.LOBBY:
                return None
            async with self._db.execute("SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,)) as cursor:
                (count,) = await cursor.fetchone()
            if count >= max_players:
                return None
            try:
                await self._db.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                    (game_id, count, user_id, name),
                )
            except sqlite3.IntegrityError:
                return None
            return int(count)

    @_serialized
    async def remove_seat(self, game_id: int, user_id: int) -> bool:
        """Leave a lobby; later seats move up so seat numbers stay 0..n-1."""
        async with self._transaction():
            async with self._db.execute(
                "SELECT s.seat FROM seats s JOIN games g ON g.id = s.game_id"
                " WHERE s.game_id = ? AND s.user_id = ? AND g.status = 'lobby'",
                (game_id, user_id),
            ) as cursor:
                row = await cursor.fetchone()
            if row is None:
                return False
            await self._db.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))
            # Two steps through negative numbers so the primary key never collides mid-update.
            await self._db.execute(
                "UPDATE seats SET seat = -seat - 1 WHERE game_id = ? AND seat > ?", (game_id, row[0])
            )
            await self._db.execute(
                "UPDATE seats SET seat = -seat - 2 WHERE game_id = ? AND seat < 0", (game_id,)
            )
            return True

    @_serialized
    async def set_seat_flag(self, game_id: int, seat: int, flag: str, value: bool) -> bool:
        if flag not in {"vacation", "dropped"}:
            raise ValueError(flag)
        cursor = await self._db.execute(
            f"UPDATE seats SET {flag} = ? WHERE game_id = ? AND seat = ? AND {flag} != ?",
            (int(value), game_id, seat, int(value)),
        )
        return cursor.rowcount == 1

    @_serialized
    async def replace_seat(self, game_id: int, seat: int, user_id: int, name: str) -> bool:
        """Give a seat to another user, keeping the seat (and so its private information)."""
        try:
            cursor = await self._db.execute(
                "UPDATE seats SET user_id = ?, name = ?, dm_closed = 0, vacation = 0, dropped = 0"
                " WHERE game_id = ? AND seat = ?",
                (user_id, name, game_id, seat),
            )
        except sqlite3.IntegrityError:
            return False  # already seated in this game
        return cursor.rowcount == 1

    @_serialized
    async def set_dm_closed(self, game_id: int, user_id: int, closed: bool) -> bool:
        """Record whether DMs to this seat fail; True if that changed (so the notice is posted once)."""
        cursor = await self._db.execute(
            "UPDATE seats SET dm_closed = ? WHERE game_id = ? AND user_id = ? AND dm_closed != ?",
            (int(closed), game_id, user_id, int(closed)),
        )
        return cursor.rowcount == 1

    # ---- moves --------------------------------------------------------------------------
    @_serialized
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
    ) -> int:
        """Append the move at game.version + 1 and move the snapshot there; returns the new version.

        Raises DuplicateInteraction if this interaction was already applied, MoveConflict if the game
        is no longer at `game.version` (another move won the race).
        """
        new_version = game.version + 1
        now = self._now()
        async with self._transaction():
            if interaction_id is not None:
                async with self._db.execute(
                    "SELECT 1 FROM actions WHERE interaction_id = ?", (interaction_id,)
                ) as cursor:
                    if await cursor.fetchone():
                        raise DuplicateInteraction
            status = "finished" if finished_result is not None else "active"
            cursor = await self._db.execute(
                "UPDATE games SET version = ?, state = ?, status = ?, result = ?, updated_at = ?,"
                " finished_at = CASE WHEN ? = 'finished' THEN ? ELSE finished_at END"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (new_version, state, status, finished_result, now, status, now, game.id, game.version),
            )
            if cursor.rowcount != 1:
                raise MoveConflict
            await self._db.execute(
                "INSERT INTO actions (game_id, version, seat, user_id, action, events, interaction_id, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
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
            if finished_result is not None:
                await self._db.execute("DELETE FROM timers WHERE game_id = ?", (game.id,))
            else:
                await self._plan_timers(game.id, timers, clear_timers)
        return new_version

    async def _plan_timers(self, game_id: int, timers: Iterable[TimerPlan], clear: Iterable[int]) -> None:
        """Inside the move's transaction, so a committed move always has its reminders and deadlines."""
        for seat in clear:
            await self._db.execute("DELETE FROM timers WHERE game_id = ? AND seat = ?", (game_id, seat))
        for seat, kind, due_at in timers:
            await self._db.execute(
                "INSERT INTO timers (game_id, seat, kind, due_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, seat, kind) DO UPDATE SET due_at = excluded.due_at, count = 0,"
                " claimed_at = NULL",
                (game_id, seat, kind, due_at),
            )

    @_serialized
    async def actions(self, game_id: int, *, since: int = 0, limit: int | None = None) -> list[ActionRecord]:
        sql = "SELECT * FROM actions WHERE game_id = ? AND version > ? ORDER BY version"
        params: tuple[Any, ...] = (game_id, since)
        if limit is not None:
            sql = (
                "SELECT * FROM (SELECT * FROM actions WHERE game_id = ? AND version > ? ORDER BY version DESC"
                " LIMIT ?) ORDER BY version"
            )
            params = (game_id, since, limit)
        async with self._db.execute(sql, params) as cursor:
            rows = await cursor.fetchall()
        return [
            ActionRecord(
                **{**dict(row), "action": json.loads(row["action"]), "events": json.loads(row["events"])}
            )
            for row in rows
        ]

    # ---- timers -----------------------------------------------------------------------------
    @_serialized
    async def claim_due_timers(
        self, now: float, *, stale_after: float = 300.0, shards: Shards | None = None
    ) -> list[Timer]:
        """Take the due timers, so one process fires each once; a claim older than `stale_after`
        (its process died before finishing) is taken again. With `shards`, only timers of games whose
        guild is on them: the other shards' processes fire theirs."""
        async with self._transaction():
            async with self._db.execute(
                "SELECT * FROM timers WHERE due_at <= ? AND (claimed_at IS NULL OR claimed_at < ?)"
                + _games_on(shards, "game_id")
                + " ORDER BY due_at",
                (now, now - stale_after),
            ) as cursor:
                rows = [Timer(**dict(row)) for row in await cursor.fetchall()]
            for timer in rows:
                await self._db.execute(
                    "UPDATE timers SET claimed_at = ? WHERE game_id = ? AND seat = ? AND kind = ?",
                    (now, timer.game_id, timer.seat, timer.kind),
                )
        return [timer.model_copy(update={"claimed_at": now}) for timer in rows]

    @_serialized
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
                (next_due, timer.game_id, timer.seat, timer.kind, timer.claimed_at),
            )

    @_serialized
    async def timers(self, game_id: int) -> list[Timer]:
        async with self._db.execute(
            "SELECT * FROM timers WHERE game_id = ? ORDER BY seat, kind", (game_id,)
        ) as cur:
            return [Timer(**dict(row)) for row in await cur.fetchall()]

    @_serialized
    async def plan_timers(self, game_id: int, timers: list[TimerPlan], clear: list[int] = ()) -> None:  # type: ignore[assignment]
        async with self._transaction():
            await self._plan_timers(game_id, timers, clear)

    @_serialized
    async def next_timer_due(self, *, shards: Shards | None = None) -> float | None:
        async with self._db.execute(
            "SELECT MIN(due_at) FROM timers WHERE claimed_at IS NULL" + _games_on(shards, "game_id")
        ) as cursor:
            row = await cursor.fetchone()
        return row[0]

    # ---- players, guilds, followers ---------------------------------------------------------------
    @_serialized
    async def player(self, user_id: int) -> dict[str, Any] | None:
        async with self._db.execute("SELECT * FROM players WHERE user_id = ?", (user_id,)) as cursor:
            row = await cursor.fetchone()
        return dict(row) if row else None

    @_serialized
    async def set_player(
        self, user_id: int, quiet_start: int | None, quiet_end: int | None, offset: int
    ) -> None:
        await self._db.execute(
            "INSERT INTO players (user_id, quiet_start, quiet_end, utc_offset_minutes) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET quiet_start = excluded.quiet_start,"
            " quiet_end = excluded.quiet_end, utc_offset_minutes = excluded.utc_offset_minutes",
            (user_id, quiet_start, quiet_end, offset),
        )

    @_serialized
    async def set_time_zone(self, user_id: int, time_zone: str | None) -> None:
        """Keeps the player's quiet hours; a new player gets none."""
        await self._db.execute(
            "INSERT INTO players (user_id, time_zone) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET time_zone = excluded.time_zone",
            (user_id, time_zone),
        )

    @_serialized
    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        if guild_id is None:
            return {}
        async with self._db.execute(
            "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as cur:
            row = await cur.fetchone()
        return json.loads(row[0]) if row else {}

    @_serialized
    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        await self._db.execute(
            "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
            (guild_id, json.dumps(settings)),
        )

    @_serialized
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

    @_serialized
    async def followers(self, game_id: int) -> list[tuple[int, str]]:
        async with self._db.execute(
            "SELECT user_id, mode FROM followers WHERE game_id = ?", (game_id,)
        ) as cur:
            return [(row[0], row[1]) for row in await cur.fetchall()]

    @_serialized
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
        where = " AND ".join(clauses) or "1"
        async with self._db.execute(
            f"SELECT g.* FROM games g WHERE {where} ORDER BY g.id DESC LIMIT ?", (*params, limit)
        ) as cursor:
            return [_game(row) for row in await cursor.fetchall()]

    # ---- messages, votes, settings ----------------------------------------------------------
    @_serialized
    async def remember_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, version: int
    ) -> None:
        await self._db.execute(
            "INSERT INTO messages (game_id, kind, channel_id, message_id, version) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, kind) DO UPDATE SET channel_id = excluded.channel_id,"
            " message_id = excluded.message_id, version = excluded.version",
            (game_id, kind, channel_id, message_id, version),
        )

    @_serialized
    async def games_behind(
        self, kind: str = "turn", *, shards: Shards | None = None
    ) -> list[tuple[GameRecord, int]]:
        """Started games whose last posted message of `kind` is older than the game (a crash in between),
        only those of guilds on `shards` if given.

        Returns each game with the version its last post showed (-1 if none was posted).
        """
        async with self._db.execute(
            "SELECT g.*, COALESCE(m.version, -1) AS posted FROM games g"
            " LEFT JOIN messages m ON m.game_id = g.id AND m.kind = ?"
            " WHERE g.status IN ('active', 'finished') AND COALESCE(m.version, -1) < g.version"
            + _games_on(shards, "g.id"),
            (kind,),
        ) as cursor:
            rows = await cursor.fetchall()
        behind = []
        for row in rows:
            data = dict(row)
            posted = data.pop("posted")
            data["options"] = json.loads(data["options"])
            data["table_settings"] = json.loads(data.get("table_settings") or "{}")
            behind.append((GameRecord(**data), int(posted)))
        return behind

    @_serialized
    async def forget_message(self, game_id: int, kind: str) -> None:
        await self._db.execute("DELETE FROM messages WHERE game_id = ? AND kind = ?", (game_id, kind))

    @_serialized
    async def games_with_message(self, guild_id: int, kind: str) -> list[int]:
        """Ids of the guild's games that have a stored message (or calendar event) of `kind`."""
        async with self._db.execute(
            "SELECT m.game_id FROM messages m JOIN games g ON g.id = m.game_id"
            " WHERE g.guild_id = ? AND m.kind = ? ORDER BY m.game_id",
            (guild_id, kind),
        ) as cursor:
            return [row[0] for row in await cursor.fetchall()]

    @_serialized
    async def message(self, game_id: int, kind: str) -> tuple[int, int, int] | None:
        async with self._db.execute(
            "SELECT channel_id, message_id, version FROM messages WHERE game_id = ? AND kind = ?",
            (game_id, kind),
        ) as cursor:
            row = await cursor.fetchone()
        return (row[0], row[1], row[2]) if row else None

    @_serialized
    async def add_vote(self, game_id: int, kind: str, user_id: int) -> set[int]:
        await self._db.execute(
            "INSERT OR IGNORE INTO votes (game_id, kind, user_id) VALUES (?, ?, ?)", (game_id, kind, user_id)
        )
        async with self._db.execute(
            "SELECT user_id FROM votes WHERE game_id = ? AND kind = ?", (game_id, kind)
        ) as cursor:
            return {row[0] for row in await cursor.fetchall()}

    @_serialized
    async def clear_votes(self, game_id: int, kind: str) -> None:
        await self._db.execute("DELETE FROM votes WHERE game_id = ? AND kind = ?", (game_id, kind))

    @_serialized
    async def get_setting(self, key: str) -> str | None:
        async with self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        return row[0] if row else None

    @_serialized
    async def set_setting(self, key: str, value: str) -> None:
        await self._db.execute(
            "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # ---- helpers --------------------------------------------------------------------------
    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """BEGIN IMMEDIATE takes the write lock at once, so a second process waits instead of failing late."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def __aenter__(self) -> None:
        await self._db.execute("BEGIN IMMEDIATE")

    async def __aexit__(self, exc_type: object, exc: object, tb: object) -> None:
        await self._db.execute("COMMIT" if exc_type is None else "ROLLBACK")


def _game(row: aiosqlite.Row) -> GameRecord:
    data = dict(row)
    data["options"] = json.loads(data["options"])
    data["table_settings"] = json.loads(data.get("table_settings") or "{}")
    return GameRecord(**data)


def _games_on(shards: Shards | None, game_id_column: str) -> str:
    """An extra " AND ..." keeping rows whose game's guild is on `shards` ("" keeps every row).

    The shard is Discord's `(guild_id >> 22) % shard_count`; a game without a guild is shard 0's. The
    numbers are validated integers, written into the SQL so the clause needs no parameters.
    """
    if shards is None or shards.owns_all:
        return ""
    ids = ", ".join(str(int(shard)) for shard in shards.ids)
    return (
        f" AND {game_id_column} IN (SELECT id FROM games"
        f" WHERE ((COALESCE(guild_id, 0) >> 22) % {int(shards.count)}) IN ({ids}))"
    )


def _split_sql(script: str) -> list[str]:
    lines = [line for line in script.splitlines() if not line.strip().startswith("--")]
    return [statement.strip() for statement in "\n".join(lines).split(";") if statement.strip()]
