"""`/game import`: a saved game opened as a lobby in this channel, its seats taken by the people who
join, then replayed from its seed and moves and carried on.

The file is checked twice: when the lobby opens (it must read, replay to its hash and not be over) and
at the start, when the seats get their new names. Who sits where: people take the file's player seats
in the order they joined, unless the host placed someone with `/game seat`; the file's computer seats
stay computer seats. Until the start, the lobby is an ordinary lobby (join, leave, abandon).
"""

from __future__ import annotations

import asyncio

from bot.app import announcer, archive
from bot.app.archive import Archive, ArchiveError
from bot.app.lobby import LobbyActions, Started
from bot.app.refusals import UserError
from bot.app.text import clean_name, escape_text
from bot.storage.store import GameRecord, GameStatus, SeatRecord
from rules import registry, words
from rules.core import Event, Game


def _hosted(game_id: str) -> Game | None:
    try:
        return registry.get(game_id)
    except KeyError:
        return None


def _read(raw: bytes) -> tuple[Archive, Game]:
    try:
        return archive.read(raw, _hosted)
    except ArchiveError as error:
        raise UserError(str(error)) from None


def player_seats(saved: Archive) -> list[int]:
    """The file's seats people take (the computer's stay the computer's)."""
    return [index for index, seat in enumerate(saved.seats) if not seat.computer]


def assignment(saved: Archive, people: list[SeatRecord], seat_map: dict[int, int]) -> dict[int, int]:
    """Who takes which of the file's player seats (seat index -> user id): the people the host placed,
    then the others in the order they joined; seats nobody has joined for yet are left out."""
    joined = {person.user_id for person in people}
    wanted = player_seats(saved)
    placed = {seat: user for seat, user in seat_map.items() if user in joined and seat in wanted}
    free = [person.user_id for person in people if person.user_id not in placed.values()]
    for seat in wanted:
        if seat not in placed and free:
            placed[seat] = free.pop(0)
    return placed


