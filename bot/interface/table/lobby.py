"""The lobby message: its players and options, the Join, Leave and Start buttons, and its close."""

from __future__ import annotations

import logging

import discord

from bot.app.refusals import UserError
from bot.app.text import escape_text
from bot.interface.components import lobby_view
from bot.interface.reply import Reply
from bot.interface.table.base import TableBase, display_name, is_admin
from bot.storage.store import GameRecord, GameStatus

log = logging.getLogger(__name__)


class LobbyReplies(TableBase):
    """The table's part that shows and updates lobbies."""

    async def lobby_message(self, game: GameRecord) -> tuple[str, discord.ui.View | None]:
        rules = self.service.rules_for(game.kind)
        seats = await self.service.seats(game.id)
        info = rules.info
        players = ", ".join(
            f"<@{seat.user_id}>" if seat.user_id > 0 else f"🤖 {escape_text(seat.name)}" for seat in seats
        )
        options = "; ".join(info.option_lines(game.options))
        saved = await self.service.import_lines(game)
        lines = [
            f"🎲 **{info.name}** — new game hosted by <@{game.host_id}>",
            f"_{info.summary}_",
            f"Players ({len(seats)}/{info.max_players}, need {info.min_players}): {players}"
            if not saved
            else f"Players ({len(seats)} joined): {players}",
        ]
        if options:
            lines.append(f"Options: {options}")
        lines += saved or []
        lines.append("Press **Join** to take a seat. The host presses **Start** when everyone is in.")
        return "\n".join(lines), lobby_view(game.id, [] if saved else info.options, game.options)

    async def _lobby_button(self, reply: Reply, game_id: int, verb: str) -> None:
        game = await self._game(game_id)
        if game.status != GameStatus.LOBBY:
            raise UserError("This lobby is closed; the game has started or ended.")
        user = reply.interaction.user
        if verb == "join":
            await self.service.join(game.channel_id, user.id, display_name(user))
        elif verb == "leave":
            await self.service.leave(game.channel_id, user.id)
        else:
            await self.start(reply, game.channel_id)
            return
        content, view = await self.lobby_message(game)
        await reply.send(content, view=view)

    async def start(self, reply: Reply, channel_id: int) -> None:
        interaction = reply.interaction
        admin = is_admin(interaction)
        started = await self.service.start(channel_id, interaction.user.id, is_admin=admin)
        names = ", ".join(escape_text(seat.name) for seat in started.seats)
        await reply.send(f"▶️ **{started.rules.info.name}** has started with {names}.", ephemeral=False)
        await self.close_lobby(started.game, f"▶️ Started with {names}.")
        self.spawn(self.drive_ai(started.game.id), f"ai-{started.game.id}-start")

    async def post_lobby(self, reply: Reply, game: GameRecord) -> None:
        content, view = await self.lobby_message(game)
        await reply.send(content, view=view, ephemeral=False)
        message = await reply.interaction.original_response()
        await self.service.remember_message(game.id, "lobby", game.channel_id, message.id, 0)

    async def refresh_lobby(self, game_id: int) -> None:
        """Show the lobby's current players and options after a /game join or leave."""
        game = await self.service.game(game_id)
        stored = await self.service.message(game_id, "lobby")
        channel = await self._channel(stored[0]) if stored else None
        if game is None or stored is None or channel is None:
            return
        content, view = await self.lobby_message(game)
        try:
            await (
                self.bot.get_partial_messageable(stored[0])
                .get_partial_message(stored[1])
                .edit(content=content, view=view)
            )
        except discord.HTTPException:
            log.info("lobby message of game %s could not be refreshed", game_id)

    async def close_lobby(self, game: GameRecord, note: str) -> None:
        """The lobby's buttons go away once it is started or abandoned, so nobody joins a running game."""
        stored = await self.service.message(game.id, "lobby")
        channel = await self._channel(game.channel_id) if stored else None
        if stored is None or channel is None:
            return
        content, _ = await self.lobby_message(game)
        first_lines = content.split("\n")[:3]
        try:
            await (
                self.bot.get_partial_messageable(game.channel_id)
                .get_partial_message(stored[1])
                .edit(
                    content="\n".join([*first_lines, note]),
                    view=None,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            )
        except discord.HTTPException:
            log.info("lobby message of game %s could not be closed", game.id)
