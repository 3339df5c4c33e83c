"""The operator's window: /healthz says whether the bot can do its job, /metrics what it did; JSON logs
carry the ids of what each line is about; a channel the bot lacks a permission in is named before a
game starts there."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import socket

import aiohttp

from bot.config import Settings
from bot.emulator.model import P_ATTACH_FILES, P_EMBED_LINKS
from bot.emulator.server import FakeDiscord
from bot.emulator.testing import run_bot, stop_bot
from bot.interface import health
from bot.interface.client import HostBot
from bot.logs import JsonLines, about
from bot.storage.records import Delivery
from tests.e2e.harness import take_turn, world

MANAGE_GUILD = 1 << 5


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def _get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.text()


async def test_healthz_and_metrics_tell_the_operator_what_the_bot_does(tmp_path, monkeypatch) -> None:
    server = FakeDiscord()
    await server.start()
    port = free_port()
    settings = Settings(
        discord_token="emulator-token",
        database_url=f"sqlite:///{tmp_path / 'g.db'}",
        discord_api_base=server.api_base,
        health_port=port,
        health_host="127.0.0.1",
        _env_file=None,
    )
    bot = HostBot(settings, guild_ready_timeout=0.1)
    guild = server.add_guild("Health")
    table = server.add_channel(guild, "table")
    alice, bob = (server.user(server.add_user(name)) for name in ("alice", "bob"))
    task = await run_bot(bot, server)
    try:
        status, body = await _get(port, "/healthz")
        assert status == 200 and json.loads(body) == {"status": "ok", "problems": []}

        await alice.slash(table, "game new", game="test-highcard", seed=3)
        await bob.slash(table, "game join")
        await alice.slash(table, "game start")
        await server.settle()
        await bot.table.drain()
        await alice.slash(table, "board")
        status, text = await _get(port, "/metrics")
        assert status == 200
        assert 'ironhost_deliveries_total{kind="post"}' in text
        assert "ironhost_render_seconds_count" in text
        assert "ironhost_outbox_depth 0.0" in text
        assert 'ironhost_gateway_latency_seconds{shard="-1"}' in text
        assert "ironhost_interactions_total 4.0" in text

        # Discord refuses every post for longer than the courier may wait: /healthz says so.
        server.faults.add("POST", r"/channels/\d+/messages", status=503, times=None)
        monkeypatch.setattr(health, "STUCK_AFTER", 0.0)
        await bot.service.store.enqueue(
            1, 99, [Delivery(kind="post", target=table, payload={"content": "x"}, due_at=0.0)]
        )
        status, body = await _get(port, "/healthz")
        assert status == 503
        assert any("oldest owed post" in problem for problem in json.loads(body)["problems"])
    finally:
        await stop_bot(bot, task)
        await server.stop()


def test_json_log_lines_carry_the_ids_of_what_they_are_about() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonLines())
    logger = logging.getLogger("ironhost.test.json")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        with about(game=7, channel=11):
            with about(interaction=99):
                logger.info("a move in %s", "game 7")
            logger.warning("after")
        logger.info("outside")
    finally:
        logger.removeHandler(handler)
    first, second, third = (json.loads(line) for line in stream.getvalue().splitlines())
    assert first["message"] == "a move in game 7"
    assert (first["game"], first["channel"], first["interaction"]) == (7, 11, 99)
    assert second["level"] == "WARNING" and "interaction" not in second and second["game"] == 7
    assert "game" not in third


async def test_a_channel_without_attach_files_and_embed_links_is_named_before_a_game_starts(tmp_path) -> None:
    async with world(tmp_path) as w:
        alice = w.users["alice"]
        lacking = w.server.add_channel(w.guild, "no-pictures")
        w.server.world.deny_bot(lacking, P_ATTACH_FILES | P_EMBED_LINKS)
        refused = await alice.slash(lacking, "game new", game="test-highcard", seed=1)
        assert refused.ephemeral
        assert "Attach Files" in refused.content and "Embed Links" in refused.content
        assert "Send Messages" not in refused.content
        assert not w.server.public_messages(lacking)
        opened = await alice.slash(w.channels["table"], "game new", game="test-highcard", seed=1)
        assert not opened.ephemeral


async def _delivered(w, game) -> None:
    """Wait for the game's outbox to empty: the courier's retry comes after its backoff, past the
    shortened nonce window, later than `settle` waits."""
    for _ in range(100):
        if not await w.bot.service.undelivered(game):
            break
        await asyncio.sleep(0.1)
    await w.settle()


async def test_a_post_retried_after_the_nonce_window_is_found_in_the_channel_not_posted_twice(
    tmp_path,
) -> None:
    """Discord honours a nonce only for a few minutes. A turn post whose answer was lost, retried after
    that (the emulator's window shortened to a fraction of a second), is looked up in the channel's
    recent messages instead of being posted a second time."""
    async with world(tmp_path) as w:
        w.server.nonce_window = 0.05
        w.bot.courier.nonce_window = 0.05
        w.bot.courier.retry_base = 0.3
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await alice.slash(table, "game new", game="test-highcard", seed=3)
        await bob.slash(table, "game join")
        # The first turn post is made, but its answer never reaches the bot.
        w.server.faults.add("POST", r"/channels/\d+/messages", drop=True, after_create=True)
        await alice.slash(table, "game start")
        await w.settle()
        await _delivered(w, await w.bot.service.store.latest_game_in(table))
        turn_posts = [m for m in w.public() if m.content and "g:1:board" in str(m.components)]
        assert len(turn_posts) == 1, [m.content[:60] for m in turn_posts]
        assert w.server.faults.injected, "the fault did not fire: nothing was tested"


async def test_following_in_a_thread_where_the_bot_may_not_make_one_names_the_permission(tmp_path) -> None:
    from bot.emulator.model import P_CREATE_PUBLIC_THREADS

    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await alice.slash(table, "game new", game="test-highcard", seed=3)
        w.server.world.deny_bot(table, P_CREATE_PUBLIC_THREADS)
        refused = await bob.slash(table, "game follow", mode="thread")
        assert refused.ephemeral and "Create Public Threads" in refused.content
        assert "follow mode:dm" in refused.content


async def test_settings_check_lists_every_permission_with_a_mark(tmp_path) -> None:
    async with world(tmp_path) as w:
        lacking = w.server.add_channel(w.guild, "no-pictures")
        w.server.world.deny_bot(lacking, P_ATTACH_FILES)
        w.server.set_permissions(w.guild, w.users["alice"].id, MANAGE_GUILD)
        report = await w.users["alice"].slash(lacking, "settings check")
        assert report.ephemeral
        assert "❌ Attach Files" in report.content and "✅ Send Messages" in report.content
        good = await w.users["alice"].slash(w.channels["table"], "settings check")
        assert "❌" not in good.content and "Everything a game needs" in good.content


async def test_a_dm_retried_after_the_nonce_window_is_found_in_the_dm_channel_not_sent_twice(
    tmp_path,
) -> None:
    """The same holds for a direct message: a follower's DM whose answer was lost, retried after the
    nonce window, is looked up in the DM channel's recent messages instead of being sent again."""
    async with world(tmp_path) as w:
        w.server.nonce_window = 0.05
        w.bot.courier.nonce_window = 0.05
        w.bot.courier.retry_base = 0.3
        alice, bob, carol = w.users["alice"], w.users["bob"], w.users["carol"]
        table = w.channels["table"]
        await alice.slash(table, "game new", game="test-highcard", seed=3)
        await bob.slash(table, "game join")
        await alice.slash(table, "game start")
        await carol.slash(table, "game follow", mode="dm")
        await w.settle()
        before = len(carol.dms())
        dm_channel = w.server.world.dm_channel(carol.id).id
        w.server.faults.add(
            "POST", rf"/channels/{dm_channel}/messages", drop=True, after_create=True, times=1
        )
        first = lambda choices: choices[0]  # noqa: E731
        for _ in range(6):  # a follower is written to at each handoff, not at every move
            assert await take_turn(w, "table", alice, first) or await take_turn(w, "table", bob, first)
            await w.settle()
            if w.server.faults.injected:
                break
        await _delivered(w, await w.bot.service.store.latest_game_in(table))
        sent = carol.dms()[before:]
        assert w.server.faults.injected, "the fault did not fire: nothing was tested"
        assert len(sent) == 1, [m.content[:60] for m in sent]
        assert len({m.content for m in carol.dms()}) == len(carol.dms())
