"""The table's votes: undo requests and their Approve and Refuse buttons, replacements, and a newcomer
taking a dropped seat.
"""

from __future__ import annotations

import logging
import re

import discord

from bot.app import announcer
from bot.app.refusals import UserError
from bot.interface.reply import Reply
from bot.interface.table.base import TableBase, clip_content, display_name, is_admin, vote_buttons
from bot.storage.store import GameRecord
from rules import words

log = logging.getLogger(__name__)


class Votes(TableBase):
    """The table's part that asks for and counts votes."""

    async def ask_undo(self, reply: Reply, game_id: int) -> None:
        """The caller asks to take back their last move; the other players approve with buttons."""
        await self.undo_in_channel(reply, (await self._game(game_id)).channel_id)

    async def undo_in_channel(self, reply: Reply, channel_id: int) -> None:
        user = reply.interaction.user
        game, plan, others = await self.service.undo_request(channel_id, user.id)
        if not others:
            move = await self.service.undo_alone(channel_id, user.id)
            await reply.send(f"↩️ Done: {plan.describe().replace('their', 'your')} taken back.")
            self.spawn(self.drive_ai(game.id), f"ai-{game.id}-{move.version}")
            return
        lines = [event["text"] for move in plan.moves for event in move.events if event["text"]]
        what = "; ".join(words.clause(line) for line in lines) or "no visible change"
        request = (
            f"↩️ {user.mention} asks to take back {plan.describe()} ({clip_content(what, 300)})."
            f" Waiting for: {', '.join(others)}."
        )
        buttons = vote_buttons(game.id, f"undo-{plan.last_version}")
        if reply.interaction.channel_id == game.channel_id:
            await reply.send(request, view=buttons, ephemeral=False)
            return
        channel = await self._channel(game.channel_id)  # asked from a DM: the table decides in its channel
        if channel is None:
            raise UserError("The game's channel is gone.")
        await channel.send(request, view=buttons, allowed_mentions=discord.AllowedMentions.none())
        await reply.send(f"↩️ Your request is posted in <#{game.channel_id}>.")

    async def _vote(self, reply: Reply, game_id: int, key: str | None, approve: bool) -> None:
        """Approve or Refuse under a vote; the service refuses anyone not seated in the game now."""
        user = reply.interaction.user
        undo = re.fullmatch(r"undo-(\d+)", key or "")
        replacement = re.fullmatch(r"replace-(\d+)-(\d+)", key or "")
        if undo:
            outcome, move = await self.service.undo_vote(game_id, user.id, int(undo.group(1)), approve)
            if outcome == "refused":
                await reply.send(f"❌ {user.mention} refused the undo; the move stands.", ephemeral=False)
            elif outcome == "waiting":
                await reply.send(
                    f"👍 {user.mention} approves the undo; waiting for the others.", ephemeral=False
                )
            else:
                await reply.send("↩️ Everyone agreed: it was taken back.", ephemeral=False)
                assert move is not None
                self.spawn(self.drive_ai(game_id), f"ai-{game_id}-{move.version}")
            return
        if replacement:
            old, new = int(replacement.group(1)), int(replacement.group(2))
            if not approve:
                await self.service.replace_refuse(game_id, user.id, old, new)
                await reply.send(f"❌ {user.mention} refused the replacement.", ephemeral=False)
                return
            name = await self._display_name(reply.interaction, new)
            game, done, missing = await self.service.replace_vote(game_id, user.id, old, new, name)
            await self._after_replace(reply, game, old, new, done, missing)
            return
        raise UserError("That vote is from an older version of the bot.")

    async def request_replace(self, reply: Reply, old: discord.abc.User, new: discord.abc.User) -> None:
        interaction = reply.interaction
        game, done, missing = await self.service.replace_request(
            interaction.channel_id,
            interaction.user.id,
            old.id,
            new.id,
            display_name(new),
            is_admin=is_admin(interaction),
        )
        await self._after_replace(reply, game, old.id, new.id, done, missing)

    async def _after_replace(
        self, reply: Reply, game: GameRecord, old: int, new: int, done: bool, missing: list[str]
    ) -> None:
        if not done:
            await reply.send(
                f"🔁 Proposal: <@{new}> takes over <@{old}>'s seat. Still to agree: {', '.join(missing)}.",
                view=vote_buttons(game.id, f"replace-{old}-{new}"),
                ephemeral=False,
            )
            return
        await reply.send(f"🔁 <@{new}> now plays in <@{old}>'s seat.", ephemeral=False)
        self.spawn(self._welcome_substitute(game, new), f"substitute-{game.id}")

    async def _take_seat(self, reply: Reply, game_id: int, key: str | None) -> None:
        if key is None or not key.isdigit():
            raise UserError("That button is broken.")
        user = reply.interaction.user
        game = await self.service.take_seat(game_id, int(key), user.id, display_name(user))
        await reply.send(f"🪑 {user.mention} takes the empty seat and plays on.", ephemeral=False)
        self.spawn(self._welcome_substitute(game, user.id), f"substitute-{game.id}")

    async def _welcome_substitute(self, game: GameRecord, user_id: int) -> None:
        """The seat's private information goes to the new player only."""
        fresh = await self._game(game.id)
        seats = await self.service.seats(game.id)
        seat = next(s for s in seats if s.user_id == user_id)
        to_act = await self.service.to_act(fresh)
        view = await self.service.view(fresh, seat.seat)
        table = announcer.Table(game=fresh, rules=self.service.rules_for(fresh.kind), seats=seats)
        welcome = announcer.private_dm(
            table, fresh.version, seat, view, ["You took over this seat."], seat.seat in to_act, picture=True
        )
        await self.service.owe(fresh, [welcome])
