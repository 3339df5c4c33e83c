"""Crash safety of a computer seat's run (issue 36): the bot process is SIGKILLed right after a
person's move handed the game to the computer, then restarted.

The person's move is committed with its announcement held (nothing posted yet); the computer's moves
are committed one by one, each still held. Whatever the moment of the kill, the restarted bot plays
the rest of the run and posts it exactly once: no post is lost, none is doubled, and none shows the
computer's turn half played. `QUALITY_LONG=1` runs more kill cycles.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
from pathlib import Path

from bot.app.autoplay import automated
from bot.app.service import GameService
from bot.emulator.server import FakeDiscord
from bot.storage.store import Store
from rules import registry
from tests.quality.support import BotProcess, shows_move, try_move, turn_messages, until

LONG = bool(os.environ.get("QUALITY_LONG"))
CYCLES = 8 if LONG else 3
GAME = "iron-and-brass"  # four actions a turn: the computer's run is several moves long


async def _held(bot: BotProcess) -> bool:
    store = await Store.open(bot.db_path)
    try:
        return bool(await store.games_holding_a_run())
    finally:
        await store.close()


async def test_a_bot_killed_during_a_computer_run_posts_the_run_once_after_restart(tmp_path: Path) -> None:
    server = FakeDiscord()
    await server.start()
    bot = BotProcess(server, tmp_path)
    try:
        guild = server.add_guild("Crash")
        channel = server.add_channel(guild, "table")
        alice = server.user(server.add_user("alice"))
        await bot.start(timeout=90)
        opened = await alice.slash(channel, "game new", game=GAME, seed=3, ai=1, options="board_size=10")
        assert not opened.ephemeral, opened.content
        assert "has started" in (await alice.slash(channel, "game start")).content
        await until(lambda: bool(turn_messages(server, channel)), what="the first turn message")
        rng = random.Random(5)
        caught = 0
        for _ in range(CYCLES):
            # alice acts until a move of hers hands the game to the computer; the process dies at once
            for _ in range(12):
                if await try_move(alice, server, channel, rng) is None:
                    await asyncio.sleep(0.2)
                    continue
                if await _held(bot):
                    break
                await asyncio.sleep(0.3)  # her turn goes on: its edit
            bot.kill()
            caught += await _held(bot)
            await bot.start(timeout=90)  # a loaded machine: the start is slow, not the test's point
            await asyncio.sleep(0.5)
        assert caught, "no kill fell inside a computer's run: nothing was tested"

        store = await Store.open(bot.db_path)
        try:
            game = await store.latest_game_in(channel)
            assert game is not None
            rules = registry.get(GAME)
            computers = automated(await store.seats(game.id), None)

            async def run_done() -> bool:
                fresh = await store.game(game.id)
                state = rules.load_state(fresh.state)
                return rules.result(state) is not None or not rules.to_act(state) & computers

            deadline = asyncio.get_running_loop().time() + 30
            while not await run_done():
                assert asyncio.get_running_loop().time() < deadline, "the computer's run was not played on"
                await asyncio.sleep(0.1)
            game = await store.game(game.id)
            log = await store.actions(game.id)
            assert [record.version for record in log] == list(range(1, game.version + 1))
            states = await GameService(store).replay(game)
            assert rules.dump_state(states[-1]) == game.state, "the snapshot is not the replay of the log"
            await until(lambda: shows_move(server, channel, log[-1]), what="the post of the last move")
            posts = turn_messages(server, channel)
            versions = [int(m.group(1)) for p in posts if (m := re.search(r"· move (\d+)", p.content))]
            assert len(versions) == len(set(versions)), f"a post was doubled: {versions}"
            for version in versions:
                state = states[version]
                assert rules.result(state) is not None or not rules.to_act(state) & computers, (
                    f"the post of move {version} shows the computer's turn half played"
                )
            assert all(shows_move(server, channel, record) for record in log), "a move was never posted"
        finally:
            await store.close()
        unexpected = [e for e in server.errors if "not acknowledged" not in e and "10062" not in e]
        assert not unexpected, unexpected
    finally:
        bot.stop()
        await server.stop()
