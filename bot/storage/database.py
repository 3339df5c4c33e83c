"""The two databases the store runs on, behind one small interface: SQLite (embedded) and PostgreSQL.

The store writes its SQL once, with `?` placeholders, in the subset both databases understand
(`ON CONFLICT`, partial unique indexes, `RETURNING`). What differs lives here: how a transaction
takes its write lock (`BEGIN IMMEDIATE` on SQLite, row locks on PostgreSQL), placeholders (`$n` for
asyncpg), column types in the migrations (Discord ids are 64-bit), and which exception a broken
unique constraint raises. asyncpg is imported only when a `postgresql://` URL is opened, so the
default install (SQLite only) does not need it.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, overload

import aiosqlite


class Row(Protocol):
    """A result row: both drivers' rows (sqlite3.Row, asyncpg.Record) index by column name and by
    position, iterate over their values, and convert with dict()."""

    @overload
    def __getitem__(self, key: int, /) -> Any: ...
    @overload
    def __getitem__(self, key: str, /) -> Any: ...
    def __iter__(self) -> Iterator[Any]: ...
    def keys(self) -> Iterable[str]: ...


SQLITE = "sqlite"
POSTGRESQL = "postgresql"


class IntegrityError(Exception):
    """A unique or foreign key constraint refused the write (on either database)."""


class Executor(Protocol):
    """What runs SQL: the database itself (one statement, autocommit) or an open transaction."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns how many rows it changed."""

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """One statement for many parameter rows (bulk copies)."""


class Database(Executor, Protocol):
    dialect: str
    for_update: str
    """Appended to a SELECT that reads a row the transaction will change (empty where the whole
    database is locked by the transaction anyway)."""

    def transaction(self) -> contextlib.AbstractAsyncContextManager[Transaction]: ...

    async def columns(self) -> dict[str, list[str]]:
        """Every table of the schema with its columns, in their order."""

    async def close(self) -> None: ...


class Transaction(Executor, Protocol):
    async def lock_schema(self) -> None:
        """Serialise schema changes between processes starting at once."""


@dataclass(frozen=True)
class Target:
    """Where DATABASE_URL points: a SQLite file (or memory), or a PostgreSQL server."""

    dialect: str
    location: str

    def __str__(self) -> str:
        if self.dialect == SQLITE:
            return f"sqlite:///{self.location}"
        return re.sub(r"://([^:@/]+):[^@/]*@", r"://\1:***@", self.location)  # never print a password


def parse_url(url: str | Path) -> Target:
    """`sqlite:///path/file.db`, `sqlite://` (memory), `postgresql://user@host:port/db`, or a bare path."""
    text = str(url)
    if text.startswith(("postgresql://", "postgres://")):
        return Target(POSTGRESQL, text)
    if text.startswith("sqlite:///"):
        return Target(SQLITE, text[len("sqlite:///") :] or "ironhost.db")
    if text.startswith("sqlite://"):
        return Target(SQLITE, text[len("sqlite://") :] or ":memory:")
    if "://" in text:
        raise ValueError(
            f"DATABASE_URL {text.split('://')[0]}://… is not supported: use sqlite:///path/to/file.db"
            " or postgresql://user:password@host:5432/database"
        )
    return Target(SQLITE, text)


async def connect(url: str | Path) -> Database:
    target = parse_url(url)
    if target.dialect == POSTGRESQL:
        return await PostgresDatabase.connect(target.location)
    return await SqliteDatabase.connect(target.location)


# ---- SQLite ----------------------------------------------------------------------------------


