"""Shards in the Discord emulator: each shard's guilds and events reach only that shard's connection.

Unmodified discord.py ``AutoShardedBot`` clients run in this process, one per "process" of a sharded
deployment, so routing is checked against what discord.py itself does with READY and GUILD_CREATE.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import discord
import pytest
from discord.ext import commands

from bot.emulator import FakeDiscord
from bot.emulator.model import World, shard_of
from bot.emulator.testing import run_bot, stop_bot


def make_bot(name: str, **sharding: object) -> commands.AutoShardedBot:
    """A bot whose one command says which bot answered and on which shard the guild is."""
    bot = commands.AutoShardedBot(
        command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.1, **sharding
    )

    @bot.tree.command(name="where", description="Which bot answers here")
    async def where(interaction: discord.Interaction) -> None:
        shard = interaction.guild.shard_id if interaction.guild else "dm"
        await interaction.response.send_message(f"{name} shard {shard}")

    async def setup_hook() -> None:
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@dataclass
class Sharded:
    server: FakeDiscord
    guilds: list[int]  # guilds[i] is on shard i
    channels: list[int]
    alice: int


@pytest.fixture
async def sharded() -> AsyncIterator[Sharded]:
    server = await FakeDiscord(shard_count=2).start()
    guilds = [server.add_guild(f"Guild {i}") for i in range(2)]
    channels = [server.add_channel(guild, "games") for guild in guilds]
    alice = server.add_user("alice")
    try:
        yield Sharded(server, guilds, channels, alice)
    finally:
        await server.stop()


def test_guild_ids_spread_over_shards_by_their_timestamp() -> None:
    server = FakeDiscord(shard_count=3)
    by_turn = [server.add_guild(f"g{i}") for i in range(6)]
    assert [shard_of(g, 3) for g in by_turn] == [0, 1, 2, 0, 1, 2]
    assert [server.shard_of(g) for g in by_turn] == [0, 1, 2, 0, 1, 2]
    chosen = [server.add_guild("x", shard=2) for _ in range(3)]
    assert {(g >> 22) % 3 for g in chosen} == {2}
    world = World()
    ids = [world.snowflake.on_shard(shard, 5) for shard in (4, 4, 0, 3, 1)]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert [shard_of(i, 5) for i in ids] == [4, 4, 0, 3, 1]
    assert shard_of(None, 5) == 0  # DMs are shard 0's
    unsharded = FakeDiscord()  # a single-shard server keeps plain, time-ordered ids
    first, second = unsharded.add_guild("a"), unsharded.add_guild("b")
    assert first < second and unsharded.shard_of(second) == 0


async def test_two_processes_each_get_only_their_shards_guilds_and_interactions(sharded: Sharded) -> None:
    server = sharded.server
    bots = [make_bot(f"bot{i}", shard_count=2, shard_ids=[i]) for i in range(2)]
    tasks = [await run_bot(bot, server) for bot in bots]
    try:
        for i, bot in enumerate(bots):
            assert [g.id for g in bot.guilds] == [sharded.guilds[i]]
            assert bot.get_channel(sharded.channels[1 - i]) is None
        sessions = {i: server.gateway.shard_sessions(i) for i in range(2)}
        assert [len(found) for found in sessions.values()] == [1, 1]
        for i, (session,) in sessions.items():
            assert session.shard == (i, 2)
            (ready,) = session.dispatched("READY")
            assert ready["shard"] == [i, 2]
            assert [g["id"] for g in ready["guilds"]] == [str(sharded.guilds[i])]
            assert [g["id"] for g in session.dispatched("GUILD_CREATE")] == [str(sharded.guilds[i])]

        alice = server.user(sharded.alice)
        for i in range(2):
            answer = await alice.slash(sharded.channels[i], "where")
            assert answer.content == f"bot{i} shard {i}"
        assert (await alice.slash(alice.dm_channel_id, "where")).content == "bot0 shard dm"
        interactions = {
            i: [d["id"] for d in session.dispatched("INTERACTION_CREATE")]
            for i, (session,) in sessions.items()
        }
        assert len(interactions[0]) == 2 and len(interactions[1]) == 1  # shard 0 also has the DM

        # Later guild events follow the guild's shard too.
        extra = server.add_channel(sharded.guilds[1], "more")
        await server.settle()
        assert bots[1].get_channel(extra) is not None and bots[0].get_channel(extra) is None
        assert not sessions[0][0].dispatched("CHANNEL_CREATE")
    finally:
        for bot, task in zip(bots, tasks, strict=True):
            await stop_bot(bot, task)
    server.check()


async def test_a_restarted_shard_takes_over_only_its_own_guilds(sharded: Sharded) -> None:
    server = sharded.server
    first = [make_bot(f"bot{i}", shard_count=2, shard_ids=[i]) for i in range(2)]
    tasks = [await run_bot(bot, server) for bot in first]
    try:
        await stop_bot(first[1], tasks[1])
        again = make_bot("bot1-again", shard_count=2, shard_ids=[1])
        tasks[1] = await run_bot(again, server)
        first[1] = again
        alice = server.user(sharded.alice)
        assert (await alice.slash(sharded.channels[0], "where")).content == "bot0 shard 0"
        assert (await alice.slash(sharded.channels[1], "where")).content == "bot1-again shard 1"
    finally:
        for bot, task in zip(first, tasks, strict=True):
            await stop_bot(bot, task)
    server.check()


async def test_one_process_with_every_shard_asks_gateway_bot_and_sees_every_guild(sharded: Sharded) -> None:
    server = sharded.server
    bot = make_bot("all")  # no shard_count: discord.py asks GET /gateway/bot how many
    task = await run_bot(bot, server)
    try:
        assert bot.shard_count == 2
        assert sorted(g.id for g in bot.guilds) == sorted(sharded.guilds)
        assert [len(server.gateway.shard_sessions(i)) for i in range(2)] == [1, 1]
        alice = server.user(sharded.alice)
        for i in range(2):
            assert (await alice.slash(sharded.channels[i], "where")).content == f"all shard {i}"
    finally:
        await stop_bot(bot, task)
    server.check()


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], "x"])
async def test_identify_with_an_impossible_shard_is_closed_with_4010(shard: object) -> None:
    async with FakeDiscord() as server, aiohttp.ClientSession() as http:
        async with http.ws_connect(server.gateway_url) as ws:
            hello = await ws.receive_json()
            assert hello["op"] == 10
            identify = {"op": 2, "d": {"token": "t", "intents": 1, "properties": {}, "shard": shard}}
            await ws.send_str(json.dumps(identify))
            message = await ws.receive()
            assert message.type == aiohttp.WSMsgType.CLOSE and message.data == 4010
        assert not server.gateway.sessions
