"""End-to-end tests of the Discord emulator with an unmodified discord.py client.

The bot here is a small test-only ``commands.Bot`` (not the product bot) that exercises
each interaction path the product relies on.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from bot.emulator import EmulatorUsageError, FakeDiscord, InteractionFailed
from bot.emulator.model import InteractionRecord
from bot.emulator.testing import run_bot, stop_bot

MANAGE_CHANNELS = 1 << 4


def png_bytes(color: str = "red") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (32, 16), color).save(buf, format="PNG")
    return buf.getvalue()


class JoinButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"join:(?P<game>\d+)"):
    """Persistent button whose state lives in its custom_id (survives restarts)."""

    def __init__(self, game: int) -> None:
        self.game = game
        super().__init__(discord.ui.Button(label="Join", custom_id=f"join:{game}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"{interaction.user.name} joined game {self.game}", ephemeral=True
        )


class LobbyView(discord.ui.View):
    """Persistent view registered with ``add_view`` in setup_hook."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.add_item(JoinButton(7))

    @discord.ui.button(label="Start", custom_id="lobby:start")
    async def start(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content="started", view=None)

    @discord.ui.button(label="Closed", custom_id="lobby:closed", disabled=True)
    async def closed(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        raise AssertionError("disabled button was clicked")

    @discord.ui.select(
        custom_id="lobby:colour",
        options=[
            discord.SelectOption(label="Red", value="red"),
            discord.SelectOption(label="Blue", value="blue"),
        ],
    )
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"colour {select.values[0]}", ephemeral=True)


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="modal:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}")


@dataclass
class Env:
    server: FakeDiscord
    guild: int
    channel: int
    alice: int
    bob: int
    carol: int  # DMs closed