class _SqliteExecutor:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            cursor = await self._db.execute(sql, tuple(params))
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error
        return cursor.rowcount

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row: every query read this way has at most one (a key, LIMIT 1, an aggregate)."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One trip to the connection's thread (a cursor's execute, fetch and close took three, each
        waiting its turn on a busy event loop while the statement or transaction holds the lock)."""
        try:
            return list(await self._db.execute_fetchall(sql, tuple(params)))
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            await self._db.executemany(sql, [tuple(row) for row in rows])
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error


class _SqliteTransaction(_SqliteExecutor):
    async def lock_schema(self) -> None:
        """BEGIN IMMEDIATE already holds the only write lock of the file."""


class SqliteDatabase:
    """One connection in WAL mode. A lock puts one statement or transaction at a time on it.

    aiosqlite runs one connection on one thread; without the lock, a coroutine's statement could land
    inside another coroutine's open transaction and be rolled back with it. Other processes on the
    same file are kept apart by SQLite's own write lock, which BEGIN IMMEDIATE takes at once.
    """

    dialect = SQLITE
    for_update = ""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._run = _SqliteExecutor(db)
        self._lock = asyncio.Lock()

    @classmethod
    async def connect(cls, path: str) -> SqliteDatabase:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = aiosqlite.Row
        try:
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute("PRAGMA synchronous=NORMAL")
            # Switch to WAL before any busy timeout: a connection waiting inside SQLite for the switch
            # would keep its read lock, and a process committing its migration would wait for that
            # lock in turn (a deadlock until a timeout). Failing fast and trying again does not.
            await _while_locked(db, "PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA busy_timeout=10000")
        except BaseException:
            await db.close()
            raise
        return cls(db)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self._lock:
            return await self._run.execute(sql, params)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        async with self._lock:
            return await self._run.fetchone(sql, params)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._lock:
            return await self._run.fetchall(sql, params)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        async with self._lock:
            await self._run.executemany(sql, rows)

    async def columns(self) -> dict[str, list[str]]:
        tables = await self.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
        found = {}
        for (name,) in tables:
            found[name] = [row[1] for row in await self.fetchall(f'PRAGMA table_info("{name}")')]
        return found

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[_SqliteTransaction]:
        async with self._lock:
            await _while_locked(self._db, "BEGIN IMMEDIATE")
            try:
                yield _SqliteTransaction(self._db)
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def close(self, patience: float = 2.0) -> None:
        """Close after the transaction under way, waiting at most `patience` seconds for it: a stopping
        bot may still have a queue of interactions behind the lock, and an open connection's thread
        would keep the process alive. SQLite rolls back what was not committed."""
        try:
            await asyncio.wait_for(self._lock.acquire(), patience)
        except TimeoutError:
            await self._db.close()
            return
        try:
            await self._db.close()
        finally:
            self._lock.release()


async def _while_locked(db: aiosqlite.Connection, sql: str, patience: float = 10.0) -> None:
    """Run `sql`, waiting while another process holds the file.

    The busy timeout makes SQLite wait for most locks, but not around a switch to WAL: while another
    process opening a new file at the same moment changes its journal mode, SQLite answers "locked"
    at once (and before the busy timeout is set, always). Such a moment is short: try again.
    """
    waited = 0.0
    while True:
        try:
            await db.execute(sql)
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or waited >= patience:
                raise
        await asyncio.sleep(0.05)
        waited += 0.05


# ---- PostgreSQL ------------------------------------------------------------------------------

SCHEMA_LOCK = 0x1_2057_4057
"""The advisory lock key that serialises migrations between processes starting together."""


@lru_cache(maxsize=512)
def dollar_placeholders(sql: str) -> str:
    """`?` -> `$1, $2, …` outside string literals (the store never puts `?` inside one, but be exact)."""
    parts = re.split(r"('(?:[^']|'')*')", sql)
    number = 0
    for index in range(0, len(parts), 2):  # even parts are outside quotes
        pieces = parts[index].split("?")
        rebuilt = pieces[0]
        for piece in pieces[1:]:
            number += 1
            rebuilt += f"${number}{piece}"
        parts[index] = rebuilt
    return "".join(parts)


def _rowcount(status: str) -> int:
    """asyncpg answers 'UPDATE 3', 'INSERT 0 1', 'DELETE 0'."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PostgresExecutor:
    def __init__(self, runner: Any) -> None:
        self._runner = runner  # a pool (one statement each) or a connection inside a transaction

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        with _integrity_errors():
            return _rowcount(await self._runner.execute(dollar_placeholders(sql), *params))

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        with _integrity_errors():
            return await self._runner.fetchrow(dollar_placeholders(sql), *params)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with _integrity_errors():
            return list(await self._runner.fetch(dollar_placeholders(sql), *params))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with _integrity_errors():
            await self._runner.executemany(dollar_placeholders(sql), [tuple(row) for row in rows])


