"""The operator's commands: `ironhost backup`, `ironhost restore`, `ironhost invite`.

Each prints what it did in plain sentences and exits 0 on success, 1 when it found a problem (a game
that does not replay), 2 when it refused to start (nothing written)."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from bot.storage import backup
from bot.storage.store import Store


def back_up(url: str, path: str) -> int:
    try:
        summary = backup.backup(url, path)
    except backup.BackupRefused as reason:
        print(f"No backup was made: {reason}", file=sys.stderr)
        return 2
    print(f"Backed up {summary.describe()}")
    return 0


def restore(path: str, url: str) -> int:
    source = Path(path)
    if not source.is_file():
        print(f"Nothing was restored: there is no backup at {source}.", file=sys.stderr)
        return 2
    return asyncio.run(_restore(source, url))


async def _restore(source: Path, url: str) -> int:
    """Check the backup by replaying every game (on a scratch copy: opening a backup of an older
    version upgrades its schema, which must not change the backup itself), then copy it in."""
    from bot.app.service import GameService
    from bot.migrate import MigrationRefused, migrate, print_report, replay_problem

    with tempfile.TemporaryDirectory(prefix="ironhost-restore-") as scratch:
        copy = Path(scratch) / "backup.db"
        # Through SQLite, not a file copy: a database still in WAL mode keeps recent pages beside it.
        await asyncio.to_thread(backup.backup, source, copy)
        copy_url = f"sqlite:///{copy}"
        store = await Store.open(copy_url)
        try:
            service = GameService(store)
            problems = []
            for game_id in await store.game_ids():
                game = await store.game(game_id)
                assert game is not None
                problem = await replay_problem(service, game)
                if problem is not None:
                    problems.append(f"game #{game.id} ({game.kind}): {problem}")
        finally:
            await store.close()
        if problems:
            print("Nothing was restored: these games do not replay to their stored state:", file=sys.stderr)
            for line in problems:
                print(f"  * {line}", file=sys.stderr)
            return 1
        try:
            report = await migrate(copy_url, url, say=lambda _: None)
        except (MigrationRefused, ValueError, RuntimeError) as reason:
            print(f"Nothing was restored: {reason}", file=sys.stderr)
            return 2
    print_report(report, str(source), url)
    return 0 if report.ok else 1


def invite(client_id: int | None, token: str) -> int:
    from bot.interface.permissions import application_id_from_token, invite_text

    print(invite_text(client_id or application_id_from_token(token)))
    return 0
