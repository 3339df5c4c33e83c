"""Message nonces and injected faults (``server.faults``), observed by the real discord.py client.

Most tests log a plain ``discord.Client`` in (REST only, no gateway) and send through a
``PartialMessageable``: the same ``HTTPClient.request`` loop a bot's ``channel.send`` goes through.
"""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from bot.emulator import FakeDiscord, InjectedFault
from bot.emulator.connect import point_discord_py_at
from bot.emulator.testing import run_bot, stop_bot

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


# ---------------------------------------------------------------- faults, seen by discord.py
async def test_503_is_not_retried_by_discord_py(env: Env) -> None:
    env.server.faults.add("POST", MESSAGES, status=503)
    started = time.monotonic()
    with pytest.raises(discord.DiscordServerError) as failed:
        await env.send_to().send("hi")
    assert time.monotonic() - started < 0.9  # at once: a retry would first sleep 1 s
    assert failed.value.status == 503
    assert env.server.public_messages(env.channel) == []
    assert env.server.faults.injected == [InjectedFault("POST", f"/channels/{env.channel}/messages", "503")]
    assert env.server.errors == []  # a Discord outage is not the bot's mistake
    sent = await env.send_to().send("hi")  # times=1: the next one goes through
    assert [m.id for m in env.server.public_messages(env.channel)] == [sent.id]


async def test_500_once_is_retried_by_discord_py(env: Env) -> None:
    env.server.faults.add("POST", MESSAGES, status=500, times=1)
    started = time.monotonic()
    sent = await env.send_to().send("hi")
    assert time.monotonic() - started >= 1.0  # discord.py sleeps 1 s before its retry
    posts = [status for method, path, status in env.server.requests if method == "POST"]
    assert posts == [500, 200]
    assert [m.id for m in env.server.public_messages(env.channel)] == [sent.id]
    assert [f.kind for f in env.server.faults.injected] == ["500"]


async def test_429_is_slept_on_and_retried(env: Env) -> None:
    env.server.faults.add("POST", MESSAGES, status=429, retry_after=0.2)
    started = time.monotonic()
    sent = await env.send_to().send("hi")
    assert time.monotonic() - started >= 0.2
    posts = [status for method, path, status in env.server.requests if method == "POST"]
    assert posts == [429, 200]
    assert [m.id for m in env.server.public_messages(env.channel)] == [sent.id]
    # What the 429 looks like on the wire.
    env.server.faults.add("POST", MESSAGES, status=429, retry_after=1.5, scope="shared")
    async with aiohttp.ClientSession() as http, http.post(env.post_url(), json={"content": "x"}) as resp:
        assert resp.status == 429 and resp.headers["Content-Type"] == "application/json"
        assert resp.headers["Via"] and resp.headers["Retry-After"] == "2"
        assert resp.headers["X-RateLimit-Scope"] == "shared"
        assert await resp.json() == {
            "message": "You are being rate limited.",
            "retry_after": 1.5,
            "global": False,
        }
    assert len(env.server.public_messages(env.channel)) == 1


async def test_dropped_connection_reaches_discord_py_as_a_connection_error(env: Env) -> None:
    env.server.faults.add("POST", MESSAGES, drop=True)
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await asyncio.wait_for(env.send_to().send("hi"), 5)
    assert env.server.public_messages(env.channel) == []
    assert env.server.requests[-1] == ("POST", f"/api/v10/channels/{env.channel}/messages", 0)
    assert [f.kind for f in env.server.faults.injected] == ["drop"]
    assert env.server.errors == []
    await env.send_to().send("after")  # the client's next request gets a fresh connection
    assert [m.content for m in env.server.public_messages(env.channel)] == ["after"]


async def test_a_dropped_get_is_retried_by_aiohttp(env: Env) -> None:
    """aiohttp repeats an idempotent request once after a disconnect: a single drop goes unnoticed."""
    sent = await env.send_to().send("hi")
    env.server.faults.add("GET", MESSAGES + r"/\d+", drop=True)
    fetched = await asyncio.wait_for(env.send_to().fetch_message(sent.id), 5)
    assert fetched.id == sent.id
    assert [f.kind for f in env.server.faults.injected] == ["drop"]
    env.server.faults.add("GET", MESSAGES + r"/\d+", drop=True, times=2)
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await asyncio.wait_for(env.send_to().fetch_message(sent.id), 5)


async def test_answer_lost_after_create_then_retry_with_the_same_nonce(env: Env) -> None:
    env.server.faults.add("POST", MESSAGES, drop=True, after_create=True)

    def board() -> discord.File:  # multipart, as a turn message with its board image
        return discord.File(io.BytesIO(b"\x89PNG board"), filename="board.png")

    with pytest.raises(aiohttp.ClientConnectionError):
        await asyncio.wait_for(env.send_to().send("your turn", nonce="turn-3", file=board()), 5)
    (created,) = env.server.public_messages(env.channel)  # users see it although the bot got an error
    assert created.content == "your turn" and created.files[0][0] == "board.png"
    retried = await env.send_to().send("your turn", nonce="turn-3", file=board())
    assert retried.id == created.id
    assert [m.id for m in env.server.public_messages(env.channel)] == [created.id]
    assert env.server.nonce_hits == [created.id]
    assert [f.kind for f in env.server.faults.injected] == ["drop after create"]


