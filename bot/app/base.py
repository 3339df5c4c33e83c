"""What every part of the game service stands on: the store, the clock, the lock map and the cache of
parsed states; the lookups (which game, which seat, its state, view and choices) and the store's
answers the Discord layer reads as they are.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from bot.app import numbering
from bot.app.clock import Clock
from bot.app.locks import KeyedLocks
from bot.app.refusals import UserError
from bot.app.text import quoted
from bot.storage.store import GameRecord, GameStatus, SeatRecord, Store, TimerPlan
from rules import registry
from rules.core import Choice, Game, Seat, View


class ServiceBase:
    """The state every part of `GameService` shares, and the reads they all use."""

    def __init__(self, store: Store, *, clock: Clock | None = None, cache_size: int = 2048) -> None:
        self.store = store
        self.clock = clock or Clock()
        self.locks = KeyedLocks()
        """The bot's one lock map: a game's state is read and written under ("game", id)."""
        self._states: OrderedDict[int, tuple[int, Any]] = OrderedDict()
        #: Each game's latest state with its public view, as the last move's announcement made it.
        self._shown: OrderedDict[int, Any] = OrderedDict()
        self._cache_size = cache_size
        self._move_counts: OrderedDict[int, tuple[int, int]] = OrderedDict()
        """Each game's effective moves (`bot.app.numbering`) at a version: (version, moves)."""
        self._turn_logs: OrderedDict[int, Any] = OrderedDict()
        """The undo planner's kept turn keys per game (`bot.app.undo_requests.TurnLog`)."""
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
            raise UserError(f"There is no game called {quoted(kind)}. Games: {names}.") from None

    async def open_game(self, channel_id: int) -> GameRecord:
        game = await self.store.open_game_in(channel_id)
        if game is None:
            raise UserError(await self._no_open_game(channel_id))
        return game

    async def _no_open_game(self, channel_id: int) -> str:
        """Why a command for the channel's game finds none: the last game has ended (say so, and how),
        or there never was one."""
        last = await self.store.latest_game_in(channel_id)
        if last is None:
            return "There is no game in this channel. Start one with `/game new`."
        name = self.rules_for(last.kind).info.name
        how = "was abandoned" if last.status == GameStatus.ABANDONED else "is over"
        return (
            f"The last game in this channel ({name}, game #{last.id}) {how}: nothing more can be played,"
            " undone or changed in it. Start a new one with `/game new`."
        )

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
        keep_recent(self._states, game_id, (version, state), self._cache_size)

    async def move_count(self, game: GameRecord) -> int:
        """The game's effective moves (`bot.app.numbering`): the one move count players are shown.
        Kept per game while its version stands; otherwise counted from the log's size and its undo
        entries, without reading the moves themselves."""
        cached = self._move_counts.get(game.id)
        if cached is not None and cached[0] == game.version:
            self._move_counts.move_to_end(game.id)
            return cached[1]
        entries, undos = await self.store.log_size(game.id, numbering.UNDO_MARK)
        count = numbering.effective_count(entries, undos)
        self._count_moves(game.id, game.version, count)
        return count

    def _count_moves(self, game_id: int, version: int, count: int) -> None:
        keep_recent(self._move_counts, game_id, (version, count), self._cache_size)

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

    async def forget_message(self, game_id: int, kind: str) -> None:
        await self.store.forget_message(game_id, kind)

    # ---- shared by the parts ---------------------------------------------------------------------
    def _lock(self, game_id: int):  # noqa: ANN202 - an async context manager
        return self.locks.hold(("game", game_id))

    async def _playing(self, game_id: int) -> tuple[GameRecord, list[SeatRecord]]:
        game = playing(await self.store.game(game_id))
        return game, await self.store.seats(game.id)

    def _timers_planned(self, plans: list[TimerPlan]) -> None:
        if plans and self.on_timers is not None:
            self.on_timers()

    def _outbox_written(self) -> None:
        if self.on_outbox is not None:
            self.on_outbox()


def playing(game: GameRecord | None) -> GameRecord:
    """The game, refused unless it is being played now."""
    if game is None or game.status == GameStatus.ABANDONED:
        raise UserError("That game no longer exists.")
    if game.status == GameStatus.FINISHED:
        raise UserError("That game is over.")
    if game.status == GameStatus.LOBBY:
        raise UserError("The game has not started yet.")
    return game


def keep_recent(cache: OrderedDict[Any, Any], key: Any, value: Any, size: int) -> None:
    """Store `value` as the most recent entry of `cache`, forgetting the oldest beyond `size`: the
    service's per-game caches stay bounded however many games a process has seen."""
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > size:
        cache.popitem(last=False)
