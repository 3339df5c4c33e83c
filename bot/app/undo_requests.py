"""Undo requests and votes: who may take a turn back, who must approve, and the commit of the undo; the
turn keys kept between moves so the Undo button is offered without replaying the game each time.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace
from typing import Any

from bot.app.history import HistoryReads
from bot.app.moves import Move, MoveActions
from bot.app.refusals import Refusal, UserError
from bot.app.undo import UNDO, UndoPlan, plan_undo, undo_span
from bot.app.votes import humans, undo_vote_kind, voters, voting_seat
from bot.storage.store import ActionRecord, GameRecord, GameStatus, SeatRecord
from rules.core import Event, Game


class UndoRequests(MoveActions, HistoryReads):
    """The service's part that plans, asks for, votes on and commits undos."""

    async def _undo_plan(self, game: GameRecord) -> tuple[UndoPlan | None, list[Any]]:
        states, moves = await self._replay_log(game)
        return plan_undo(self.rules_for(game.kind), states, moves), states

    async def _current_undo_plan(self, game: GameRecord) -> UndoPlan | None:
        """The plan `_undo_plan` gives, without replaying the whole game on every call: from the turn
        keys of the latest states (`TurnLog`), then the log records of the moves it takes back."""
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

    async def _turn_log(self, game: GameRecord) -> TurnLog:
        """The game's `TurnLog` brought up to its stored log: the moves logged since are applied to the
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
            grown = TurnLog(
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
        refusal = undo_refusal(plan, seat, user_id, seats)
        if refusal is not None:
            raise UserError(refusal)
        assert plan is not None
        await self.store.clear_votes(game.id, undo_vote_kind(plan.last_version))
        await self.store.add_vote(game.id, undo_vote_kind(plan.last_version), user_id)
        if plan.in_progress and plan.solitary:
            return game, plan, []  # rewinding only your own turn in progress needs nobody's approval
        others = [s.name for s in humans(seats) if s.user_id != user_id and not s.dropped]
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
        return undo_refusal(await self._current_undo_plan(game), seat, user_id, seats) is None

    async def undo_vote(
        self, game_id: int, user_id: int, version: int, approve: bool
    ) -> tuple[str, Move | None]:
        """A player answers an undo request: ('refused'|'waiting'|'done', the undo move when done)."""
        async with self._lock(game_id):
            game, seats = await self._playing(game_id)
            voting_seat(seats, user_id)
            plan, states = await self._undo_plan(game)
            # The vote is on the plan ending at `version`: still the plan if nothing effective came after
            # it, even when the log's last entry is an undo of a later move (the game's version then).
            if plan is None or plan.last_version != version:
                raise UserError(
                    "The game has moved on since that request, so it no longer applies.", Refusal.STALE
                )
            if plan.moves[-1].user_id == user_id:
                raise UserError("You asked for this undo; the other players decide.")
            kind = undo_vote_kind(version)
            if not approve:
                await self.store.clear_votes(game.id, kind)
                return "refused", None
            agreed = await self.store.add_vote(game.id, kind, user_id)
            if any(s.user_id not in agreed for s in voters(seats)):
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
            how = "" if len(humans(seats)) <= 1 else ", before anyone else moved"
            return await self._undo(game, seats, fresh, states, how=how)


def undo_refusal(
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
"""How many of the latest effective moves a `TurnLog` keeps: far more than a turn has."""


@dataclass(frozen=True)
class TurnLog:
    """What planning an undo needs of a game, kept between moves so that offering the Undo button does
    not replay the game each time: the turn keys of its latest effective states (`keys[i]` before the
    move `versions[i]`, the last one now), and the state at `version`, to extend it by the next moves."""

    version: int
    state: Any
    keys: tuple[Hashable | None, ...]
    versions: tuple[int, ...]
    whole: bool
    """The keys go back to the start of the game."""

    def extended(self, rules: Game, records: list[ActionRecord]) -> TurnLog | None:
        """With the log entries after `version` applied; None for an undo entry (its state is not kept)."""
        if not records:
            return self
        state, keys, versions = self.state, list(self.keys), list(self.versions)
        for record in records:
            if record.action.get("kind") == UNDO:
                return None
            state = rules.apply_logged(state, record.seat, record.action).state
            keys.append(rules.turn_key(state))
            versions.append(record.version)
        cut = max(0, len(versions) - TURN_WINDOW)
        return TurnLog(
            version=records[-1].version,
            state=state,
            keys=tuple(keys[cut:]),
            versions=tuple(versions[cut:]),
            whole=self.whole and cut == 0,
        )
