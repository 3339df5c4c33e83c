"""Clock settings of a table and of a guild, and quiet-hours arithmetic. Pure functions.

Quiet hours are a player's local wall-clock hours. With an IANA time zone they follow its daylight
saving changes (zoneinfo); without one, the fixed UTC offset the player gave is used, as before.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
from functools import lru_cache
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from pydantic import BaseModel, Field

from rules import words

HOUR = 3600.0
MAX_REMINDERS = 5
"""After this many reminders for one decision the bot stops nagging; the deadline (if any) decides."""

TimeoutPolicy = Literal["skip", "default", "replace", "autopilot"]
TIMEOUT_POLICIES: dict[str, str] = {
    "skip": "pass automatically where the rules allow a pass (otherwise keep waiting)",
    "default": "play a safe default move (a pass, a zero bid, ...)",
    "replace": "drop the player; anyone may take the seat as a substitute",
    "autopilot": "drop the player; the computer plays the seat until a substitute takes it",
}


class GuildSettings(BaseModel):
    reminder_hours: float = Field(default=12.0, ge=0, le=24 * 14)
    """0 turns reminders off."""
    deadline_hours: float = Field(default=0.0, ge=0, le=24 * 30)
    """0 means no deadline."""
    on_timeout: TimeoutPolicy = "skip"
    disabled_games: list[str] = Field(default_factory=list)
    channels: list[int] = Field(default_factory=list)
    """If not empty, games can be started only in these channels."""
    calendar: bool = False
    """Keep one Discord scheduled event per game with a deadline, showing the current one."""


class TableSettings(BaseModel):
    """A table's own clock, chosen in its lobby; missing values fall back to the guild's."""

    reminder_hours: float | None = Field(default=None, ge=0, le=24 * 14)
    deadline_hours: float | None = Field(default=None, ge=0, le=24 * 30)
    on_timeout: TimeoutPolicy | None = None
    ai_strength: int = Field(default=2, ge=1, le=3)
    """How well the table's computer seats (and autopilots) play: 1 casual, 3 their best."""
    strict_clocks: bool = False
    """Deadlines fall exactly N hours after the turn starts, even inside a player's quiet hours
    (a tournament table); by default a deadline waits for the end of the player's quiet period."""
    posts: Literal["compact", "every_move"] = "compact"
    """'compact': a new turn post per handoff, edited in place while the same seat acts on;
    'every_move': a new post for every move (tables that like to read the game move by move)."""

    def resolved(self, guild: GuildSettings) -> TableSettings:
        return TableSettings(
            reminder_hours=guild.reminder_hours if self.reminder_hours is None else self.reminder_hours,
            deadline_hours=guild.deadline_hours if self.deadline_hours is None else self.deadline_hours,
            on_timeout=guild.on_timeout if self.on_timeout is None else self.on_timeout,
            ai_strength=self.ai_strength,
            strict_clocks=self.strict_clocks,
            posts=self.posts,
        )


@lru_cache(maxsize=1)
def time_zone_names() -> list[str]:
    """Every IANA zone name this machine knows (system tzdata, or the `tzdata` package), sorted."""
    return sorted(available_timezones())


def matching_time_zones(typed: str, limit: int = 25) -> list[str]:
    """Zones whose name contains what the player typed (spaces count as underscores): names that
    start with it first, so "paris" offers Europe/Paris and "new y" America/New_York."""
    wanted = typed.strip().lower().replace(" ", "_")
    names = time_zone_names()
    if not wanted:
        return names[:limit]
    hits = [name for name in names if wanted in name.lower()]
    hits.sort(key=lambda name: (not name.lower().split("/")[-1].startswith(wanted), name))
    return hits[:limit]


def valid_time_zone(name: str) -> str | None:
    """The zone's canonical spelling if `name` is a known IANA zone (any letter case), else None."""
    cleaned = name.strip().replace(" ", "_")
    lowered = cleaned.lower()
    for known in time_zone_names():
        if known.lower() == lowered:
            return known
    return None


@lru_cache(maxsize=512)
def _zone(name: str) -> tzinfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


