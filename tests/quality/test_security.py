"""Security: who may act, who may administer, the token in logs, and what user text can do.

Weaknesses found in `bot/` are written as `xfail(strict=True)` tests saying what is wrong; they
start passing (and so fail strictly) when the bot is fixed, so the mark is removed then.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

import bot.interface.components
from bot.config import Settings
from bot.emulator.driver import EmulatorUsageError, InteractionResult
from bot.emulator.server import FakeDiscord
from bot.emulator.testing import run_bot, stop_bot
from bot.interface.client import HostBot
from rules import registry
from tests.e2e.harness import MANAGE_CHANNELS, World, open_game, world
from tests.quality.support import BotProcess, move_options, open_menu, turn_messages

TOKEN = "SECRET.quality-token.3xYzAbCdEfGhIjKlMnOpQrStUvWx"


def refused(result: InteractionResult, *words: str) -> None:
    assert result.ephemeral and result.answer.startswith("⚠️"), result.answer
    for word in words:
        assert word in result.answer, result.answer


# ---- only seated players act ---------------------------------------------------------------------
async def test_only_seated_players_act_even_with_forged_buttons(tmp_path: Path) -> None:
    async with world(tmp_path, users=("alice", "bob", "dave")) as w:
        alice, bob, dave = w.users["alice"], w.users["bob"], w.users["dave"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob], seed=12)
        store = w.bot.service.store
        game = await store.latest_game_in(table)
        turn = turn_messages(w.server, table)[-1]
        menu = await open_menu(alice, turn)
        alice_move = move_options(menu.message)[0][0]

        refused(await dave.click(turn.id, f"g:{game.id}:menu"), "not playing")
        refused(await dave.click(turn.id, f"g:{game.id}:hand"), "not playing")
        refused(await dave.slash(table, "play", move="Pledge 1"), "not playing")
        refused(await dave.slash(table, "hand"), "not playing")
        # alice's move buttons exist only in her ephemeral menu: nobody else can press them (a click
        # on a component that is not on the message is dropped by Discord and by discord.py).
        assert menu.message.ephemeral_for == alice.id and alice_move.startswith(f"g:{game.id}:act:")
        assert not any(
            alice_move == cid for m in w.server.public_messages(table) for _, cid, _ in m.buttons()
        )
        assert await store.actions(game.id) == []
        # Once it is only alice's turn to draw, bob cannot draw for her.
        for user in (alice, bob):
            menu = await open_menu(user, turn_messages(w.server, table)[-1])
            assert (await user.click(menu.message.id, move_options(menu.message)[0][0])).answer.startswith(
                "✅"
            )
        await w.settle()
        game = await store.game(game.id)
        state = await w.bot.service.state(game)
        assert state.phase == "draw" and state.drawer == 0
        refused(await bob.slash(table, "play", move="Draw a card"), "not your turn")
        refused(await bob.click(turn_messages(w.server, table)[-1].id, f"g:{game.id}:menu"), "not your turn")
        assert (await store.game(game.id)).version == game.version
        await w.settle()
        assert not w.server.errors, w.server.errors


# ---- admin actions check permissions --------------------------------------------------------------
async def test_admin_actions_need_manage_channels(tmp_path: Path) -> None:
    async with world(tmp_path, users=("alice", "bob", "eve", "mod")) as w:
        alice, bob, eve, mod = (w.users[n] for n in ("alice", "bob", "eve", "mod"))
        table = w.channels["table"]
        await alice.slash(table, "game new", game="test-highcard")
        await bob.slash(table, "game join")
        refused(await eve.slash(table, "game start"), "Only the host")
        refused(await bob.slash(table, "game start"), "Only the host")
        refused(await eve.slash(table, "game abandon"), "Only the players")
        w.server.set_permissions(w.guild, mod.id, MANAGE_CHANNELS)
        await w.settle()
        started = await mod.slash(table, "game start")  # a moderator may start someone's lobby
        assert "has started" in started.content, started.content
        await w.settle()
        refused(await mod.slash(table, "play", move="Pledge 1"), "not playing")  # but not play in it
        refused(await eve.slash(table, "game abandon"), "Only the players")
        vote = await alice.slash(table, "game abandon")
        assert "Still to agree" in vote.content  # one player alone cannot end it
        assert await w.bot.service.store.open_game_in(table) is not None
        w.server.set_permissions(w.guild, mod.id, 0)  # permission taken away again
        await w.settle()
        refused(await mod.slash(table, "game abandon"), "Only the players")
        w.server.set_permissions(w.guild, mod.id, MANAGE_CHANNELS)
        await w.settle()
        assert "abandoned" in (await mod.slash(table, "game abandon")).content
        assert await w.bot.service.store.open_game_in(table) is None
        await w.settle()
        assert not w.server.errors, w.server.errors


# ---- the token never appears in logs --------------------------------------------------------------
async def test_the_token_never_appears_in_the_logs_of_a_bot_in_this_process(tmp_path: Path, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    server = FakeDiscord(require_token=TOKEN)
    await server.start()
    settings = Settings(
        discord_token=TOKEN,
        database_url=f"sqlite:///{tmp_path / 'games.db'}",
        discord_api_base=server.api_base,
        log_level="DEBUG",
        _env_file=None,
    )
    host = HostBot(settings, guild_ready_timeout=0.1)
    guild = server.add_guild("Logs")
    table = server.add_channel(guild, "table")
    users = {n: server.user(server.add_user(n)) for n in ("alice", "bob")}
    task = await run_bot(host, server, token=TOKEN)
    try:
        w = World(
            server=server, db_path=tmp_path / "games.db", guild=guild, channels={"table": table}, users=users
        )
        w.bot = host
        await open_game(w, "table", users["alice"], [users["bob"]], seed=2)
        await users["alice"].slash(table, "play", move="no such move")
        await users["bob"].slash(table, "game new", game="x" * 50)
        await w.settle()
    finally:
        await stop_bot(host, task)
        await server.stop()
    assert len(caplog.records) > 20, "nothing was logged: the check would prove nothing"
    text = "\n".join(f"{r.getMessage()} {r.exc_text or ''} {r.stack_info or ''}" for r in caplog.records)
    for part in (TOKEN, TOKEN.split(".")[1], TOKEN.split(".")[2]):
        assert part not in text


async def test_the_token_never_appears_in_the_output_of_the_bot_process(tmp_path: Path) -> None:
    server = FakeDiscord(require_token=TOKEN)
    await server.start()
    process = BotProcess(server, tmp_path, token=TOKEN, log_level="DEBUG")
    try:
        guild = server.add_guild("Logs")
        table = server.add_channel(guild, "table")
        alice = server.user(server.add_user("alice"))
        await process.start()
        opened = await alice.slash(table, "game new", game="iron-bridge-gorge", seed=1)
        assert not opened.ephemeral, opened.content
        await alice.slash(table, "game start")  # refused: one player is not enough
        await alice.slash(table, "play", move="x")
    finally:
        process.stop()
    # A wrong token: Discord refuses it; the process says so without printing either token.
    other = FakeDiscord(require_token="the-right-one")
    await other.start()
    (tmp_path / "wrong").mkdir()
    refused_process = BotProcess(other, tmp_path / "wrong", token=TOKEN)
    try:
        with pytest.raises(AssertionError, match="exited"):
            await refused_process.start(timeout=30)
    finally:
        refused_process.stop()
        await other.stop()
        await server.stop()
    output = process.log_text() + refused_process.log_text()
    assert "DEBUG" in output and "Discord refused the token" in output
    for part in (TOKEN, TOKEN.split(".")[1], TOKEN.split(".")[2], "the-right-one"):
        assert part not in output


# ---- user text: mentions and lengths -------------------------------------------------------------
async def test_user_text_never_pings_everyone_or_roles(tmp_path: Path) -> None:
    async with world(tmp_path, users=("@everyone", "@here", "carol")) as w:
        everyone, here, carol = w.users["@everyone"], w.users["@here"], w.users["carol"]
        table = w.channels["table"]
        role = w.server.world.role_for_permissions(w.guild, MANAGE_CHANNELS).id
        assert w.bot.allowed_mentions is not None
        assert not w.bot.allowed_mentions.everyone and not w.bot.allowed_mentions.roles
        await open_game(w, "table", everyone, [here, carol], seed=3)
        for user in (everyone, here, carol):
            await user.slash(table, "play", move=f"@everyone @here <@&{role}> pledge")
        await carol.slash(table, "game new", game=f"@everyone <@&{role}>")
        await carol.slash(table, "game new", game="test-highcard", options=f"rounds=@everyone <@&{role}>")
        for user in (everyone, here, carol):
            turn = turn_messages(w.server, table)[-1]
            menu = await open_menu(user, turn)
            await user.click(menu.message.id, move_options(menu.message)[0][0])
            await w.settle()
        await carol.slash(table, "game status")
        await carol.slash(table, "log")
        await w.settle()
        # the user's words reach messages, made inert (a zero-width space after the @)
        texts = [m for m in w.server.message_versions if re.search("@\u200b?(everyone|here)", m.content)]
        assert len(texts) >= 5, "the user text never reached a message: the check would prove nothing"
        for message in w.server.message_versions:
            assert not message.pings_everyone, f"pings @everyone: {message.content!r}"
            assert not message.pinged_roles, f"pings a role: {message.content!r}"
        assert not w.server.errors, w.server.errors


LONG_TEXTS = [
    pytest.param("play", "move", {}, id="play-move"),
    pytest.param("game new", "game", {}, id="game-name"),
    pytest.param("game new", "options", {"game": "test-highcard"}, id="game-options"),
]


def _declared(server: FakeDiscord, command: str, option: str) -> dict:
    parts = command.split()
    found = next(c for c in server.commands() if c["name"] == parts[0])
    for part in parts[1:]:
        found = next(o for o in found["options"] if o["name"] == part)
    return next(o for o in found["options"] if o["name"] == option)


@pytest.mark.parametrize(("command", "option", "others"), LONG_TEXTS)
async def test_long_user_text_is_limited_and_its_refusal_fits_a_message(
    tmp_path: Path, command: str, option: str, others: dict
) -> None:
    """Each free-text option declares a max_length (Discord's client enforces it), and text of that
    length quoted back in a refusal still fits Discord's 2000 characters. (Before the fix, 3000
    characters made a 3076-character refusal that Discord refused: 'This interaction failed'.)"""
    async with world(tmp_path, users=("alice", "bob")) as w:
        alice, table = w.users["alice"], w.channels["table"]
        if command == "play":
            await open_game(w, "table", alice, [w.users["bob"]], seed=1)
        limit = _declared(w.server, command, option).get("max_length")
        assert limit is not None and limit <= 1000, f"/{command} {option}: max_length {limit}"
        with pytest.raises(EmulatorUsageError):
            await alice.slash(table, command, **others, **{option: "x" * (limit + 1)})
        result = await alice.slash(table, command, **others, **{option: "@everyone x" + "m" * (limit - 11)})
        assert result.ephemeral and result.answer.startswith("⚠️") and len(result.answer) <= 2000
        await w.settle()
        assert not w.server.errors, w.server.errors


async def test_long_display_names_are_clipped_in_every_message(tmp_path: Path) -> None:
    names = ("N" * 200, "bob")  # Discord caps display names at 32; the emulator does not
    async with world(tmp_path, users=names) as w:
        long_name, bob = w.users[names[0]], w.users["bob"]
        await open_game(w, "table", long_name, [bob], seed=4)
        for _ in range(4):
            for user in (long_name, bob):
                menu = await open_menu(user, turn_messages(w.server, w.channels["table"])[-1])
                if menu is not None:
                    await user.click(menu.message.id, move_options(menu.message)[0][0])
                    await w.settle()
        await bob.slash(w.channels["table"], "game status")
        await w.settle()
        assert all(len(m.content) <= 2000 for m in w.server.message_versions)
        assert not w.server.errors, w.server.errors


# ---- regressions of bugs found on the way (fixed in bot/ while this was written) -----------------
async def test_a_move_picked_in_a_select_menu_is_applied(tmp_path: Path, monkeypatch) -> None:
    """GameSelect passed int(<hex menu digest>) to the table: no select move could be played."""
    monkeypatch.setattr(bot.interface.components, "MAX_BUTTONS", 0)  # every menu becomes selects
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await open_game(w, "table", alice, [bob], seed=8)
        menu = await open_menu(alice, turn_messages(w.server, w.channels["table"])[-1])
        custom_id, value = move_options(menu.message)[0]
        assert value is not None, "the menu was not a select"
        result = await alice.select(menu.message.id, custom_id, [value], timeout=4)
        assert result.answer.startswith("✅"), result.answer
        await w.settle()
        assert not w.server.errors, w.server.errors


@pytest.mark.parametrize("game_id", [game.info.id for game in registry.all_games()])
async def test_every_game_can_open_a_lobby(tmp_path: Path, game_id: str) -> None:
    """The lobby's option selects could not be drawn for City Heroes' 0..999,999,999 map seed."""
    async with world(tmp_path, users=("alice",)) as w:
        opened = await w.users["alice"].slash(w.channels["table"], "game new", game=game_id)
        assert not opened.ephemeral and "Join" in [label for label, _, _ in opened.message.buttons()], (
            opened.content
        )
        assert not w.server.errors, w.server.errors
