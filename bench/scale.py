"""Scale-out: moves per second and move latency with many active games, per store and process count.

One run measures, side by side: SQLite with one bot process, then PostgreSQL with 1, 2 and 4 bot
processes (one shard each, `SHARD_COUNT`/`SHARD_IDS`), every configuration with the same number of
concurrently active games spread over guilds on every shard. Each channel plays its moves back to
back (no thinking time), so the figures are the capacity of the configuration on this machine, and
the latency is what a player waits under that load. Pictures are stubbed (`bench.bot_no_render`):
drawing boards is the same work whatever the store, and would hide the store's part.

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

from bench.bot_process import BotProcess
from bench.machine import percentile
from bench.platform_speed import TurnWatcher, _one_move
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


async def _configuration(database_url: str, processes: int, games: int, moves: int, game: str) -> dict:
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
            )
            for index in range(processes)
        ]
        for bot in bots:
            await bot.start()
        watcher = TurnWatcher(server)

        async def open_table(index: int) -> None:
            host, guest = users[2 * index], users[2 * index + 1]
            await host.slash(channels[index], "game new", game=game, seed=index)
            await guest.slash(channels[index], "game join")
            await host.slash(channels[index], "game start")

        started = time.perf_counter()
        for first in range(0, games, 50):
            await asyncio.gather(*(open_table(i) for i in range(first, min(games, first + 50))))
        while len(watcher.latest) < games and time.perf_counter() - started < 900:  # noqa: ASYNC110
            await asyncio.sleep(0.1)
        await server.settle(quiet=0.5, timeout=900)
        latencies: dict[str, list[float]] = {
            "menu (Take my turn)": [],
            "move (first response)": [],
            "move + board posted": [],
        }

        async def channel_loop(index: int) -> None:
            rng = random.Random(index)
            table = [users[2 * index], users[2 * index + 1]]
            await asyncio.sleep(rng.random())
            for _ in range(moves):
                if not await _one_move(watcher, channels[index], table, rng, latencies):
                    return

        start = time.perf_counter()
        await asyncio.gather(*(channel_loop(i) for i in range(games)))
        elapsed = time.perf_counter() - start
        await server.settle(quiet=0.5, timeout=600)
        late = [e for e in server.errors if "not acknowledged" in e or "10062" in e]
        watcher.stop()
        for bot in bots:
            bot.stop()
        await server.stop()
    first = latencies["move (first response)"]
    return {
        "moves": len(first),
        "rate": len(first) / elapsed,
        "p50": percentile(first, 0.5),
        "p99": percentile(first, 0.99),
        "posted_p99": percentile(latencies["move + board posted"], 0.99),
        "late": len(late),
    }


def run(
    games: int = 1000, moves: int = 3, game: str = "iron-bridge-gorge", processes: tuple[int, ...] = (1, 2, 4)
) -> None:
    rows: list[tuple[str, dict]] = []
    with tempfile.TemporaryDirectory() as folder:
        rows.append(
            (
                "SQLite, 1 process",
                asyncio.run(_configuration(f"sqlite:///{folder}/scale.db", 1, games, moves, game)),
            )
        )
    postgres = ThrowawayPostgres()
    try:
        postgres.start()
    except (subprocess.CalledProcessError, FileNotFoundError) as problem:
        print(f"\nScale-out: PostgreSQL could not be started here ({problem}); SQLite only.")
        postgres = None  # type: ignore[assignment]
    try:
        for count in processes if postgres else ():
            url = postgres.database(f"scale_{count}")
            label = f"PostgreSQL, {count} process{'es' if count > 1 else ''}"
            rows.append((label, asyncio.run(_configuration(url, count, games, moves, game))))
    finally:
        if postgres:
            postgres.stop()
    print(
        f"\nScale-out: {games} active {game} games at once, {moves} moves each back to back, pictures stubbed;"
        " one shard per process, guilds on every shard"
    )
    print(f"  {'configuration':<24}{'moves/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'posted p99':>12}{'late':>6}")
    for label, row in rows:
        print(
            f"  {label:<24}{row['rate']:>9.1f}{row['p50']:>9.0f}{row['p99']:>9.0f}"
            f"{row['posted_p99']:>12.0f}{row['late']:>6}"
        )
