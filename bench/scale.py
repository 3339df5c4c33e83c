"""Scale-out: moves per second and move latency with many active games, per store and process count.

One run measures, side by side: SQLite with one bot process, then PostgreSQL with 1, 2 and 4 bot
processes (one shard each, `SHARD_COUNT`/`SHARD_IDS`), every configuration with the same number of
active games spread over guilds on every shard. Two loads: paced (each game moves once at a random
moment of a window, an open load like real tables) for the latency a player sees, and capacity (a
few players moving back to back, round the games) for the moves per second the configuration can
serve. Pictures are stubbed (`bench.bot_no_render`): drawing boards is the same work whatever the
store, and would hide the store's part.

Everything shares one machine: the emulator and the simulated players run in the bench's process,
PostgreSQL and the bot processes beside it. With 2 cores, more processes cannot add cores; the
figures show what the second store and the sharding cost and allow, not a cluster's capacity.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import tempfile
import time
from pathlib import Path

from bench.baseline import CURRENT, Checkout, short
from bench.bot_process import BotProcess
from bench.machine import percentile
from bench.platform_speed import TurnWatcher, _one_move, fresh_latencies, open_tables
from bot.emulator.driver import InteractionFailed
from bot.emulator.server import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent
GUILDS_PER_SHARD = 2


class ThrowawayPostgres:
    """A PostgreSQL cluster for the bench, through the same script CI uses (`.ci/postgres`)."""

    def __init__(self) -> None:
        self.url: str | None = None
        self.data: str | None = None

    def start(self) -> str:
        env = dict(os.environ, PG_DURABLE="1")
        done = subprocess.run(
            ["bash", str(ROOT / ".ci" / "postgres"), "start", "--no-install"],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        for line in done.stdout.splitlines():
            name, _, value = line.removeprefix("export ").partition("=")
            if name == "TEST_POSTGRES_URL":
                self.url = value
            elif name == "TEST_POSTGRES_DATA":
                self.data = value
        assert self.url is not None, done.stderr
        return self.url

    def database(self, name: str) -> str:
        assert self.url is not None
        base = self.url.rsplit("/", 1)[0]
        subprocess.run(
            ["psql", f"{base}/postgres", "-qc", f"CREATE DATABASE {name}"], check=True, capture_output=True
        )
        return f"{base}/{name}"

    def stop(self) -> None:
        if self.data:
            subprocess.run(["bash", str(ROOT / ".ci" / "postgres"), "stop", self.data], capture_output=True)


async def _configuration(
    database_url: str,
    processes: int,
    games: int,
    game: str,
    window: float,
    workers: int,
    capacity_moves: int,
    checkout: Checkout = CURRENT,
) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        server = FakeDiscord(shard_count=processes)
        await server.start()
        guilds = [
            server.add_guild(f"Bench {i}", shard=i % processes) for i in range(GUILDS_PER_SHARD * processes)
        ]
        channels = [server.add_channel(guilds[i % len(guilds)], f"t{i}") for i in range(games)]
        users = [server.user(server.add_user(f"u{index}")) for index in range(games * 2)]
        bots = [
            BotProcess(
                server,
                Path(folder),
                Path(folder) / "bench.db",
                render_processes=0,
                module="bench.bot_no_render",
                database_url=database_url,
                shards=(processes, index) if processes > 1 else None,
                source=checkout.source,
            )
            for index in range(processes)
        ]
        for bot in bots:
            await bot.start()
        watcher = TurnWatcher(server)
        await open_tables(server, watcher, channels, users, game, timeout=900)
        paced = await _paced(watcher, channels, users, window)
        capacity = await _capacity(watcher, channels, users, workers, capacity_moves)
        await server.settle(quiet=0.5, timeout=600)
        late = [e for e in server.errors if "not acknowledged" in e or "10062" in e]
        watcher.stop()
        for bot in bots:
            bot.stop()
        await server.stop()
    return {"paced": paced, "capacity": capacity, "late": len(late), "source": bots[0].describe_source()}


def _summary(latencies: dict[str, list[float]], elapsed: float, failed: int) -> dict:
    first = latencies["move (first response)"]
    return {
        "rate": len(first) / elapsed,
        "p50": percentile(first, 0.5),
        "p99": percentile(first, 0.99),
        "posted_p99": percentile(latencies["move + board posted"], 0.99),
        "failed": failed,
    }


async def _paced(watcher: TurnWatcher, channels: list[int], users: list, window: float) -> dict:
    """Every game makes one move at a random moment of the window: an open load of games/window."""
    latencies, failed = fresh_latencies(), 0

    async def one(index: int) -> None:
        nonlocal failed
        rng = random.Random(index)
        await asyncio.sleep(rng.uniform(0, window))
        try:
            await _one_move(watcher, channels[index], users[2 * index : 2 * index + 2], rng, latencies)
        except (InteractionFailed, AssertionError):
            failed += 1

    start = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(len(channels))))
    return _summary(latencies, time.perf_counter() - start, failed)


async def _capacity(watcher: TurnWatcher, channels: list[int], users: list, workers: int, total: int) -> dict:
    """`workers` players moving back to back, each in the next game of the round: the capacity."""
    latencies, failed = fresh_latencies(), 0
    queue = iter(range(total))

    async def worker(number: int) -> None:
        nonlocal failed
        rng = random.Random(number)
        for step in queue:
            index = (step * 7919) % len(channels)
            try:
                await _one_move(watcher, channels[index], users[2 * index : 2 * index + 2], rng, latencies)
            except (InteractionFailed, AssertionError):
                failed += 1

    start = time.perf_counter()
    await asyncio.gather(*(worker(n) for n in range(workers)))
    return _summary(latencies, time.perf_counter() - start, failed)


def run(
    games: int = 1000,
    game: str = "iron-bridge-gorge",
    processes: tuple[int, ...] = (1, 2, 4),
    *,
    window: float = 60.0,
    workers: int = 24,
    capacity_moves: int = 600,
    checkouts: list[Checkout] | None = None,
) -> None:
    """Every configuration, once per checkout (baseline first, then the working tree) when given."""
    checkouts = checkouts or [CURRENT]
    settings = (games, game, window, workers, capacity_moves)
    rows: list[tuple[str, Checkout, dict]] = []
    for checkout in checkouts:
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite:///{folder}/scale.db"
            row = asyncio.run(_configuration(url, 1, *settings, checkout=checkout))
            rows.append(("SQLite, 1 process", checkout, row))
    postgres: ThrowawayPostgres | None = ThrowawayPostgres()
    try:
        postgres.start()
    except (subprocess.CalledProcessError, FileNotFoundError, AssertionError) as problem:
        print(f"\nScale-out: PostgreSQL could not be started here ({problem}); SQLite only.")
        postgres = None
    try:
        for count in processes if postgres else ():
            for number, checkout in enumerate(checkouts):
                url = postgres.database(f"scale_{count}_{number}")
                label = f"PostgreSQL, {count} process{'es' if count > 1 else ''}"
                row = asyncio.run(_configuration(url, count, *settings, checkout=checkout))
                rows.append((label, checkout, row))
    finally:
        if postgres:
            postgres.stop()
    print(
        f"\nScale-out: {games} active {game} games (pictures stubbed; one shard per process, guilds on"
        f" every shard).\n  paced: each game moves once at a random moment of {window:.0f} s"
        f" ({games / window:.0f} moves/s offered); capacity: {workers} players moving back to back,"
        f" {capacity_moves} moves"
    )
    for checkout in checkouts:
        source = next(row["source"] for _, used, row in rows if used == checkout)
        print(f"  {short(checkout)}: {checkout.label}, {source}")
    print(
        f"  {'configuration':<24}{'checkout':<10}{'paced moves/s':>14}{'p50':>7}{'p99 ms':>8}{'posted p99':>11}"
        f"{'capacity moves/s':>18}{'p50':>7}{'p99 ms':>8}{'failed':>8}"
    )
    for label, checkout, row in sorted(rows, key=lambda item: _order(item, rows)):
        paced, capacity = row["paced"], row["capacity"]
        print(
            f"  {label:<24}{short(checkout):<10}{paced['rate']:>14.1f}{paced['p50']:>7.0f}{paced['p99']:>8.0f}"
            f"{paced['posted_p99']:>11.0f}{capacity['rate']:>18.1f}{capacity['p50']:>7.0f}"
            f"{capacity['p99']:>8.0f}{paced['failed'] + capacity['failed']:>8}"
        )


def _order(item: tuple[str, Checkout, dict], rows: list[tuple[str, Checkout, dict]]) -> tuple[int, bool]:
    """Configurations in the order they were run, each configuration's checkouts next to each other."""
    labels = list(dict.fromkeys(label for label, _, _ in rows))
    return labels.index(item[0]), item[1].current
