"""What an operator meets over a season: growth, backups, scrapes, and processes left by hard kills.

`python -m bench --only operations` prints:
- growth: a season of moves (default 100,000 across 10,000 games), each writing its action row and the
  two outbox rows a move owes on average, delivered at once; the database's size and row counts every
  tenth of the way, with the daily pruning (7 days' retention) and without it;
- backup: `ironhost backup` of that database (10,000 stored games): time and size;
- /metrics: one scrape (the outbox backlog query and the Prometheus text) on that database;
- kills: a real bot process with a render worker, SIGKILLed repeatedly, and the processes it left.
Rows are written straight into the store's schema (the move itself is timed by the sqlite section),
so the figures are about the database, not about playing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from bot.app.metrics import Metrics
from bot.storage import backup
from bot.storage.store import Store

DAY = 86400.0


def _schema(path: Path) -> None:
    async def create() -> None:
        await (await Store.open(f"sqlite:///{path}")).close()

    asyncio.run(create())


def _season(
    path: Path, moves: int, games: int, prune: bool, moves_per_day: int
) -> list[tuple[int, int, int, int]]:
    """Write a season of moves; returns (moves so far, file bytes, outbox rows, action rows) per tenth."""
    _schema(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    now_iso = "2026-01-01T00:00:00+00:00"
    db.executemany(
        "INSERT INTO games (id, guild_id, channel_id, kind, status, host_id, options, seed, version, created_at,"
        " updated_at) VALUES (?, 1, ?, 'iron-bridge-gorge', 'active', 1, '{}', ?, 0, ?, ?)",
        [(g, 10_000 + g, g, now_iso, now_iso) for g in range(1, games + 1)],
    )
    db.commit()
    store = None
    samples = []
    versions = [0] * (games + 1)
    payload = json.dumps({"content": "x" * 400, "ping": [1]})
    action = json.dumps({"kind": "pass"})
    clock = 1_800_000_000.0
    for move in range(1, moves + 1):
        game = 1 + (move * 7919) % games
        versions[game] += 1
        version = versions[game]
        clock += DAY / moves_per_day
        db.execute(
            "INSERT INTO actions (game_id, version, seat, user_id, action, events, created_at)"
            " VALUES (?, ?, 0, 1, ?, '[]', ?)",
            (game, version, action, now_iso),
        )
        for kind in ("post", "dm"):
            db.execute(
                "INSERT INTO outbox (game_id, version, kind, target, payload, status, due_at, attempts,"
                " message_id, created_at, sent_at) VALUES (?, ?, ?, 1, ?, 'sent', ?, 1, ?, ?, ?)",
                (game, version, kind, payload, clock, move, now_iso, clock),
            )
        if move % moves_per_day == 0:
            db.commit()
            if prune:
                store = store or _Pruner(path)
                store.prune(clock - 7 * DAY)
        if move % (moves // 10) == 0:
            db.commit()
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            outbox = db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0]
            actions = db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
            samples.append((move, path.stat().st_size, outbox, actions))
    db.commit()
    db.close()
    if store is not None:
        store.close()
    return samples


class _Pruner:
    """The store's own prune (the query the bot runs), on its own connection."""

    def __init__(self, path: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.store = self.loop.run_until_complete(Store.open(f"sqlite:///{path}"))

    def prune(self, before: float) -> None:
        self.loop.run_until_complete(self.store.prune(before))

    def close(self) -> None:
        self.loop.run_until_complete(self.store.close())
        self.loop.close()


def _scrape(path: Path, rounds: int = 50) -> float:
    async def measure() -> float:
        store = await Store.open(f"sqlite:///{path}")
        metrics = Metrics()
        for kind in ("city-of-iron", "iron-bridge-gorge", "iron-and-brass", "city-heroes"):
            metrics.moves.labels(kind).inc(1000)
            metrics.move_seconds.labels(kind).observe(0.01)
        times = []
        try:
            from prometheus_client import generate_latest

            for _ in range(rounds):
                started = time.perf_counter()
                depth, oldest = await store.outbox_backlog(time.time())
                metrics.outbox_depth.set(depth)
                metrics.outbox_oldest_due.set(oldest)
                generate_latest(metrics.registry)
                times.append(time.perf_counter() - started)
        finally:
            await store.close()
        return statistics.median(times) * 1000

    return asyncio.run(measure())


def _kills(cycles: int) -> tuple[int, int]:
    """(processes the bot had below it in all, processes left after each SIGKILL, summed)."""
    from bot.emulator.server import FakeDiscord
    from tests.quality.support import BotProcess
    from tests.quality.test_stopping import alive, descendants, wait_gone, workers_up

    async def run() -> tuple[int, int]:
        server = FakeDiscord(ack_timeout=15.0)  # the stop is measured here, not the 3 s answer (latency)
        await server.start()
        children_seen = 0
        left: set[int] = set()
        with tempfile.TemporaryDirectory() as folder:
            bot = BotProcess(server, Path(folder), render_processes=1)
            try:
                server.add_channel(server.add_guild("Kills"), "table")
                for _ in range(cycles):
                    await bot.start(timeout=120)
                    await workers_up(bot)
                    children = descendants(bot.process.pid)
                    children_seen += len(children)
                    bot.kill()
                    left |= await wait_gone(children)
            finally:
                bot.stop()
                await server.stop()
        return children_seen, len(alive(left))

    return asyncio.run(run())


def _sigterm(channels: int) -> dict[str, float]:
    """`channels` games of Iron Bridge Gorge in play, a wave of moves in every one of them, and a SIGTERM
    while the wave is in flight: how long the stop took, its exit code, confirmed moves missing from the
    log, posts doubled, rows left for the next start (and whether the next start delivered them)."""
    import random
    import signal
    from collections import Counter

    from bot.emulator.server import FakeDiscord
    from tests.quality.support import BotProcess, moves_at_once, turn_messages, until
    from tests.quality.test_stopping import workers_up

    async def run() -> dict[str, float]:
        server = FakeDiscord(ack_timeout=15.0)  # the stop is measured here, not the 3 s answer (latency)
        await server.start()
        figures: dict[str, float] = {}
        with tempfile.TemporaryDirectory() as folder:
            bot = BotProcess(server, Path(folder), render_processes=1)
            try:
                guild = server.add_guild("Stop")
                tables = []
                for number in range(channels):
                    channel = server.add_channel(guild, f"table-{number}")
                    users = [server.user(server.add_user(f"p{number}-{seat}")) for seat in range(3)]
                    tables.append((channel, users))
                await bot.start(timeout=120)
                await workers_up(bot)
                for channel, users in tables:
                    await users[0].slash(channel, "game new", game="iron-bridge-gorge", seed=channel % 1000)
                    for user in users[1:]:
                        await user.slash(channel, "game join")
                    await users[0].slash(channel, "game start")
                await until(
                    lambda: all(turn_messages(server, c) for c, _ in tables), timeout=300, what="turns"
                )
                rng = random.Random(5)
                with sqlite3.connect(bot.db_path) as db:
                    before = db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]

                def moved() -> int:
                    with sqlite3.connect(bot.db_path) as db:
                        return db.execute("SELECT COUNT(*) FROM actions").fetchone()[0] - before

                wave = [asyncio.create_task(moves_at_once(users, server, c, rng)) for c, users in tables]
                # SIGTERM in the middle of the wave: once a quarter of the channels have moved, while
                # the others' presses are still on their way.
                with contextlib.suppress(AssertionError):
                    await until(lambda: moved() >= channels // 4, timeout=60, what="a quarter moved")
                figures["moves logged before SIGTERM"] = moved()
                started = time.monotonic()
                bot.process.send_signal(signal.SIGTERM)
                code = await asyncio.to_thread(bot.process.wait, 60)
                figures["stop seconds"] = time.monotonic() - started
                figures["exit code"] = code
                confirmed = [interaction for found in await asyncio.gather(*wave) for interaction in found]
                with sqlite3.connect(bot.db_path) as db:
                    logged = {row[0] for row in db.execute("SELECT interaction_id FROM actions")}
                    figures["rows left"] = db.execute(
                        "SELECT COUNT(*) FROM outbox WHERE status = 'pending'"
                    ).fetchone()[0]
                figures["moves confirmed in the wave"] = len(confirmed)
                figures["confirmed moves lost"] = len([i for i in confirmed if i not in logged])
                restarted = time.monotonic()
                await bot.start(timeout=120)

                def owed() -> int:
                    with sqlite3.connect(bot.db_path) as db:
                        return db.execute(
                            "SELECT COUNT(*) FROM outbox WHERE status = 'pending' AND due_at <= ?",
                            (time.time(),),
                        ).fetchone()[0]

                with contextlib.suppress(AssertionError):
                    await until(lambda: owed() == 0, timeout=120, what="the rows left delivered")
                figures["rows left after the next start"] = owed()
                figures["seconds until the next start delivered them"] = time.monotonic() - restarted
                doubled = 0
                for channel, _ in tables:
                    posts = Counter(m.content for m in turn_messages(server, channel))
                    doubled += sum(count - 1 for count in posts.values())
                figures["posts doubled"] = doubled
            finally:
                bot.stop()
                await server.stop()
        return figures

    return asyncio.run(run())


def run(moves: int = 100_000, games: int = 10_000, kills: int = 10, channels: int = 20) -> None:
    moves_per_day = max(1, moves // 60)  # a season of about two months
    with tempfile.TemporaryDirectory(prefix="ironhost-ops-") as folder:
        root = Path(folder)
        print(
            f"growth: {moves:,} moves over {games:,} games, {moves_per_day:,} moves a day (2 outbox rows each)"
        )
        pruned = _season(root / "pruned.db", moves, games, True, moves_per_day)
        kept = _season(root / "kept.db", moves, games, False, moves_per_day)
        print(
            f"  {'moves':>9} | {'pruned: MB':>10} {'outbox':>8} {'actions':>8} | {'kept: MB':>9} {'outbox':>8}"
        )
        for (move, size, outbox, actions), (_, size2, outbox2, _) in zip(pruned, kept, strict=True):
            print(
                f"  {move:>9,} | {size / 1e6:>10.1f} {outbox:>8,} {actions:>8,} | {size2 / 1e6:>9.1f} {outbox2:>8,}"
            )
        started = time.perf_counter()
        summary = backup.backup(root / "pruned.db", root / "copy.db")
        took = time.perf_counter() - started
        print(
            f"backup of {sum(summary.games.values()):,} stored games, {summary.moves:,} moves: {took:.2f} s, {summary.size / 1e6:.1f} MB"
        )
        print(
            f"/metrics scrape (backlog query + text) on that database: median {_scrape(root / 'pruned.db'):.2f} ms"
        )
    if channels:
        figures = _sigterm(channels)
        print(
            f"SIGTERM during a wave of moves in {channels} channels: "
            + ", ".join(
                f"{name} {value:g}" if isinstance(value, int) else f"{name} {value:.2f}"
                for name, value in figures.items()
            )
        )
    if kills and os.path.isdir("/proc"):
        seen, left = _kills(kills)
        print(
            f"kills: {kills} SIGKILLs of a bot with a render worker: {seen} child processes in all, {left} left running"
        )
