"""GameService: load, lock, apply, persist. The one place where the store meets the rules core.

It knows nothing of Discord, so every rule of the platform (who may act, one open game per channel,
stale clicks, exactly-once moves, abandoning) is tested without a client. The Discord layer calls
it and then fans the outcome out to the channel and the players.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from bot.store import (
    ChannelBusy,
    DuplicateInteraction,
    GameRecord,
    GameStatus,
    MoveConflict,
    SeatRecord,
    Store,
)
from rules import registry
from rules.core import Choice, Event, Game, Result, RuleError, Seat, View


class UserError(Exception):
    """A refusal for a reason outside the rules (not seated, no game here): shown to the user as is."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class Move:
    """What one applied move changed, everything the fan-out needs without another database read."""

    game: GameRecord
    rules: Game
    seats: list[SeatRecord]
    seat: Seat
    before: Any
    after: Any
    events: list[Event]
    result: Result | None
    newly_to_act: list[Seat] = field(default_factory=list)

    @property
    def version(self) -> int:
        return self.game.version

    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def changed_private(self) -> list[Seat]:
        """Seats whose private view changed: they get a DM. Computed after the reply, in the fan-out."""
        return _changed_private(self.rules, self.before, self.after, len(self.seats))


@dataclass
class Started:
    game: GameRecord
    rules: Game
    seats: list[SeatRecord]
    state: Any


class GameService:
    """Per-process locks serialise moves on one game; the store's version check covers other processes."""

    def __init__(self, store: Store, *, cache_size: int = 2048) -> None:
        self.store = store
        self._locks: dict[int, asyncio.Lock] = {}
        self._states: OrderedDict[int, tuple[int, Any]] = OrderedDict()
        self._cache_size = cache_size

    # ---- lookups -------------------------------------------------------------------------
    @staticmethod
    def rules_for(kind: str) -> Game:
        try:
            return registry.get(kind)
        except KeyError:
            names = ", ".join(game.info.id for game in registry.all_games()) or "none yet"
            raise UserError(f"There is no game called {kind!r}. Games: {names}.") from None

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
    ) -> GameRecord:
        rules = self.rules_for(kind)
        try:
            resolved = rules.resolve_options(options or {})
        except RuleError as error:
            raise UserError(error.message) from None
        try:
            return await self.store.create_game(
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
        if not await self.store.start_game(game.id, rules.dump_state(state)):
            raise UserError("This game has already started.")
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
            if not any(seat.user_id == user_id for seat in seats):
                raise UserError("Only the players or a moderator (Manage Channels) can abandon this game.")
            if game.status == GameStatus.LOBBY and user_id != game.host_id:
                raise UserError("Only the host can close the lobby; you can `/game leave` it.")
            if game.status == GameStatus.ACTIVE:
                agreed = await self.store.add_vote(game.id, "abandon", user_id)
                missing = [seat.name for seat in seats if seat.user_id not in agreed]
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
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            game = await self.store.game(game_id)
            if game is None or game.status == GameStatus.ABANDONED:
                raise UserError("That game no longer exists.")
            if game.status == GameStatus.FINISHED:
                raise UserError("That game is over.")
            if game.status == GameStatus.LOBBY:
                raise UserError("The game has not started yet.")
            seats = await self.store.seats(game.id)
            mine = next((seat for seat in seats if seat.user_id == user_id), None)
            if mine is None:
                raise UserError("You are not playing in this game.")
            rules = self.rules_for(game.kind)
            before = await self.state(game)
            if mine.seat not in rules.to_act(before):
                waiting = ", ".join(seats[s].name for s in sorted(rules.to_act(before)))
                raise UserError(
                    f"It is not your turn: waiting for {waiting}." if waiting else "Nobody can move now."
                )
            if key is not None:
                choices = rules.legal_actions(before, mine.seat)
                if menu is not None and menu != menu_digest(choices):
                    raise UserError(
                        "That board has moved on since those buttons were posted; here is where it stands."
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
            applied = rules.apply(before, mine.seat, action)  # RuleError propagates with its sentence
            after = applied.state
            result = rules.result(after)
            action_json = action if isinstance(action, dict) else json.loads(action.model_dump_json())
            try:
                version = await self.store.commit_move(
                    game,
                    seat=mine.seat,
                    user_id=user_id,
                    action=action_json,
                    events=[event.model_dump(mode="json") for event in applied.events],
                    state=rules.dump_state(after),
                    interaction_id=interaction_id,
                    finished_result=result.model_dump_json() if result is not None else None,
                )
            except DuplicateInteraction:
                raise UserError("That move was already taken.") from None
            except MoveConflict:
                self._states.pop(game.id, None)
                raise UserError(
                    "Someone moved first: that move was already taken. Here is where it stands."
                ) from None
            self._remember(game.id, version, after)
            committed = game.model_copy(
                update={"version": version, "status": GameStatus.FINISHED if result else GameStatus.ACTIVE}
            )
            return Move(
                game=committed,
                rules=rules,
                seats=seats,
                seat=mine.seat,
                before=before,
                after=after,
                events=applied.events,
                result=result,
                newly_to_act=sorted(rules.to_act(after) - rules.to_act(before)),
            )

    async def replay(self, game: GameRecord) -> list[Any]:
        """Every state of the game, rebuilt from its seed and action log (index = version).

        This is the audit: the last state must equal the stored snapshot, or the snapshot or the
        rules changed under the game.
        """
        rules = self.rules_for(game.kind)
        seats = await self.store.seats(game.id)
        states = [rules.setup([seat.name for seat in seats], game.options, game.seed)]
        for record in await self.store.actions(game.id):
            states.append(rules.apply(states[-1], record.seat, record.action).state)
        return states

    async def log_lines(self, game: GameRecord, limit: int = 20) -> list[str]:
        lines: list[str] = []
        for record in await self.store.actions(game.id, limit=limit):
            lines.extend(event["text"] for event in record.events)
        return lines[-limit:]


def menu_digest(choices: list[Choice]) -> str:
    """A short fingerprint of a seat's choices, carried by its buttons to recognise stale ones."""
    joined = "\n".join(choice.key for choice in choices)
    return hashlib.blake2s(joined.encode(), digest_size=5).hexdigest()


def _private_part(rules: Game, state: Any, seat: Seat) -> dict[str, Any]:
    """The fields of a seat's view that the public view does not show: what a DM has to tell."""
    public = rules.view(state, None).model_dump(mode="json")
    mine = rules.view(state, seat).model_dump(mode="json")
    return {key: value for key, value in mine.items() if key != "seat" and public.get(key) != value}


def _changed_private(rules: Game, before: Any, after: Any, count: int) -> list[Seat]:
    if not rules.info.hidden_information:
        return []
    return [
        seat
        for seat in range(count)
        if _private_part(rules, before, seat) != _private_part(rules, after, seat)
    ]


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
            raise UserError(f"Options look like `name=value`, separated by spaces; {part!r} is not.")
        options[name.strip().lower()] = value.strip()
    return options
