"""Persistence: every game, seat, move and posted message, in SQLite or PostgreSQL (bot/storage/database.py).

All SQL of the bot lives here and in the store's parts (timers.py, outbox.py, copying.py; the models
in records.py), written once for both databases. A move is one transaction that
appends to the action log and moves the snapshot from version v to v+1 only if it is still at v, so
two racing clicks, a retried interaction or a second process can never apply a move twice. The log plus the game's seed replays
any game, which is how a snapshot is checked and how a game survives a bug in a later version.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from bot.storage import backup
from bot.storage.copying import CopyQueries
from bot.storage.database import SQLITE, Database, IntegrityError, Row, connect, migrations, split_sql
from bot.storage.decisions import DecisionConflict, DecisionQueries, Ruling, SeatChange, Seen
from bot.storage.outbox import OutboxQueries, enqueue_in
from bot.storage.records import (
    OPEN_STATUSES,
    ActionRecord,
    ChannelBusy,
    Delivery,
    DuplicateInteraction,
    GameRecord,
    GameStatus,
    MoveConflict,
    OutboxRow,
    SeatChanged,
    SeatRecord,
    Timer,
    TimerPlan,
    utc_now,
)
from bot.storage.timers import TimerQueries, plan_timers_in

__all__ = [
    "Store",
    "OPEN_STATUSES",
    "ActionRecord",
    "ChannelBusy",
    "DecisionConflict",
    "Delivery",
    "DuplicateInteraction",
    "GameRecord",
    "GameStatus",
    "MoveConflict",
    "OutboxRow",
    "Ruling",
    "SeatChange",
    "SeatChanged",
    "SeatRecord",
    "Seen",
    "Timer",
    "TimerPlan",
    "utc_now",
]

log = logging.getLogger(__name__)


class SchemaMismatch(Exception):
    """The database was migrated with a migration file that has changed since: the start is refused."""


class Store(TimerQueries, OutboxQueries, CopyQueries, DecisionQueries):
    """The one store interface, on SQLite or PostgreSQL; open with `await Store.open(url_or_path)`."""

    def __init__(self, db: Database, now: Callable[[], str] = utc_now) -> None:
        self._db = db
        self._now = now

    @classmethod
    async def open(cls, url: str | Path, *, now: Callable[[], str] = utc_now) -> Store:
        """`sqlite:///file.db`, `postgresql://…` (DATABASE_URL) or a SQLite file path; migrates on open."""
        store = cls(await connect(url), now)
        try:
            await store._back_up_before_migrating(url)
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
        await tx.execute(
            "CREATE TABLE IF NOT EXISTS schema_checksums (version INTEGER PRIMARY KEY, sha256 TEXT NOT NULL)"
        )
        row = await tx.fetchone("SELECT MAX(version) FROM schema_version")
        return int(row[0] or 0)

    async def _back_up_before_migrating(self, url: str | Path) -> None:
        """A SQLite database about to be upgraded is copied first (`bot.storage.backup`)."""
        if self._db.dialect != SQLITE:
            return
        latest = max((number for number, _ in migrations(self._db.dialect)), default=0)
        current = await self.schema_version()
        if 0 < current < latest:
            summary = await asyncio.to_thread(backup.before_migration, url, current, latest)
            if summary is not None:
                log.warning(
                    "backed up before upgrading the schema %d -> %d: %s", current, latest, summary.describe()
                )

    async def migrate(self) -> int:
        """Apply every numbered migration newer than the database's version, each in its own transaction.

        Several processes may start at once: each migration re-reads the version under the schema
        lock, so every migration runs exactly once.

        Each applied migration's checksum is kept: a migration file changed after it was applied means
        this database's schema is not what the code expects (an edited release, a downgrade), and the
        start is refused (`SchemaMismatch`) rather than run on a schema it does not know. A database
        from before checksums were kept has them recorded at its next start."""
        current = 0
        for number, sql in migrations(self._db.dialect):
            digest = hashlib.sha256(sql.encode()).hexdigest()
            async with self._db.transaction() as tx:
                await tx.lock_schema()
                current = await self._schema_version(tx)
                if number <= current:
                    await self._check_checksum(tx, number, digest)
                    continue
                for statement in split_sql(sql):
                    await tx.execute(statement)
                await tx.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
                await tx.execute(
                    "INSERT INTO schema_checksums (version, sha256) VALUES (?, ?)"
                    " ON CONFLICT (version) DO UPDATE SET sha256 = excluded.sha256",
                    (number, digest),
                )
                current = number
        return current

    @staticmethod
    async def _check_checksum(tx: Any, number: int, digest: str) -> None:
        row = await tx.fetchone("SELECT sha256 FROM schema_checksums WHERE version = ?", (number,))
        if row is None:
            await tx.execute("INSERT INTO schema_checksums (version, sha256) VALUES (?, ?)", (number, digest))
        elif row[0] != digest:
            raise SchemaMismatch(
                f"migration {number:04d} was changed after this database applied it, so its schema is not"
                " the one this version of the bot expects; start the version that created it, or restore"
                " a backup (ironhost restore)."
            )

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
            await plan_timers_in(tx, game_id, timers, ())
            await enqueue_in(tx, game_id, 0, outbox, self._now())
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
        timers: Sequence[TimerPlan] = (),
        clear_timers: Sequence[int] = (),
        outbox: Sequence[Delivery] = (),
        holder: int | None = None,
        clear_votes: Sequence[str] = (),
    ) -> int:
        """Append the move at game.version + 1 and move the snapshot there; returns the new version.

        Raises DuplicateInteraction if this interaction was already applied, MoveConflict if the game
        is no longer at `game.version` (another move won the race), SeatChanged if the seat is no
        longer held by `holder` (a substitute took it meanwhile). The conditional UPDATE is the
        arbiter on both databases: SQLite runs one writer at a time, PostgreSQL makes the second
        writer wait for the row and re-check `version = ?` against the committed row; a seat change
        locks that row too (`commit_decision`), so the seat read after it is the committed one.
        `clear_votes`: the ballots the move closes (an undo the table agreed to).
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
            if holder is not None:
                held = await tx.fetchone(
                    "SELECT user_id FROM seats WHERE game_id = ? AND seat = ?", (game.id, seat)
                )
                if held is None or int(held[0]) != holder:
                    raise SeatChanged
            for kind in clear_votes:
                await tx.execute("DELETE FROM votes WHERE game_id = ? AND kind = ?", (game.id, kind))
            try:
                await _log_action(
                    tx, game.id, new_version, seat, user_id, action, events, interaction_id, now
                )
            except IntegrityError:
                # The same interaction committed meanwhile on another game's row; roll this one back.
                raise DuplicateInteraction from None
            if finished_result is not None:
                await tx.execute("DELETE FROM timers WHERE game_id = ?", (game.id,))
            else:
                await plan_timers_in(tx, game.id, timers, clear_timers)
            await enqueue_in(tx, game.id, new_version, outbox, now)
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

    async def log_size(self, game_id: int, marker: str) -> tuple[int, list[dict[str, Any]]]:
        """How many entries the game's action log has, and the actions of the entries whose stored
        action contains `marker` (the undo entries, to count effective moves without reading the log)."""
        row = await self._db.fetchone("SELECT COUNT(*) AS n FROM actions WHERE game_id = ?", (game_id,))
        rows = await self._db.fetchall(
            "SELECT action FROM actions WHERE game_id = ? AND action LIKE ? ORDER BY version",
            (game_id, f"%{marker}%"),
        )
        return int(row["n"]) if row else 0, [json.loads(r["action"]) for r in rows]

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

    async def finished_with_seats(
        self, kind: str, *, guild_id: int | None = None
    ) -> list[tuple[GameRecord, list[SeatRecord]]]:
        """Every finished game of `kind` (on one server, or everywhere) with its seats, in two queries:
        the ratings are recomputed from these on every ask."""
        clause = "g.kind = ? AND g.status = 'finished' AND g.result IS NOT NULL"
        params: list[object] = [kind]
        if guild_id is not None:
            clause += " AND g.guild_id = ?"
            params.append(guild_id)
        games = [
            _game(row) for row in await self._db.fetchall(f"SELECT g.* FROM games g WHERE {clause}", params)
        ]
        rows = await self._db.fetchall(
            f"SELECT s.* FROM seats s JOIN games g ON g.id = s.game_id WHERE {clause} ORDER BY s.game_id, s.seat",
            params,
        )
        seats: dict[int, list[SeatRecord]] = {}
        for row in rows:
            seats.setdefault(row["game_id"], []).append(SeatRecord(**dict(row)))
        return [(game, seats.get(game.id, [])) for game in games]

    # ---- imported games ------------------------------------------------------------------
    async def save_import(self, game_id: int, archive: str) -> None:
        await self._db.execute("INSERT INTO imports (game_id, archive) VALUES (?, ?)", (game_id, archive))

    async def imported(self, game_id: int) -> tuple[str, dict[int, int]] | None:
        """The saved-game file a lobby was opened from and its seat map (saved seat -> user), if any."""
        row = await self._db.fetchone("SELECT archive, seat_map FROM imports WHERE game_id = ?", (game_id,))
        if row is None:
            return None
        return row[0], {int(seat): int(user) for seat, user in json.loads(row[1]).items()}

    async def set_import_map(self, game_id: int, seat_map: dict[int, int]) -> None:
        await self._db.execute(
            "UPDATE imports SET seat_map = ? WHERE game_id = ?", (json.dumps(seat_map), game_id)
        )

    async def start_imported(
        self,
        game_id: int,
        *,
        seats: list[tuple[int, str]],
        moves: list[tuple[int, dict[str, Any], list[dict[str, Any]]]],
        state: str,
        timers: Iterable[TimerPlan] = (),
        outbox: Iterable[Delivery] = (),
    ) -> bool:
        """Lobby -> active for an imported game, in one transaction: the seats in the file's order
        (user id, name), its moves as the log (seat, action, events) and the position they lead to.
        False if it was not in the lobby any more."""
        now = self._now()
        async with self._db.transaction() as tx:
            locked = await tx.fetchone(
                "SELECT status FROM games WHERE id = ?" + self._db.for_update, (game_id,)
            )
            if locked is None or locked[0] != GameStatus.LOBBY:
                return False
            await tx.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            for number, (user_id, name) in enumerate(seats):
                await tx.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                    (game_id, number, user_id, name),
                )
            for version, (seat, action, events) in enumerate(moves, start=1):
                await _log_action(tx, game_id, version, seat, seats[seat][0], action, events, None, now)
            await tx.execute(
                "UPDATE games SET status = 'active', state = ?, version = ?, updated_at = ? WHERE id = ?",
                (state, len(moves), now, game_id),
            )
            await tx.execute("DELETE FROM imports WHERE game_id = ?", (game_id,))
            await plan_timers_in(tx, game_id, timers, ())
            await enqueue_in(tx, game_id, len(moves), outbox, now)
            return True

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

    async def read_table(
        self, game_id: int, ballot: str | Callable[[GameRecord], str] | None = None
    ) -> tuple[GameRecord | None, list[SeatRecord], set[int]]:
        """The game, its seats and the approvals of `ballot` (a kind, or made from the game: votes keyed
        by its version), read together: under the game row's lock, which every move and decision
        takes before writing, so the three agree with each other. What a decision is taken on."""
        async with self._db.transaction() as tx:
            row = await tx.fetchone("SELECT * FROM games WHERE id = ?" + self._db.for_update, (game_id,))
            if row is None:
                return None, [], set()
            game = _game(row)
            rows = await tx.fetchall("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
            seats = [SeatRecord(**dict(seat)) for seat in rows]
            kind = ballot(game) if callable(ballot) else ballot
            if kind is None:
                return game, seats, set()
            votes = await tx.fetchall(
                "SELECT user_id FROM votes WHERE game_id = ? AND kind = ?", (game_id, kind)
            )
            return game, seats, {int(vote[0]) for vote in votes}

    async def votes(self, game_id: int, kind: str) -> set[int]:
        """Who has approved the ballot `kind` (empty: no such vote is open)."""
        rows = await self._db.fetchall(
            "SELECT user_id FROM votes WHERE game_id = ? AND kind = ?", (game_id, kind)
        )
        return {int(row[0]) for row in rows}

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


async def _log_action(
    tx: Any,
    game_id: int,
    version: int,
    seat: int,
    user_id: int,
    action: dict[str, Any],
    events: list[dict[str, Any]],
    interaction_id: int | None,
    now: str,
) -> None:
    """One entry of a game's append-only action log: the one statement a move (or an imported game's
    moves) writes it with."""
    await tx.execute(
        "INSERT INTO actions (game_id, version, seat, user_id, action, events, interaction_id,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (game_id, version, seat, user_id, json.dumps(action), json.dumps(events), interaction_id, now),
    )


def _game(row: Row) -> GameRecord:
    data = dict(row)
    data["options"] = json.loads(data["options"])
    data["table_settings"] = json.loads(data.get("table_settings") or "{}")
    return GameRecord(**data)
