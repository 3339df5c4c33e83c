"""/game: create, join, leave, start, inspect and abandon the channel's game."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.reply import Reply
from bot.service import UserError, parse_options
from bot.table import is_admin
from rules import registry

if TYPE_CHECKING:
    from bot.client import HostBot


@app_commands.guild_only()
class Lobby(
    commands.GroupCog, group_name="game", group_description="Start, join and manage this channel's game"
):
    def __init__(self, bot: HostBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def table(self):  # noqa: ANN201 - the bot's Table
        return self.bot.table

    @app_commands.command(name="new", description="Open a lobby for a new game in this channel")
    @app_commands.describe(
        game="Which game to play",
        seed="Optional: a number that fixes the shuffles and dice, to replay a game exactly",
        options="Optional: game options as name=value pairs, e.g. rounds=10",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        seed: app_commands.Range[int, 0, 2_147_483_647] | None = None,
        options: str | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            record = await self.bot.service.new_game(
                kind=game.strip(),
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                user_id=interaction.user.id,
                name=interaction.user.display_name,
                options=parse_options(options or ""),
                seed=seed,
            )
            await self.table.post_lobby(reply, record)

        await self.table.guarded(interaction, work)

    @new.autocomplete("game")
    async def _game_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        wanted = current.lower()
        return [
            app_commands.Choice(
                name=f"{g.info.name} ({g.info.min_players}-{g.info.max_players} players)", value=g.info.id
            )
            for g in registry.all_games()
            if wanted in g.info.name.lower() or wanted in g.info.id
        ][:25]

    @app_commands.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            game, seat = await self.bot.service.join(
                interaction.channel_id, interaction.user.id, interaction.user.display_name
            )
            await reply.send(f"🪑 {interaction.user.mention} joined (seat {seat + 1}).", ephemeral=False)
            await self.table.refresh_lobby(game.id)

        await self.table.guarded(interaction, work)

    @app_commands.command(name="leave", description="Leave this channel's lobby before the game starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            game = await self.bot.service.leave(interaction.channel_id, interaction.user.id)
            await reply.send(f"👋 {interaction.user.mention} left the lobby.", ephemeral=False)
            await self.table.refresh_lobby(game.id)

        await self.table.guarded(interaction, work)

    @app_commands.command(name="start", description="Start the game (host or a moderator)")
    async def start(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            await self.table.start(reply, interaction.channel_id)

        await self.table.guarded(interaction, work)

    @app_commands.command(name="status", description="What is happening in this channel's game")
    async def status(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            service = self.bot.service
            game = await service.store.open_game_in(
                interaction.channel_id
            ) or await service.store.latest_game_in(interaction.channel_id)
            if game is None:
                raise UserError("No game has been played in this channel yet. Start one with `/game new`.")
            info = service.rules_for(game.kind).info
            seats = await service.store.seats(game.id)
            lines = [f"**{info.name}** · {game.status.value} · game #{game.id}"]
            lines.append("Players: " + ", ".join(f"{s.seat + 1}. {s.name}" for s in seats))
            if game.state is not None:
                view = await service.view(game, None)
                lines.append(f"Now: {view.headline} (move {game.version})")
            options = ", ".join(f"{k}={v}" for k, v in game.options.items())
            if options:
                lines.append(f"Options: {options}")
            lines.append(f"Seed: {game.seed}")
            await reply.send("\n".join(lines))

        await self.table.guarded(interaction, work)

    @app_commands.command(
        name="abandon", description="End this channel's game (all players agree, or a moderator)"
    )
    async def abandon(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            game, done, missing = await self.bot.service.abandon(
                interaction.channel_id, interaction.user.id, is_admin=is_admin(interaction)
            )
            if done:
                await reply.send(f"🛑 The game was abandoned by {interaction.user.mention}.", ephemeral=False)
                await self.table.close_lobby(game, "🛑 Abandoned.")
            else:
                await reply.send(
                    f"🗳️ {interaction.user.mention} wants to abandon the game. Still to agree with"
                    f" `/game abandon`: {', '.join(missing)}.",
                    ephemeral=False,
                )

        await self.table.guarded(interaction, work)


async def setup(bot: HostBot) -> None:
    await bot.add_cog(Lobby(bot))
