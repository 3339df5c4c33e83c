"""The lobby: a new game, joining and leaving, options, the start, and abandoning a table."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from bot.app import announcer
from bot.app.decisions import Decisions, Verdict, notice
from bot.app.refusals import UserError, rules_refusal
from bot.app.text import escape_text
from bot.app.votes import abandon_vote_kind, held_seat, still_to_agree, voting_seat
from bot.storage.store import ChannelBusy, GameRecord, GameStatus, Ruling, SeatRecord, Seen
from rules.core import Game, RuleError


@dataclass
class Started:
    game: GameRecord
    rules: Game
    seats: list[SeatRecord]
    state: Any


class LobbyActions(Decisions):
    """The service's part that opens, fills, starts and closes tables."""

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
            raise rules_refusal(error.message) from None
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
            options = rules.resolve_options({**rules.stored_options(game.options), name: value})
        except RuleError as error:
            raise rules_refusal(error.message) from None
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
            state = rules.setup([seat.name for seat in seats], rules.stored_options(game.options), game.seed)
        except RuleError as error:
            raise rules_refusal(error.message) from None
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
        self, channel_id: int, user_id: int, *, is_admin: bool, name: str = ""
    ) -> tuple[GameRecord, bool, list[str]]:
        """Returns (game, abandoned?, names still to agree). Admins end it at once (`name`: theirs, said
        in the channel, unpinged); players all agree, and then no one of them ended it alone.
        A game in progress is ended by a decision (`bot.app.decisions`): under its lock, announced in
        the channel in the same transaction, and only once."""
        game = await self.open_game(channel_id)
        if game.status == GameStatus.LOBBY:
            if not is_admin:
                if held_seat(await self.store.seats(game.id), user_id) is None:
                    raise UserError(NOT_A_PLAYER)
                if user_id != game.host_id:
                    raise UserError("Only the host can close the lobby; you can `/game leave` it.")
            if not await self.store.set_status(game.id, GameStatus.ABANDONED):
                raise UserError("This game has already started.")
            return game, True, []

        async def decide(
            game: GameRecord, seats: list[SeatRecord], votes: set[int]
        ) -> Verdict[tuple[GameRecord, bool, list[str]]]:
            kind = abandon_vote_kind(game.version)
            seen = Seen.of(game.version, seats, kind, votes)
            if not is_admin:
                voting_seat(seats, user_id, refusal=NOT_A_PLAYER)
                if user_id in votes:
                    missing = ", ".join(escape_text(name) for name in still_to_agree(seats, votes))
                    raise UserError(
                        f"You have agreed to abandon the game already. Still to agree: {missing}."
                    )
                missing_names = still_to_agree(seats, votes | {user_id})
                if missing_names:
                    return Verdict(seen, Ruling(add_votes=[(kind, user_id)]), (game, False, missing_names))
            # A moderator who holds a seat and agrees last ends it with the players, not over them.
            by_vote = not is_admin or (
                held_seat(seats, user_id) is not None and not still_to_agree(seats, votes | {user_id})
            )
            said = (
                "🛑 The game was abandoned by vote of the players."
                if by_vote
                else f"🛑 The game was abandoned by a moderator, {escape_text(name)}."
            )
            asked = sorted(votes - {user_id})  # who asked before: told, with a ping, that it is done
            if asked:
                said += " " + " ".join(f"<@{user}>" for user in asked) + ": done, as you asked."
            ruling = Ruling(
                status=GameStatus.ABANDONED, clear_votes=[kind], outbox=[notice(game, said, ping=asked)]
            )
            return Verdict(seen, ruling, (game, True, []))

        return await self._decided(game.id, decide, lambda game: abandon_vote_kind(game.version))


NOT_A_PLAYER = "Only the players or a moderator (Manage Channels) can abandon this game."
