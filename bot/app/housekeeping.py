"""The work a long-running bot does for its operator: pruning what is delivered, and backups.

A bot that runs for a season must not grow without bound: every move writes about two outbox rows,
which nobody reads once Discord has them. And a season of games must survive one bad disk: with
BACKUP_DIR set, a SQLite database is copied on a schedule (`bot.storage.backup`), keeping the newest
BACKUP_KEEP copies. The last backup's time is stored, so a bot restarted every hour still backs up
once per BACKUP_EVERY_HOURS, not at every start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.storage import backup

log = logging.getLogger(__name__)

LAST_BACKUP = "housekeeping:last-backup"


@dataclass(frozen=True)
class Policy:
    retention_days: float = 7.0
    """Delivered outbox rows older than this are deleted."""
    backup_dir: Path | None = None
    backup_every_hours: float = 24.0
    backup_keep: int = 7
    database_url: str = ""


class Housekeeping:
    def __init__(
        self, store: Any, policy: Policy, *, now: Callable[[], float] = time.time, every: float = 3600.0
    ) -> None:
        self.store = store
        self.policy = policy
        self.now = now
        self.every = every
        self._task: asyncio.Task[None] | None = None

    async def run_once(self) -> dict[str, Any]:
        """One round: prune, then back up if one is due. Returns what was done (logged, and for tests)."""
        done: dict[str, Any] = {
            "pruned": await self.store.prune(self.now() - self.policy.retention_days * 86400)
        }
        if any(done["pruned"].values()):
            log.info(
                "pruned %s", ", ".join(f"{count} {table} rows" for table, count in done["pruned"].items())
            )
        if await self._backup_due():
            done["backup"] = await self.back_up()
        return done

    async def _backup_due(self) -> bool:
        if self.policy.backup_dir is None:
            return False
        last = await self.store.get_setting(LAST_BACKUP)
        return last is None or self.now() - float(last) >= self.policy.backup_every_hours * 3600

    async def back_up(self) -> backup.BackupSummary | None:
        """A scheduled copy into BACKUP_DIR, then the oldest copies beyond BACKUP_KEEP removed."""
        folder = self.policy.backup_dir
        assert folder is not None
        try:
            summary = await asyncio.to_thread(backup.backup, self.policy.database_url, folder)
        except (backup.BackupRefused, OSError) as reason:
            log.error("scheduled backup failed: %s", reason)
            return None
        await self.store.set_setting(LAST_BACKUP, repr(self.now()))
        stem = backup.sqlite_path(self.policy.database_url).stem
        removed = await asyncio.to_thread(backup.rotate, folder, stem, self.policy.backup_keep)
        log.info("backed up %s (%d old copies removed)", summary.describe(), len(removed))
        return summary

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="housekeeping")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while True:
            try:
                await self.run_once()
            except asyncio.CancelledError:
                raise
            except Exception:  # a busy or lost database: try again next round
                log.exception("housekeeping failed; trying again later")
            await asyncio.sleep(self.every)
