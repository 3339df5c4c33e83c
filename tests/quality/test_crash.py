"""Crash safety: the bot process is SIGKILLed while moves are being applied, then restarted.

The emulator runs in the test; the bot is a real `python -m bot` subprocess on a SQLite file. Every
move whose interaction got a ✅ answer must be in the action log exactly once, the snapshot must be
the replay of the log, the restarted bot must announce what the dead one could not, and play goes on.
`QUALITY_LONG=1` runs more kill cycles.
"""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path

from bot.app.service import GameService
from bot.emulator.server import FakeDiscord
from bot.storage.store import Store
from rules import registry
from tests.quality.support import BotProcess, moves_at_once, shows_move, turn_messages, until

LONG = bool(os.environ.get("QUALITY_LONG"))
CYCLES = 8 if LONG else 2
GAME = "iron-bridge-gorge"  # the subprocess has only the real games, not the test game


async def test_sigkill_during_moves_loses_no_acknowledged_move_and_play_continues(tmp_path: Path) -> None:
    server = FakeDiscord()
    await server.start()
    bot = BotProcess(server, tmp_path)
    try:
        guild = server.add_guild("Crash")
        channel = server.add_channel(guild, "table")
        users = [server.user(server.add_user(name)) for name in ("alice", "bob", "carol")]
        await bot.start()
        alice = users[0]
        opened = await alice.slash(channel, "game new", game=GAME, seed=7)
        assert not opened.ephemeral, opened.content
        for user in users[1:]:
            assert not (await user.slash(channel, "game join")).ephemeral
        assert "has started" in (await alice.slash(channel, "game start")).content
        await until(lambda: bool(turn_messages(server, channel)), what="the first turn message")

        rng = random.Random(11)
        acknowledged: list[int] = []
        for _cycle in range(CYCLES):
            for _ in range(3):
                acknowledged += await moves_at_once(users, server, channel, rng)
            # Kill the process at a random moment while the next moves are in flight.
            in_flight = asyncio.create_task(moves_at_once(users, server, channel, rng))
            await asyncio.sleep(rng.uniform(0.0, 0.15))
            bot.kill()
            acknowledged += await in_flight
            await bot.start()
        after_restart = []
        for _ in range(4):
            after_restart += await moves_at_once(users, server, channel, rng)
        assert after_restart, "no move was confirmed after the last restart"
        acknowledged += after_restart
        assert len(acknowledged) >= 3 * CYCLES, "too few moves were confirmed to test anything"

        store = await Store.open(bot.db_path)
        try:
            game = await store.latest_game_in(channel)
            assert game is not None
            log = await store.actions(game.id)
            assert [record.version for record in log] == list(range(1, game.version + 1))
            ids = [record.interaction_id for record in log]
            assert len(ids) == len(set(ids)), "an interaction was applied twice"
            missing = set(acknowledged) - set(ids)
            assert not missing, f"confirmed moves missing from the log: {missing}"
            assert len(acknowledged) == len(set(acknowledged))
            print(
                f"\nconfirmed {len(acknowledged)}, logged {len(ids)}, unconfirmed but logged {len(set(ids) - set(acknowledged))}, errors {len(server.errors)}"
            )
            states = await GameService(store).replay(game)
            assert registry.get(GAME).dump_state(states[-1]) == game.state, (
                "the snapshot is not the replay of the log"
            )
            # The restarted bot announced every committed move (its outbox resumed what the dead one owed).
            last = log[-1]
            await until(
                lambda: shows_move(server, channel, last), what=f"the turn message of move {game.version}"
            )
        finally:
            await store.close()
        unexpected = [e for e in server.errors if "not acknowledged" not in e and "10062" not in e]
        assert not unexpected, unexpected
    finally:
        bot.stop()
        await server.stop()
