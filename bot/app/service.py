"""GameService: load, lock, apply, persist. The one place where the store meets the rules core.

It knows nothing of Discord, so every rule of the platform (who may act, one open game per channel,
stale clicks, exactly-once moves, abandoning) is tested without a client. The Discord layer calls
it and then fans the outcome out to the channel and the players.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from bot.app import announcer
from bot.app.clock import Clock
from bot.app.locks import KeyedLocks
from bot.app.refusals import Refusal, UserError
from bot.app.timing import (
    GuildSettings,
    QuietHours,
    TableSettings,
    deadline_due,
    matching_time_zones,
    reminder_due,
    valid_time_zone,
)
from bot.app.undo import UNDO, UndoPlan, plan_undo, undo_span, undone_count
from bot.storage.store import (
    ActionRecord,
    ChannelBusy,
    Delivery,
    DuplicateInteraction,
    GameRecord,
    GameStatus,
    MoveConflict,
    SeatRecord,
    Store,
    TimerPlan,
)
from rules import registry
from rules.core import Choice, Event, Game, Result, RuleError, Seat, View


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

    @property
    def version(self) -> int:
        return self.game.version


@dataclass
class Started:
    game: GameRecord
    rules: Game
    seats: list[SeatRecord]
    state: Any


class GameService:
    """Per-process locks serialise moves on one game; the store's version check covers other processes."""

    def __init__(self, store: Store, *, clock: Clock | None = None, cache_size: int = 2048) -> None:
        self.store = store
        self.clock = clock or Clock()
        self.locks = KeyedLocks()
        """The bot's one lock map: a game's state is read and written under ("game", id)."""
        self._states: OrderedDict[int, tuple[int, Any]] = OrderedDict()
        self._cache_size = cache_size
        self._turn_logs: OrderedDict[int, _TurnLog] = OrderedDict()
        #: Called after this process stored new timers, which may be due before the scheduler's next look.
        self.on_timers: Callable[[], None] | None = None
        #: Called after this process wrote outbox rows, so the delivery worker sends them at once.
        self.on_outbox: Callable[[], None] | None = None

    # ---- lookups -------------------------------------------------------------------------
    @staticmethod
    def rules_for(kind: str) -> Game:
        try:
            return registry.get(kind)
        except KeyError:
            names = ", ".join(game.info.id for game in registry.all_games()) or "none yet"
            raise UserError(f"There is no game called {kind[:40]!r}. Games: {names}.") from None

    async def open_game(self, channel_id: int) -> GameRecord:
        game = await self.store.open_game_in(channel_id)
        if game is None:
            raise UserError("There is no game in this channel. Start one with `/game new`.")
        return game

    async def active_game(self, channel_id: int) -> GameRecord:
        game = await self.open_game(channel_id)
        if game.status == GameStatus.LOBBY:
            raise UserError("The game has not started yet. The host starts it with `/game start`.")
        return game

    async def seat_of(self, game: GameRecord, user_id: int) -> SeatRecord | None:
        return next((seat for seat in await self.store.seats(game.id) if seat.user_id == user_id), None)

    async def require_seat(self, game: GameRecord, user_id: int) -> SeatRecord:
        seat = await self.seat_of(game, user_id)
        if seat is None:
            raise UserError("You are not playing in this game. You can follow it with `/board` and `/log`.")
        return seat

    async def state(self, game: GameRecord) -> Any:
        """The snapshot at the game's version, parsed once and cached while it is current."""
        cached = self._states.get(game.id)
        if cached is not None and cached[0] == game.version:
            self._states.move_to_end(game.id)
            return cached[1]
        if game.state is None:
            raise UserError("The game has not started yet.")
        state = self.rules_for(game.kind).load_state(game.state)
        self._remember(game.id, game.version, state)
        return state

    def _remember(self, game_id: int, version: int, state: Any) -> None:
        self._states[game_id] = (version, state)
        self._states.move_to_end(game_id)
        while len(self._states) > self._cache_size:
            self._states.popitem(last=False)

    async def view(self, game: GameRecord, seat: Seat | None) -> View:
        return self.rules_for(game.kind).view(await self.state(game), seat)

    async def choices(self, game: GameRecord, seat: Seat) -> list[Choice]:
        return self.rules_for(game.kind).legal_actions(await self.state(game), seat)

    async def to_act(self, game: GameRecord) -> set[Seat]:
        return self.rules_for(game.kind).to_act(await self.state(game))

    # ---- what the Discord layer reads and remembers ------------------------------------------------
    # The cogs and components talk to the service only; these are the store's answers they need as
    # they are, so the store stays a detail of this layer (its queries can change under them).
    async def game(self, game_id: int) -> GameRecord | None:
        return await self.store.game(game_id)

    async def seats(self, game_id: int) -> list[SeatRecord]:
        return await self.store.seats(game_id)

    async def open_game_in(self, channel_id: int) -> GameRecord | None:
        """The channel's lobby or game in progress, if any."""
        return await self.store.open_game_in(channel_id)

    async def latest_game_in(self, channel_id: int) -> GameRecord | None:
        """The channel's newest game, finished or not, if any."""
        return await self.store.latest_game_in(channel_id)

    async def list_games(
        self, *, channel_id: int | None = None, guild_id: int | None = None, user_id: int | None = None
    ) -> list[GameRecord]:
        return await self.store.list_games(channel_id=channel_id, guild_id=guild_id, user_id=user_id)

    async def set_follower(self, game_id: int, user_id: int, mode: str | None) -> None:
        await self.store.set_follower(game_id, user_id, mode)

    async def set_player(
        self, user_id: int, quiet_start: int | None, quiet_end: int | None, offset: int
    ) -> None:
        """A player's quiet hours and time zone offset (minutes from UTC)."""
        await self.store.set_player(user_id, quiet_start, quiet_end, offset)

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        await self.store.set_guild_settings(guild_id, settings)

    async def message(self, game_id: int, kind: str) -> tuple[int, int, int] | None:
        """(channel, message, version) of the game's remembered message of `kind` (lobby, turn, thread)."""
        return await self.store.message(game_id, kind)

    async def remember_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, version: int
    ) -> None:
        await self.store.remember_message(game_id, kind, channel_id, message_id, version)

    async def set_seat_flag(self, game_id: int, seat: int, flag: str, value: bool) -> bool:
        """Set a seat's `vacation` or `dropped` flag; False when it already had that value."""
        return await self.store.set_seat_flag(game_id, seat, flag, value)

    # ---- lobby ----------------------------------------------------------------------------
    async def new_game(
        self,
        *,
        kind: str,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        name: str,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        ai: int = 0,
        ai_strength: int = 2,
    ) -> GameRecord:
        rules = self.rules_for(kind)
        if ai and 1 + ai > rules.info.max_players:
            raise UserError(
                f"{rules.info.name} seats at most {rules.info.max_players} players, you included."
            )
        allowed = await self.guild_settings(guild_id)
        if kind in allowed.disabled_games:
            raise UserError(f"{rules.info.name} is turned off on this server (`/settings game`).")
        if allowed.channels and channel_id not in allowed.channels:
            where = ", ".join(f"<#{channel}>" for channel in allowed.channels)
            raise UserError(f"Games are played in {where} on this server.")
        try:
            resolved = rules.resolve_options(options or {})
        except RuleError as error:
            raise UserError(error.message) from None
        try:
            record = await self.store.create_game(
                kind=kind,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=user_id,
                host_name=name,
                options=resolved,
                seed=seed if seed is not None else random.SystemRandom().randrange(1, 2**31),
            )
        except ChannelBusy:
            raise UserError(
                "This channel already has a game. Finish it, or `/game abandon` it, before starting another."
            ) from None
        if ai:
            for number in range(1, ai + 1):
                await self.store.add_seat(record.id, -number, f"AI {number}", rules.info.max_players)
            await self.store.set_table_settings(record.id, {"ai_strength": ai_strength})
            fresh = await self.store.game(record.id)
            assert fresh is not None
            record = fresh
        return record

    async def join(self, channel_id: int, user_id: int, name: str) -> tuple[GameRecord, int]:
        game = await self.open_game(channel_id)
        if game.status != GameStatus.LOBBY:
            raise UserError("This game has already started; you can follow it with `/board`.")
        if await self.seat_of(game, user_id):
            raise UserError("You are already in this game.")
        rules = self.rules_for(game.kind)
        seat = await self.store.add_seat(game.id, user_id, name, rules.info.max_players)
        if seat is None:
            raise UserError(f"The table is full ({rules.info.max_players} players).")
        return game, seat

    async def leave(self, channel_id: int, user_id: int) -> GameRecord:
        game = await self.open_game(channel_id)
        if game.status != GameStatus.LOBBY:
            raise UserError(
                "The game has started, so you cannot leave it. Ask the table to `/game abandon` it,"
                " or a moderator to end it."
            )
        if game.host_id == user_id:
            raise UserError("You are the host. Use `/game abandon` to close the lobby instead.")
        if not await self.store.remove_seat(game.id, user_id):
            raise UserError("You are not in this game.")
        return game

    async def set_option(self, channel_id: int, user_id: int, name: str, value: Any) -> GameRecord:
        game = await self.open_game(channel_id)
        if game.status != GameStatus.LOBBY:
            raise UserError("Options can only be changed in the lobby.")
        if user_id != game.host_id:
            raise UserError("Only the host can change the options.")
        rules = self.rules_for(game.kind)
        try:
            options = rules.resolve_options({**game.options, name: value})
        except RuleError as error:
            raise UserError(error.message) from None
        await self.store.set_options(game.id, options)
        updated = await self.store.game(game.id)
        assert updated is not None
        return updated

    async def start(self, channel_id: int, user_id: int, *, is_admin: bool = False) -> Started:
        game = await self.open_game(channel_id)
        if game.status != GameStatus.LOBBY:
            raise UserError("This game has already started.")
        if user_id != game.host_id and not is_admin:
            raise UserError("Only the host (or a moderator) can start the game.")
        rules = self.rules_for(game.kind)
        seats = await self.store.seats(game.id)
        try:
            state = rules.setup([seat.name for seat in seats], game.options, game.seed)
        except RuleError as error:
            raise UserError(error.message) from None
        timers = await self._timer_plans(game, seats, rules.to_act(state))
        table = await self._announcing(game, seats, live=False)
        table.deadlines = {seat: due for seat, kind, due in timers if kind == "deadline"}
        # What setup rolled or decided (who goes first, round 1's dice) is told in the first post.
        owed = announcer.announce(table, 0, None, state, rules.opening_events(state), None)
        if not await self.store.start_game(game.id, rules.dump_state(state), timers, owed):
            raise UserError("This game has already started.")
        self._timers_planned(timers)
        self._outbox_written()
        started = await self.store.game(game.id)
        assert started is not None
        self._remember(game.id, started.version, state)
        return Started(game=started, rules=rules, seats=seats, state=state)

    async def abandon(
        self, channel_id: int, user_id: int, *, is_admin: bool
    ) -> tuple[GameRecord, bool, list[str]]:
        """Returns (game, abandoned?, names still to agree). Admins end it at once; players all agree."""
        game = await self.open_game(channel_id)
        seats = await self.store.seats(game.id)
        if not is_admin:
            if _held_seat(seats, user_id) is None:
                raise UserError("Only the players or a moderator (Manage Channels) can abandon this game.")
            if game.status == GameStatus.LOBBY and user_id != game.host_id:
                raise UserError("Only the host can close the lobby; you can `/game leave` it.")
            if game.status == GameStatus.ACTIVE:
                agreed = await self.store.add_vote(game.id, "abandon", user_id)
                missing = [seat.name for seat in _voters(seats) if seat.user_id not in agreed]
                if missing:
                    return game, False, missing
        await self.store.set_status(game.id, GameStatus.ABANDONED)
        return game, True, []

    # ---- moves ----------------------------------------------------------------------------
    async def play(
        self,
        game_id: int,
        user_id: int,
        *,
        key: str | None = None,
        action: dict[str, Any] | str | None = None,
        menu: str | None = None,
        interaction_id: int | None = None,
    ) -> Move:
        """Apply one move for `user_id`, chosen by choice key or given as action JSON.

        `menu` is the digest of the seat's choices when its buttons were drawn: if the seat's choices
        have changed since, the click is stale and refused. Other seats' moves in a simultaneous step
        do not change this seat's choices, so their buttons stay valid.
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

    def _lock(self, game_id: int):  # noqa: ANN202 - an async context manager
        return self.locks.hold(("game", game_id))

    async def _playing(self, game_id: int) -> tuple[GameRecord, list[SeatRecord]]:
        game = await self.store.game(game_id)
        if game is None or game.status == GameStatus.ABANDONED:
            raise UserError("That game no longer exists.")
        if game.status == GameStatus.FINISHED:
            raise UserError("That game is over.")
        if game.status == GameStatus.LOBBY:
            raise UserError("The game has not started yet.")
        return game, await self.store.seats(game.id)

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
    ) -> Move:
        rules = self.rules_for(game.kind)
        before = await self.state(game)
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
        if action is None:
            raise UserError("Pick a move from the list.")
        if isinstance(action, str):
            try:
                action = json.loads(action)
            except ValueError:
                raise UserError("That move could not be read.") from None
        applied = rules.apply(before, seat, action)  # RuleError propagates with its sentence
        action_json = action if isinstance(action, dict) else json.loads(action.model_dump_json())
        return await self._commit(
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
        )

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
    ) -> Move:
        """Persist a new state with its log entry, the timers it starts and what it owes the channel
        and the players (the outbox), in one transaction."""
        rules = self.rules_for(game.kind)
        result = rules.result(after)
        waiting_before, waiting_after = rules.to_act(before), rules.to_act(after)
        starting = (waiting_after - waiting_before) | ({seat} & waiting_after)
        timers = await self._timer_plans(game, seats, starting)
        table = await self._announcing(game, seats)
        kept = {s: due for s, due in table.deadlines.items() if s in waiting_after}
        table.deadlines = kept | {s: due for s, kind, due in timers if kind == "deadline"}
        computer = note is None and user_id <= 0  # an AI seat, or a dropped seat on autopilot
        owed = announcer.announce(
            table, game.version + 1, before, after, events, result, note=note, computer=computer
        )
        dumped = rules.dump_state(after)
        try:
            version = await self.store.commit_move(
                game,
                seat=seat,
                user_id=user_id,
                action=action_json,
                events=[event.model_dump(mode="json") for event in events],
                state=dumped,
                interaction_id=interaction_id,
                finished_result=result.model_dump_json() if result is not None else None,
                timers=timers,
                clear_timers=sorted(waiting_before - waiting_after),
                outbox=owed,
            )
        except DuplicateInteraction:
            raise UserError("That move was already taken.") from None
        except MoveConflict:
            self._states.pop(game.id, None)
            raise UserError(
                "Someone moved first: that move was already taken. Here is where it stands.", Refusal.STALE
            ) from None
        self._remember(game.id, version, after)
        self._timers_planned(timers)
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

    async def _announcing(
        self, game: GameRecord, seats: list[SeatRecord], *, live: bool = True
    ) -> announcer.Table:
        """What the announcement of a move needs to know about the table, read before its transaction."""
        settings = TableSettings.model_validate(game.table_settings)
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
        )

    async def undelivered(self, game: GameRecord) -> int:
        """How many posts, edits and messages the game still owes Discord (a picture's late repaint
        excluded: it waits on purpose)."""
        return sum(
            1 for row in await self.store.outbox(game.id) if row.status == "pending" and row.kind != "repaint"
        )

    def _outbox_written(self) -> None:
        if self.on_outbox is not None:
            self.on_outbox()

    async def owe(self, game: GameRecord, deliveries: list[Delivery]) -> None:
        """Queue deliveries owed by something other than a move (a reminder, a notice) in the outbox."""
        await self.store.enqueue(game.id, game.version, deliveries)
        self._outbox_written()

    # ---- the table's clock -----------------------------------------------------------------------
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
                f"I do not know the time zone {typed.strip()[:60]!r}. Pick one from the list"
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

    async def replay(self, game: GameRecord, *, upto: int | None = None) -> list[Any]:
        """Every effective state of the game, rebuilt from its seed and action log (undone moves popped).

        This is the audit: the last state must equal the stored snapshot, or the snapshot or the
        rules changed under the game.
        """
        return (await self._replay_log(game, upto=upto))[0]

    async def _replay_log(
        self, game: GameRecord, *, upto: int | None = None, records: list[ActionRecord] | None = None
    ) -> tuple[list[Any], list[ActionRecord]]:
        """One pass over the log (or over `records`, the log already read): the effective states (every
        logged move applied, undone ones then popped) and the effective moves between them, `states[i]`
        being the state before `moves[i]`."""
        rules = self.rules_for(game.kind)
        seats = await self.store.seats(game.id)
        states = [rules.setup([seat.name for seat in seats], game.options, game.seed)]
        moves: list[ActionRecord] = []
        for record in records if records is not None else await self.store.actions(game.id):
            if upto is not None and record.version > upto:
                break
            if record.action.get("kind") == UNDO:
                count = undone_count(record.action)
                del states[-count:], moves[-count:]
            else:
                states.append(rules.apply(states[-1], record.seat, record.action).state)
                moves.append(record)
        return states, moves

    async def state_at(self, game: GameRecord, version: int) -> Any:
        """The game as it stood right after log entry `version` (0: the start), replayed from the seed.

        Undo entries up to that point are honoured, so it is the board the players saw then."""
        return (await self.replay(game, upto=version))[-1]

    async def effective_moves(self, game: GameRecord) -> list[ActionRecord]:
        """The log without undone moves and without the undo entries themselves."""
        stack: list[ActionRecord] = []
        for record in await self.store.actions(game.id):
            if record.action.get("kind") == UNDO:
                del stack[-undone_count(record.action) :]
            else:
                stack.append(record)
        return stack

    # ---- undo --------------------------------------------------------------------------------------
    async def _undo_plan(self, game: GameRecord) -> tuple[UndoPlan | None, list[Any]]:
        states, moves = await self._replay_log(game)
        return plan_undo(self.rules_for(game.kind), states, moves), states

    async def _current_undo_plan(self, game: GameRecord) -> UndoPlan | None:
        """The plan `_undo_plan` gives, without replaying the whole game on every call: from the turn
        keys of the latest states (`_TurnLog`), then the log records of the moves it takes back."""
        log = await self._turn_log(game)
        span = undo_span(log.keys)
        if span is None:
            return None
        start, in_progress = span
        if start == 0 and not log.whole:  # the turn may begin before the keys kept: ask the full replay
            return (await self._undo_plan(game))[0]
        versions = log.versions[start:]
        wanted = set(versions)
        taken = [r for r in await self.store.actions(game.id, since=versions[0] - 1) if r.version in wanted]
        return UndoPlan(moves=taken, owner=taken[0].seat, in_progress=in_progress)

    async def _turn_log(self, game: GameRecord) -> _TurnLog:
        """The game's `_TurnLog` brought up to its stored log: the moves logged since are applied to the
        kept state; an undo entry among them (or nothing kept) means one full replay."""
        rules = self.rules_for(game.kind)
        log = self._turn_logs.get(game.id)
        grown = None
        if log is not None:
            grown = log.extended(rules, await self.store.actions(game.id, since=log.version))
        if grown is None:
            records = await self.store.actions(game.id)
            states, moves = await self._replay_log(game, records=records)
            window = states[-TURN_WINDOW - 1 :]
            grown = _TurnLog(
                version=records[-1].version if records else 0,
                state=states[-1],
                keys=tuple(rules.turn_key(state) for state in window),
                versions=tuple(move.version for move in moves[len(moves) + 1 - len(window) :]),
                whole=len(window) == len(states),
            )
        current = self._states.get(game.id)
        if current is not None and current[0] == grown.version and current[1] is not grown.state:
            grown = replace(grown, state=current[1])  # one copy of the state in memory, not two
        kept = self._turn_logs.get(game.id)
        if kept is None or kept.version <= grown.version:
            self._turn_logs[game.id] = grown
            self._turn_logs.move_to_end(game.id)
            while len(self._turn_logs) > self._cache_size:
                self._turn_logs.popitem(last=False)
        return grown

    async def undo_request(self, channel_id: int, user_id: int) -> tuple[GameRecord, UndoPlan, list[str]]:
        """Check that the caller may take back their turn (or last move); returns the plan and who must
        approve: nobody when the caller only rewinds their own turn still in progress, as the guide's
        client does, or when nobody else plays."""
        game = await self.active_game(channel_id)
        seat = await self.require_seat(game, user_id)
        seats = await self.store.seats(game.id)
        plan = await self._current_undo_plan(game)
        refusal = _undo_refusal(plan, seat, user_id, seats)
        if refusal is not None:
            raise UserError(refusal)
        assert plan is not None
        await self.store.clear_votes(game.id, _undo_vote(plan.last_version))
        await self.store.add_vote(game.id, _undo_vote(plan.last_version), user_id)
        if plan.in_progress and plan.solitary:
            return game, plan, []  # rewinding only your own turn in progress needs nobody's approval
        others = [s.name for s in _humans(seats) if s.user_id != user_id and not s.dropped]
        return game, plan, others

    async def can_undo(self, game: GameRecord, user_id: int) -> bool:
        """Whether `/undo` from this user would be accepted now, by the same checks as `undo_request`
        (so the Undo button is offered only then); nothing is recorded."""
        if game.status != GameStatus.ACTIVE:
            return False
        seats = await self.store.seats(game.id)
        seat = next((s for s in seats if s.user_id == user_id), None)
        if seat is None:
            return False
        return _undo_refusal(await self._current_undo_plan(game), seat, user_id, seats) is None

    async def undo_vote(
        self, game_id: int, user_id: int, version: int, approve: bool
    ) -> tuple[str, Move | None]:
        """A player answers an undo request: ('refused'|'waiting'|'done', the undo move when done)."""
        async with self._lock(game_id):
            game, seats = await self._playing(game_id)
            _voter(seats, user_id)
            plan, states = await self._undo_plan(game)
            # The vote is on the plan ending at `version`: still the plan if nothing effective came after
            # it, even when the log's last entry is an undo of a later move (the game's version then).
            if plan is None or plan.last_version != version:
                raise UserError(
                    "The game has moved on since that request, so it no longer applies.", Refusal.STALE
                )
            if plan.moves[-1].user_id == user_id:
                raise UserError("You asked for this undo; the other players decide.")
            kind = _undo_vote(version)
            if not approve:
                await self.store.clear_votes(game.id, kind)
                return "refused", None
            agreed = await self.store.add_vote(game.id, kind, user_id)
            if any(s.user_id not in agreed for s in _voters(seats)):
                return "waiting", None
            await self.store.clear_votes(game.id, kind)
            return "done", await self._undo(game, seats, plan, states, how=", with the table's agreement")

    async def _undo(
        self, game: GameRecord, seats: list[SeatRecord], plan: UndoPlan, states: list[Any], *, how: str
    ) -> Move:
        count = len(plan.moves)
        current, target = states[-1], states[-1 - count]
        event = Event(text=f"{seats[plan.owner].name} took back {plan.describe()}{how}.")
        return await self._commit(
            game,
            seats,
            plan.owner,
            plan.moves[-1].user_id,
            {"kind": UNDO, "version": plan.last_version, "count": count},
            current,
            target,
            [event],
            None,
        )

    async def undo_alone(self, channel_id: int, user_id: int) -> Move:
        """Take the turn back at once: the caller's own turn in progress, or a table with nobody to ask."""
        game, plan, others = await self.undo_request(channel_id, user_id)
        if others:
            raise UserError("The other players must approve this undo.")
        async with self._lock(game.id):
            game, seats = await self._playing(game.id)
            fresh, states = await self._undo_plan(game)
            if (
                fresh is None
                or fresh.last_version != plan.last_version
                or len(fresh.moves) != len(plan.moves)
            ):
                raise UserError(
                    "The game has moved on since that request, so it no longer applies.", Refusal.STALE
                )
            how = "" if len(_humans(seats)) <= 1 else ", before anyone else moved"
            return await self._undo(game, seats, fresh, states, how=how)

    # ---- substitutes ---------------------------------------------------------------------------------
    async def replace_request(
        self, channel_id: int, requester: int, old_user: int, new_user: int, new_name: str, *, is_admin: bool
    ) -> tuple[GameRecord, bool, list[str]]:
        """Seat `new_user` in `old_user`'s place: at once for a moderator, else when the table agrees."""
        game = await self.active_game(channel_id)
        seats = await self.store.seats(game.id)
        old = next((s for s in seats if s.user_id == old_user), None)
        if old is None:
            raise UserError("That user is not playing in this game.")
        if any(s.user_id == new_user for s in seats):
            raise UserError("The substitute is already playing in this game.")
        if not is_admin:
            if not any(s.user_id == requester for s in seats):
                raise UserError("Only the players or a moderator (Manage Channels) can replace a player.")
            kind = _replace_vote(old_user, new_user)
            agreed = await self.store.add_vote(game.id, kind, requester)
            missing = [s.name for s in _voters(seats) if s.user_id not in agreed and s.user_id != old_user]
            if missing:
                return game, False, missing
            await self.store.clear_votes(game.id, kind)
        await self._seat_substitute(game, old.seat, new_user, new_name)
        return game, True, []

    async def replace_vote(
        self, game_id: int, voter: int, old_user: int, new_user: int, new_name: str
    ) -> tuple[GameRecord, bool, list[str]]:
        """A player approves a proposed substitute (the player being replaced does not vote)."""
        game = await self._replacement_voted(game_id, voter, old_user, new_user)
        return await self.replace_request(
            game.channel_id, voter, old_user, new_user, new_name, is_admin=False
        )

    async def replace_refuse(self, game_id: int, voter: int, old_user: int, new_user: int) -> GameRecord:
        """A player refuses a proposed substitute: the proposal and its approvals are dropped."""
        game = await self._replacement_voted(game_id, voter, old_user, new_user)
        await self.store.clear_votes(game.id, _replace_vote(old_user, new_user))
        return game

    async def _replacement_voted(self, game_id: int, voter: int, old_user: int, new_user: int) -> GameRecord:
        """Refuse a vote on a replacement from anyone but the players who decide it, or on one that no
        longer applies."""
        game = await self.store.game(game_id)
        if game is None or game.status != GameStatus.ACTIVE:
            raise UserError("That game is not being played.")
        seats = await self.store.seats(game.id)
        _voter(seats, voter, about=old_user)
        if _held_seat(seats, old_user) is None or _held_seat(seats, new_user) is not None:
            raise UserError("That replacement no longer applies: the seat has changed hands since.")
        return game

    async def take_seat(self, game_id: int, seat: Seat, user_id: int, name: str) -> GameRecord:
        """A substitute takes a seat whose player was dropped by the clock."""
        game = await self.store.game(game_id)
        if game is None or game.status != GameStatus.ACTIVE:
            raise UserError("That game is not being played.")
        seats = await self.store.seats(game.id)
        if seat >= len(seats) or not seats[seat].dropped:
            raise UserError("That seat has already been taken.")
        if any(s.user_id == user_id for s in seats):
            raise UserError("You are already playing in this game.")
        await self._seat_substitute(game, seat, user_id, name)
        return game

    def _timers_planned(self, plans: list[TimerPlan]) -> None:
        if plans and self.on_timers is not None:
            self.on_timers()

    async def _seat_substitute(self, game: GameRecord, seat: Seat, user_id: int, name: str) -> None:
        async with self._lock(game.id):
            if not await self.store.replace_seat(game.id, seat, user_id, name):
                raise UserError("The substitute is already playing in this game.")
            fresh = await self.store.game(game.id)
            assert fresh is not None
            if seat in await self.to_act(fresh):
                plans = await self._timer_plans(fresh, await self.store.seats(game.id), {seat})
                await self.store.plan_timers(game.id, plans, [seat])
                self._timers_planned(plans)

    # ---- listings ----------------------------------------------------------------------------------------
    async def waiting_on(self, user_id: int) -> list[tuple[GameRecord, str]]:
        """The caller's games (every guild) where they must act now, with each game's headline."""
        found = []
        for game in await self.store.games_of_user(user_id, statuses=(GameStatus.ACTIVE,)):
            seat = await self.seat_of(game, user_id)
            if seat is not None and seat.seat in await self.to_act(game):
                found.append((game, (await self.view(game, None)).headline))
        return found

    async def since_last_turn(self, game: GameRecord, user_id: int) -> tuple[int, list[str]]:
        """What happened since the caller last acted: public lines, with their own private lines instead
        where they have one. Returns (the version of their last move, 0 if none; the lines)."""
        seat = await self.require_seat(game, user_id)
        records = await self.store.actions(game.id)
        last = max((r.version for r in records if r.seat == seat.seat and r.user_id == user_id), default=0)
        lines = []
        for record in records:
            if record.version <= last:
                continue
            for event in record.events:
                private = event.get("private", {}).get(str(seat.seat)) or event.get("private", {}).get(
                    seat.seat
                )
                lines.append(private or event["text"])
        return last, lines

    async def stats(
        self, *, user_id: int | None = None, guild_id: int | None = None, kind: str | None = None
    ) -> dict[str, Any]:
        """Played, won and streaks per game, from the stored games themselves (no second source of truth)."""
        games = await self.store.list_games(user_id=user_id, guild_id=guild_id, limit=10_000)
        finished = [
            g
            for g in reversed(games)
            if g.status == GameStatus.FINISHED and g.result and (kind is None or g.kind == kind)
        ]
        per_game: dict[str, dict[str, Any]] = {}
        players: dict[int, dict[str, Any]] = {}
        streak = 0
        for game in finished:
            result = Result.model_validate_json(game.result or "{}")
            seats = await self.store.seats(game.id)
            with_ai = any(seat.user_id < 0 for seat in seats)
            entry = per_game.setdefault(game.kind, {"played": 0, "won": 0, "with_ai": 0})
            entry["played"] += 1
            entry["with_ai"] += with_ai
            winners = {seats[s].user_id for s in result.winners}
            for seat in seats:
                board = players.setdefault(seat.user_id, {"name": seat.name, "played": 0, "won": 0})
                board["played"] += 1
                board["won"] += seat.user_id in winners
            if user_id is not None:
                won = user_id in winners
                entry["won"] += won
                streak = streak + 1 if won else 0
        return {"per_game": per_game, "players": players, "streak": streak}

    async def move_times(self, user_id: int) -> float | None:
        """The caller's average hours between the move before theirs and their own move."""
        gaps: list[float] = []
        for game in await self.store.list_games(user_id=user_id, limit=200):
            records = await self.store.actions(game.id)
            for before, after in zip(records, records[1:], strict=False):
                if after.user_id == user_id and before.user_id != user_id:
                    start = datetime.fromisoformat(before.created_at)
                    end = datetime.fromisoformat(after.created_at)
                    gaps.append((end - start).total_seconds() / 3600)
        return sum(gaps) / len(gaps) if gaps else None

    async def history_text(self, game: GameRecord) -> str:
        """The whole public log as text: what a spectator could have read, move by move."""
        rules = self.rules_for(game.kind)
        seats = await self.store.seats(game.id)
        lines = [
            f"{rules.info.name} - game #{game.id} - seed {game.seed}",
            "Players: " + ", ".join(f"{s.seat + 1}. {s.name}" for s in seats),
            f"Options: {json.dumps(game.options, sort_keys=True)}",
            f"Started {game.created_at}; status {game.status.value}",
            "",
        ]
        for record in await self.store.actions(game.id):
            for event in record.events:
                lines.append(f"[{record.version:>4}] {record.created_at}  {event['text']}")
        if game.result:
            result = Result.model_validate_json(game.result)
            lines += ["", "Result: " + result.reason]
            for place, group in enumerate(result.ranking, start=1):
                for seat in group:
                    lines.append("  " + result.place_line(place, seat, seats[seat].name))
        return "\n".join(lines) + "\n"

    async def log_lines(self, game: GameRecord, limit: int = 20) -> list[str]:
        lines: list[str] = []
        for record in await self.store.actions(game.id, limit=limit):
            lines.extend(event["text"] for event in record.events)
        return lines[-limit:]


