"""Boards: the public board and its sections, a seat's own hand, the catch-up picture and the log."""

from __future__ import annotations

import io
import logging

import discord

from bot.app.announcer import picture_alt
from bot.app.refusals import UserError
from bot.app.text import escape_text
from bot.interface.components import section_buttons
from bot.interface.reply import Reply
from bot.interface.table.base import TableBase, clip_content
from bot.storage.store import GameRecord
from renderer.registry import overlays_for

log = logging.getLogger(__name__)


class Boards(TableBase):
    """The table's part that shows pictures and the log."""

    async def hand(self, reply: Reply, game: GameRecord) -> None:
        seat = await self.service.require_seat(game, reply.interaction.user.id)
        view = await self.service.view(game, seat.seat)
        file = await self._picture(view, f"hand-{game.id}-v{game.version}.png")
        await reply.send(f"**Your view** (only you can see this) · {view.headline}", file=file)

    async def _hand(self, reply: Reply, game_id: int) -> None:
        await self.hand(reply, await self.active(game_id))

    async def board(
        self,
        reply: Reply,
        game: GameRecord,
        *,
        public: bool = False,
        section: str | None = None,
        target: str | None = None,
        heading: str | None = None,
    ) -> None:
        """The public board, or one of the game's sections or overlays; all drawn from the public view
        only. Shown to one person, it carries a button per section (a phone user never types names)."""
        view = await self.service.view(game, None)
        name = self.service.rules_for(game.kind).info.name
        sections = [o.name for o in overlays_for(game.kind).values() if not o.target]
        if section and section != "board":
            overlays = overlays_for(game.kind)
            chosen = overlays.get(section)
            if chosen is None:
                offered = ", ".join(overlays) or "none for this game"
                raise UserError(f"There is no {section!r} section for {name} (sections: {offered}).")
            if chosen.target and not (target or "").strip():
                raise UserError(f"Say which one with `target:`: {chosen.target}.")
            refusal = chosen.refuse(view, target or "") if chosen.refuse is not None else None
            if refusal:
                raise UserError(escape_text(refusal))
            png = await self.painter.overlay(view, chosen.name, target)
            file = discord.File(
                io.BytesIO(png),
                filename=f"{chosen.name}-{game.id}-v{game.version}.png",
                description=clip_content(f"{chosen.description}. {view.headline}", 1000),
            )
            buttons = None if public or chosen.target else section_buttons(game.id, sections, chosen.name)
            await reply.send(
                f"**{name}** · {chosen.description}", file=file, view=buttons, ephemeral=not public
            )
            return
        file = await self._picture(view, f"board-{game.id}-v{game.version}.png")
        text = (
            f"**{name}** · {view.headline}" if heading is None else f"{heading}\n\n**Now:** {view.headline}"
        )
        buttons = None if public else section_buttons(game.id, sections)
        await reply.send(clip_content(text), file=file, view=buttons, ephemeral=not public)

    async def _section(self, reply: Reply, game_id: int, section: str | None) -> None:
        await self.board(reply, await self._started(game_id), section=section or "board")

    async def catch_up_board(self, reply: Reply, game: GameRecord, since: int, *, heading: str) -> None:
        """The public board with what changed since log entry `since` framed, for the caller only.

        Both pictures come from public views (then and now), never from the caller's private view, so
        the image shows nothing a spectator could not have seen on the two turn posts."""
        rules = self.service.rules_for(game.kind)
        now = await self.service.view(game, None)
        then = rules.view(await self.service.state_at(game, since), None)
        png, changes = await self.painter.changes(then, now)
        said = "; ".join(changes) if changes else "nothing on the board changed"
        file = discord.File(
            io.BytesIO(png),
            filename=f"catchup-{game.id}-v{game.version}.png",
            description=picture_alt(now, f"Changed since your last move: {said}."),
        )
        await reply.send(clip_content(f"{heading}\n\n**Now:** {now.headline}"), file=file)

    async def _board(self, reply: Reply, game_id: int) -> None:
        await self.board(reply, await self._started(game_id))

    async def log_text(self, game: GameRecord, lines: int = 15) -> str:
        entries = await self.service.log_lines(game, lines)
        if not entries:
            return "Nothing has happened yet."
        moves = await self.service.move_count(game)
        return clip_content(
            f"**Latest moves** (up to move {moves})\n" + "\n".join(f"• {line}" for line in entries)
        )

    async def _log(self, reply: Reply, game_id: int) -> None:
        await reply.send(await self.log_text(await self._started(game_id)))
