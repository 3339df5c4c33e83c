"""What the quality tests added to the emulator: several bots at once, every message version, the
mentions a message would ping, and each interaction's own answer."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.emulator import FakeDiscord
from bot.emulator.testing import run_bot, stop_bot


class Probe(commands.Bot):
    """A tiny bot: /who answers with its name; /say posts text with or without allowed_mentions."""

    def __init__(self, name: str, allowed: discord.AllowedMentions | None) -> None:
        super().__init__(
            command_prefix="!",
            intents=discord.Intents.none(),
            guild_ready_timeout=0.1,
            allowed_mentions=allowed,
        )
        self.name = name
        self.seen: list[int] = []

    async def setup_hook(self) -> None:
        @app_commands.command(name="who", description="which bot answers")
        async def who(interaction: discord.Interaction) -> None:
            self.seen.append(interaction.id)
            await asyncio.sleep(0.05)
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.send_message(self.name, ephemeral=True)

        @app_commands.command(name="say", description="post text in the channel, then edit it")
        async def say(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.send_message(f"{text} (1)")
            await interaction.edit_original_response(content=f"{text} (2)")
            assert interaction.channel is not None
            await interaction.channel.send(text)  # type: ignore[union-attr]

        self.tree.add_command(who)
        self.tree.add_command(say)
        await self.tree.sync()


@contextlib.asynccontextmanager
async def probes(
    *allowed: discord.AllowedMentions | None,
) -> AsyncIterator[tuple[FakeDiscord, int, Any, list]]:
    server = FakeDiscord()
    await server.start()
    guild = server.add_guild("G")
    channel = server.add_channel(guild, "c")
    user = server.user(server.add_user("alice"))
    running = []
    try:
        for index, mentions in enumerate(allowed):
            bot = Probe(f"bot{index}", mentions)
            running.append((bot, await run_bot(bot, server)))
        yield server, channel, user, [bot for bot, _ in running]
    finally:
        for bot, task in running:
            await stop_bot(bot, task)
        await server.stop()


async def test_routing_latest_all_and_round_robin() -> None:
    async with probes(None, None) as (server, channel, user, bots):
        assert len(server.gateway.connected_sessions()) == 2
        first = await user.slash(channel, "who")
        assert first.answer == "bot1" and bots[0].seen == []  # latest: the last bot to identify
        server.gateway.routing = "round_robin"
        answers = [(await user.slash(channel, "who")).answer for _ in range(4)]
        assert sorted(answers) == ["bot0", "bot0", "bot1", "bot1"]
        server.gateway.routing = "all"
        both = await user.slash(channel, "who")
        await server.settle()
        assert both.record.id in bots[0].seen and both.record.id in bots[1].seen
        assert both.answer in ("bot0", "bot1")
        assert len(server.errors) == 1 and "40060" in server.errors[0]  # the second answer is refused


async def test_message_versions_mentions_and_own_answers() -> None:
    async with probes(discord.AllowedMentions.none(), None) as (server, channel, user, bots):
        server.gateway.routing = "round_robin"  # first /say to bot1 (no allowed_mentions), then bot0
        loud = await user.slash(channel, "say", text="@everyone hi")
        quiet = await user.slash(channel, "say", text="@everyone hi")
        await server.settle()
        assert loud.answer == quiet.answer == "@everyone hi (2)"
        versions = [m for m in server.message_versions if m.id == loud.message.id]
        assert [m.content for m in versions] == ["@everyone hi (1)", "@everyone hi (2)"]
        posts = [m for m in server.message_versions if m.content == "@everyone hi"]
        assert len(posts) == 2
        pinging = [m for m in posts if m.pings_everyone]
        assert len(pinging) == 1 and pinging[0].allowed_mentions is None
        role = server.world.role_for_permissions(next(iter(server.world.guilds)), 1 << 4).id
        silent = next(m for m in posts if not m.pings_everyone)
        silent.content = f"<@&{role}>"
        assert silent.pinged_roles == [] and pinging[0].allowed_mentions is None
        pinging[0].content = f"<@&{role}>"
        assert pinging[0].pinged_roles == [role]
