"""Backups of the SQLite database: consistent copies of a running bot's games.

A season of games lives in one file; a disk that fills, a bad upgrade or a mistaken `rm` must not lose
it. Copying the file with `cp` while the bot writes can catch a half-written page (and misses what is
still in the WAL file), so the copy uses SQLite's online backup API, which copies a consistent
snapshot page by page while the bot keeps writing. The copy is written beside its destination and
renamed into place, so a backup interrupted half-way never leaves a file that looks complete.

PostgreSQL has its own tool for this (`pg_dump`), which the README documents; the bot does not
duplicate it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.storage.database import SQLITE, parse_url


class BackupRefused(Exception):
    """Nothing was written; the message says why in one sentence."""


@dataclass(frozen=True)
class BackupSummary:
    path: Path
    size: int
    schema_version: int
    games: dict[str, int]
    """Games by status (lobby, active, finished, abandoned)."""
    moves: int

    def describe(self) -> str:
        statuses = ", ".join(f"{count} {status}" for status, count in sorted(self.games.items())) or "none"
        total = sum(self.games.values())
        return (
            f"{self.path}: {total} game{'s' if total != 1 else ''} ({statuses}), "
            f"{self.moves} move{'s' if self.moves != 1 else ''}, schema {self.schema_version}, "
            f"{self.size / 1_000_000:.1f} MB"
        )


def sqlite_path(url: str | Path) -> Path:
    """The file behind a SQLite DATABASE_URL; a sentence for anything else."""
    target = parse_url(url)
    if target.dialect != SQLITE:
        raise BackupRefused(
            "this database is PostgreSQL: back it up with pg_dump (see the README's Backups section)."
        )
    if target.location in ("", ":memory:"):
        raise BackupRefused("an in-memory database has nothing on disk to back up.")
    return Path(target.location)


def backup(source: str | Path, destination: str | Path, *, pages_per_step: int = 1024) -> BackupSummary:
    """Copy the SQLite database `source` (a DATABASE_URL or a path) to `destination` consistently,
    even while another process writes to it. Blocking: run it in a thread from async code."""
    origin = sqlite_path(source)
    if not origin.is_file():
        raise BackupRefused(f"there is no database at {origin}.")
    target = Path(destination)
    if target.is_dir() or not target.suffix:  # a folder: the copy is named after the database and time
        target = target / f"{origin.stem}-{datetime.now(UTC):%Y%m%d-%H%M%S}.db"
    if target.resolve() == origin.resolve():
        raise BackupRefused("the backup would overwrite the database itself.")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    with contextlib.suppress(FileNotFoundError):
        partial.unlink()
    # Read-only: a backup must never change the database it copies (nor create one by mistake).
    live = sqlite3.connect(f"file:{origin}?mode=ro", uri=True, timeout=30)
    try:
        copy = sqlite3.connect(partial)
        try:
            live.backup(copy, pages=pages_per_step)
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        finally:
            copy.close()
    finally:
        live.close()
    os.replace(partial, target)
    return summarize(target)


def summarize(path: str | Path) -> BackupSummary:
    """What a database file holds: games by status, moves, schema version and size."""
    file = Path(path)
    db = sqlite3.connect(f"file:{file}?mode=ro", uri=True)
    try:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        games: dict[str, int] = {}
        moves = 0
        version = 0
        if "games" in tables:
            games = dict(db.execute("SELECT status, COUNT(*) FROM games GROUP BY status").fetchall())
        if "actions" in tables:
            moves = db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
        if "schema_version" in tables:
            version = db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0]
    finally:
        db.close()
    return BackupSummary(file, file.stat().st_size, int(version), games, int(moves))


def rotate(folder: Path, stem: str, keep: int) -> list[Path]:
    """Delete all but the `keep` newest backups named `<stem>-*.db` in `folder`; returns those removed."""
    found = sorted(folder.glob(f"{stem}-*.db"), key=lambda path: path.stat().st_mtime, reverse=True)
    removed = found[max(keep, 1) :]
    for path in removed:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
    return removed


def before_migration(url: str | Path, current: int, latest: int) -> BackupSummary | None:
    """The copy taken before migrations upgrade a database that already holds a schema: a failed or
    unwanted upgrade can then be undone by putting the file back. Named after both versions, beside
    the database, and kept (an upgrade is rare)."""
    if not 0 < current < latest:
        return None
    origin = sqlite_path(url)
    name = f"{origin.stem}.before-schema-{latest}-{datetime.now(UTC):%Y%m%d-%H%M%S}.db"
    return backup(origin, origin.with_name(name))
