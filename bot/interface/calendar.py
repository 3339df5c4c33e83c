"""Move deadlines on the server's calendar: one Discord scheduled event per game, kept in step.

A guild turns it on with `/settings calendar`. The event starts at the game's next deadline, so the
server's Events list (and each member's reminders for it) shows every table's clock. Its id is kept
in the `messages` table (kind 'calendar'), like the turn message, so a restart edits the same event.

Discord refuses scheduled events to a bot without Manage Events (403, code 50013). The table is told
once, and the bot stops asking for a day, or until an admin saves the setting again: asking on every
move would only collect refusals and, on a busy server, rate limits.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import discord

from bot.app.text import escape_text, plain_text
from bot.interface.ports import Host
from bot.storage.store import GameRecord, GameStatus

log = logging.getLogger(__name__)

KIND = "calendar"
BACK_OFF = 24 * 3600.0
"""How long the bot leaves a guild's calendar alone after a permission refusal."""
EVENT_LENGTH = timedelta(hours=1)
"""External events need an end; an hour reads as "the deadline" in every calendar view."""
MISSING_PERMISSION = "I need the Manage Events permission to keep deadlines on the server's calendar."


class Calendar:
    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @property
    def _store(self):  # noqa: ANN202 - the service's Store
        return self.bot.service.store

    # ---- keeping one game's event in step ----------------------------------------------------
    async def sync(self, game_id: int) -> None:
        """Create, move or remove the game's event so it shows its current deadline (or nothing).

        Never raises: the calendar is a courtesy and must not hold up a turn post.
        """
        try:
            async with self.bot.service.locks.hold(("calendar", game_id)):  # one event per game, never two
                await self._sync(game_id)
        except Exception:
            log.exception("calendar sync of game %s failed", game_id)

    async def _sync(self, game_id: int) -> None:
        game = await self._store.game(game_id)
        if game is None or game.guild_id is None:
            return
        settings = await self.bot.service.guild_settings(game.guild_id)
        stored = await self._store.message(game.id, KIND)
        deadlines = {}
        if settings.calendar and game.status == GameStatus.ACTIVE:
            deadlines = await self.bot.service.deadlines(game)
        if not deadlines:
            if stored is not None:
                await self._delete(game, stored[1])
            return
        if await self._blocked(game.guild_id):
            return
        fields = await self._fields(game, deadlines)
        try:
            if stored is not None:
                try:
                    await self.bot.http.edit_scheduled_event(game.guild_id, stored[1], **fields)
                    return
                except discord.NotFound:
                    pass  # someone deleted it by hand: put it back
            event = await self._create(game, game.guild_id, fields)
        except discord.Forbidden:
            await self._refused(game)
            return
        await self._store.remember_message(game.id, KIND, game.channel_id, event, game.version)

    async def _create(self, game: GameRecord, guild_id: int, fields: dict[str, Any]) -> int:
        guild = self.bot.get_guild(guild_id) or await self.bot.fetch_guild(guild_id)
        event = await guild.create_scheduled_event(
            name=fields["name"],
            description=fields["description"],
            start_time=datetime.fromisoformat(fields["scheduled_start_time"]),
            end_time=datetime.fromisoformat(fields["scheduled_end_time"]),
            entity_type=discord.EntityType.external,
            privacy_level=discord.PrivacyLevel.guild_only,
            location=fields["entity_metadata"]["location"],
            reason=f"Move deadline of game #{game.id}",
        )
        return event.id

    async def _delete(self, game: GameRecord, event_id: int) -> None:
        try:
            await self.bot.http.delete_scheduled_event(game.guild_id, event_id)
        except discord.NotFound:
            pass
        except discord.Forbidden:
            log.info("cannot delete calendar event %s of game %s: no Manage Events", event_id, game.id)
        await self._store.forget_message(game.id, KIND)

    async def _fields(self, game: GameRecord, deadlines: dict[int, float]) -> dict[str, Any]:
        """The event as Discord's API spells it (the edit goes straight to the REST route: the bot has
        no scheduled-event intent, so no cached event object to call `.edit` on)."""
        info = self.bot.service.rules_for(game.kind).info
        seats = await self._store.seats(game.id)
        first = min(deadlines.values())
        due_first = [seats[seat].name for seat, due in sorted(deadlines.items()) if due == first]  # plain
        start = datetime.fromtimestamp(first, UTC)
        link = f"https://discord.com/channels/{game.guild_id}/{game.channel_id}"
        lines = [f"Move deadline of {info.name} #{game.id} in <#{game.channel_id}>."]
        for seat, due in sorted(deadlines.items(), key=lambda item: item[1]):
            when = datetime.fromtimestamp(due, UTC).strftime("%a %d %b %H:%M UTC")
            lines.append(f"{escape_text(seats[seat].name)}: {when}")  # the description renders markdown
        lines.append(f"Play: {link}")
        return {
            "name": plain_text(f"{info.name} #{game.id}: {', '.join(due_first)} to move", 100),
            "description": "\n".join(lines)[:1000],
            "scheduled_start_time": start.isoformat(),
            "scheduled_end_time": (start + EVENT_LENGTH).isoformat(),
            "entity_type": discord.EntityType.external.value,
            "entity_metadata": {"location": link},
        }

    # ---- a guild's switch and its permission ------------------------------------------------------
    async def clear_guild(self, guild_id: int) -> int:
        """The setting was turned off: remove every event the bot keeps there. Returns how many."""
        games = await self._store.games_with_message(guild_id, KIND)
        for game_id in games:
            await self.sync(game_id)
        return len(games)

    async def fill_guild(self, guild_id: int) -> None:
        """The setting was turned on: give every running game with a deadline its event."""
        for game in await self._store.list_games(guild_id=guild_id, limit=500):
            if game.status == GameStatus.ACTIVE:
                await self.sync(game.id)

    async def reset(self, guild_id: int) -> None:
        """The setting was saved again: try at once and tell the table again if it still fails."""
        await self._store.set_setting(_key(guild_id), json.dumps({"until": 0, "told": False}))

    async def _blocked(self, guild_id: int) -> bool:
        state = await self._block_state(guild_id)
        return self.bot.service.clock.now() < state["until"]

    async def _block_state(self, guild_id: int) -> dict[str, Any]:
        raw = await self._store.get_setting(_key(guild_id))
        return json.loads(raw) if raw else {"until": 0, "told": False}

    async def _refused(self, game: GameRecord) -> None:
        assert game.guild_id is not None
        state = await self._block_state(game.guild_id)
        until = self.bot.service.clock.now() + BACK_OFF
        await self._store.set_setting(_key(game.guild_id), json.dumps({"until": until, "told": True}))
        if state["told"]:
            return
        try:
            channel = self.bot.get_channel(game.channel_id) or await self.bot.fetch_channel(game.channel_id)
            await channel.send(
                f"📅 {MISSING_PERMISSION} A server admin can grant it, then save `/settings calendar` again.",
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.info("could not tell channel %s that Manage Events is missing", game.channel_id)


def _key(guild_id: int) -> str:
    return f"calendar-blocked:{guild_id}"


def can_manage_events(interaction: discord.Interaction) -> bool:
    """The bot's own guild permissions when cached, else what Discord says the app may do here."""
    guild = interaction.guild
    me = guild.me if guild is not None else None
    permissions = me.guild_permissions if me is not None else interaction.app_permissions
    return permissions.manage_events or permissions.administrator
