"""The table's votes: undo requests and their Approve and Refuse buttons, replacements, and a newcomer
taking a dropped seat.

A vote's message stays open while people are awaited; once the vote is decided it is edited to its
outcome with its buttons removed, and whoever asked is told (the decision's line in the channel pings
them, or, for a saved game, they are sent the file). The votes asked by command (`/game export`,
`/game abandon`) remember their message to do the same.
"""

from __future__ import annotations

import io
import logging
import re

import discord

from bot.app.refusals import UserError
from bot.app.saves import Export
from bot.app.text import escape_text
from bot.interface.reply import Reply
from bot.interface.table.base import (
    TableBase,
    channel_notice,
    clip_content,
    display_name,
    is_admin,
    vote_buttons,
)
from bot.interface.where import channel_id
from bot.storage.store import GameRecord
from rules import words

log = logging.getLogger(__name__)

MENTION = re.compile(r"<@!?(\d+)>")
AWAITED = re.compile(r"\s*(Waiting for|Still to agree)[^\n]*$")


def asked(content: str) -> str:
    """A vote's request as it was asked: its message's first line without who is still awaited."""
    return AWAITED.sub("", content.split("\n")[0]).rstrip()


def closed_text(content: str, outcome: str) -> str:
    """A decided vote's message: the request as it was asked, and the outcome."""
    return clip_content(f"{asked(content)}\n{outcome}")


