"""Substitutes: a player replaced by a moderator or with the table's agreement, and a seat the clock
dropped taken by a newcomer.
"""

from __future__ import annotations

from bot.app.refusals import UserError
from bot.app.table_clock import TableClock
from bot.app.votes import held_seat, replace_vote_kind, voters, voting_seat
from bot.storage.store import GameRecord, GameStatus
from rules.core import Seat


class Substitutes(TableClock):
    """The service's part that seats substitutes."""

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
            kind = replace_vote_kind(old_user, new_user)
            agreed = await self.store.add_vote(game.id, kind, requester)
            missing = [s.name for s in voters(seats) if s.user_id not in agreed and s.user_id != old_user]
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
        await self.store.clear_votes(game.id, replace_vote_kind(old_user, new_user))
        return game

    async def _replacement_voted(self, game_id: int, voter: int, old_user: int, new_user: int) -> GameRecord:
        """Refuse a vote on a replacement from anyone but the players who decide it, or on one that no
        longer applies."""
        game = await self.store.game(game_id)
        if game is None or game.status != GameStatus.ACTIVE:
            raise UserError("That game is not being played.")
        seats = await self.store.seats(game.id)
        voting_seat(seats, voter, about=old_user)
        if held_seat(seats, old_user) is None or held_seat(seats, new_user) is not None:
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
