"""Message nonces (``nonce``/``enforce_nonce``), observed by the real discord.py client.

Most tests log a plain ``discord.Client`` in (REST only, no gateway) and send through a
``PartialMessageable``: the same ``HTTPClient.request`` loop a bot's ``channel.send`` goes through.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest

from bot.emulator import FakeDiscord
from bot.emulator.connect import point_discord_py_at

MESSAGES = r"/channels/\d+/messages"


@dataclass
class Env:
    server: FakeDiscord
    guild: int
    channel: int
    other: int
    alice: int
    client: discord.Client

    def send_to(self, channel_id: int | None = None) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id or self.channel)

    def post_url(self, channel_id: int | None = None) -> str:
        return f"{self.server.api_base}/channels/{channel_id or self.channel}/messages"


@pytest.fixture
async def env() -> AsyncIterator[Env]:
    server = await FakeDiscord().start()
    guild = server.add_guild("G")
    channel = server.add_channel(guild, "games")
    other = server.add_channel(guild, "other")
    alice = server.add_user("alice")
    point_discord_py_at(server.api_base, server.gateway_url)
    client = discord.Client(intents=discord.Intents.default())
    await client.login("emulator-token")
    try:
        yield Env(server, guild, channel, other, alice, client)
    finally:
        await client.close()
        await server.stop()


async def post(url: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as http, http.post(url, json=body) as resp:
        return resp.status, await resp.json()


# ---------------------------------------------------------------- nonce / enforce_nonce
async def test_enforced_nonce_returns_the_earlier_message(env: Env) -> None:
    body = {"content": "hello", "nonce": "n-1", "enforce_nonce": True}
    status, first = await post(env.post_url(), body)
    assert status == 200 and first["nonce"] == "n-1"
    status, again = await post(env.post_url(), {**body, "content": "other text"})
    assert status == 200 and again["id"] == first["id"] and again["content"] == "hello"
    assert [m.content for m in env.server.public_messages(env.channel)] == ["hello"]
    assert env.server.nonce_hits == [int(first["id"])]
    env.server.check()


async def test_nonce_is_per_channel_and_needs_enforce(env: Env) -> None:
    body = {"content": "a", "nonce": 42, "enforce_nonce": True}
    _, first = await post(env.post_url(), body)
    _, elsewhere = await post(env.post_url(env.other), body)
    assert elsewhere["id"] != first["id"] and first["nonce"] == 42  # an integer nonce is echoed as such
    _, plain = await post(env.post_url(), {"content": "b", "nonce": 42})
    _, plain_again = await post(env.post_url(), {"content": "c", "nonce": 42, "enforce_nonce": False})
    assert plain["nonce"] == 42 and len({first["id"], plain["id"], plain_again["id"]}) == 3
    assert [m.content for m in env.server.public_messages(env.channel)] == ["a", "b", "c"]
    assert env.server.nonce_hits == []
    # A DM channel de-duplicates too.
    dm = env.server.world.dm_channel(env.alice).id
    _, in_dm = await post(env.post_url(dm), {"content": "dm", "nonce": "d", "enforce_nonce": True})
    _, in_dm_again = await post(env.post_url(dm), {"content": "dm", "nonce": "d", "enforce_nonce": True})
    assert in_dm_again["id"] == in_dm["id"] and len(env.server.user(env.alice).dms()) == 1


async def test_nonce_forgotten_after_the_window(env: Env) -> None:
    env.server.nonce_window = 0.05
    body = {"content": "x", "nonce": "late", "enforce_nonce": True}
    _, first = await post(env.post_url(), body)
    await asyncio.sleep(0.1)
    _, second = await post(env.post_url(), body)
    assert second["id"] != first["id"] and len(env.server.public_messages(env.channel)) == 2
    assert env.server.nonce_hits == []


async def test_nonce_longer_than_25_characters_is_refused(env: Env) -> None:
    status, body = await post(env.post_url(), {"content": "x", "nonce": "y" * 26, "enforce_nonce": True})
    assert status == 400 and body["code"] == 50035 and "nonce" in body["errors"]
    status, _ = await post(env.post_url(), {"content": "x", "nonce": "y" * 25})
    assert status == 200
    with pytest.raises(discord.HTTPException) as refused:
        await env.send_to().send("x", nonce="z" * 26)
    assert refused.value.status == 400 and refused.value.code == 50035
    assert len(env.server.public_messages(env.channel)) == 1
    assert len(env.server.errors) == 2  # Discord would have refused both


async def test_discord_py_send_with_the_same_nonce(env: Env) -> None:
    first = await env.send_to().send("move 1", nonce="turn-7")
    again = await env.send_to().send("move 1", nonce="turn-7")
    assert again.id == first.id and first.nonce == "turn-7"
    assert [m.id for m in env.server.public_messages(env.channel)] == [first.id]
    assert env.server.nonce_hits == [first.id]
    # discord.py invents a nonce for every send, so plain sends never collide.
    await env.send_to().send("move 2")
    await env.send_to().send("move 2")
    assert len(env.server.public_messages(env.channel)) == 3
    # Once the message is deleted, its nonce is refused (discord.py documents NotFound).
    await first.delete()
    with pytest.raises(discord.NotFound):
        await env.send_to().send("move 1", nonce="turn-7")
    env.server.check()
