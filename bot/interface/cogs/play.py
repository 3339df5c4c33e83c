"""/play, /board, /hand, /log: the same for every game, driven by the rules core's choices."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.refusals import UserError
from bot.app.service import menu_digest
from bot.app.text import plain_text
from bot.interface.reply import Reply
from bot.interface.typed import suggestions
from bot.interface.where import channel_id
from renderer.registry import overlays_for

if TYPE_CHECKING:
    from bot.interface.client import HostBot


class Play(commands.Cog):
    def __init__(self, bot: HostBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Forms the bot opened (the trade composer) are answered here, so a form filled in across a
        restart is not lost with the Modal object that opened it."""
        if interaction.type is discord.InteractionType.modal_submit:
            await self.bot.table.trades.submit(interaction)

    @app_commands.guild_only()
    @app_commands.command(name="play", description="Make your move in this channel's game")
    @app_commands.describe(move="Start typing: the list shows only your legal moves")
    async def play(self, interaction: discord.Interaction, move: app_commands.Range[str, 1, 100]) -> None:
        async with Reply(interaction) as reply:
            game = await self.bot.service.active_game(channel_id(interaction))
            await self.bot.table.play_move(reply, game, text=move)

    @play.autocomplete("move")
    async def _moves(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        service = self.bot.service
        game = await service.open_game_in(channel_id(interaction))
        if game is None or game.state is None:
            return []
        seat = await service.seat_of(game, interaction.user.id)
        if seat is None:
            return []
        everything = await service.choices(game, seat.seat)
        menu = menu_digest(everything)
        return [
            app_commands.Choice(name=plain_text(s.name, 100), value=s.value[:100])
            for s in suggestions(everything, current, menu)
        ]

    @app_commands.guild_only()
    @app_commands.command(name="board", description="See the board of this channel's game")
    @app_commands.describe(
        public="Post it in the channel for everyone (default: only you see it)",
        section="A part of the board in detail (goods, nations…) or an extra picture such as a unit's range",
        target="What the picture is about, when it asks (e.g. a square such as C5)",
    )
    async def board(
        self,
        interaction: discord.Interaction,
        public: bool = False,
        section: str | None = None,
        target: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        async with Reply(interaction) as reply:
            game = await self._shown_game(channel_id(interaction))
            await self.bot.table.board(reply, game, public=public, section=section, target=target)

    @board.autocomplete("section")
    async def _sections(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        service = self.bot.service
        game = await service.latest_game_in(channel_id(interaction))
        if game is None:
            return []
        return [
            app_commands.Choice(name=f"{o.name}: {o.description}"[:100], value=o.name)
            for o in overlays_for(game.kind).values()
            if current.lower() in o.name
        ][:25]

    @app_commands.guild_only()
    @app_commands.command(name="hand", description="See your private cards and view (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        async with Reply(interaction) as reply:
            game = await self.bot.service.active_game(channel_id(interaction))
            await self.bot.table.hand(reply, game)

    @app_commands.guild_only()
    @app_commands.command(name="log", description="The latest moves of this channel's game")
    @app_commands.describe(lines="How many lines (default 15)")
    async def log(self, interaction: discord.Interaction, lines: app_commands.Range[int, 1, 50] = 15) -> None:
        async with Reply(interaction) as reply:
            game = await self._shown_game(channel_id(interaction))
            await reply.send(await self.bot.table.log_text(game, lines))

    async def _shown_game(self, channel_id: int):  # noqa: ANN202
        """The open game, or the last finished one, so its final board stays available."""
        service = self.bot.service
        game = await service.latest_game_in(channel_id)
        if game is None:
            raise UserError("There is no game being played in this channel. Start one with `/game new`.")
        if game.state is None:
            raise UserError(
                "The game in this channel has not started yet. The host starts it with `/game start`."
            )
        return game


async def setup(bot: HostBot) -> None:
    await bot.add_cog(Play(bot))