class _PostgresTransaction(_PostgresExecutor):
    async def lock_schema(self) -> None:
        await self._runner.execute("SELECT pg_advisory_xact_lock($1)", SCHEMA_LOCK)


@contextlib.contextmanager
def _integrity_errors() -> Any:
    import asyncpg

    try:
        yield
    except asyncpg.IntegrityConstraintViolationError as error:
        raise IntegrityError(str(error)) from error


class PostgresDatabase(_PostgresExecutor):
    """A connection pool; each statement or transaction borrows one connection.

    Transactions run at READ COMMITTED: a conditional UPDATE (`… WHERE version = ?`) waits for a
    concurrent one on the same row and then re-checks its condition, so of two racing moves exactly
    one changes the row, in this process or another.
    """

    dialect = POSTGRESQL
    for_update = " FOR UPDATE"

    def __init__(self, pool: Any) -> None:
        super().__init__(pool)
        self._pool = pool

    @classmethod
    async def connect(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> PostgresDatabase:
        try:
            import asyncpg
        except ImportError:
            raise RuntimeError(
                "DATABASE_URL is a PostgreSQL URL, but asyncpg is not installed:"
                " pip install 'ironhost[postgres]'"
            ) from None
        pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size)
        return cls(pool)

    async def columns(self) -> dict[str, list[str]]:
        rows = await self.fetchall(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
        )
        found: dict[str, list[str]] = {}
        for table, column in rows:
            found.setdefault(table, []).append(column)
        return found

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[_PostgresTransaction]:
        async with self._pool.acquire() as connection, connection.transaction():
            yield _PostgresTransaction(connection)

    async def close(self) -> None:
        await self._pool.close()


# ---- migrations ------------------------------------------------------------------------------

_POSTGRES_TYPES = (
    (
        re.compile(r"\bINTEGER\s+PRIMARY\s+KEY\s+AUTOINCREMENT\b", re.I),
        "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    ),
    (re.compile(r"\bINTEGER\b", re.I), "BIGINT"),  # Discord snowflakes need 64 bits
    (re.compile(r"\bREAL\b", re.I), "DOUBLE PRECISION"),
)


def postgres_ddl(sql: str) -> str:
    """The portable migration in PostgreSQL's types; SQLite's INTEGER is already 64-bit."""
    for pattern, replacement in _POSTGRES_TYPES:
        sql = pattern.sub(replacement, sql)
    return sql


def migrations(dialect: str, folder: Any = None) -> list[tuple[int, str]]:
    """The numbered migrations in this dialect: `NNNN_name.sql` (portable SQL, types translated for
    PostgreSQL), unless a `NNNN_name.postgresql.sql` beside it says it differently for PostgreSQL."""
    folder = folder if folder is not None else resources.files("bot.storage") / "migrations"
    shared: dict[int, str] = {}
    special: dict[int, str] = {}
    for entry in folder.iterdir():
        name = entry.name
        if not name.endswith(".sql"):
            continue
        number = int(name.split("_", 1)[0])
        text = entry.read_text(encoding="utf-8")
        if name.endswith(f".{POSTGRESQL}.sql"):
            special[number] = text
        elif name.count(".") == 1:
            shared[number] = text
    found = []
    for number in sorted(shared):
        if dialect == POSTGRESQL:
            found.append((number, special.get(number) or postgres_ddl(shared[number])))
        else:
            found.append((number, shared[number]))
    return found


def split_sql(script: str) -> list[str]:
    lines = [line for line in script.splitlines() if not line.strip().startswith("--")]
    return [statement.strip() for statement in "\n".join(lines).split(";") if statement.strip()]
