"""Commands for games that last days: /undo, /mygames, /me (quiet hours), /settings (per server)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Literal
from zoneinfo import ZoneInfo

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.refusals import UserError
from bot.app.standings import PlayerRating
from bot.app.text import escape_text
from bot.app.timing import (
    TIMEOUT_POLICIES,
    GuildSettings,
    QuietHours,
    discord_time,
    duration_text,
    hours_text,
    matching_time_zones,
    when_text,
)
from bot.interface.calendar import MISSING_PERMISSION, can_manage_events
from bot.interface.permissions import permission_report
from bot.interface.reply import Reply
from bot.interface.table import display_name
from bot.interface.where import channel_id, guild_id
from rules import registry, words

if TYPE_CHECKING:
    from bot.interface.client import HostBot


class SlowPlay(commands.Cog):
    me = app_commands.Group(name="me", description="Your own settings: time zone and quiet hours")
    settings = app_commands.Group(
        name="settings",
        description="This server's defaults for games (Manage Server)",
        default_permissions=discord.Permissions(manage_guild=True),
        guild_only=True,
    )

    def __init__(self, bot: HostBot) -> None:
        self.bot = bot

    # ---- /undo and /mygames -------------------------------------------------------------------
    @app_commands.command(
        name="undo", description="Take back your turn so far, or ask the table to take back your last turn"
    )
    @app_commands.guild_only()
    async def undo(self, interaction: discord.Interaction) -> None:
        async with Reply(interaction) as reply:
            await self.bot.table.undo_in_channel(reply, channel_id(interaction))

    @app_commands.command(name="mygames", description="Your games, on every server, where it is your move")
    async def mygames(self, interaction: discord.Interaction) -> None:
        async with Reply(interaction) as reply:
            waiting = await self.bot.service.waiting_on(interaction.user.id)
            if not waiting:
                await reply.send("🎉 No game is waiting for you right now.")
                return
            lines = [f"**{words.count(len(waiting), 'game')} waiting for your move**"]
            for game, headline in waiting[:20]:
                name = self.bot.service.rules_for(game.kind).info.name
                link = await self.bot.table.turn_link(game) or f"<#{game.channel_id}>"
                seat = await self.bot.service.seat_of(game, interaction.user.id)
                due = (await self.bot.service.deadlines(game)).get(seat.seat) if seat else None
                deadline = f" — ⏳ {when_text(due)}" if due is not None else ""
                lines.append(f"• **{name}** #{game.id} — {escape_text(headline)}{deadline} — {link}")
            await reply.send("\n".join(lines))

    @app_commands.command(name="catchup", description="What happened since your last move (only you see it)")
    @app_commands.guild_only()
    async def catchup(self, interaction: discord.Interaction) -> None:
        async with Reply(interaction) as reply:
            self.bot.table.paced(interaction.user.id)
            # The last game started here, over or not: a player back after the end catches up on it too.
            game = await self.bot.service.latest_game_in(channel_id(interaction))
            if game is None or game.state is None:
                game = await self.bot.service.active_game(channel_id(interaction))  # its refusal says why
            last, move, lines = await self.bot.service.since_last_turn(game, interaction.user.id)
            since = f"your last move was move {move}" if last else "since the start"
            body = "\n".join(f"• {escape_text(line)}" for line in lines[-30:]) or "Nothing has happened."
            if len(lines) > 30:
                body = f"… {len(lines) - 30} earlier lines in `/game history`\n" + body
            await self.bot.table.catch_up_board(
                reply, game, last, heading=f"**Since your last turn** ({since})\n{body}"
            )

    @app_commands.command(
        name="stats", description="Your rating, games played and won per game, and your streak"
    )
    @app_commands.describe(player="Whose stats (default: yours)")
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        async with Reply(interaction) as reply:
            self.bot.table.paced(interaction.user.id)  # every finished game of the player is read
            who = player or interaction.user
            service = self.bot.service
            stats = await service.stats(user_id=who.id)
            if not stats["per_game"]:
                await reply.send(f"{escape_text(display_name(who))} has not finished a game yet.")
                return
            ratings = {
                rating.kind: rating
                for rating in await service.player_ratings(
                    who.id, sorted(stats["per_game"]), guild_id=interaction.guild_id
                )
            }
            lines = [f"📊 **{escape_text(display_name(who))}**"]
            for kind, entry in sorted(stats["per_game"].items()):
                name = service.rules_for(kind).info.name
                ai = f" ({entry['with_ai']} with AI seats)" if entry["with_ai"] else ""
                lines.append(f"• {name}: {entry['played']} played, {entry['won']} won{ai}")
                if kind in ratings:
                    lines.append(f"  {rating_line(ratings[kind])}")
            lines.append(f"Current winning streak: {stats['streak']}")
            seconds = await service.move_times(who.id)
            if seconds is not None:
                lines.append(f"Average time to move: {duration_text(seconds)}")
            await reply.send("\n".join(lines))

    @app_commands.command(name="leaderboard", description="Ratings on this server (or everywhere), per game")
    @app_commands.describe(game="One game (default: the top of each)", everywhere="Rank across every server")
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction, game: str | None = None, everywhere: bool = False
    ) -> None:
        async with Reply(interaction) as reply:
            self.bot.table.paced(interaction.user.id)  # ratings come from every finished game
            service = self.bot.service
            kinds = [service.rules_for(game).info.id] if game else [g.info.id for g in registry.all_games()]
            scope = None if everywhere else interaction.guild_id
            where = "every server" if everywhere else "this server"
            sections = []
            for kind in kinds:
                board = await service.leaderboard(kind, guild_id=scope)
                if board:
                    sections.append((service.rules_for(kind).info.name, board[: 15 if game else 5]))
            if not sections:
                await reply.send(
                    f"No rated games on {where} yet: ratings come from finished games of two or more seats."
                )
                return
            title = sections[0][0] if game else "all games"
            lines = [f"🏆 **Leaderboard — {title}** ({where}; rating = skill − 3×uncertainty)"]
            for name, board in sections:
                if not game:
                    lines.append(f"**{name}**")
                lines += [
                    f"{i}. {escape_text(s.name)}: {s.rating:.1f} · {s.won} won of {s.played}"
                    for i, s in enumerate(board, 1)
                ]
            await reply.send("\n".join(lines))

    @leaderboard.autocomplete("game")
    async def _leaderboard_games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return _game_choices(current)

    # ---- /me ---------------------------------------------------------------------------------
    @me.command(name="quiet", description="Hours when reminders must not ping you (your local time)")
    @app_commands.describe(
        start="Hour quiet time starts (0-23), e.g. 22; leave both empty to turn quiet hours off",
        end="Hour quiet time ends (0-23), e.g. 7",
        utc_offset="Only without /me timezone: hours from UTC, e.g. 1 or -5 or 5.5",
    )
    async def quiet(
        self,
        interaction: discord.Interaction,
        start: app_commands.Range[int, 0, 23] | None = None,
        end: app_commands.Range[int, 0, 23] | None = None,
        utc_offset: app_commands.Range[float, -12.0, 14.0] = 0.0,
    ) -> None:
        async with Reply(interaction) as reply:
            if (start is None) != (end is None):
                raise UserError("Give both the start and the end hour, or neither to turn quiet hours off.")
            offset = round(utc_offset * 60)
            await self.bot.service.set_player(interaction.user.id, start, end, offset)
            quiet = await self.bot.service.quiet_hours(interaction.user.id)
            if quiet is None:
                await reply.send("🔔 Quiet hours off: reminders may come at any hour.")
                return
            text = f"🌙 Quiet hours {quiet.label()}: reminders and deadlines wait until they end."
            if quiet.time_zone is None:
                text += " Tip: `/me timezone` follows daylight saving time for you."
            await reply.send(text + "\n" + _next_quiet(quiet, self.bot.service.clock.now()))

    @me.command(name="timezone", description="Your time zone, so quiet hours follow your local clock")
    @app_commands.describe(zone="A time zone name such as Europe/Paris or America/New_York (type to search)")
    async def timezone(self, interaction: discord.Interaction, zone: app_commands.Range[str, 1, 64]) -> None:
        async with Reply(interaction) as reply:
            name = await self.bot.service.set_time_zone(interaction.user.id, zone)
            now = self.bot.service.clock.now()
            local = datetime.fromtimestamp(now, ZoneInfo(name)).strftime("%H:%M")
            text = f"🌍 Time zone set to **{name}** (it is {local} there now)."
            quiet = await self.bot.service.quiet_hours(interaction.user.id)
            if quiet is None:
                text += " Set the hours you do not want to be pinged with `/me quiet`."
            else:
                text += f"\n🌙 Quiet hours {quiet.label()}. " + _next_quiet(quiet, now)
            await reply.send(text)

    @timezone.autocomplete("zone")
    async def _zones(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=name, value=name) for name in matching_time_zones(current)]

    @me.command(name="show", description="Your time zone and quiet hours")
    async def me_show(self, interaction: discord.Interaction) -> None:
        async with Reply(interaction) as reply:
            service = self.bot.service
            zone = await service.time_zone(interaction.user.id)
            quiet = await service.quiet_hours(interaction.user.id)
            lines = [f"🌍 Time zone: **{zone}**" if zone else "🌍 No time zone set (`/me timezone`)."]
            if quiet is None:
                lines.append("🔔 No quiet hours: reminders may come at any hour. Set them with `/me quiet`.")
            else:
                lines.append(f"🌙 Quiet hours {quiet.label()}. " + _next_quiet(quiet, service.clock.now()))
            await reply.send("\n".join(lines))

    # ---- /settings ------------------------------------------------------------------------------
    async def _change(
        self, interaction: discord.Interaction, reply: Reply, *, note: str = "", **changes: object
    ) -> GuildSettings:
        permissions = interaction.permissions
        if not (permissions.manage_guild or permissions.administrator):
            raise UserError("Only members with Manage Server can change the server's game settings.")
        service = self.bot.service
        current = await service.guild_settings(interaction.guild_id)
        updated = current.model_copy(update=changes)
        GuildSettings.model_validate(updated.model_dump())
        await service.set_guild_settings(guild_id(interaction), updated.model_dump())
        await reply.send(_describe(updated) + (f"\n{note}" if note else ""))
        return updated

    @settings.command(name="show", description="This server's game settings")
    async def settings_show(self, interaction: discord.Interaction) -> None:
        async with Reply(interaction) as reply:
            await reply.send(_describe(await self.bot.service.guild_settings(interaction.guild_id)))

    @settings.command(
        name="check", description="Whether the bot has every permission it needs in this channel"
    )
    async def settings_check(self, interaction: discord.Interaction) -> None:
        async with Reply(interaction) as reply:
            await reply.send(permission_report(interaction))

    @settings.command(name="reminders", description="Default delay before a player is reminded (0 = never)")
    @app_commands.describe(hours="Hours of waiting before a reminder, e.g. 12")
    async def settings_reminders(
        self, interaction: discord.Interaction, hours: app_commands.Range[float, 0.0, 336.0]
    ) -> None:
        async with Reply(interaction) as reply:
            await self._change(interaction, reply, reminder_hours=hours)

    @settings.command(name="deadlines", description="Default time limit per move and what happens after it")
    @app_commands.describe(
        hours="Hours per move (0 = no deadline)", on_timeout="What happens when time runs out"
    )
    async def settings_deadlines(
        self,
        interaction: discord.Interaction,
        hours: app_commands.Range[float, 0.0, 720.0],
        on_timeout: Literal["skip", "default", "replace", "autopilot"] = "skip",
    ) -> None:
        async with Reply(interaction) as reply:
            await self._change(interaction, reply, deadline_hours=hours, on_timeout=on_timeout)

    @settings.command(name="calendar", description="Show each game's move deadline as a server event")
    @app_commands.describe(enabled="Keep one scheduled event per game with deadlines (needs Manage Events)")
    async def settings_calendar(self, interaction: discord.Interaction, enabled: bool) -> None:
        async with Reply(interaction) as reply:
            calendar = self.bot.calendar
            note = ""
            if enabled and not can_manage_events(interaction):
                note = f"⚠️ {MISSING_PERMISSION} Grant it to my role; until then the calendar stays empty."
            await self._change(interaction, reply, note=note, calendar=enabled)
            await calendar.reset(guild_id(interaction))
            if enabled and not note:
                self.bot.table.spawn(calendar.fill_guild(guild_id(interaction)), "calendar-fill")
            elif not enabled:
                self.bot.table.spawn(calendar.clear_guild(guild_id(interaction)), "calendar-clear")

    @settings.command(name="game", description="Turn a game on or off for this server")
    async def settings_game(self, interaction: discord.Interaction, game: str, enabled: bool) -> None:
        async with Reply(interaction) as reply:
            rules = self.bot.service.rules_for(game)
            current = await self.bot.service.guild_settings(interaction.guild_id)
            disabled = set(current.disabled_games)
            (disabled.discard if enabled else disabled.add)(rules.info.id)
            await self._change(interaction, reply, disabled_games=sorted(disabled))

    @settings_game.autocomplete("game")
    async def _games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return _game_choices(current)

    @settings.command(name="channel", description="Allow games only in some channels (none = everywhere)")
    @app_commands.describe(
        channel="The channel to add or remove", allowed="Add it (true) or remove it (false)"
    )
    async def settings_channel(
        self, interaction: discord.Interaction, channel: discord.TextChannel, allowed: bool = True
    ) -> None:
        async with Reply(interaction) as reply:
            current = await self.bot.service.guild_settings(interaction.guild_id)
            channels = set(current.channels)
            (channels.add if allowed else channels.discard)(channel.id)
            await self._change(interaction, reply, channels=sorted(channels))


def _next_quiet(quiet: QuietHours, now: float) -> str:
    """The coming quiet period as Discord timestamps, which each reader sees in their own time."""
    if quiet.contains(now):
        return f"Quiet now, until {when_text(quiet.next_allowed(now))}."
    start = quiet.next_start(now)
    return f"Next quiet period: {discord_time(start)} to {discord_time(quiet.next_allowed(start))}."


def _game_name(kind: str) -> str:
    """A game's name for a game id a setting holds (the id itself if the game is no longer offered)."""
    try:
        return registry.get(kind).info.name
    except KeyError:
        return kind


