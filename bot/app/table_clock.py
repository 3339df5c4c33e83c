"""The table's clock: the guild's and the table's settings, players' quiet hours and time zones, the
reminders and deadlines a seat's turn starts, vacations.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from bot.app.base import ServiceBase
from bot.app.refusals import UserError
from bot.app.text import quoted
from bot.app.timing import (
    GuildSettings,
    QuietHours,
    TableSettings,
    deadline_due,
    matching_time_zones,
    reminder_due,
    valid_time_zone,
)
from bot.storage.store import GameRecord, GameStatus, SeatRecord, TimerPlan
from rules.core import Seat


class TableClock(ServiceBase):
    """The service's part that plans timers and keeps the clock settings."""

    async def guild_settings(self, guild_id: int | None) -> GuildSettings:
        return GuildSettings.model_validate(await self.store.guild_settings(guild_id))

    async def table_settings(self, game: GameRecord) -> TableSettings:
        own = TableSettings.model_validate(game.table_settings)
        return own.resolved(await self.guild_settings(game.guild_id))

    async def quiet_hours(self, user_id: int) -> QuietHours | None:
        player = await self.store.player(user_id)
        if not player or player["quiet_start"] is None or player["quiet_end"] is None:
            return None
        return QuietHours(
            start=player["quiet_start"],
            end=player["quiet_end"],
            utc_offset_minutes=player["utc_offset_minutes"],
            time_zone=player.get("time_zone"),
        )

    async def time_zone(self, user_id: int) -> str | None:
        player = await self.store.player(user_id)
        return player.get("time_zone") if player else None

    async def set_time_zone(self, user_id: int, typed: str) -> str:
        """Store the player's IANA zone; returns its canonical name, or refuses an unknown one."""
        zone = valid_time_zone(typed)
        if zone is None:
            suggestions = ", ".join(f"`{name}`" for name in matching_time_zones(typed, 3))
            hint = f" Did you mean {suggestions}?" if suggestions else " For example `Europe/Paris`."
            raise UserError(
                f"I do not know the time zone {quoted(typed.strip(), 60)}. Pick one from the list"
                f" (names like `America/New_York`).{hint}"
            )
        await self.store.set_time_zone(user_id, zone)
        return zone

    async def deadlines(self, game: GameRecord) -> dict[Seat, float]:
        """Each waiting seat's deadline (seats can differ: quiet hours push their own)."""
        return {t.seat: t.due_at for t in await self.store.timers(game.id) if t.kind == "deadline"}

    async def _timer_plans(
        self, game: GameRecord, seats: list[SeatRecord], starting: set[Seat]
    ) -> list[TimerPlan]:
        if not starting:
            return []
        clock = await self.table_settings(game)
        now = self.clock.now()
        plans: list[TimerPlan] = []
        for seat in sorted(starting):
            record = seats[seat]
            if record.vacation:
                continue
            quiet = await self.quiet_hours(record.user_id)
            remind = reminder_due(now, clock.reminder_hours, quiet)
            if remind is not None:
                plans.append((seat, "reminder", remind))
            deadline = deadline_due(now, clock.deadline_hours, quiet, strict=clock.strict_clocks)
            if deadline is not None:
                plans.append((seat, "deadline", deadline))
        return plans

    async def set_table_clock(
        self, channel_id: int, user_id: int, *, is_admin: bool, **changes: Any
    ) -> tuple[GameRecord, TableSettings]:
        game = await self.open_game(channel_id)
        if not is_admin and (user_id != game.host_id or game.status != GameStatus.LOBBY):
            raise UserError(
                "The host chooses the clock in the lobby; after the start only a moderator can change it."
            )
        merged = {**game.table_settings, **{k: v for k, v in changes.items() if v is not None}}
        try:
            settings = TableSettings.model_validate(merged)
        except ValidationError as error:
            raise UserError(f"That clock setting is not valid: {error.errors()[0]['msg']}.") from None
        await self.store.set_table_settings(game.id, settings.model_dump(exclude_none=True))
        updated = await self.store.game(game.id)
        assert updated is not None
        return updated, await self.table_settings(updated)

    async def set_vacation(self, channel_id: int, user_id: int, on: bool) -> GameRecord:
        game = await self.active_game(channel_id)
        seat = await self.require_seat(game, user_id)
        async with self._lock(game.id):
            await self.store.set_seat_flag(game.id, seat.seat, "vacation", on)
            if on:
                await self.store.plan_timers(game.id, [], [seat.seat])
            elif seat.seat in await self.to_act(game):
                fresh = await self.store.game(game.id)
                assert fresh is not None
                plans = await self._timer_plans(fresh, await self.store.seats(game.id), {seat.seat})
                await self.store.plan_timers(game.id, plans)
                self._timers_planned(plans)
        return game