def _humans(seats: list[SeatRecord]) -> list[SeatRecord]:
    """The seats people sit in: computer seats (negative ids) never vote."""
    return [seat for seat in seats if seat.user_id > 0]


def _voters(seats: list[SeatRecord]) -> list[SeatRecord]:
    """The people who decide a table's vote (undo, replacement, abandon): players seated now, not the
    computer and not a player the clock dropped (they are gone; waiting for them would block the vote)."""
    return [seat for seat in _humans(seats) if not seat.dropped]


def _held_seat(seats: list[SeatRecord], user_id: int) -> SeatRecord | None:
    """The seat `user_id` holds now. A player who was replaced holds none: the seat has their
    substitute's id."""
    return next((seat for seat in _humans(seats) if seat.user_id == user_id), None)


NOT_A_VOTER = "Only the players of this game vote on this."


def _voter(seats: list[SeatRecord], user_id: int, *, about: int | None = None) -> SeatRecord:
    """The seat an Approve or Refuse is pressed from; anyone else is refused and nothing changes. The
    player a replacement is `about` does not vote on it either."""
    seat = _held_seat(seats, user_id)
    if seat is None:
        raise UserError(NOT_A_VOTER)
    if user_id == about:
        raise UserError("This vote is about your own seat, so the other players decide.")
    return seat