def _game_choices(current: str) -> list[app_commands.Choice[str]]:
    """The games whose name holds what was typed, for the `game` options' autocompletes."""
    return [
        app_commands.Choice(name=g.info.name, value=g.info.id)
        for g in registry.all_games()
        if current.lower() in g.info.name.lower()
    ][:25]


def _describe(settings: GuildSettings) -> str:
    reminders = f"after {hours_text(settings.reminder_hours)}" if settings.reminder_hours else "off"
    deadline = (
        f"{hours_text(settings.deadline_hours)} per move, then {TIMEOUT_POLICIES[settings.on_timeout]}"
        if settings.deadline_hours
        else "none"
    )
    disabled = ", ".join(_game_name(kind) for kind in settings.disabled_games) or "none"
    channels = ", ".join(f"<#{c}>" for c in settings.channels) or "any channel"
    calendar = "on (one event per game with a deadline)" if settings.calendar else "off"
    return (
        "⚙️ **Server game settings**\n"
        f"Reminders: {reminders}\nDeadlines: {deadline}\nGames turned off: {disabled}\nGames allowed in: {channels}\n"
        f"Deadlines on the server calendar: {calendar}\n"
        "_Each table can choose its own clock in its lobby with `/game clock`._"
    )


async def setup(bot: HostBot) -> None:
    await bot.add_cog(SlowPlay(bot))


def rating_line(rating: PlayerRating) -> str:
    """'rating 4.2 (#2 of 7 here), 3.9 everywhere (#5 of 40) · ▲ 1.2 over the last 5 games ▂▄▆'."""
    parts = []
    if rating.here is not None:
        parts.append(f"rating {rating.here.rating:.1f} (#{rating.rank_here} here)")
    parts.append(
        f"{'' if parts else 'rating '}{rating.everywhere.rating:.1f} everywhere "
        f"(#{rating.rank_everywhere} of {rating.rated_players})"
    )
    shown = rating.here or rating.everywhere
    return ", ".join(parts) + f" · {shown.trend()}"
