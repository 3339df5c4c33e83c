"""Boards: the public board and its sections, a seat's own hand, the catch-up picture and the log."""

from __future__ import annotations

import io
import logging

import discord

from bot.app.announcer import picture_alt
from bot.app.limits import PUBLIC_BOARD
from bot.app.refusals import UserError
from bot.app.text import escape_text, plain_text, quoted
from bot.interface.components import section_buttons
from bot.interface.reply import Reply
from bot.interface.table.base import TableBase, clip_content
from bot.storage.store import GameRecord
from renderer.registry import overlays_for

log = logging.getLogger(__name__)


class Boards(TableBase):
    """The table's part that shows pictures and the log."""

    async def hand(self, reply: Reply, game: GameRecord) -> None:
        self.paced(reply.interaction.user.id)
        seat = await self.service.require_seat(game, reply.interaction.user.id)
        view = await self.service.view(game, seat.seat)
        file = await self._picture(view, f"hand-{game.id}-v{game.version}.png")
        await reply.send(f"**Your view** (only you can see this) · {escape_text(view.headline)}", file=file)

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
        page: int = 0,
    ) -> None:
        """The public board, or one of the game's sections or overlays; all drawn from the public view
        only. Shown to one person, it carries a button per section (a phone user never types names),
        and a section too long for one phone picture shows one page with buttons to turn them; shown to
        everybody (`public`), it has no buttons and every page is attached. A public one goes to the
        channel within the limits (`bot.app.limits.PUBLIC_BOARD`), else to the asker only, saying why."""
        user_id = reply.interaction.user.id
        self.paced(user_id)
        view = await self.service.view(game, None)
        name = self.service.rules_for(game.kind).info.name
        sections = [o.name for o in overlays_for(game.kind).values() if not o.target]
        if section and section != "board":
            overlays = overlays_for(game.kind)
            chosen = overlays.get(section)
            if chosen is None:
                offered = ", ".join(overlays) or "none for this game"
                raise UserError(f"There is no {quoted(section)} section for {name} (sections: {offered}).")
            if chosen.target and not (target or "").strip():
                raise UserError(f"Say which one with `target:`: {chosen.target}.")
            refusal = chosen.refuse(view, target or "") if chosen.refuse is not None else None
            if refusal:
                raise UserError(escape_text(refusal))
            about = plain_text(f"{chosen.description}. {view.headline}", 1000)
            stem = f"{chosen.name}-{game.id}-v{game.version}"
            kept = self.kept_private("board", game.id, user_id, PUBLIC_BOARD) if public else None
            if public and kept is None:
                pages = await self.painter.overlay_pages(view, chosen.name, target)
                files = [
                    discord.File(
                        io.BytesIO(png),
                        filename=f"{stem}-{number + 1}.png" if len(pages) > 1 else f"{stem}.png",
                        description=about,
                    )
                    for number, png in enumerate(pages)
                ]
                await reply.send(f"**{name}** · {chosen.description}", files=files, ephemeral=False)
                return
            shown = await self.painter.overlay(view, chosen.name, target, page)
            paged = f" (page {shown.number + 1} of {shown.count})" if shown.count > 1 else ""
            file = discord.File(
                io.BytesIO(shown.png),
                filename=f"{stem}-{shown.number + 1}.png" if shown.count > 1 else f"{stem}.png",
                description=about,
            )
            buttons = (
                None
                if chosen.target
                else section_buttons(game.id, sections, chosen.name, page=shown.number, pages=shown.count)
            )
            said = f"**{name}** · {chosen.description}{paged}" + (f"\n{kept}" if kept else "")
            await reply.send(said, file=file, view=buttons)
            return
        kept = self.kept_private("board", game.id, user_id, PUBLIC_BOARD) if public else None
        public = public and kept is None
        file = await self._picture(view, f"board-{game.id}-v{game.version}.png")
        text = (
            f"**{name}** · {escape_text(view.headline)}"
            if heading is None
            else f"{heading}\n\n**Now:** {escape_text(view.headline)}"
        )
        buttons = None if public else section_buttons(game.id, sections)
        text += f"\n{kept}" if kept else ""
        await reply.send(clip_content(text), file=file, view=buttons, ephemeral=not public)

    async def _section(self, reply: Reply, game_id: int, section: str | None, *, page: int = 0) -> None:
        await self.board(reply, await self._started(game_id), section=section or "board", page=page)

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
        await reply.send(clip_content(f"{heading}\n\n**Now:** {escape_text(now.headline)}"), file=file)

    async def _board(self, reply: Reply, game_id: int) -> None:
        await self.board(reply, await self._started(game_id))

    async def log_text(self, game: GameRecord, lines: int = 15) -> str:
        entries = await self.service.log_lines(game, lines)
        if not entries:
            return "Nothing has happened yet."
        moves = await self.service.move_count(game)
        return clip_content(
            f"**Latest moves** (up to move {moves})\n"
            + "\n".join(f"• {escape_text(line)}" for line in entries)
        )

    async def _log(self, reply: Reply, game_id: int) -> None:
        await reply.send(await self.log_text(await self._started(game_id)))
