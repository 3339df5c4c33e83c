"""/help, /rules, /card and the welcome on joining a server, end to end through the emulator.

The help cog is loaded onto the running bot here (and the tree synced) unless `bot/interface/client.py` already
lists it in EXTENSIONS, so these tests run either way.
"""

from __future__ import annotations

import contextlib
import importlib

from bot.emulator.model import DEFAULT_EVERYONE_PERMISSIONS, FLAG_EPHEMERAL, P_SEND_MESSAGES
from bot.interface.cogs.help import EMBED_TOTAL
from rules import help as rules_help
from rules import registry
from rules.core import Game
from tests.e2e.harness import World, world

GAMES: list[Game] = [importlib.import_module(module).GAME for module in registry.BUILTIN_MODULES]
"""The four games of the platform (the test-only game has no rules or data)."""


@contextlib.asynccontextmanager
async def helped(tmp_path, **kwargs):
    async with world(tmp_path, **kwargs) as w:
        assert w.bot is not None
        if "bot.interface.cogs.help" not in w.bot.extensions:
            await w.bot.load_extension("bot.interface.cogs.help")
            await w.bot.tree.sync()
        yield w


def _embed_chars(embed: dict) -> int:
    fields = embed.get("fields") or []
    return (
        len(embed.get("title") or "")
        + len(embed.get("description") or "")
        + len((embed.get("footer") or {}).get("text") or "")
        + sum(len(field["name"]) + len(field["value"]) for field in fields)
    )


def _within_limits(result) -> None:
    """Every message of the answer is ephemeral and within Discord's limits (the emulator checks each
    embed; the 6,000-character total is per message)."""
    assert result.messages, "no answer"
    for message in result.messages:
        assert message.flags & FLAG_EPHEMERAL
        assert len(message.content or "") <= 2000
        assert 1 <= len(message.embeds) <= 10
        assert sum(_embed_chars(embed) for embed in message.embeds) <= EMBED_TOTAL


def _text(result) -> str:
    parts = []
    for message in result.messages:
        parts.append(message.content or "")
        for embed in message.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            parts += [(embed.get("footer") or {}).get("text") or ""]
            for field in embed.get("fields") or []:
                parts += [field["name"], field["value"]]
    return "\n".join(parts)


async def test_every_rules_topic_of_every_game_renders_and_is_offered(tmp_path):
    async with helped(tmp_path) as w:
        alice = w.users["alice"]
        channel = w.channels["table"]
        games = await alice.autocomplete(channel, "rules", "game", "")
        assert {choice["value"] for choice in games} >= {game.info.id for game in GAMES}
        for game in GAMES:
            topics = rules_help.topics(game.info.id)
            offered = await alice.autocomplete(channel, "rules", "topic", "", game=game.info.id)
            assert [choice["value"] for choice in offered] == [topic.id for topic in topics]
            assert all(len(choice["name"]) <= 100 for choice in offered)
            contents = await alice.slash(channel, "rules", game=game.info.id)
            _within_limits(contents)
            for number, topic in enumerate(topics):
                typed = await alice.autocomplete(
                    channel, "rules", "topic", topic.title[:6], game=game.info.id
                )
                assert topic.id in [choice["value"] for choice in typed]
                result = await alice.slash(channel, "rules", game=game.info.id, topic=topic.id)
                _within_limits(result)
                embed = result.embeds[0]
                assert topic.title in embed["title"]
                assert embed["description"].startswith(topic.text)
                assert embed["footer"]["text"] == f"Full text: {topic.source}"
                if number + 1 < len(topics):
                    assert f"topic:{topics[number + 1].id}" in embed["description"]
                else:
                    assert "last topic" in embed["description"]
        assert not w.server.errors, w.server.errors


async def test_rules_in_a_dm_and_friendly_refusals(tmp_path):
    async with helped(tmp_path) as w:
        bob = w.users["bob"]
        dm = bob.dm_channel_id
        result = await bob.slash(dm, "rules", game="City of Iron", topic="End of round")
        _within_limits(result)
        assert "End of round" in result.embeds[0]["title"]
        unknown = await bob.slash(dm, "rules", game="chess")
        assert unknown.ephemeral and unknown.content.startswith("⚠️") and "city-of-iron" in unknown.content
        bad_topic = await bob.slash(w.channels["table"], "rules", game="city-of-iron", topic="dragons")
        assert bad_topic.content.startswith("⚠️") and "bidding" in bad_topic.content
        assert await bob.autocomplete(dm, "rules", "topic", "", game="chess") == []
        assert not w.server.errors, w.server.errors