def asker(content: str) -> int | None:
    """Who asked for a vote: every vote message names them first (a replacement proposed before they
    did, "🔁 Proposal: …", names the substitute first: nobody is known to have asked)."""
    if content.startswith("🔁 Proposal:"):
        return None
    found = MENTION.search(content)
    return int(found.group(1)) if found else None


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
        lines = [escape_text(event["text"]) for move in plan.moves for event in move.events if event["text"]]
        what = "; ".join(words.clause(line) for line in lines) or "no visible change"
        request = (
            f"↩️ {user.mention} asks to take back {plan.describe()} ({clip_content(what, 300)})."
            f" Waiting for: {', '.join(escape_text(name) for name in others)}."
        )
        buttons = vote_buttons(game.id, f"undo-{plan.last_version}")  # its message names the asker first
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
        ballot = reply.interaction.message  # the vote's message: its buttons were pressed
        if undo:
            outcome, move, awaited = await self.service.undo_vote(
                game_id, user.id, int(undo.group(1)), approve
            )
            if outcome == "refused":  # the channel (the asker pinged) is told with the decision
                await self._close_vote(ballot, f"❌ Refused by {user.mention}: the move stands.")
                await reply.send("❌ You refused the undo; the move stands.")
            elif outcome == "waiting":  # the ballot says who is still awaited; nothing new is posted
                names = ", ".join(escape_text(name) for name in awaited)
                await self._still_awaited(ballot, f"Waiting for: {names}.")
                await reply.send(f"👍 Counted: you approve the undo. Waiting for: {names}.")
            else:  # the undo's own turn post tells the channel, and pings the asker (their turn again)
                await self._close_vote(ballot, "✅ Everyone agreed: it was taken back.")
                await reply.send("↩️ Everyone agreed: it was taken back.")
                assert move is not None
                self.spawn(self.drive_ai(game_id), f"ai-{game_id}-{move.version}")
            return
        if replacement:
            old, new = int(replacement.group(1)), int(replacement.group(2))
            if not approve:
                await self.service.replace_refuse(game_id, user.id, old, new)
                await self._close_vote(ballot, f"❌ Refused by {user.mention}.")
                await reply.send("❌ You refused the replacement.")
                return
            name = await self._display_name(reply.interaction, new)
            game, done, missing = await self.service.replace_vote(game_id, user.id, old, new, name)
            if not done:  # the proposal's message says who is still awaited; nothing new is posted
                names = ", ".join(escape_text(name) for name in missing)
                await self._still_awaited(ballot, f"Still to agree: {names}.")
                await reply.send(f"👍 Counted: you approve the replacement. Still to agree: {names}.")
                return
            await self._close_vote(ballot, f"✅ Everyone agreed: <@{new}> now plays in <@{old}>'s seat.")
            await self._after_replace(reply, game, old, new, done, missing)
            return
        raise UserError("That vote is from an older version of the bot.")

    async def request_replace(self, reply: Reply, old: discord.abc.User, new: discord.abc.User) -> None:
        interaction = reply.interaction
        game, done, missing = await self.service.replace_request(
            channel_id(interaction),
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
                f"🔁 {reply.interaction.user.mention} proposes that <@{new}> takes over <@{old}>'s seat."
                f" Still to agree: {', '.join(escape_text(name) for name in missing)}.",
                view=vote_buttons(game.id, f"replace-{old}-{new}"),
                ephemeral=False,
            )
            return
        # The channel's line and the newcomer's welcome were written with the seat change (the outbox).
        await reply.send(f"✅ Done: <@{new}> now plays in <@{old}>'s seat.")
        self.spawn(self.drive_ai(game.id), f"ai-{game.id}-seat")  # a held computer run may end here

    async def _take_seat(self, reply: Reply, game_id: int, key: str | None) -> None:
        if key is None or not key.isdigit():
            raise UserError("That button is broken.")
        user = reply.interaction.user
        await self.service.take_seat(game_id, int(key), user.id, display_name(user))
        await reply.send(
            "🪑 The seat is yours; its private view is on its way by direct message (`/hand` shows it too)."
        )
        self.spawn(self.drive_ai(game_id), f"ai-{game_id}-seat")  # the autopilot's held run ends here

    # ---- vote messages -------------------------------------------------------------------------
    async def _close_vote(self, message: discord.Message | None, outcome: str) -> None:
        """Edit a decided vote's message to its outcome and remove its buttons (best effort: the
        decision is made, and a press on a button left behind is refused as decided)."""
        if message is None:
            return
        try:
            await message.edit(
                content=closed_text(message.content, outcome),
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as error:
            log.info("a decided vote's message kept its old text: %s", error)

    async def _still_awaited(self, message: discord.Message | None, awaited: str) -> None:
        """A vote's message with who is still awaited brought up to date, its buttons kept (best
        effort: the vote is counted either way, and the voter is told who is awaited)."""
        if message is None:
            return
        try:
            await message.edit(
                content=clip_content(f"{asked(message.content)} {awaited}"),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as error:
            log.info("a vote's message kept its old list of who is awaited: %s", error)

    async def open_vote(self, reply: Reply, game: GameRecord, key: str, request: str, awaited: str) -> None:
        """A vote asked by command: the first request posts the vote's message (remembered under
        `key`); each later agreement updates who is still awaited in it, and is answered privately."""
        stored = await self.service.message(game.id, f"vote:{key}")
        if stored is not None:
            try:
                message = await self.bot.get_partial_messageable(stored[0]).fetch_message(stored[1])
                await message.edit(content=clip_content(f"{asked(message.content)} {awaited}"))
            except discord.HTTPException:
                stored = None  # the message is gone: post the vote again
            else:
                await reply.send(f"🗳️ Counted: you agree. {awaited}")
                return
        posted = await reply.send(f"{request} {awaited}", ephemeral=False, keep=True)
        if posted is not None:
            await self.service.remember_message(
                game.id, f"vote:{key}", posted.channel.id, posted.id, game.version
            )

    async def close_vote(self, game: GameRecord, key: str, outcome: str) -> int | None:
        """The vote asked by command under `key` is decided: its message is edited to `outcome`.
        Returns who asked for it; None when no such vote was open (nobody else was asked)."""
        stored = await self.service.message(game.id, f"vote:{key}")
        if stored is None:
            return None
        await self.service.forget_message(game.id, f"vote:{key}")
        try:
            message = await self.bot.get_partial_messageable(stored[0]).fetch_message(stored[1])
        except discord.HTTPException:
            return None
        await self._close_vote(message, outcome)
        return asker(message.content)

    async def send_files(self, saved: Export, users: list[int], said: str) -> None:
        """The saved game to each player who agreed before the last one, privately. Whoever cannot be
        sent a direct message is told in the channel to run `/game export`, which now answers at once
        (everyone agreed) until the next move."""
        unreachable = []
        for user in users:
            try:
                channel = await self.bot.create_dm(discord.Object(user))
                await channel.send(
                    f"{said} Everyone in <#{saved.game.channel_id}> agreed.",
                    file=discord.File(io.BytesIO(saved.data or b""), filename=saved.filename),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except discord.HTTPException as error:
                log.info("could not send the saved game to %s: %s", user, error)
                unreachable.append(user)
        if unreachable:
            names = " ".join(f"<@{user}>" for user in unreachable)
            text = (
                f"💾 {names}: everyone agreed to save game #{saved.game.id}, but I cannot send you direct"
                " messages: run `/game export` to get your file (only you will see it)."
            )
            await self.service.owe(saved.game, [channel_notice(saved.game, text, ping=unreachable)])
