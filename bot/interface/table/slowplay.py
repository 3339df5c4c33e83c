"""Slow play: reminders, what a deadline does, the deadlines line, the follow thread and the link to the
turn post.
"""

from __future__ import annotations

import logging

import discord

from bot.app.text import escape_text
from bot.app.timing import when_text
from bot.interface.table.base import TableBase, channel_notice
from bot.storage.store import Delivery, GameRecord, SeatRecord, Timer

log = logging.getLogger(__name__)


class SlowPlay(TableBase):
    """The table's part that follows the clock."""

    async def remind(self, game: GameRecord, seat: SeatRecord, timer: Timer) -> None:
        """A nudge in the channel (with a jump link to the turn) and, if their DMs are open, by DM."""
        info = self.service.rules_for(game.kind).info
        link = await self.turn_link(game)
        again = f" (reminder {timer.count + 1})" if timer.count else ""
        due = (await self.service.deadlines(game)).get(seat.seat)
        deadline = f" ⏳ Deadline {when_text(due)}." if due is not None else ""
        text = f"⏰ <@{seat.user_id}>, **{info.name}** is waiting for your move{again}.{deadline} {link}"
        owed = [channel_notice(game, text.strip(), ping=[seat.user_id])]
        if not seat.dm_closed:
            nudge = f"⏰ Your move in **{info.name}** in <#{game.channel_id}>.{deadline} {link}"
            owed.append(
                Delivery(kind="dm", target=seat.user_id, payload={"content": nudge.strip()}, due_at=0.0)
            )
        await self.service.owe(game, owed)

    async def time_out(self, game: GameRecord, seat: SeatRecord) -> None:
        """The seat's deadline passed: the service applies the table's policy, if the game is still
        where the timer found it (a UserError says it moved on); the computer plays on if it must."""
        done = await self.service.time_out(game.id, seat.seat, version=game.version, holder=seat.user_id)
        if done.autopilot or done.move is not None:
            version = done.move.version if done.move is not None else game.version
            self.spawn(self.drive_ai(game.id), f"ai-{game.id}-{version}")

    async def game_thread(self, game: GameRecord) -> discord.abc.Messageable | None:
        """The game's follow thread, created on first use under the game's channel."""
        stored = await self.service.message(game.id, "thread")
        if stored is not None:
            return await self._channel(stored[0])
        channel = await self._channel(game.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None
        info = self.service.rules_for(game.kind).info
        try:
            thread = await channel.create_thread(
                name=f"{info.name} #{game.id}"[:100], type=discord.ChannelType.public_thread
            )
        except discord.HTTPException:
            log.info("cannot create a follow thread in channel %s", channel.id)
            return None
        await self.service.remember_message(game.id, "thread", thread.id, thread.id, game.version)
        return thread

    async def deadline_line(self, game: GameRecord, seats: list[SeatRecord]) -> str:
        """The waiting seats' deadlines as Discord timestamps (each reader sees their own local time).
        One line when they agree; per player when quiet hours moved some of them."""
        deadlines = await self.service.deadlines(game)
        if not deadlines:
            return ""
        if len(set(deadlines.values())) == 1:
            return f"⏳ Deadline {when_text(next(iter(deadlines.values())))}"
        parts = [
            f"{escape_text(seats[seat].name)} {when_text(due)}" for seat, due in sorted(deadlines.items())
        ]
        return "⏳ Deadline " + "; ".join(parts)

    async def turn_link(self, game: GameRecord) -> str:
        """A jump link to the game's latest turn message, or '' before one was posted."""
        stored = await self.service.message(game.id, "turn")
        if stored is None or game.guild_id is None:
            return ""
        return f"https://discord.com/channels/{game.guild_id}/{stored[0]}/{stored[1]}"
