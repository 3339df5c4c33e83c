"""Substitutes: a player replaced by a moderator or with the table's agreement, and a seat the clock
dropped taken by a newcomer.

Each proposal, approval, refusal and seat change is a decision (`bot.app.decisions`): taken under the
game's lock on the seats and ballot as stored, and committed with what it owes Discord (the public
line, the newcomer's welcome with the seat's private view) in one transaction. A seat changes hands
once: every other proposal about that seat, or for that substitute, closes with it, and whoever acts
on one afterwards is told what was decided.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.app import announcer
from bot.app.decisions import Decisions, Verdict, already, notice
from bot.app.refusals import UserError
from bot.app.text import escape_text
from bot.app.votes import (
    held_seat,
    replace_vote_kind,
    replacements_about,
    replacements_for,
    still_to_agree,
    voting_seat,
)
from bot.storage.store import GameRecord, Ruling, SeatChange, SeatRecord, Seen
from rules.core import Seat

Tally = tuple[GameRecord, bool, list[str]]
"""(game, the seat changed hands?, names still to agree)."""

NOT_A_PLAYER = "Only the players or a moderator (Manage Channels) can replace a player."


class Substitutes(Decisions):
    """The service's part that seats substitutes."""

    async def replace_request(
        self, channel_id: int, requester: int, old_user: int, new_user: int, new_name: str, *, is_admin: bool
    ) -> Tally:
        """Seat `new_user` in `old_user`'s place: at once for a moderator, else when the table agrees."""
        game = await self.active_game(channel_id)

        async def decide(game: GameRecord, seats: list[SeatRecord], votes: set[int]) -> Verdict[Tally]:
            return await self._replacement(
                game, seats, votes, requester, old_user, new_user, new_name, is_admin=is_admin, proposing=True
            )

        return await self._decided(game.id, decide, replace_vote_kind(old_user, new_user))

    async def replace_vote(
        self, game_id: int, voter: int, old_user: int, new_user: int, new_name: str
    ) -> Tally:
        """A player approves a proposed substitute (the player being replaced does not vote)."""

        async def decide(game: GameRecord, seats: list[SeatRecord], votes: set[int]) -> Verdict[Tally]:
            return await self._replacement(
                game, seats, votes, voter, old_user, new_user, new_name, is_admin=False, proposing=False
            )

        return await self._decided(game_id, decide, replace_vote_kind(old_user, new_user))

    async def replace_refuse(self, game_id: int, voter: int, old_user: int, new_user: int) -> GameRecord:
        """A player refuses a proposed substitute: the proposal and its approvals are dropped, and the
        channel is told."""
        kind = replace_vote_kind(old_user, new_user)

        async def decide(game: GameRecord, seats: list[SeatRecord], votes: set[int]) -> Verdict[GameRecord]:
            voting_seat(seats, voter, about=old_user)
            if not votes:
                raise already(replacement_outcome(seats, old_user, new_user))
            said = f"❌ <@{voter}> refused the replacement of <@{old_user}> by <@{new_user}>."
            asked = sorted(votes - {voter})  # whoever proposed and agreed: told, with a ping
            if asked:
                said += " " + " ".join(f"<@{user}>" for user in asked) + ": the proposal is closed."
            ruling = Ruling(clear_votes=[kind], outbox=[notice(game, said, ping=asked)])
            return Verdict(Seen.of(game.version, seats, kind, votes), ruling, game)

        return await self._decided(game_id, decide, kind)

    async def _replacement(
        self,
        game: GameRecord,
        seats: list[SeatRecord],
        votes: set[int],
        user_id: int,
        old_user: int,
        new_user: int,
        new_name: str,
        *,
        is_admin: bool,
        proposing: bool,
    ) -> Verdict[Tally]:
        """A proposal (`proposing`: `/game replace`) or an approval (the button) of `new_user` for
        `old_user`'s seat: recorded, and the seat handed over once every other seated player agrees."""
        kind = replace_vote_kind(old_user, new_user)
        seen = Seen.of(game.version, seats, kind, votes)
        old = held_seat(seats, old_user)
        if not is_admin:
            if proposing:
                voting_seat(seats, user_id, refusal=NOT_A_PLAYER)
            else:
                voting_seat(seats, user_id, about=old_user)
                if not votes or old is None or held_seat(seats, new_user) is not None:
                    raise already(replacement_outcome(seats, old_user, new_user))
        if old is None:
            raise UserError("That user is not playing in this game.")
        if held_seat(seats, new_user) is not None:
            raise UserError("The substitute is already playing in this game.")
        if not is_admin:
            if user_id in votes:
                missing = ", ".join(
                    escape_text(name) for name in still_to_agree(seats, votes, about=old_user)
                )
                raise UserError(f"You have agreed to this replacement already. Still to agree: {missing}.")
            missing_names = still_to_agree(seats, votes | {user_id}, about=old_user)
            if missing_names:
                ruling = Ruling(add_votes=[(kind, user_id)])
                return Verdict(seen, ruling, (game, False, missing_names))
        said = f"🔁 <@{new_user}> now plays in <@{old_user}>'s seat."
        asked = sorted(votes - {user_id})  # whoever proposed and agreed before: told, with a ping
        if asked:
            said += " " + " ".join(f"<@{user}>" for user in asked) + ": done, as you asked."
        ruling = await self._handover(game, seats, old, new_user, new_name, said, ping=asked)
        return Verdict(seen, ruling, (game, True, []))

    async def take_seat(self, game_id: int, seat: Seat, user_id: int, name: str) -> GameRecord:
        """A substitute takes a seat whose player was dropped by the clock."""

        async def decide(game: GameRecord, seats: list[SeatRecord], _: set[int]) -> Verdict[GameRecord]:
            if seat >= len(seats):
                raise UserError("That seat does not exist.")
            record = seats[seat]
            if not record.dropped:
                if record.user_id == user_id:
                    raise already("you took this seat.")
                raise already(f"<@{record.user_id}> took that seat.")
            if held_seat(seats, user_id) is not None:
                raise UserError("You are already playing in this game.")
            said = f"🪑 <@{user_id}> takes the empty seat and plays on."
            ruling = await self._handover(game, seats, record, user_id, name, said)
            return Verdict(Seen.of(game.version, seats), ruling, game)

        return await self._decided(game_id, decide)

    async def _handover(
        self,
        game: GameRecord,
        seats: list[SeatRecord],
        seat: SeatRecord,
        user_id: int,
        name: str,
        said: str,
        *,
        ping: Sequence[int] = (),
    ) -> Ruling:
        """The seat given to `user_id`: every proposal about the seat or for that substitute closed,
        the seat's clock restarted if it is to act, the channel told, and the newcomer sent the seat's
        private view (written with the change, so neither can be lost without the other)."""
        newcomer = seat.model_copy(
            update={"user_id": user_id, "name": name, "dm_closed": False, "vacation": False, "dropped": False}
        )
        after = [newcomer if s.seat == seat.seat else s for s in seats]
        rules = self.rules_for(game.kind)
        state = await self.state(game)
        acting = seat.seat in rules.to_act(state)
        timers = await self._timer_plans(game, after, {seat.seat}) if acting else []
        table = announcer.Table(game=game, rules=rules, seats=after)
        welcome = announcer.private_dm(
            table,
            game.version,
            newcomer,
            rules.view(state, seat.seat),
            ["You took over this seat."],
            acting,
            picture=True,
        )
        return Ruling(
            seat=SeatChange(seat=seat.seat, user_id=user_id, name=name),
            clear_votes=[replacements_about(seat.user_id), replacements_for(user_id)],
            timers=timers,
            clear_timers=[seat.seat] if acting else [],
            outbox=[notice(game, said, ping=ping), welcome],
        )


def replacement_outcome(seats: list[SeatRecord], old_user: int, new_user: int) -> str:
    """What became of a replacement proposal that is no longer open, from the seats as they are."""
    old, new = held_seat(seats, old_user), held_seat(seats, new_user)
    if old is None and new is not None:
        return f"<@{new_user}> now plays in <@{old_user}>'s seat."
    if old is None:
        return f"<@{old_user}>'s seat went to someone else, so this proposal no longer applies."
    if new is not None:
        return f"<@{new_user}> already plays in this game, so this proposal no longer applies."
    return "the replacement was refused (a new `/game replace` can propose it again)."
