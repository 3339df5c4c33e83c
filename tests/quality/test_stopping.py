"""Stopping the bot as a supervisor does: SIGTERM drains and exits 0; no process outlives the bot.

`docker stop`, systemd and Kubernetes send SIGTERM and SIGKILL a few seconds later; honcho and plain
restart loops kill only the main process. The bot runs as a real `python -m bot` subprocess with a
render worker process against the emulator, so the fork server, the worker and multiprocessing's
resource tracker all exist when it is stopped.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from bot.emulator.server import FakeDiscord
from tests.e2e.harness import world
from tests.quality.support import BotProcess, turn_messages, until

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="counts processes through /proc")

GAME = "iron-bridge-gorge"


def descendants(pid: int) -> set[int]:
    """Every process below `pid` (children, their children...), read from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
    found: set[int] = set()
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        children = {child for child, ppid in parents.items() if ppid == parent}
        frontier.extend(children - found)
        found |= children
    return found


def alive(pids: set[int]) -> set[int]:
    """The pids still running (a zombie has exited: it only waits for its parent to read its status)."""
    running = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            running.add(pid)
    return running


async def wait_gone(pids: set[int], seconds: float = 8.0) -> set[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not alive(pids):
            return set()
        await asyncio.sleep(0.05)
    return alive(pids)


async def workers_up(bot: BotProcess) -> None:
    """The fork server, its worker and the resource tracker: started with the bot, ready seconds later
    (the fork server imports the rules and renderer first)."""
    await until(lambda: len(descendants(bot.process.pid)) >= 3, what="the worker processes", timeout=60)


async def open_game(server: FakeDiscord) -> tuple[int, list]:
    guild = server.add_guild("Stops")
    channel = server.add_channel(guild, "table")
    users = [server.user(server.add_user(name)) for name in ("alice", "bob", "carol")]
    return channel, users


async def start_game(server: FakeDiscord, channel: int, users: list) -> None:
    alice = users[0]
    assert not (await alice.slash(channel, "game new", game=GAME, seed=7)).ephemeral
    for user in users[1:]:
        assert not (await user.slash(channel, "game join")).ephemeral
    assert "has started" in (await alice.slash(channel, "game start")).content
    await until(lambda: bool(turn_messages(server, channel)), what="the first turn message", timeout=30)


def pending_rows(db_path: Path) -> int:
    with sqlite3.connect(db_path) as db:
        return db.execute("SELECT COUNT(*) FROM outbox WHERE status = 'pending'").fetchone()[0]


async def test_sigterm_exits_zero_in_time_and_keeps_undelivered_rows_for_the_next_start(
    tmp_path: Path,
) -> None:
    """SIGTERM while Discord refuses every channel post: the bot exits 0 within its STOP_TIMEOUT, the
    undelivered turn post stays in the outbox, and the next start posts it; no child process is left."""
    server = FakeDiscord()
    await server.start()
    bot = BotProcess(server, tmp_path, render_processes=1)
    try:
        channel, users = await open_game(server)
        await bot.start()
        await workers_up(bot)
        await start_game(server, channel, users)
        posts_before = len(turn_messages(server, channel))
        children = descendants(bot.process.pid)
        assert children, "the render worker pool should have started its processes"

        server.faults.add("POST", r"/channels/\d+/messages", status=503, times=None)
        # A move whose turn post Discord will not take: the handoff to the next player.
        carol = users[2]
        assert (await carol.slash(channel, "game status")).ephemeral
        await server.settle()
        # Stop while the courier is retrying.
        started = time.monotonic()
        bot.process.send_signal(signal.SIGTERM)
        code = await asyncio.to_thread(bot.process.wait, 20)
        took = time.monotonic() - started
        assert code == 0, bot.log_text()
        assert took < 10 + 3, f"the stop took {took:.1f}s"
        assert "SIGTERM received" in bot.log_text()
        assert await wait_gone(children) == set(), f"processes left: {alive(children)}"

        server.faults.clear()
        await bot.start()
        await until(lambda: pending_rows(bot.db_path) == 0, what="the outbox emptied", timeout=30)
        assert len(turn_messages(server, channel)) >= posts_before
    finally:
        bot.stop()
        await server.stop()


async def test_a_stop_with_a_turn_post_owed_delivers_it_before_exiting(tmp_path: Path) -> None:
    """A move made just before SIGTERM: its turn post goes out during the stop, not at the next start."""
    server = FakeDiscord()
    await server.start()
    bot = BotProcess(server, tmp_path)
    try:
        channel, users = await open_game(server)
        await bot.start()
        await start_game(server, channel, users)
        bot.process.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(bot.process.wait, 20) == 0, bot.log_text()
        assert pending_rows(bot.db_path) == 0
    finally:
        bot.stop()
        await server.stop()


async def test_sigkill_leaves_no_process_behind(tmp_path: Path) -> None:
    """However the bot dies, its fork server, render workers and resource tracker go with it."""
    server = FakeDiscord()
    await server.start()
    bot = BotProcess(server, tmp_path, render_processes=1)
    try:
        channel, users = await open_game(server)
        left: set[int] = set()
        for cycle in range(3):
            await bot.start()
            await workers_up(bot)
            if cycle == 0:
                await start_game(server, channel, users)
            else:  # a picture drawn in the worker, so the worker is busy-capable, not just started
                assert (await users[2].slash(channel, "board")).ephemeral
            children = descendants(bot.process.pid)
            bot.kill()
            left |= await wait_gone(children)
        assert left == set(), f"{len(left)} processes outlived the bot"
    finally:
        bot.stop()
        await server.stop()


async def test_while_stopping_every_interaction_is_answered_restarting_and_changes_nothing(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        opened = await alice.slash(table, "game new", game="test-highcard", seed=3)
        lobby = w.last_public()
        w.bot.lifecycle.stopping = True
        refused = await bob.slash(table, "game join")
        assert refused.ephemeral and "restarting" in refused.content
        join = next(
            component["custom_id"]
            for row in lobby.components
            for component in row["components"]
            if component.get("label") == "Join"
        )
        clicked = await bob.click(lobby.id, join)
        assert clicked.ephemeral and "restarting" in clicked.content
        w.bot.lifecycle.stopping = False
        status = await alice.slash(table, "game status")
        assert "bob" not in status.content, "a refused interaction changed the game"
        assert not opened.ephemeral