def _replace_vote(old_user: int, new_user: int) -> str:
    return f"replace:{old_user}:{new_user}"


def _undo_refusal(
    plan: UndoPlan | None, seat: SeatRecord, user_id: int, seats: list[SeatRecord]
) -> str | None:
    """Why `/undo` from this seat is refused now, or None when it is accepted."""
    if plan is None or plan.owner != seat.seat or plan.moves[-1].user_id != user_id:
        if plan is not None and plan.in_progress and len(plan.moves) > 1:
            return f"Only {seats[plan.owner].name} can take back their own turn."
        return "You can only take back your own move, before anyone else has moved."
    if plan.reveals:
        return "That move revealed hidden information (a card, a die roll), so it cannot be undone."
    return None


TURN_WINDOW = 64
"""How many of the latest effective moves a `_TurnLog` keeps: far more than a turn has."""


@dataclass(frozen=True)
class _TurnLog:
    """What planning an undo needs of a game, kept between moves so that offering the Undo button does
    not replay the game each time: the turn keys of its latest effective states (`keys[i]` before the
    move `versions[i]`, the last one now), and the state at `version`, to extend it by the next moves."""

    version: int
    state: Any
    keys: tuple[Hashable | None, ...]
    versions: tuple[int, ...]
    whole: bool
    """The keys go back to the start of the game."""

    def extended(self, rules: Game, records: list[ActionRecord]) -> _TurnLog | None:
        """With the log entries after `version` applied; None for an undo entry (its state is not kept)."""
        if not records:
            return self
        state, keys, versions = self.state, list(self.keys), list(self.versions)
        for record in records:
            if record.action.get("kind") == UNDO:
                return None
            state = rules.apply(state, record.seat, record.action).state
            keys.append(rules.turn_key(state))
            versions.append(record.version)
        cut = max(0, len(versions) - TURN_WINDOW)
        return _TurnLog(
            version=records[-1].version,
            state=state,
            keys=tuple(keys[cut:]),
            versions=tuple(versions[cut:]),
            whole=self.whole and cut == 0,
        )


"""The log entry that takes the previous effective move back; replays pop a state on it."""


def _undo_vote(version: int) -> str:
    return f"undo:{version}"


def menu_digest(choices: list[Choice]) -> str:
    """A short fingerprint of a seat's choices, carried by its buttons to recognise stale ones."""
    joined = "\n".join(choice.key for choice in choices)
    return hashlib.blake2s(joined.encode(), digest_size=5).hexdigest()


def parse_options(text: str) -> dict[str, str]:
    """'rounds=5 expansion=on' -> {'rounds': '5', 'expansion': 'on'}; values are checked by the game."""
    options: dict[str, str] = {}
    for part in re.split(r"[\s,;]+", text.strip()):
        if not part:
            continue
        name, sep, value = part.partition("=")
        if not sep:
            name, sep, value = part.partition(":")
        if not sep or not name or not value:
            raise UserError(f"Options look like `name=value`, separated by spaces; {part[:40]!r} is not.")
        options[name.strip().lower()] = value.strip()
    return options