async def test_card_finds_every_entry_of_every_game(tmp_path):
    async with helped(tmp_path) as w:
        carol = w.users["carol"]
        channel = w.channels["table"]
        for game in GAMES:
            entries = game.catalogue()
            assert entries, game.info.id
            for entry in entries:
                offered = await carol.autocomplete(channel, "card", "name", entry.name, game=game.info.id)
                assert entry.name in [choice["value"] for choice in offered], (game.info.id, entry.name)
                assert all(len(choice["name"]) <= 100 for choice in offered)
                result = await carol.slash(channel, "card", game=game.info.id, name=entry.name)
                _within_limits(result)
                embed = result.embeds[0]
                assert embed["title"] == entry.name
                assert entry.summary in embed["description"]
                assert [field["name"] for field in embed.get("fields") or []] == [
                    label for label, _ in entry.details
                ]
                designed = "designed by the project" in ((embed.get("footer") or {}).get("text") or "")
                assert designed == entry.designed
        assert not w.server.errors, w.server.errors


async def test_card_partial_names_and_refusals(tmp_path):
    async with helped(tmp_path) as w:
        dave_dm = w.users["alice"].dm_channel_id
        alice = w.users["alice"]
        found = await alice.slash(dave_dm, "card", game="iron-bridge-gorge", name="blast furnace")
        assert found.embeds[0]["title"] == "Pig Iron Blast Furnace"
        several = await alice.slash(dave_dm, "card", game="iron-bridge-gorge", name="mine")
        assert several.content.startswith("⚠️") and "Coal Mine" in several.content
        none = await alice.slash(dave_dm, "card", game="iron-and-brass", name="dragon")
        assert none.content.startswith("⚠️")
        # The first letters list the entries starting with them, 25 at most.
        offered = await alice.autocomplete(dave_dm, "card", "name", "", game="city-of-iron")
        assert len(offered) == 25
        assert not w.server.errors, w.server.errors


async def test_help_lists_every_registered_command(tmp_path):
    async with helped(tmp_path) as w:
        alice = w.users["alice"]
        for channel in (w.channels["table"], alice.dm_channel_id):
            result = await alice.slash(channel, "help")
            _within_limits(result)
            text = _text(result)
            assert "/game new" in text and "/hand" in text and "DM" in text and "Join" in text
            registered = []
            for command in w.server.commands():
                subcommands = [o for o in command.get("options", []) if o["type"] in (1, 2)]
                if not subcommands:
                    registered.append(command["name"])
                for sub in subcommands:
                    nested = [o for o in sub.get("options", []) if o["type"] == 1]
                    registered += [f"{command['name']} {sub['name']} {n['name']}" for n in nested] or [
                        f"{command['name']} {sub['name']}"
                    ]
            assert {"help", "rules", "card", "game new", "play"} <= set(registered)
            for name in registered:
                assert f"`/{name}" in text, f"/help does not list /{name}"
            for command in w.bot.tree.walk_commands():
                if not hasattr(command, "commands"):
                    assert command.description in text
        assert not w.server.errors, w.server.errors


async def _welcomes(w: World, guild: int) -> list:
    await w.settle()
    system = w.server.world.guilds[guild].system_channel_id
    assert system is not None
    return [m for m in w.server.public_messages(system) if m.author_id == w.server.bot_user_id]


async def test_welcome_posted_on_join_when_allowed(tmp_path):
    async with helped(tmp_path) as w:
        server = w.server
        joined = server.add_guild("Game Night", system_channel="general")
        welcome = await _welcomes(w, joined)
        assert len(welcome) == 1
        assert "/game new" in welcome[0].content and "/help" in welcome[0].content
        # No right to post there: nothing is posted and nothing goes wrong.
        muted = server.add_guild(
            "Read Only",
            system_channel="announcements",
            everyone_permissions=DEFAULT_EVERYONE_PERMISSIONS & ~P_SEND_MESSAGES,
        )
        assert await _welcomes(w, muted) == []
        # No system channel at all: silently skipped.
        server.add_guild("No System Channel")
        await w.settle()
        # The guilds that were there when the bot connected are not greeted again.
        assert not any(m.author_id == server.bot_user_id for m in server.public_messages(w.channels["table"]))
        assert w.bot is not None and w.bot.get_guild(muted) is not None
        assert not server.errors, server.errors
