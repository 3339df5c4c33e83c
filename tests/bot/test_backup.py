"""Backups, restores and pruning: a season of games survives a bad disk and does not grow for ever.

Games are real games played through the GameService (`tests/bot/test_migrate.fill`); the backup is
taken while moves keep being made, and the restore proves every game by replaying it.
"""

from __future__ import annotations

import asyncio
import glob
import json
import random
import sqlite3
import time
from pathlib import Path

from bot.__main__ import main
from bot.app.housekeeping import LAST_BACKUP, Housekeeping, Policy
from bot.app.service import GameService
from bot.storage import backup
from bot.storage.records import Delivery, GameStatus
from bot.storage.store import Store
from tests.bot.test_migrate import ALICE, BOB, fill


async def _storm(service: GameService, stop: asyncio.Event, seed: int) -> int:
    """Random legal moves in every active game until `stop`; returns how many were made."""
    rng = random.Random(seed)
    made = 0
    while not stop.is_set():
        progressed = False
        for game_id in await service.store.game_ids():
            game = await service.store.game(game_id)
            if game.status != GameStatus.ACTIVE:
                continue
            seat = min(await service.to_act(game))
            choices = await service.choices(game, seat)
            await service.play(game_id, (ALICE, BOB)[seat], key=rng.choice(choices).key)
            made += 1
            progressed = True
        if not progressed:
            # Everything finished: open and start a new game so the storm goes on.
            channel = 5000 + made
            await service.new_game(
                kind="test-highcard", guild_id=1, channel_id=channel, user_id=ALICE, name="alice",
                options={"rounds": 3}, seed=made,
            )  # fmt: skip
            await service.join(channel, BOB, "bob")
            await service.start(channel, ALICE)
        await asyncio.sleep(0)
    return made


