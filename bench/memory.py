"""Memory: the RSS of a `python -m bot` process serving 10,000 stored games, 1,000 of them active.

The games are written straight through the Store (lobby, four seats, a mid-game snapshot, the turn
message already posted so the bot owes no catch-up), finished ones closed with a result. The bot is
then started on that database and `/game status` is asked in every active channel, which loads each
active game's state into the bot's state cache: the memory of a bot whose active games are all warm.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path

from bench.bot_process import BotProcess
from bench.rules_speed import random_game
from bot.emulator.server import FakeDiscord
from bot.storage.store import GameStatus, Store
from rules import registry


async def stored_games(stored: int = 10_000, active: int = 1_000, game_id: str = "iron-bridge-gorge") -> None:
    game = registry.get(game_id)
    players = max(game.info.min_players, min(4, game.info.max_players))
    with tempfile.TemporaryDirectory() as folder:
        server = FakeDiscord()
        await server.start()
        guild = server.add_guild("Memory")
        channels = [server.add_channel(guild, f"a{i}") for i in range(active)]
        users = [server.add_user(f"p{i}") for i in range(players)]
        db_path = Path(folder) / "memory.db"

        # A few real positions to store: mid-game and finished states of random games.
        samples = [random_game(game, players, seed) for seed in range(8)]
        middles = [game.dump_state(states[len(states) // 2]) for states in samples]
        finals = [(game.dump_state(states[-1]), game.result(states[-1])) for states in samples]

        build_start = time.perf_counter()
        store = await Store.open(db_path)
        rng = random.Random(1)
        for index in range(stored):
            is_active = index < active
            channel = channels[index] if is_active else 10**15 + index
            record = await store.create_game(
                kind=game_id,
                guild_id=guild,
                channel_id=channel,
                host_id=users[0],
                host_name="p0",
                options=game.resolve_options({}),
                seed=index,
            )
            for seat in range(1, players):
                await store.add_seat(record.id, users[seat], f"p{seat}", game.info.max_players)
            if is_active:
                state = rng.choice(middles)
                await store.start_game(record.id, state)
            else:
                state, result = rng.choice(finals)
                await store.start_game(record.id, state)
                await store.set_status(
                    record.id, GameStatus.FINISHED, result=result.model_dump_json() if result else None
                )
            await store.remember_message(record.id, "turn", channel, 10**16 + index, 0)
        await store.close()
        build = time.perf_counter() - build_start
        size_mb = sum(p.stat().st_size for p in Path(folder).glob("memory.db*")) / 1024 / 1024  # noqa: ASYNC240

        bot = BotProcess(server, Path(folder), db_path)
        await bot.start()
        await server.settle(quiet=1.0, timeout=120)
        idle = bot.rss_mb()
        status = server.user(users[0])
        warm_start = time.perf_counter()
        for first in range(0, active, 50):
            results = await asyncio.gather(
                *(status.slash(c, "game status") for c in channels[first : first + 50])
            )
            bad = [r.content for r in results if "active" not in r.content]
            if bad:
                raise RuntimeError(f"/game status failed: {bad[0]}")
        warm = time.perf_counter() - warm_start
        await server.settle(quiet=1.0, timeout=120)
        warmed = bot.rss_mb()
        bot.stop()
        await server.stop()
    print(f"\nMemory: a `python -m bot` process with {stored} stored games of {game_id}, {active} active")
    print(f"  database       {size_mb:.0f} MB, built in {build:.0f} s through the Store")
    print(f"  after start    RSS {idle[0]:6.0f} MB")
    print(
        f"  active warm    RSS {warmed[0]:6.0f} MB (peak {warmed[1]:.0f} MB) after /game status in all"
        f" {active} active channels ({warm:.0f} s); render workers {warmed[2]:.0f} MB"
    )