async def test_500_after_create_is_retried_safely_thanks_to_discord_py_nonce(env: Env) -> None:
    """discord.py's own retry repeats the body, with the nonce it invented: no second message."""
    env.server.faults.add("POST", MESSAGES, status=500, after_create=True)
    sent = await env.send_to().send("once")
    assert [m.id for m in env.server.public_messages(env.channel)] == [sent.id]
    assert env.server.nonce_hits == [sent.id]
    # Over raw HTTP without a nonce, the same lost answer would have doubled the message.
    env.server.faults.add("POST", MESSAGES, status=502, after_create=True)
    status, _ = await post(env.post_url(), {"content": "twice"})
    assert status == 502
    status, _ = await post(env.post_url(), {"content": "twice"})
    assert status == 200
    assert [m.content for m in env.server.public_messages(env.channel)] == ["once", "twice", "twice"]


async def test_interaction_callback_503_is_retried_by_the_webhook_adapter(env: Env) -> None:
    """Unlike HTTPClient, discord.py's webhook adapter (interaction answers) retries every 5xx."""
    bot = discord.Client(intents=discord.Intents.none(), guild_ready_timeout=0.1)
    tree = app_commands.CommandTree(bot)

    @tree.command(name="ping", description="pong")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    bot.setup_hook = tree.sync  # type: ignore[method-assign,assignment]
    task = await run_bot(bot, env.server)
    try:
        env.server.faults.add("POST", r"/interactions/\d+/[^/]+/callback", status=503)
        result = await env.server.user(env.alice).slash(env.channel, "ping")
        assert result.content == "pong"
        assert [f.kind for f in env.server.faults.injected] == ["503"]
    finally:
        await stop_bot(bot, task)
    env.server.check()


# ---------------------------------------------------------------- rules
async def fail_pattern(server: FakeDiscord, url: str, seed: int, count: int = 30) -> list[bool]:
    server.faults.clear()
    rule = server.faults.add("POST", MESSAGES, status=503, probability=0.3, seed=seed)
    async with aiohttp.ClientSession() as http:
        statuses = []
        for i in range(count):
            async with http.post(url, json={"content": f"m{i}"}) as resp:
                statuses.append(resp.status)
    assert rule.history == [status == 503 for status in statuses]
    return rule.history


async def test_probability_faults_replay_with_the_same_seed(env: Env) -> None:
    first = await fail_pattern(env.server, env.post_url(), seed=7)
    again = await fail_pattern(env.server, env.post_url(), seed=7)
    other = await fail_pattern(env.server, env.post_url(), seed=8)
    assert first == again and first != other
    assert 0 < sum(first) < len(first)  # some failed, some went through; no cap by default
    created = 3 * len(first) - sum(first) - sum(again) - sum(other)
    assert len(env.server.public_messages(env.channel)) == created


async def test_rule_matching_skip_times_and_clear(env: Env) -> None:
    faults = env.server.faults
    rule = faults.add("POST", MESSAGES, status=504, skip=1, times=2)
    statuses = [(await post(env.post_url(), {"content": str(i)}))[0] for i in range(4)]
    assert statuses == [200, 504, 504, 200] and rule.exhausted
    assert rule.seen == 3  # an exhausted rule stops looking
    faults.add(None, r"/channels/\d+", status=503, times=None)  # the whole path must match
    assert (await post(env.post_url(), {"content": "x"}))[0] == 200
    faults.clear()
    # Faults never touch the gateway websocket nor /attachments, whatever the regex.
    faults.add(None, r".*", status=503, times=None)
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(env.server.gateway_url) as ws:
            hello = await ws.receive_json(timeout=5)
            assert hello["op"] == 10
        att = env.server.world.attachments
        assert not att  # no file sent yet: 404 comes from the route, not from a fault
        async with http.get(f"{env.server.base_url}/attachments/1/x.png") as resp:
            assert resp.status == 404
        async with http.get(f"{env.server.api_base}/users/@me") as resp:
            assert resp.status == 503 and (await resp.json())["code"] == 0
    assert faults.injected[-1] == InjectedFault("GET", "/users/@me", "503")
    with pytest.raises(ValueError):
        faults.add("POST", MESSAGES, status=404)
    with pytest.raises(ValueError):
        faults.add("POST", MESSAGES, status=429, after_create=True)
    with pytest.raises(ValueError):
        faults.add("POST", MESSAGES, drop=True, status=500)
