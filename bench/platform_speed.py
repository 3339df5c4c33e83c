"""The platform's figures: SQLite commit per move, and interaction latency through the emulator.

The latency is measured from the moment the emulator dispatches INTERACTION_CREATE to the moment it
receives the bot's first callback, with many channels playing at once. The emulator and the bot share
one process and one event loop here, so the figures are upper bounds for the bot alone.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path

from bench.machine import summary
from bot.client import HostBot
from bot.config import Settings
from bot.emulator.server import FakeDiscord
from bot.emulator.testing import run_bot, stop_bot
from bot.store import Store


async def sqlite_commits(moves: int = 500) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.db")
        game = await store.create_game(
            kind="bench", guild_id=1, channel_id=1, host_id=1, host_name="a", options={}, seed=1
        )
        await store.start_game(game.id, "{}")
        game = await store.game(game.id)
        state = '{"board": "' + "x" * 20_000 + '"}'  # a realistic snapshot size (20 KB)
        durations = []
        for index in range(moves):
            start = time.perf_counter()
            version = await store.commit_move(
                game,
                seat=0,
                user_id=1,
                action={"kind": "x", "i": index},
                events=[{"text": "moved"}],
                state=state,
                interaction_id=index + 1,
            )
            durations.append((time.perf_counter() - start) * 1000)
            game = game.model_copy(update={"version": version})
        await store.close()
    print(f"\nSQLite commit per move (20 KB snapshot, WAL)\n  commit         {summary(durations)}")


async def _pick_and_play(
    server: FakeDiscord,
    bot: HostBot,
    channel: int,
    users: dict[int, object],
    rng: random.Random,
    latencies: dict[str, list[float]],
) -> bool:
    service = bot.service
    game = await service.store.open_game_in(channel)
    if game is None:
        return False
    seats = await service.store.seats(game.id)
    acting = sorted(await service.to_act(game))
    if not acting:
        return False
    user = users[seats[rng.choice(acting)].user_id]
    turn_id = (await service.store.message(game.id, "turn"))[1]
    before = len(server.public_messages(channel))
    menu = await user.click(turn_id, f"g:{game.id}:menu")
    latencies["menu"].append(menu.latency * 1000)
    options = []
    for row in menu.message.components:
        for component in row["components"]:
            if component["type"] == 2:
                options.append((component["custom_id"], None))
            elif component["type"] == 3:
                options += [(component["custom_id"], o["value"]) for o in component["options"]]
    custom_id, value = rng.choice(options)
    started = time.perf_counter()
    if value is None:
        result = await user.click(menu.message.id, custom_id)
    else:
        result = await user.select(menu.message.id, custom_id, [value])
    latencies["move"].append(result.latency * 1000)
    for _ in range(6000):  # up to 30 s: the turn message is posted after the rendering
        if len(server.public_messages(channel)) > before:
            break
        await asyncio.sleep(0.005)
    latencies["move + board posted"].append((time.perf_counter() - started) * 1000)
    return True


async def interaction_latency(
    channels: int = 20, moves_per_channel: int = 10, game: str = "iron-bridge-gorge"
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = FakeDiscord()
        await server.start()
        guild = server.add_guild("Bench")
        channel_ids = [server.add_channel(guild, f"t{i}") for i in range(channels)]
        sessions = {}
        for index in range(channels * 2):
            uid = server.add_user(f"u{index}")
            sessions[uid] = server.user(uid)
        settings = Settings(
            discord_token="x",
            database_url=f"sqlite:///{folder}/bench.db",
            discord_api_base=server.api_base,
            _env_file=None,
        )
        bot = HostBot(settings, guild_ready_timeout=0.1)
        task = await run_bot(bot, server)
        users = list(sessions.values())
        for index, channel in enumerate(channel_ids):
            host, guest = users[2 * index], users[2 * index + 1]
            await host.slash(channel, "game new", game=game, seed=index)
            await guest.slash(channel, "game join")
            await host.slash(channel, "game start")
        await server.settle()
        await bot.table.drain()
        latencies: dict[str, list[float]] = {"menu": [], "move": [], "move + board posted": []}
        rng = random.Random(1)

        async def channel_loop(channel: int) -> None:
            for _ in range(moves_per_channel):
                if not await _pick_and_play(server, bot, channel, sessions, rng, latencies):
                    return

        start = time.perf_counter()
        await asyncio.gather(*(channel_loop(channel) for channel in channel_ids))
        elapsed = time.perf_counter() - start
        await bot.table.drain()
        await stop_bot(bot, task)
        await server.stop()
    print(f"\nInteraction to first response through the emulator ({channels} channels of {game} at once)")
    for name, values in latencies.items():
        print(f"  {name:<20} {summary(values)}")
    moves = len(latencies["move"])
    print(f"  throughput           {moves / elapsed:.1f} moves/s with boards rendered and posted")
    if server.errors:
        print(f"  emulator errors: {server.errors[:3]}")
