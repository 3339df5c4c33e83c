"""Reminders and deadlines, fired from the database so they survive restarts.

Every move writes its timers in its own transaction (see `GameService._commit`); this loop only
claims the due ones (a transaction, so two processes never fire the same timer) and acts on them.
A sharded process claims only the timers of games whose guild is on its shards (see `bot.shards`).
A timer whose seat has moved on meanwhile is simply dropped. Tests call `run_due()` after moving an
injected clock forward instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.app.refusals import UserError
from bot.app.timing import MAX_REMINDERS, reminder_due
from bot.interface.ports import Host
from bot.storage.store import GameStatus, Timer

log = logging.getLogger(__name__)

IDLE_POLL = 60.0
"""Longest sleep between looks at the timer table (a move may add an earlier timer meanwhile)."""


class Scheduler:
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    @property
    def clock(self):  # noqa: ANN201 - the service's Clock
        return self.bot.service.clock

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop(), name="scheduler")

    def wake(self) -> None:
        """A new timer may be due earlier than the one the loop sleeps towards."""
        self._wake.set()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        while True:
            try:
                await self.run_due()
                next_due = await self.bot.service.store.next_timer_due(shards=self.bot.owned_shards)
            except Exception:
                log.exception("the scheduler failed; trying again shortly")
                next_due = None
            delay = IDLE_POLL if next_due is None else max(0.5, min(IDLE_POLL, next_due - self.clock.now()))
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), delay)

    async def run_due(self) -> int:
        """Fire every timer due now; returns how many were taken."""
        timers = await self.bot.service.store.claim_due_timers(self.clock.now(), shards=self.bot.owned_shards)
        for timer in timers:
            try:
                await self._fire(timer)
            except Exception:
                log.exception("timer %s of game %s failed", timer.kind, timer.game_id)
                await self.bot.service.store.finish_timer(timer)
        return len(timers)

    async def _fire(self, timer: Timer) -> None:
        service, store, table = self.bot.service, self.bot.service.store, self.bot.table
        game = await store.game(timer.game_id)
        seats = await store.seats(timer.game_id)
        if (
            game is None
            or game.status != GameStatus.ACTIVE
            or timer.seat >= len(seats)
            or seats[timer.seat].vacation
            or timer.seat not in await service.to_act(game)
        ):
            await store.finish_timer(timer)
            return
        seat = seats[timer.seat]
        if timer.kind == "reminder":
            log.info("reminder %d of game %s seat %s", timer.count + 1, game.id, seat.seat)
            await table.remind(game, seat, timer)
            clock = await service.table_settings(game)
            next_due = None
            if timer.count + 1 < MAX_REMINDERS:
                next_due = reminder_due(
                    self.clock.now(), clock.reminder_hours, await service.quiet_hours(seat.user_id)
                )
            await store.finish_timer(timer, next_due=next_due)
            return
        await store.finish_timer(timer)
        log.info("deadline of game %s seat %s passed", game.id, seat.seat)
        try:
            await table.time_out(game, seat)
        except UserError as reason:
            log.info("timeout of game %s seat %s not applied: %s", game.id, seat.seat, reason.message)
        await self.bot.calendar.sync(game.id)  # that deadline is gone; show the next one, if any
