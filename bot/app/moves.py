"""Moves: one applied move is one transaction (the log entry, the snapshot, its timers and what it owes
Discord in the outbox); stale clicks and moves taken twice are refused.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from bot.app import announcer, numbering
from bot.app.autoplay import automated
from bot.app.base import keep_recent
from bot.app.metrics import Metrics
from bot.app.refusals import Refusal, UserError
from bot.app.table_clock import TableClock
from bot.app.timing import TableSettings
from bot.storage.shards import Shards
from bot.storage.store import (
    Delivery,
    DuplicateInteraction,
    GameRecord,
    GameStatus,
    MoveConflict,
    SeatChanged,
    SeatRecord,
)
from rules.core import Choice, Event, Game, Result, Seat


@dataclass
class Move:
    """What one applied move changed: the mover's confirmation and next choices are built from it (what
    the channel and the players are owed was written to the outbox with the move)."""

    game: GameRecord
    rules: Game
    seats: list[SeatRecord]
    seat: Seat
    before: Any
    after: Any
    events: list[Event]
    result: Result | None
    label: str | None = None
    """The label of the choice played, when the move was picked from the seat's choices."""

    @property
    def version(self) -> int:
        return self.game.version


class MoveActions(TableClock):
    """The service's part that applies and commits moves, and queues what they owe."""

    metrics: Metrics | None = None
    """Counts and times the moves for /metrics, when the composition root gives it."""

    async def play(
        self,
        game_id: int,
        user_id: int,
        *,
        key: str | None = None,
        action: dict[str, Any] | str | None = None,
        menu: str | None = None,
        interaction_id: int | None = None,
        deliver: bool = True,
    ) -> Move:
        """Apply one move for `user_id`, chosen by choice key or given as action JSON.

        `menu` is the digest of the seat's choices when its buttons were drawn: if the seat's choices
        have changed since, the click is stale and refused. Other seats' moves in a simultaneous step
        do not change this seat's choices, so their buttons stay valid.

        `deliver=False`: the courier is not woken for what the move owes; the caller answers the player
        first, then calls `deliver_owed` (the rows are committed either way, and the courier's next
        look finds them).
        """
        async with self._lock(game_id):
            game, seats = await self._playing(game_id)
            mine = next((seat for seat in seats if seat.user_id == user_id), None)
            if mine is None:
                raise UserError("You are not playing in this game.")
            return await self._move(
                game,
                seats,
                mine.seat,
                user_id,
                key=key,
                action=action,
                menu=menu,
                interaction_id=interaction_id,
                deliver=deliver,
            )

    async def play_for_seat(
        self, game_id: int, seat: Seat, key: str, *, expected_version: int, note: str | None = None
    ) -> Move:
        """A move made for a seat (a computer seat, or the table's clock at a timeout), only if nothing
        moved meanwhile; `note` heads its lines in the channel."""
        async with self._lock(game_id):
            game, seats = await self._playing(game_id)
            if game.version != expected_version:
                raise UserError("The game moved on before the timeout.", Refusal.STALE)
            return await self._move(game, seats, seat, 0, key=key, note=note)

    async def _move(
        self,
        game: GameRecord,
        seats: list[SeatRecord],
        seat: Seat,
        user_id: int,
        *,
        key: str | None = None,
        action: dict[str, Any] | str | None = None,
        menu: str | None = None,
        interaction_id: int | None = None,
        note: str | None = None,
        deliver: bool = True,
    ) -> Move:
        started = time.perf_counter()
        rules = self.rules_for(game.kind)
        before = await self.state(game)
        label: str | None = None
        if seat not in rules.to_act(before):
            waiting = ", ".join(seats[s].name for s in sorted(rules.to_act(before)))
            raise UserError(
                f"It is not your turn: waiting for {waiting}." if waiting else "Nobody can move now."
            )
        if key is not None:
            choices = rules.legal_actions(before, seat)
            if menu is not None and menu != menu_digest(choices):
                raise UserError(
                    "That board has moved on since those buttons were posted; here is where it stands.",
                    Refusal.STALE,
                )
            chosen = next((choice for choice in choices if choice.key == key), None)
            if chosen is None:
                raise UserError("That choice is not available any more; here is where it stands.")
            action = chosen.action
            label = chosen.label
        if action is None:
            raise UserError("Pick a move from the list.")
        if isinstance(action, str):
            try:
                action = json.loads(action)
            except ValueError:
                raise UserError("That move could not be read.") from None
        applied = rules.apply(before, seat, action)  # RuleError propagates with its sentence
        assert not isinstance(action, str), "apply() takes a dict or an action model, refuses a string"
        action_json = action if isinstance(action, dict) else json.loads(action.model_dump_json())
        move = await self._commit(
            game,
            seats,
            seat,
            user_id,
            action_json,
            before,
            applied.state,
            applied.events,
            interaction_id,
            note=note,
            deliver=deliver,
        )
        move.label = label
        if self.metrics is not None:
            self.metrics.moves.labels(game.kind).inc()
            self.metrics.move_seconds.labels(game.kind).observe(time.perf_counter() - started)
        return move

    async def _commit(
        self,
        game: GameRecord,
        seats: list[SeatRecord],
        seat: Seat,
        user_id: int,
        action_json: dict[str, Any],
        before: Any,
        after: Any,
        events: list[Event],
        interaction_id: int | None,
        *,
        note: str | None = None,
        clear_votes: Sequence[str] = (),
        conflicts: bool = False,
        told: Collection[Seat] = (),
        deliver: bool = True,
    ) -> Move:
        """Persist a new state with its log entry, the timers it starts and what it owes the channel
        and the players (the outbox), in one transaction; only while the seat is held by whoever held
        it when the move was read. `clear_votes`: the ballots the move closes. `conflicts`: a lost race
        raises the store's MoveConflict for the caller to decide again, instead of the refusal. `told`: seats
        pinged with this move although it is theirs (`announcer.announce`). `deliver=False`: the caller
        wakes the courier (`deliver_owed`) once it has answered."""
        rules = self.rules_for(game.kind)
        result = rules.result(after)
        waiting_before, waiting_after = rules.to_act(before), rules.to_act(after)
        starting = (waiting_after - waiting_before) | ({seat} & waiting_after)
        timers = await self._timer_plans(game, seats, starting)
        table = await self._announcing(game, seats)
        table.shown = self._shown.get(game.id)
        kept = {s: due for s, due in table.deadlines.items() if s in waiting_after}
        table.deadlines = kept | {s: due for s, kind, due in timers if kind == "deadline"}
        table.moves = numbering.after(await self.move_count(game), action_json)
        computer = note is None and user_id <= 0  # an AI seat, or a dropped seat on autopilot
        owed = announcer.announce(
            table,
            game.version + 1,
            before,
            after,
            events,
            result,
            note=note,
            computer=computer,
            seat=seat,
            told=told,
        )
        dumped = rules.dump_state(after)
        logged = [event.model_dump(mode="json") for event in events]
        try:
            version = await self.store.commit_move(
                game,
                seat=seat,
                user_id=user_id,
                action=action_json,
                events=logged,
                state=dumped,
                interaction_id=interaction_id,
                finished_result=result.model_dump_json() if result is not None else None,
                timers=timers,
                clear_timers=sorted(waiting_before - waiting_after),
                outbox=owed,
                holder=seats[seat].user_id,
                clear_votes=clear_votes,
            )
        except DuplicateInteraction:
            raise UserError("That move was already taken.") from None
        except MoveConflict as conflict:
            self._states.pop(game.id, None)
            if conflicts:
                raise
            raise await self._lost_race(game, conflict) from None
        self._remember(game.id, version, after)
        self._logged(game.id, version, seat, user_id, action_json, logged, after, game.kind)
        keep_recent(self._shown, game.id, table.shown, self._cache_size)  # the next move's `before`
        self._count_moves(game.id, version, table.moves)
        self._timers_planned(timers)
        if deliver:
            self._outbox_written()
        committed = game.model_copy(  # the record as stored now, state included (the cache may forget it)
            update={
                "version": version,
                "state": dumped,
                "status": GameStatus.FINISHED if result else GameStatus.ACTIVE,
            }
        )
        return Move(
            game=committed,
            rules=rules,
            seats=seats,
            seat=seat,
            before=before,
            after=after,
            events=events,
            result=result,
        )

    def _logged(
        self,
        game_id: int,
        version: int,
        seat: int,
        user_id: int,
        action: dict[str, Any],
        events: list[dict[str, Any]],
        state: Any,
        kind: str,
    ) -> None:
        """A move this process committed, as logged, and the state it led to: the undo planner keeps
        its turn keys current with it (`bot.app.undo_requests`)."""

    def deliver_owed(self) -> None:
        """Wake the courier for rows committed with `deliver=False`, once the player is answered."""
        self._outbox_written()

    async def _lost_race(self, game: GameRecord, conflict: MoveConflict) -> UserError:
        """The refusal of a move another decision beat to the commit: the seat handed to a substitute,
        the game abandoned, or another move first."""
        if isinstance(conflict, SeatChanged):
            return UserError(
                "Already decided: this seat was handed to someone else before the move, so it was not made."
            )
        fresh = await self.store.game(game.id)
        if fresh is not None and fresh.status == GameStatus.ABANDONED:
            return UserError("Already decided: the game was abandoned, so the move was not made.")
        return UserError(
            "Someone moved first: that move was already taken. Here is where it stands.", Refusal.STALE
        )

    async def _announcing(
        self, game: GameRecord, seats: list[SeatRecord], *, live: bool = True
    ) -> announcer.Table:
        """What the announcement of a move needs to know about the table, read before its transaction."""
        settings = TableSettings.model_validate(game.table_settings)
        on_timeout = (await self.table_settings(game)).on_timeout if any(s.dropped for s in seats) else None
        deadlines = {t.seat: t.due_at for t in await self.store.timers(game.id) if t.kind == "deadline"}
        return announcer.Table(
            game=game,
            rules=self.rules_for(game.kind),
            seats=seats,
            posting=settings.posts,
            live=announcer.Live.load(await self.store.live_payload(game.id)) if live else None,
            deadlines=deadlines,
            followers=await self.store.followers(game.id),
            now=time.time(),  # delivery runs on real time, whatever clock the table's timers use
            automated=automated(seats, on_timeout),
        )

    async def automated_seats(self, game: GameRecord, seats: list[SeatRecord]) -> set[Seat]:
        """The seats the bot plays in this game now (`bot.app.autoplay`)."""
        if not any(seat.user_id < 0 or seat.dropped for seat in seats):
            return set()
        return automated(seats, (await self.table_settings(game)).on_timeout)

    async def games_holding_a_run(self, shards: Shards | None = None) -> list[int]:
        """The games a dead process left in the middle of a computer seat's run (`release_held`)."""
        return await self.store.games_holding_a_run(shards=shards)

    async def release_held(self, game_id: int) -> bool:
        """Deliver what a held run of computer moves owes although a computer seat is still to act
        (its move could not be made): the table hears of the moves made rather than nothing. True when
        a run was held."""
        held = await self.store.live_payload(game_id)
        if not held or not held.get("held"):
            return False  # the common case, read without the lock
        async with self._lock(game_id):
            game = await self.store.game(game_id)
            if game is None or game.state is None:
                return False
            seats = await self.store.seats(game_id)
            table = await self._announcing(game, seats)
            if table.live is None or table.live.held is None:
                return False
            rules = self.rules_for(game.kind)
            state = await self.state(game)
            owed = announcer.release(table, game.version, state, rules.result(state))
            await self.store.enqueue(game.id, game.version, owed)
            self._outbox_written()
            return True

    async def undelivered(self, game: GameRecord) -> int:
        """How many posts, edits and messages the game still owes Discord (a picture's late repaint
        excluded: it waits on purpose)."""
        return sum(
            1 for row in await self.store.outbox(game.id) if row.status == "pending" and row.kind != "repaint"
        )

    async def owe(self, game: GameRecord, deliveries: list[Delivery]) -> None:
        """Queue deliveries owed by something other than a move (a reminder, a notice) in the outbox."""
        await self.store.enqueue(game.id, game.version, deliveries)
        self._outbox_written()


def menu_digest(choices: list[Choice]) -> str:
    """A short fingerprint of a seat's choices, carried by its buttons to recognise stale ones."""
    joined = "\n".join(choice.key for choice in choices)
    return hashlib.blake2s(joined.encode(), digest_size=5).hexdigest()
