"""Clock settings of a table and of a guild, and quiet-hours arithmetic. Pure functions."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

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


class TableSettings(BaseModel):
    """A table's own clock, chosen in its lobby; missing values fall back to the guild's."""

    reminder_hours: float | None = Field(default=None, ge=0, le=24 * 14)
    deadline_hours: float | None = Field(default=None, ge=0, le=24 * 30)
    on_timeout: TimeoutPolicy | None = None
    ai_strength: int = Field(default=2, ge=1, le=3)
    """How well the table's computer seats (and autopilots) play: 1 casual, 3 their best."""

    def resolved(self, guild: GuildSettings) -> TableSettings:
        return TableSettings(
            reminder_hours=guild.reminder_hours if self.reminder_hours is None else self.reminder_hours,
            deadline_hours=guild.deadline_hours if self.deadline_hours is None else self.deadline_hours,
            on_timeout=guild.on_timeout if self.on_timeout is None else self.on_timeout,
            ai_strength=self.ai_strength,
        )


class QuietHours(BaseModel):
    start: int = Field(ge=0, le=23)
    end: int = Field(ge=0, le=23)
    utc_offset_minutes: int = Field(default=0, ge=-12 * 60, le=14 * 60)

    def contains(self, when: float) -> bool:
        hour = ((when + self.utc_offset_minutes * 60) % 86400) / 3600
        if self.start == self.end:
            return False
        if self.start < self.end:
            return self.start <= hour < self.end
        return hour >= self.start or hour < self.end

    def next_allowed(self, when: float) -> float:
        """`when`, or the end of the quiet period it falls in."""
        if not self.contains(when):
            return when
        local = when + self.utc_offset_minutes * 60
        day_start = local - local % 86400
        end = day_start + self.end * 3600
        if end <= local:
            end += 86400
        return end - self.utc_offset_minutes * 60


def reminder_due(now: float, hours: float | None, quiet: QuietHours | None) -> float | None:
    if not hours:
        return None
    due = now + hours * HOUR
    return quiet.next_allowed(due) if quiet else due


def deadline_due(now: float, hours: float | None) -> float | None:
    return now + hours * HOUR if hours else None