class Imports(LobbyActions):
    async def import_game(
        self, *, guild_id: int | None, channel_id: int, user_id: int, name: str, raw: bytes
    ) -> tuple[GameRecord, Archive]:
        """Open a lobby from a saved-game file; nothing is created when the file is refused."""
        saved, rules = _read(raw)
        try:  # a long file replays for seconds: off the event loop, which answers Discord meanwhile
            states = await asyncio.to_thread(archive.replay, rules, saved)
        except ArchiveError as error:
            raise UserError(str(error)) from None
        if rules.result(states[-1]) is not None:
            raise UserError(
                "That saved game is over, so there is nothing to carry on; `/game replay` shows one."
            )
        if not player_seats(saved):
            raise UserError("That saved game has no seat for a person.")
        record = await self.new_game(
            kind=rules.info.id,
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            name=name,
            options=rules.stored_options(saved.options),  # a file from before an option keeps its rule
            seed=saved.seed,
        )
        await self.store.save_import(record.id, raw.decode("utf-8"))
        if any(seat.computer for seat in saved.seats):
            await self.store.set_table_settings(record.id, {"ai_strength": 2})
        return record, saved

    async def _imported(self, game: GameRecord) -> tuple[Archive, Game, dict[int, int]] | None:
        found = await self.store.imported(game.id)
        if found is None:
            return None
        raw, seat_map = found
        saved, rules = _read(raw.encode("utf-8"))
        return saved, rules, seat_map

    async def join(self, channel_id: int, user_id: int, name: str) -> tuple[GameRecord, int]:
        game = await self.open_game(channel_id)
        if game.status == GameStatus.LOBBY and (imported := await self._imported(game)) is not None:
            wanted = len(player_seats(imported[0]))
            if len(await self.store.seats(game.id)) >= wanted and not await self.seat_of(game, user_id):
                raise UserError(
                    f"This saved game has {words.count(wanted, 'player seat')}, and they are all taken."
                )
        return await super().join(channel_id, user_id, name)

    async def place(self, channel_id: int, user_id: int, player_id: int, saved_seat: int) -> tuple[str, str]:
        """The host puts a joined player in one of the file's seats (1-based); returns (player, seat) names."""
        game = await self.open_game(channel_id)
        imported = await self._imported(game) if game.status == GameStatus.LOBBY else None
        if imported is None:
            raise UserError("Seats are chosen only in a lobby opened with `/game import`.")
        if user_id != game.host_id:
            raise UserError("Only the host chooses who takes which saved seat.")
        saved, _, seat_map = imported
        index = saved_seat - 1
        if index not in player_seats(saved):
            names = ", ".join(f"{i + 1}. {escape_text(saved.seats[i].name)}" for i in player_seats(saved))
            raise UserError(f"Choose one of the file's player seats: {names}.")
        player = await self.seat_of(game, player_id)
        if player is None:
            raise UserError("That person has not joined this lobby yet (`/game join`).")
        seat_map = {seat: user for seat, user in seat_map.items() if user != player_id and seat != index}
        seat_map[index] = player_id
        await self.store.set_import_map(game.id, seat_map)
        return player.name, clean_name(saved.seats[index].name)

    async def set_option(self, channel_id: int, user_id: int, name: str, value: object) -> GameRecord:
        game = await self.open_game(channel_id)
        if game.status == GameStatus.LOBBY and await self.store.imported(game.id) is not None:
            raise UserError("A saved game keeps the options it was played with.")
        return await super().set_option(channel_id, user_id, name, value)

    async def import_lines(self, game: GameRecord) -> list[str] | None:
        """What an import lobby shows: the file's seats and who will take each (None: not an import)."""
        imported = await self._imported(game) if game.status == GameStatus.LOBBY else None
        if imported is None:
            return None
        saved, _, seat_map = imported
        people = [seat for seat in await self.store.seats(game.id) if seat.user_id > 0]
        takers = assignment(saved, people, seat_map)
        wanted = len(player_seats(saved))
        lines = [
            f"📂 From a saved game, saved at move {len(saved.moves)}: it goes on from there, with "
            f"{wanted} {'person' if wanted == 1 else 'people'} in its seats:"
        ]
        for index, seat in enumerate(saved.seats):
            if seat.computer:
                taker = "🤖 the computer"
            elif index not in takers:
                taker = "free: press **Join**"
            elif seat_map.get(index) == takers[index]:
                taker = f"<@{takers[index]}> (placed by the host)"
            else:
                taker = f"<@{takers[index]}>"
            lines.append(f"{index + 1}. {escape_text(seat.name)} → {taker}")
        lines.append("The host can move someone to another seat with `/game seat`.")
        return lines

    async def start(self, channel_id: int, user_id: int, *, is_admin: bool = False) -> Started:
        game = await self.open_game(channel_id)
        imported = await self._imported(game) if game.status == GameStatus.LOBBY else None
        if imported is None:
            return await super().start(channel_id, user_id, is_admin=is_admin)
        if user_id != game.host_id and not is_admin:
            raise UserError("Only the host (or a moderator) can start the game.")
        return await self._start_import(game, *imported)

    def _seating(
        self, saved: Archive, people: list[SeatRecord], seat_map: dict[int, int]
    ) -> list[tuple[int, str]]:
        """(user id, name) per seat of the file: placed people, then the others in the order they joined."""
        wanted = player_seats(saved)
        if len(people) != len(wanted):
            raise UserError(
                f"This saved game has {words.count(len(wanted), 'player seat')} and {len(people)} "
                f"{'person has' if len(people) == 1 else 'people have'} joined: it starts when they match."
            )
        names = {person.user_id: person.name for person in people}
        takers = assignment(saved, people, seat_map)
        computers = 0
        seating = []
        for index, seat in enumerate(saved.seats):
            if seat.computer:
                computers += 1
                seating.append((-computers, clean_name(seat.name)))  # the file's name, fitted
            else:
                seating.append((takers[index], names[takers[index]]))
        return seating

    async def _start_import(
        self, game: GameRecord, saved: Archive, rules: Game, seat_map: dict[int, int]
    ) -> Started:
        people = [seat for seat in await self.store.seats(game.id) if seat.user_id > 0]
        seating = self._seating(saved, people, seat_map)
        try:
            states, events = await asyncio.to_thread(
                archive.replayed, rules, saved, [name for _, name in seating]
            )
        except ArchiveError as error:
            raise UserError(str(error)) from None
        state = states[-1]
        seats = [
            SeatRecord(game_id=game.id, seat=index, user_id=user, name=name, dm_closed=False)
            for index, (user, name) in enumerate(seating)
        ]
        timers = await self._timer_plans(game, seats, rules.to_act(state))
        table = await self._announcing(game, seats, live=False)
        table.deadlines = {seat: due for seat, kind, due in timers if kind == "deadline"}
        moves = len(saved.moves)
        told = Event(
            text=f"Carried on from a saved game at move {moves}."
            if moves
            else "Carried on from a saved game at its start."
        )
        owed = announcer.announce(table, moves, None, state, [told], None)
        logged = [
            (move.seat, move.action, [event.model_dump(mode="json") for event in applied])
            for move, applied in zip(saved.moves, events, strict=True)
        ]
        if not await self.store.start_imported(
            game.id, seats=seating, moves=logged, state=rules.dump_state(state), timers=timers, outbox=owed
        ):
            raise UserError("This game has already started.")
        self._timers_planned(timers)
        self._outbox_written()
        started = await self.store.game(game.id)
        assert started is not None
        self._remember(game.id, started.version, state)
        return Started(game=started, rules=rules, seats=await self.store.seats(game.id), state=state)