class QuietHours(BaseModel):
    """Hours [start, end) of a player's local day when the bot must not ping them."""

    start: int = Field(ge=0, le=23)
    end: int = Field(ge=0, le=23)
    utc_offset_minutes: int = Field(default=0, ge=-12 * 60, le=14 * 60)
    time_zone: str | None = None
    """An IANA name (Europe/Paris); when set it wins over `utc_offset_minutes`."""

    def zone(self) -> tzinfo:
        if self.time_zone:
            return _zone(self.time_zone)
        return timezone(timedelta(minutes=self.utc_offset_minutes))

    def local(self, when: float) -> datetime:
        return datetime.fromtimestamp(when, self.zone())

    def contains(self, when: float) -> bool:
        if self.start == self.end:
            return False
        moment = self.local(when)
        hour = moment.hour + moment.minute / 60 + moment.second / 3600
        if self.start < self.end:
            return self.start <= hour < self.end
        return hour >= self.start or hour < self.end

    def next_allowed(self, when: float) -> float:
        """`when`, or the end of the quiet period it falls in (the first local `end`:00 after it)."""
        return self._next_local(when, self.end) if self.contains(when) else when

    def next_start(self, when: float) -> float:
        """When the next quiet period begins (for telling the player), strictly after `when`."""
        return self._next_local(when, self.start)

    def _next_local(self, when: float, hour: int) -> float:
        """The first local `hour`:00 strictly after `when` (today's, tomorrow's, or, across a DST
        change, the day after)."""
        day = self.local(when).date()
        for offset in range(3):
            moment = self._at(day + timedelta(days=offset), hour)
            if moment > when:
                return moment
        return when  # unreachable: a local day is never longer than two days

    def _at(self, day: date, hour: int) -> float:
        """Unix time of `hour`:00 local on `day`. An hour skipped by a DST jump (02:00 on a spring
        morning) resolves, with fold=0, to the instant just after the gap, which is what "the quiet
        period ends at 2" must mean on that day."""
        return datetime(day.year, day.month, day.day, hour, tzinfo=self.zone()).timestamp()

    def label(self) -> str:
        where = self.time_zone or f"UTC{self.utc_offset_minutes / 60:+g}"
        return f"{self.start:02d}:00–{self.end:02d}:00 ({where})"


def reminder_due(now: float, hours: float | None, quiet: QuietHours | None) -> float | None:
    if not hours:
        return None
    due = now + hours * HOUR
    return quiet.next_allowed(due) if quiet else due


def deadline_due(
    now: float, hours: float | None, quiet: QuietHours | None = None, *, strict: bool = False
) -> float | None:
    """A seat's deadline: `hours` from now, moved out of the player's quiet hours unless the table
    chose strict clocks (then everyone gets exactly the same time, wherever they sleep)."""
    if not hours:
        return None
    due = now + hours * HOUR
    return due if strict or quiet is None else quiet.next_allowed(due)


def discord_time(when: float, style: str = "F") -> str:
    """A Discord timestamp: every reader's client shows it in their own local time and language."""
    return f"<t:{int(when)}:{style}>"


def duration_text(seconds: float) -> str:
    """A span of time in the unit that reads best: '40 seconds', '12 minutes', '1 hour', '3.5 hours',
    '2 days' (seconds under a minute, minutes under an hour, hours under two days, days after)."""
    if seconds < 1:
        return "under a second"
    if seconds < 59.5:
        return words.count(round(seconds), "second")
    if seconds < 59.5 * 60:
        return words.count(round(seconds / 60), "minute")
    if seconds < 47.95 * HOUR:
        return _amount(seconds / HOUR, "hour")
    return _amount(seconds / (24 * HOUR), "day")


def hours_text(hours: float) -> str:
    """A setting given in hours ('reminder_hours: 0.5') as `duration_text` words it: '30 minutes'."""
    return duration_text(hours * HOUR)


def _amount(value: float, unit: str) -> str:
    """'1 hour', '3.5 hours', '2 days': one decimal, none when it is whole."""
    rounded = round(value, 1)
    if rounded == int(rounded):
        return words.count(int(rounded), unit)
    return f"{rounded:g} {words.plural(unit)}"


def when_text(when: float) -> str:
    """ "Friday, 15 January 2027 20:00 (in 12 hours)" as each reader's client renders it."""
    return f"{discord_time(when, 'F')} ({discord_time(when, 'R')})"
