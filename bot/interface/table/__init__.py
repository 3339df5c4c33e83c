"""The Discord side of a game: answering interactions and telling everyone what a move did.

Cogs and components call `Table` (its parts, one module each here: `base`, `moves`, `boards`,
`lobby`, `votes`, `slowplay`); `Table` calls the `GameService` for every decision and turns the
outcome into Discord messages. Public messages are built only from public views and public event
lines; private ones go to the one seat they belong to (DM, or ephemeral), so nothing leaks.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

from bot.app.service import GameService
from bot.interface.ports import Host
from bot.interface.reply import Reply
from bot.interface.table.base import MAX_CONTENT, display_name, is_admin, unknown_button
from bot.interface.table.boards import Boards
from bot.interface.table.lobby import LobbyReplies
from bot.interface.table.moves import MoveReplies
from bot.interface.table.slowplay import SlowPlay
from bot.interface.table.votes import Votes
from bot.interface.trading import TradeDesk

__all__ = ["MAX_CONTENT", "Table", "display_name", "is_admin"]


def _page(menu: str | None) -> int:
    """A page button's page, from 0 (its id counts from 1; a page past either end is kept within)."""
    return int(menu) - 1 if menu and menu.isdigit() else 0


class Table(MoveReplies, Boards, LobbyReplies, Votes, SlowPlay):
    """The table's Discord side: every button of a game lands here and goes to the part it belongs to."""

    def __init__(self, bot: Host, service: GameService) -> None:
        super().__init__(bot, service)
        self.trades = TradeDesk(self)

    # ---- components ------------------------------------------------------------------------
    async def on_button(
        self, interaction: discord.Interaction, game_id: int, verb: str, menu: str | None, key: str | None
    ) -> None:
        handlers: dict[str, Callable[[Reply], Awaitable[None]]] = {
            "act": lambda reply: self._act(reply, game_id, key, menu),
            "menu": lambda reply: self._menu(reply, game_id),
            "grp": lambda reply: self._open_part(reply, game_id, menu, key),
            "up": lambda reply: self._open_part(reply, game_id, menu, key),
            "hand": lambda reply: self._hand(reply, game_id),
            "board": lambda reply: self._board(reply, game_id),
            "sec": lambda reply: self._section(reply, game_id, key),
            "page": lambda reply: self._section(reply, game_id, key, page=_page(menu)),
            "log": lambda reply: self._log(reply, game_id),
            "join": lambda reply: self._lobby_button(reply, game_id, "join"),
            "leave": lambda reply: self._lobby_button(reply, game_id, "leave"),
            "start": lambda reply: self._lobby_button(reply, game_id, "start"),
            "yes": lambda reply: self._vote(reply, game_id, key, True),
            "no": lambda reply: self._vote(reply, game_id, key, False),
            "takeseat": lambda reply: self._take_seat(reply, game_id, key),
            "undo": lambda reply: self.ask_undo(reply, game_id),
            "trade": lambda reply: self.trades.open(reply, game_id),
            "tradeto": lambda reply: self.trades.ask(reply, game_id, key),
        }
        handler = handlers.get(verb)
        if handler is None:
            await self.guarded(interaction, unknown_button)
            return
        # A move clicked in an ephemeral menu or a DM replaces that menu; lobby buttons edit the lobby;
        # a section button (or a page button) replaces the board picture it sits under.
        update = verb in {"act", "grp", "up", "join", "leave", "sec", "page"}
        await self.guarded(interaction, handler, update=update)

    async def on_option(
        self, interaction: discord.Interaction, game_id: int, name: str, value: str | None
    ) -> None:
        async with Reply(interaction, update=True) as reply:
            game = await self._game(game_id)
            updated = await self.service.set_option(game.channel_id, interaction.user.id, name, value)
            content, view = await self.lobby_message(updated)
            await reply.send(content, view=view)
