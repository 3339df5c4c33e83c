"""Moves from Discord: a button, a menu or typed words become one move (or a two-step one), confirmed to
the player with their next choices; the menus of a seat's choices, group by group.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.app.autoplay import automated
from bot.app.refusals import Refusal, UserError
from bot.app.service import Move, menu_digest
from bot.app.text import code_text, escape_text
from bot.interface import typed
from bot.interface.components import ROOT, GameButton, choice_menu, menu_node
from bot.interface.reply import Reply
from bot.interface.table.base import TableBase, clip_content, event_line, seat_menu
from bot.storage.store import GameRecord, SeatRecord
from rules import words
from rules.core import Choice, RuleError, Seat

log = logging.getLogger(__name__)


class MoveReplies(TableBase):
    """The table's part that plays moves and shows a seat's menus."""

    async def play_move(
        self,
        reply: Reply,
        game: GameRecord,
        *,
        key: str | None = None,
        menu: str | None = None,
        text: str | None = None,
        action: dict[str, Any] | None = None,
    ) -> None:
        """Apply the caller's move, confirm it to them with their next choices, then tell everyone."""
        interaction = reply.interaction
        first: str | None = None
        if text is not None:
            group = re.fullmatch(r"([0-9a-f]{10}):grp:(r(?:\.\d+)*)", text.strip())
            if group:  # an autocomplete entry standing for many variants: their menu
                await self._open_part(reply, game.id, group.group(1), group.group(2))
                return
            steps = await self._resolve_typed_move(game, interaction.user.id, text)
            if len(steps) == 2:  # a phrase naming a two-step move ("Arsenal at F9")
                first = steps[0][0]
            key, menu = steps[-1]
        # The courier is woken once the player has their answer: what the move owes the channel is
        # committed with it, and delivering it first would only delay the answer (issue 36).
        try:
            try:
                if first is not None:
                    await self.service.play(
                        game.id, interaction.user.id, key=first, interaction_id=interaction.id, deliver=False
                    )
                move = await self.service.play(
                    game.id,
                    interaction.user.id,
                    key=key,
                    menu=menu,
                    action=action,
                    interaction_id=interaction.id if first is None else None,
                    deliver=False,
                )
            except UserError as refusal:
                if refusal.reason is Refusal.STALE:
                    await self._stale(reply, game.id, refusal.message)
                    return
                raise
            await self._confirm(reply, move)
        finally:
            self.service.deliver_owed()
        self.spawn(self.drive_ai(game.id), f"ai-{game.id}-{move.version}")

    async def _act(self, reply: Reply, game_id: int, key: str | None, menu: str | None) -> None:
        if key is None or menu is None:
            raise UserError("That button is broken; use `/play` instead.")
        await self.play_move(reply, await self._game(game_id), key=key, menu=menu)

    async def _resolve_typed_move(
        self, game: GameRecord, user_id: int, text: str
    ) -> list[tuple[str, str | None]]:
        """`/play` gets '<menu digest>:<key>' from autocomplete, or whatever the player typed: the
        words of one move in any order (small slips forgiven), or of a two-step move such as a build's
        piece then its square. Returns the (key, menu) steps to play, one or two."""
        match = re.fullmatch(r"([0-9a-f]{10}):(.+)", text.strip())
        if match:
            return [(match.group(2), match.group(1))]
        seat = await self.service.require_seat(game, user_id)
        choices = await self.service.choices(game, seat.seat)
        if not choices:
            waiting = await self._waiting_names(game)
            raise UserError(
                f"It is not your turn: waiting for {waiting}." if waiting else "Nobody can move now."
            )
        found = typed.find(choices, text)
        if len(found) == 1:
            return [(found[0].key, None)]
        if not found:
            pairs = await self._two_step(game, seat.seat, choices, text)
            if len(pairs) == 1:
                return [(pairs[0][0].key, None), (pairs[0][1].key, None)]
            if pairs:
                sample = ", ".join(f"`{code_text(second.label)}`" for _, second in pairs[:5])
                quoted = escape_text(repr(clip_content(text, 60)))
                raise UserError(f"{len(pairs)} moves match {quoted}; say which, e.g. {sample}.")
        sample = ", ".join(f"`{code_text(c.label)}`" for c in (found or choices)[:5])
        quoted = escape_text(repr(clip_content(text, 60)))
        if found:
            raise UserError(f"{len(found)} moves match {quoted}; pick one from the list, e.g. {sample}.")
        raise UserError(f"{quoted} is not one of your moves. You can: {sample}…")

    async def _two_step(
        self, game: GameRecord, seat: Seat, choices: list[Choice], text: str
    ) -> list[tuple[Choice, Choice]]:
        """The (first, second) moves a phrase names when the move takes two steps: the first step's
        choice leaves the same seat to choose again, and the typed words are found in the second
        step's label (or across both labels)."""
        wanted = typed.words(text)
        firsts = [c for c in choices if any(typed.score([w], c.label) > 0 for w in wanted)][:40]
        if not firsts:
            return []
        rules = self.service.rules_for(game.kind)
        state = await self.service.state(game)
        pairs: list[tuple[Choice, Choice]] = []
        for first in firsts:
            try:
                after = rules.apply(state, seat, first.action).state
            except RuleError:
                continue
            if rules.result(after) is not None or seat not in rules.to_act(after):
                continue
            seconds = rules.legal_actions(after, seat)
            named = typed.find(seconds, text)
            if len(named) != 1:
                named = [c for c in seconds if typed.score(wanted, f"{first.label} {c.label}") > 0]
            pairs += [(first, second) for second in named]
        return pairs

    async def _confirm(self, reply: Reply, move: Move) -> None:
        lines = [line for line in (event_line(event, move.seat) for event in move.events) if line]
        # A step that tells nothing (a unit picked, a step back, an action ended) is confirmed by its own
        # label rather than a bare "Done.", which read as if a move had been made.
        said = [escape_text(line) for line in lines] or (
            [escape_text(words.sentence(move.label))] if move.label else ["Done."]
        )
        content = "✅ " + "\n".join(said)
        view = None
        waiting = move.rules.to_act(move.after) if move.result is None else set()
        # A trade offered to a computer seat (`rules.trade`: the open `proposal`) is answered before the
        # post: choices offered with the offer would be outdated before they could be pressed, so the
        # proposer's next choices come with the post of the answer.
        proposal = getattr(move.after, "proposal", None)
        computer = (
            proposal.partner
            if proposal is not None
            and proposal.proposer == move.seat
            and proposal.partner in automated(move.seats, None)
            else None
        )
        if move.seat in waiting and computer is not None:
            name = escape_text(move.seats[computer].name)
            content += f"\n\n🤖 {name} answers first; your next choices come with the post of the answer."
        elif move.seat in waiting:
            choices = move.rules.legal_actions(move.after, move.seat)
            view = seat_menu(move.game.id, move.rules, move.after, move.seat, choices)
            content += "\n\n**Your turn continues:**" if lines else "\n\n**Now choose:**"
        undoable = False  # offered only when `/undo` would accept it
        if move.result is None and not any(event.reveals for event in move.events):
            try:
                undoable = await self.service.can_undo(move.game, reply.interaction.user.id, move.seats)
            except Exception:  # the move is made: its confirmation and announcement still go
                log.exception("could not tell whether game %s can be undone", move.game.id)
        if undoable:
            view = view or discord.ui.View(timeout=None)
            view.add_item(GameButton(move.game.id, "undo", label="Undo", row=4))
        await reply.send(clip_content(content), view=view)

    async def _my_choices(self, reply: Reply, game_id: int) -> tuple[GameRecord, SeatRecord, list[Choice]]:
        """The presser's seat and choices now, or the refusal saying whom the game waits for."""
        game = await self.active(game_id)
        seat = await self.service.require_seat(game, reply.interaction.user.id)
        choices = await self.service.choices(game, seat.seat)
        if not choices:
            waiting = await self._waiting_names(game)
            raise UserError(
                f"It is not your turn: waiting for {waiting}." if waiting else "Nobody can move now."
            )
        return game, seat, choices

    async def _menu(self, reply: Reply, game_id: int) -> None:
        game, seat, choices = await self._my_choices(reply, game_id)
        rules = self.service.rules_for(game.kind)
        view = seat_menu(game.id, rules, await self.service.state(game), seat.seat, choices)
        headline = (await self.service.view(game, seat.seat)).headline
        await reply.send(clip_content(f"**{escape_text(headline)}**\nYour choices:"), view=view)

    async def _open_part(self, reply: Reply, game_id: int, menu: str | None, path: str | None) -> None:
        """A group button of a menu too big for one message: that group's choices (or its parts)."""
        game, seat, choices = await self._my_choices(reply, game_id)
        if menu != menu_digest(choices):
            await self._stale(
                reply,
                game.id,
                "That board has moved on since those buttons were posted; here is where it stands.",
            )
            return
        await self.show_part(reply, game, seat.seat, choices, path or ROOT)

    async def show_part(
        self, reply: Reply, game: GameRecord, seat: Seat, choices: list[Choice], path: str
    ) -> None:
        try:
            node = menu_node(choices, path)
        except ValueError:
            raise UserError("That button is from an older version of the bot; use `/play` instead.") from None
        headline = (await self.service.view(game, seat)).headline
        if path == ROOT:
            rules = self.service.rules_for(game.kind)
            view = seat_menu(game.id, rules, await self.service.state(game), seat, choices)
            await reply.send(clip_content(f"**{escape_text(headline)}**\nYour choices:"), view=view)
            return
        view = choice_menu(game.id, choices, path)
        count = len(node.members)
        await reply.send(
            clip_content(
                f"**{escape_text(headline)}**\n{escape_text(node.title)}: {words.count(count, 'choice')}"
            ),
            view=view,
        )