def make_bot(guild_id: int) -> commands.Bot:
    intents = discord.Intents.default()
    intents.members = True  # exercises GUILD_MEMBERS_CHUNK
    bot = commands.Bot(command_prefix="!", intents=intents, guild_ready_timeout=0.1)
    guild = discord.Object(guild_id)

    game = app_commands.Group(name="game", description="Game commands")

    @game.command(name="new", description="Start a game")
    async def game_new(
        interaction: discord.Interaction, game: str, players: app_commands.Range[int, 2, 6] = 2
    ) -> None:
        await interaction.response.send_message(f"new {game} for {players}", view=LobbyView())

    @game.command(name="secret", description="Ephemeral")
    async def game_secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("only you", ephemeral=True)

    @app_commands.command(name="setup", description="Needs Manage Channels")
    @app_commands.default_permissions(manage_channels=True)
    async def setup(interaction: discord.Interaction) -> None:
        ok = interaction.permissions.manage_channels
        await interaction.response.send_message(f"admin ok={ok}", ephemeral=True)

    bot.tree.add_command(game, guild=guild)
    bot.tree.add_command(setup, guild=guild)

    async def action_complete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        actions = ["build", "buy", "sell", "pass"]
        return [app_commands.Choice(name=a, value=a) for a in actions if a.startswith(current)]

    @bot.tree.command(name="play", description="Play an action")
    @app_commands.autocomplete(action=action_complete)
    async def play(interaction: discord.Interaction, action: str) -> None:
        await interaction.response.send_message(f"played {action}")

    @bot.tree.command(name="board", description="Deferred board image")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.05)
        file = discord.File(io.BytesIO(png_bytes()), filename="board.png", description="The board: red")
        await interaction.followup.send("here is the board", file=file)

    @bot.tree.command(name="edit", description="Reply then edit")
    async def edit(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("draft")
        await interaction.edit_original_response(content="final")

    @bot.tree.command(name="invite", description="DM someone")
    async def invite(interaction: discord.Interaction, member: discord.Member) -> None:
        try:
            await member.send(f"{interaction.user.name} invites you")
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"forbidden {exc.code}", ephemeral=True)
        else:
            await interaction.response.send_message("sent", ephemeral=True)

    @bot.tree.command(name="slow", description="Too slow")
    async def slow(interaction: discord.Interaction) -> None:
        await asyncio.sleep(3.5)
        await interaction.response.send_message("late")

    @bot.tree.command(name="ask", description="Opens a modal")
    async def ask(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @bot.tree.command(name="table", description="Opens a thread")
    async def table(interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        thread = await interaction.channel.create_thread(
            name="table-1", type=discord.ChannelType.public_thread
        )
        await thread.send("welcome to the table")
        await interaction.response.send_message(f"thread {thread.id}", ephemeral=True)

    async def setup_hook() -> None:
        bot.add_view(LobbyView())
        bot.add_dynamic_items(JoinButton)
        await bot.tree.sync()
        await bot.tree.sync(guild=guild)

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@pytest.fixture
async def env() -> AsyncIterator[Env]:
    server = await FakeDiscord().start()
    guild = server.add_guild("Test Guild")
    channel = server.add_channel(guild, "games")
    alice = server.add_user("alice")
    bob = server.add_user("bob")
    carol = server.add_user("carol", dms_open=False)
    try:
        yield Env(server, guild, channel, alice, bob, carol)
    finally:
        await server.stop()


@pytest.fixture
async def bot(env: Env) -> AsyncIterator[commands.Bot]:
    client = make_bot(env.guild)
    task = await run_bot(client, env.server)
    try:
        yield client
    finally:
        await stop_bot(client, task)


def assert_clean(server: FakeDiscord) -> None:
    server.check()


async def test_login_and_sync(env: Env, bot: commands.Bot) -> None:
    assert bot.user is not None and bot.user.id == env.server.bot_user_id
    assert bot.application_id == env.server.app_id
    guild = bot.get_guild(env.guild)
    assert guild is not None and guild.get_channel(env.channel) is not None
    assert guild.get_member(env.alice) is not None
    assert {c["name"] for c in env.server.commands()} == {
        "play",
        "board",
        "edit",
        "invite",
        "slow",
        "ask",
        "table",
    }
    assert [c["name"] for c in env.server.commands(env.guild)] == ["game", "setup"]
    assert_clean(env.server)


async def test_slash_with_options_and_public_reply(env: Env, bot: commands.Bot) -> None:
    alice = env.server.user(env.alice)
    result = await alice.slash(env.channel, "game new", game="iron", players=3)
    assert result.type == 4
    assert result.content == "new iron for 3"
    assert not result.ephemeral
    assert result.latency is not None and result.latency < 1
    # Everyone sees it, with the view's components.
    assert env.server.public_messages(env.channel)[-1].id == result.message.id  # type: ignore[union-attr]
    assert ("Start", "lobby:start", False) in alice.buttons(result.message.id)  # type: ignore[union-attr]
    with pytest.raises(EmulatorUsageError, match="no option"):
        await alice.slash(env.channel, "game new", game="x", player=3)
    with pytest.raises(EmulatorUsageError, match="outside"):
        await alice.slash(env.channel, "game new", game="x", players=9)
    with pytest.raises(EmulatorUsageError, match="no subcommand"):
        await alice.slash(env.channel, "game old")
    assert_clean(env.server)


async def test_ephemeral_only_visible_to_user(env: Env, bot: commands.Bot) -> None:
    alice, bob = env.server.user(env.alice), env.server.user(env.bob)
    result = await alice.slash(env.channel, "game secret")
    assert result.ephemeral and result.content == "only you"
    assert result.message in alice.visible(env.channel)
    assert result.message not in bob.visible(env.channel)
    assert result.message not in env.server.public_messages(env.channel)
    assert_clean(env.server)


async def test_default_permissions_and_member_permissions(env: Env, bot: commands.Bot) -> None:
    with pytest.raises(EmulatorUsageError, match="lacks permissions"):
        await env.server.user(env.bob).slash(env.channel, "setup")
    env.server.set_permissions(env.guild, env.bob, MANAGE_CHANNELS)
    result = await env.server.user(env.bob).slash(env.channel, "setup")
    assert result.content == "admin ok=True"
    assert_clean(env.server)


async def test_autocomplete(env: Env, bot: commands.Bot) -> None:
    choices = await env.server.user(env.alice).autocomplete(env.channel, "play", focused="action", value="bu")
    assert [c["value"] for c in choices] == ["build", "buy"]
    assert_clean(env.server)


async def test_buttons_and_select(env: Env, bot: commands.Bot) -> None:
    alice, bob = env.server.user(env.alice), env.server.user(env.bob)
    msg = (await alice.slash(env.channel, "game new", game="iron")).message
    assert msg is not None
    joined = await bob.click(msg.id, "join:7")  # DynamicItem
    assert joined.ephemeral and joined.content == "bob joined game 7"
    picked = await bob.select(msg.id, "lobby:colour", ["blue"])
    assert picked.content == "colour blue"
    with pytest.raises(EmulatorUsageError, match="disabled"):
        await bob.click(msg.id, "lobby:closed")
    with pytest.raises(EmulatorUsageError, match="no component"):
        await bob.click(msg.id, "nope")
    with pytest.raises(EmulatorUsageError, match="no option"):
        await bob.select(msg.id, "lobby:colour", ["green"])
    started = await alice.click(msg.id, "lobby:start")  # edit_message (type 7)
    assert started.type == 7
    assert env.server.message(msg.id).content == "started"
    assert env.server.message(msg.id).components == []
    assert_clean(env.server)


async def test_defer_followup_with_png(env: Env, bot: commands.Bot) -> None:
    result = await env.server.user(env.alice).slash(env.channel, "board")
    assert result.type == 5
    assert result.content == "here is the board"
    [(name, data, description)] = result.files
    assert name == "board.png" and description == "The board: red"
    assert Image.open(io.BytesIO(data)).size == (32, 16)
    # The attachment is served over HTTP like Discord's CDN.
    url = result.message.attachments[0].url  # type: ignore[union-attr]
    async with aiohttp.ClientSession() as session, session.get(url) as resp:
        assert resp.status == 200 and await resp.read() == data
    assert_clean(env.server)


async def test_edit_original(env: Env, bot: commands.Bot) -> None:
    alice = env.server.user(env.alice)
    result = await alice.slash(env.channel, "edit")
    await alice.wait_idle()
    assert result.content == "final"
    assert result.message is not None and result.message.edited
    assert_clean(env.server)


async def test_dm_open_and_closed(env: Env, bot: commands.Bot) -> None:
    alice = env.server.user(env.alice)
    ok = await alice.slash(env.channel, "invite", member=env.bob)
    assert ok.content == "sent"
    assert [m.content for m in env.server.user(env.bob).dms()] == ["alice invites you"]
    closed = await alice.slash(env.channel, "invite", member=env.carol)
    assert closed.content == "forbidden 50007"
    assert env.server.user(env.carol).dms() == []
    assert_clean(env.server)


async def test_slash_in_dm_channel_and_modal(env: Env, bot: commands.Bot) -> None:
    alice = env.server.user(env.alice)
    played = await alice.slash(alice.dm_channel_id, "play", action="pass")
    assert played.content == "played pass"
    assert played.message in alice.dms()
    opened = await alice.slash(env.channel, "ask")
    assert opened.type == 9 and opened.modal is not None
    submitted = await alice.submit_modal(opened, {"modal:name": "Alice"})
    assert submitted.content == "hello Alice"
    assert_clean(env.server)


async def test_late_response_is_recorded(env: Env, bot: commands.Bot) -> None:
    with pytest.raises(InteractionFailed):
        await env.server.user(env.alice).slash(env.channel, "slow")
    for _ in range(40):
        if any("10062" in e for e in env.server.errors):
            break
        await asyncio.sleep(0.05)
    assert any("not acknowledged" in e for e in env.server.errors)
    assert any("10062" in e for e in env.server.errors)
    assert env.server.public_messages(env.channel) == []


async def test_restart_keeps_messages_and_persistent_views(env: Env) -> None:
    server = env.server
    first = make_bot(env.guild)
    task = await run_bot(first, server)
    msg = (await server.user(env.alice).slash(env.channel, "game new", game="iron")).message
    assert msg is not None
    await stop_bot(first, task)

    second = make_bot(env.guild)
    task = await run_bot(second, server)
    try:
        assert second.get_guild(env.guild) is not None
        joined = await server.user(env.bob).click(msg.id, "join:7")
        assert joined.content == "bob joined game 7"
        started = await server.user(env.alice).click(msg.id, "lobby:start")
        assert started.type == 7 and server.message(msg.id).content == "started"
    finally:
        await stop_bot(second, task)
    assert_clean(server)


async def test_unknown_route_and_token_check() -> None:
    async with FakeDiscord(require_token="good") as server:
        bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.1)
        with pytest.raises(discord.LoginFailure):
            await run_bot(bot, server, token="bad")
        await bot.close()
        async with (
            aiohttp.ClientSession() as session,
            session.get(server.api_base + "/nope", headers={"Authorization": "Bot good"}) as resp,
        ):
            assert resp.status == 404
            assert resp.headers["Content-Type"] == "application/json"
            assert (await resp.json())["code"] == 0
        assert server.unhandled == ["GET /api/v10/nope"]


async def test_thread_creation(env: Env, bot: commands.Bot) -> None:
    result = await env.server.user(env.alice).slash(env.channel, "table")
    thread_id = int(result.content.split()[1])
    assert [m.content for m in env.server.public_messages(thread_id)] == ["welcome to the table"]
    assert bot.get_channel(thread_id) is not None  # THREAD_CREATE reached the cache
    assert_clean(env.server)


async def test_gateway_resume_after_reconnect_request(env: Env, bot: commands.Bot) -> None:
    resumed = asyncio.Event()

    async def on_resumed() -> None:
        resumed.set()

    bot.add_listener(on_resumed)
    await env.server.gateway.request_reconnect()
    await asyncio.wait_for(resumed.wait(), 5)
    result = await env.server.user(env.alice).slash(env.channel, "play", action="buy")
    assert result.content == "played buy"
    assert_clean(env.server)


async def test_setup_changes_reach_a_connected_bot(env: Env, bot: commands.Bot) -> None:
    server = env.server
    dave = server.add_user("dave")
    extra = server.add_channel(env.guild, "extra")
    server.set_permissions(env.guild, dave, MANAGE_CHANNELS)
    await server.settle()
    guild = bot.get_guild(env.guild)
    assert guild is not None and guild.get_channel(extra) is not None
    member = guild.get_member(dave)
    assert member is not None and member.guild_permissions.manage_channels
    result = await server.user(dave).slash(extra, "setup")
    assert result.content == "admin ok=True"
    assert_clean(server)


async def test_raw_callback_rules(env: Env) -> None:
    """Discord's rules checked over raw HTTP (no bot): double ack, defer+followup, limits."""
    server = env.server
    rec = InteractionRecord(
        id=server.world.snowflake(),
        token="tok",
        type=2,
        user_id=env.alice,
        channel_id=env.channel,
        guild_id=env.guild,
        name="raw",
        data={},
    )
    await server.dispatch_interaction(rec, {})
    base = server.api_base
    async with aiohttp.ClientSession() as http:
        cb = f"{base}/interactions/{rec.id}/tok/callback?with_response=1"
        async with http.post(cb, json={"type": 5, "data": {"flags": 64}}) as resp:
            body = await resp.json()
            assert resp.status == 200 and body["interaction"]["id"] == str(rec.id)
            assert body["interaction"]["response_message_loading"] is True
        async with http.post(cb, json={"type": 4, "data": {"content": "again"}}) as resp:
            assert resp.status == 400 and (await resp.json())["code"] == 40060
        hook = f"{base}/webhooks/{server.app_id}/tok"
        async with http.post(hook + "?wait=true", json={"content": "x" * 2001}) as resp:
            assert resp.status == 400 and (await resp.json())["code"] == 50035
        async with http.post(hook + "?wait=true", json={"content": "done"}) as resp:
            msg = await resp.json()
            assert msg["flags"] & 64  # the defer's ephemerality wins
        async with http.post(hook + "?wait=true", json={"content": "public"}) as resp:
            assert not (await resp.json())["flags"] & 64
    assert [m.content for m in server.user(env.alice).visible(env.channel)] == ["done", "public"]
    assert [m.content for m in server.public_messages(env.channel)] == ["public"]
    assert len(server.errors) == 2  # the double ack and the oversized content


async def test_scheduled_events_as_discord_py_sends_them(env: Env, bot: commands.Bot) -> None:
    """Create, list, edit and delete an external event through discord.py's own calls; a body Discord
    would refuse is recorded; without Manage Events the bot gets 403/50013."""
    from datetime import UTC, datetime, timedelta

    guild = bot.get_guild(env.guild)
    start = datetime(2030, 1, 1, 20, tzinfo=UTC)
    event = await guild.create_scheduled_event(
        name="Deadline",
        start_time=start,
        end_time=start + timedelta(hours=1),
        entity_type=discord.EntityType.external,
        privacy_level=discord.PrivacyLevel.guild_only,
        location="https://discord.com/channels/1/2",
    )
    (stored,) = env.server.scheduled_events(env.guild)
    assert stored.id == event.id and stored.location.endswith("/2") and stored.start == start
    fetched = await guild.fetch_scheduled_events()
    assert [e.id for e in fetched] == [event.id] and fetched[0].end_time == start + timedelta(hours=1)
    await event.edit(start_time=start + timedelta(hours=2), end_time=start + timedelta(hours=3))
    assert env.server.scheduled_events(env.guild)[0].start == start + timedelta(hours=2)
    assert not env.server.errors
    with pytest.raises(discord.HTTPException):  # the end before the start
        await event.edit(end_time=start - timedelta(hours=1), location="x")
    assert env.server.errors and "scheduled_end_time" in env.server.errors[-1]
    env.server.errors.clear()
    env.server.set_bot_can_manage_events(env.guild, False)
    with pytest.raises(discord.Forbidden) as refused:
        await event.delete()
    assert refused.value.code == 50013
    env.server.set_bot_can_manage_events(env.guild, True)
    await event.delete()
    assert env.server.scheduled_events(env.guild) == []
    assert_clean(env.server)


async def test_held_answers_leave_the_user_without_one(env: Env, bot: commands.Bot) -> None:
    """Crash tests hold the bot's answer to kill it in between; released, the answer is refused."""
    server = env.server
    server.hold_responses(lambda rec: rec.name == "/play")
    with pytest.raises(InteractionFailed):
        await server.user(env.alice).slash(env.channel, "play", action="buy")
    assert [rec.name for rec in server.held] == ["/play"]
    server.release_responses()
    await server.settle()
    assert server.held[0].callback_type is None  # never acknowledged
    assert any("10062" in error for error in server.errors)
    answered = await server.user(env.alice).slash(env.channel, "play", action="sell")
    assert answered.content == "played sell"  # not held any more


async def test_a_request_cut_off_by_a_dying_bot_is_not_an_error(env: Env) -> None:
    """A killed bot process leaves half a request behind; Discord would just not have seen it."""
    server = env.server
    _, writer = await asyncio.open_connection("127.0.0.1", server.port)
    head = (
        f"POST /api/v10/channels/{env.channel}/messages HTTP/1.1\r\nHost: emulator\r\n"
        "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
    )
    writer.write(head.encode() + b'{"content": "half a mess')
    await writer.drain()
    await asyncio.sleep(0.1)  # the handler is reading the body
    writer.transport.abort()
    await server.settle()
    assert server.requests and server.requests[-1][2] == 400
    assert not server.public_messages(env.channel)
    server.check()