async def test_a_backup_taken_during_a_storm_of_moves_restores_and_every_game_replays(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"
    store = await fill(url, count=10)
    service = GameService(store)
    stop = asyncio.Event()
    storm = asyncio.create_task(_storm(service, stop, seed=3))
    await asyncio.sleep(0.2)
    # Small steps, so the copy interleaves with the moves being committed.
    summary = await asyncio.to_thread(backup.backup, url, tmp_path / "backups", pages_per_step=1)
    await asyncio.sleep(0.1)
    stop.set()
    made = await storm
    await store.close()
    assert made > 0
    assert summary.path.parent == tmp_path / "backups" and summary.path.is_file()
    assert not list((tmp_path / "backups").glob("*.partial"))
    assert summary.moves > 0 and sum(summary.games.values()) >= 10

    restored = tmp_path / "restored.db"
    assert (
        await asyncio.to_thread(main, ["restore", str(summary.path), "--database", f"sqlite:///{restored}"])
        == 0
    )
    assert backup.summarize(restored).games == summary.games
    assert backup.summarize(restored).moves == summary.moves


def test_backup_prints_what_it_holds_and_refuses_what_it_cannot_copy(tmp_path: Path, capsys) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"

    async def prepare() -> None:
        await (await fill(url, count=3)).close()

    asyncio.run(prepare())
    assert main(["backup", str(tmp_path / "copy.db"), "--database", url]) == 0
    out = capsys.readouterr().out
    assert "copy.db: 3 games" in out and "moves" in out
    assert main(["backup", str(tmp_path / "x.db"), "--database", "postgresql://u@h/db"]) == 2
    assert "pg_dump" in capsys.readouterr().err
    assert main(["backup", str(tmp_path / "y.db"), "--database", f"sqlite:///{tmp_path / 'none.db'}"]) == 2
    assert "there is no database" in capsys.readouterr().err
    assert main(["backup", str(tmp_path / "live.db"), "--database", url]) == 2
    assert not (tmp_path / "none.db").exists(), "a backup must not create the database it was asked to copy"


def test_restore_refuses_a_backup_with_a_game_that_does_not_replay_and_writes_nothing(
    tmp_path, capsys
) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"

    async def prepare() -> None:
        await (await fill(url, count=3)).close()

    asyncio.run(prepare())
    with sqlite3.connect(tmp_path / "live.db") as db:  # a snapshot changed behind the log's back
        state = json.loads(db.execute("SELECT state FROM games WHERE id = 1").fetchone()[0])
        state["round"] = state.get("round", 0) + 5
        db.execute("UPDATE games SET state = ? WHERE id = 1", (json.dumps(state),))
    target = tmp_path / "target.db"
    assert main(["restore", str(tmp_path / "live.db"), "--database", f"sqlite:///{target}"]) == 1
    assert "game #1" in capsys.readouterr().err
    assert not target.exists()
    assert main(["restore", str(tmp_path / "nothing.db"), "--database", f"sqlite:///{target}"]) == 2


def test_restore_into_a_database_that_holds_games_is_refused(tmp_path, capsys) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"

    async def prepare() -> None:
        await (await fill(url, count=2)).close()

    asyncio.run(prepare())
    assert main(["backup", str(tmp_path / "copy.db"), "--database", url]) == 0
    assert main(["restore", str(tmp_path / "copy.db"), "--database", url]) == 2
    assert "already holds games" in capsys.readouterr().err


async def test_an_upgrade_backs_up_the_database_first(tmp_path: Path) -> None:
    """A database one migration behind is copied before the migration runs; a fresh one is not."""
    path = tmp_path / "old.db"
    await (await fill(f"sqlite:///{path}", count=2)).close()
    assert not glob.glob(str(tmp_path / "old.before-schema-*.db"))
    latest = backup.summarize(path).schema_version
    with sqlite3.connect(path) as db:  # as the previous release left it
        db.execute("DROP TABLE imports")
        db.execute("DELETE FROM schema_version WHERE version = ?", (latest,))
    store = await Store.open(f"sqlite:///{path}")
    await store.close()
    copies = glob.glob(str(tmp_path / f"old.before-schema-{latest}-*.db"))
    assert len(copies) == 1
    before = backup.summarize(copies[0])
    assert before.schema_version == latest - 1 and sum(before.games.values()) == 2
    assert backup.summarize(path).schema_version == latest


async def test_pruning_keeps_the_live_post_and_pending_games_and_drops_the_rest(tmp_path: Path) -> None:
    store = await Store.open(f"sqlite:///{tmp_path / 'g.db'}")
    try:
        games = [
            (
                await store.create_game(
                    kind="test-highcard",
                    guild_id=1,
                    channel_id=10 + n,
                    host_id=ALICE,
                    host_name="a",
                    options={},
                    seed=n,
                )  # fmt: skip
            ).id
            for n in range(3)
        ]
        now = time.time()
        for game_id in games[:2]:
            for version in range(1, 6):
                await store.enqueue(
                    game_id, version, [Delivery(kind="post", target=1, payload={"content": "x"}, due_at=now)]
                )
        rows = [row for game_id in games[:2] for row in await store.outbox(game_id)]
        for row in rows:
            await store.outbox_done(row.id, message_id=10_000 + row.id)
        # A third game still has a post owed: nothing of it may go.
        await store.enqueue(games[2], 1, [Delivery(kind="post", target=1, payload={}, due_at=now)])
        await store.enqueue(games[2], 2, [Delivery(kind="post", target=1, payload={}, due_at=now)])
        first = (await store.outbox(games[2]))[0]
        await store.outbox_done(first.id, message_id=7)

        assert (await store.prune(now - 3600))["outbox"] == 0, "nothing is older than the retention"
        pruned = await store.prune(time.time() + 1)
        assert pruned["outbox"] == 8  # 2 games x 5 posts, less each game's latest
        for game_id in games[:2]:
            left = await store.outbox(game_id)
            assert [row.version for row in left] == [5]
            assert await store.live_message(game_id, left[0].id + 1) == (1, 10_000 + left[0].id)
        assert len(await store.outbox(games[2])) == 2
    finally:
        await store.close()


async def test_scheduled_backups_happen_once_per_period_and_keep_the_newest(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    store = await fill(url, count=2)
    clock = [1_000_000.0]
    policy = Policy(backup_dir=tmp_path / "b", backup_every_hours=24, backup_keep=2, database_url=url)
    keeper = Housekeeping(store, policy, now=lambda: clock[0])
    try:
        made = []
        for hours in (0, 1, 23, 24, 48, 49, 72):
            clock[0] = 1_000_000.0 + hours * 3600
            done = await keeper.run_once()
            made.append("backup" in done)
            await asyncio.sleep(1.05) if done.get("backup") else None  # distinct names (seconds)
        assert made == [True, False, False, True, True, False, True]
        assert len(list((tmp_path / "b").glob("g-*.db"))) == 2
        assert float(await store.get_setting(LAST_BACKUP)) == clock[0]
    finally:
        await store.close()


async def test_a_migration_changed_after_it_was_applied_refuses_the_start(tmp_path: Path, capsys) -> None:
    """The database remembers each applied migration's checksum; a changed file is one sentence."""
    from bot.storage.store import SchemaMismatch

    path = tmp_path / "g.db"
    await (await Store.open(f"sqlite:///{path}")).close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM schema_checksums").fetchone()[0] >= 5
        db.execute("UPDATE schema_checksums SET sha256 = 'edited' WHERE version = 2")
    try:
        await Store.open(f"sqlite:///{path}")
    except SchemaMismatch as refused:
        assert "migration 0002 was changed" in str(refused)
    else:
        raise AssertionError("a changed migration was accepted")
    # A database from before checksums were kept gets them at its next start.
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE schema_checksums")
    await (await Store.open(f"sqlite:///{path}")).close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM schema_checksums").fetchone()[0] >= 5
