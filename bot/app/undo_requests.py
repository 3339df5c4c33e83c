"""Undo requests and votes: who may take a turn back, who must approve, and the commit of the undo; the
turn keys kept between moves so the Undo button is offered without replaying the game each time.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace
from typing import Any

from bot.app.base import keep_recent
from bot.app.decisions import NOTHING, Decisions, Verdict, already, notice
from bot.app.history import HistoryReads
from bot.app.moves import Move
from bot.app.refusals import Refusal, UserError
from bot.app.text import escape_text
from bot.app.undo import UNDO, UndoPlan, plan_undo, undo_span
from bot.app.votes import humans, still_to_agree, undo_vote_kind, voting_seat
from bot.storage.store import (
    ActionRecord,
    GameRecord,
    GameStatus,
    Ruling,
    SeatRecord,
    Seen,
)
from rules.core import Event, Game


class UndoRequests(Decisions, HistoryReads):
    """The service's part that plans, asks for, votes on and commits undos."""

    async def _undo_plan(self, game: GameRecord) -> tuple[UndoPlan | None, list[Any]]:
        """The plan at the game's version as read: a move logged since (in another process) is not in
        it, so a decision taken on it agrees with the rest of what it read (and its commit, finding
        the game moved on, decides again)."""
        states, moves = await self._replay_log(game, upto=game.version)
        return plan_undo(self.rules_for(game.kind), states, moves), states

    async def _current_undo_plan(self, game: GameRecord, *, kept: bool = False) -> UndoPlan | None:
        """The plan `_undo_plan` gives, without replaying the whole game on every call: from the turn
        keys of the latest states (`TurnLog`), then the log records of the moves it takes back.
        `kept`: the moves as the `TurnLog` keeps them (`Logged`: whose, and what they revealed), enough
        for `undo_refusal` and read from memory, instead of their whole records from the log."""
        log = await self._turn_log(game)
        span = undo_span(log.keys)
        if span is None:
            return None
        start, in_progress = span
        if start == 0 and not log.whole:  # the turn may begin before the keys kept: ask the full replay
            return (await self._undo_plan(game))[0]
        versions = log.versions[start:]
        if kept and len(log.logged) == len(log.versions):
            taken: list[Any] = list(log.logged[start:])
        else:
            wanted = set(versions)
            taken = [
                r for r in await self.store.actions(game.id, since=versions[0] - 1) if r.version in wanted
            ]
        return UndoPlan(moves=taken, owner=taken[0].seat, in_progress=in_progress)

    async def _turn_log(self, game: GameRecord) -> TurnLog:
        """The game's `TurnLog` brought up to its stored log: the moves logged since are applied to the
        kept state; an undo entry among them (or nothing kept) means one full replay."""
        rules = self.rules_for(game.kind)
        log = self._turn_logs.get(game.id)
        grown = None
        if log is not None and log.version == game.version:
            grown = log  # kept current by this process's own moves (`_logged`): nothing to read
        elif log is not None:
            grown = log.extended(rules, await self.store.actions(game.id, since=log.version))
        if grown is None:
            records = await self.store.actions(game.id)
            states, moves = await self._replay_log(game, records=records)
            window = states[-TURN_WINDOW - 1 :]
            kept = moves[len(moves) + 1 - len(window) :]
            grown = TurnLog(
                version=records[-1].version if records else 0,
                state=states[-1],
                keys=tuple(rules.turn_key(state) for state in window),
                versions=tuple(move.version for move in kept),
                whole=len(window) == len(states),
                logged=tuple(Logged.of(move) for move in kept),
            )
        current = self._states.get(game.id)
        if current is not None and current[0] == grown.version and current[1] is not grown.state:
            grown = replace(grown, state=current[1])  # one copy of the state in memory, not two
        cached = self._turn_logs.get(game.id)
        if cached is None or cached.version <= grown.version:
            keep_recent(self._turn_logs, game.id, grown, self._cache_size)
        return grown

    async def undo_request(self, channel_id: int, user_id: int) -> tuple[GameRecord, UndoPlan, list[str]]:
        """Check that the caller may take back their turn (or last move); returns the plan and who must
        approve: nobody when the caller only rewinds their own turn still in progress, as the guide's
        client does, or when nobody else plays. A request the others must approve opens its ballot
        with the caller's approval (asking twice is refused: the request stands)."""
        game = await self.active_game(channel_id)

        async def decide(
            game: GameRecord, seats: list[SeatRecord], _: set[int]
        ) -> Verdict[tuple[UndoPlan, list[str]]]:
            seat = next((s for s in seats if s.user_id == user_id), None)
            if seat is None:
                raise UserError(
                    "You are not playing in this game. You can follow it with `/board` and `/log`."
                )
            plan = await self._current_undo_plan(game)
            refusal = undo_refusal(plan, seat, user_id, seats)
            if refusal is not None:
                raise UserError(refusal)
            assert plan is not None
            others = [s.name for s in humans(seats) if s.user_id != user_id and not s.dropped]
            if (plan.in_progress and plan.solitary) or not others:
                # rewinding only your own turn in progress, or at a table of one, needs nobody's approval
                return Verdict(Seen.of(game.version, seats), NOTHING, (plan, []))
            kind = undo_vote_kind(plan.last_version)
            votes = await self.store.votes(game.id, kind)
            if user_id in votes:
                waiting = ", ".join(escape_text(name) for name in still_to_agree(seats, votes))
                raise UserError(f"You have asked for this undo already. Waiting for: {waiting}.")
            ruling = Ruling(clear_votes=[kind], add_votes=[(kind, user_id)])
            return Verdict(Seen.of(game.version, seats, kind, votes), ruling, (plan, others))

        plan, others = await self._decided(game.id, decide)
        return game, plan, others

    async def can_undo(self, game: GameRecord, user_id: int, seats: list[SeatRecord] | None = None) -> bool:
        """Whether `/undo` from this user would be accepted now, by the same checks as `undo_request`
        (so the Undo button is offered only then); nothing is recorded. `seats`: as the caller read
        them (a move's, read under the game's lock). Right after this process's own move it reads
        nothing: the button goes with the move's confirmation, which waits for it."""
        if game.status != GameStatus.ACTIVE:
            return False
        seats = seats if seats is not None else await self.store.seats(game.id)
        seat = next((s for s in seats if s.user_id == user_id), None)
        if seat is None:
            return False
        return undo_refusal(await self._current_undo_plan(game, kept=True), seat, user_id, seats) is None

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
        """Keep the game's `TurnLog` current with a move this process just committed (the state it led
        to is at hand), so the next Undo check reads nothing back; an undo drops it (the next check
        replays)."""
        log = self._turn_logs.get(game_id)
        if log is None or log.version != version - 1:
            return
        if action.get("kind") == UNDO:
            del self._turn_logs[game_id]
            return
        move = Logged.made(version, seat, user_id, events)
        keep_recent(self._turn_logs, game_id, log.grown(self.rules_for(kind), state, move), self._cache_size)

    async def undo_vote(
        self, game_id: int, user_id: int, version: int, approve: bool
    ) -> tuple[str, Move | None, list[str]]:
        """A player answers an undo request: ('refused'|'waiting'|'done', the undo move when done, the
        names still awaited when waiting).
        The approval that completes the vote commits the undo and closes the ballot in one transaction;
        an answer to a request already decided is refused with what was decided."""
        kind = undo_vote_kind(version)

        async def decide(
            game: GameRecord, seats: list[SeatRecord], votes: set[int]
        ) -> Verdict[tuple[str, Move | None, list[str]]]:
            voting_seat(seats, user_id)
            plan, states = await self._undo_plan(game)
            if not votes:
                raise await self._undo_decided(game, plan, version)
            # The vote is on the plan ending at `version`: still the plan if nothing effective came after
            # it, even when the log's last entry is an undo of a later move (the game's version then).
            if plan is None or plan.last_version != version:
                raise UserError(
                    "The game has moved on since that request, so it no longer applies.", Refusal.STALE
                )
            if plan.moves[-1].user_id == user_id:
                raise UserError("You asked for this undo; the other players decide.")
            seen = Seen.of(game.version, seats, kind, votes)
            if not approve:
                asker = plan.moves[-1].user_id  # told, with a ping: the request is closed
                said = (
                    f"❌ <@{user_id}> refused the undo; the move stands. <@{asker}>, your request is closed."
                )
                ruling = Ruling(clear_votes=[kind], outbox=[notice(game, said, ping=[asker])])
                return Verdict(seen, ruling, ("refused", None, []))
            if user_id in votes:
                waiting = ", ".join(escape_text(name) for name in still_to_agree(seats, votes))
                raise UserError(f"You have approved this undo already. Waiting for: {waiting}.")
            awaited = still_to_agree(seats, votes | {user_id})
            if awaited:
                return Verdict(seen, Ruling(add_votes=[(kind, user_id)]), ("waiting", None, awaited))
            # the last approval: the undo is a move, committed with the ballot's close
            move = await self._undo(
                game, seats, plan, states, how=", with the table's agreement", ballot=kind
            )
            return Verdict(seen, NOTHING, ("done", move, []))

        return await self._decided(game_id, decide, kind)

    async def _undo_decided(self, game: GameRecord, plan: UndoPlan | None, version: int) -> UserError:
        """Why an answer to the undo request ending at `version` comes too late: it was carried, it was
        refused, or the game has moved on."""
        taken = [
            record
            for record in await self.store.actions(game.id, since=version)
            if record.action.get("kind") == UNDO and record.action.get("version") == version
        ]
        if taken:
            return already("everyone agreed, and it was taken back.")
        if plan is not None and plan.last_version == version:
            return already("the undo was refused, so the move stands.")
        return UserError("The game has moved on since that request, so it no longer applies.", Refusal.STALE)

    async def _undo(
        self,
        game: GameRecord,
        seats: list[SeatRecord],
        plan: UndoPlan,
        states: list[Any],
        *,
        how: str,
        ballot: str | None = None,
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
            clear_votes=[ballot] if ballot else [],
            conflicts=ballot is not None,
            # The table decided a vote: its asker is told the outcome, even while still to act.
            told=[plan.owner] if ballot else [],
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
            return f"Only {escape_text(seats[plan.owner].name)} can take back their own turn."
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
    logged: tuple[Logged, ...] = ()
    """What the Undo button's check needs of each move in `versions` (same order)."""

    def extended(self, rules: Game, records: list[ActionRecord]) -> TurnLog | None:
        """With the log entries after `version` applied; None for an undo entry (its state is not kept)."""
        log: TurnLog | None = self
        for record in records:
            if record.action.get("kind") == UNDO:
                return None
            assert log is not None
            state = rules.apply_logged(log.state, record.seat, record.action).state
            log = log.grown(rules, state, Logged.of(record))
        return log

    def grown(self, rules: Game, state: Any, move: Logged) -> TurnLog:
        """With one more effective move (`move`, which led to `state`)."""
        keys = (*self.keys, rules.turn_key(state))
        versions, logged = (*self.versions, move.version), (*self.logged, move)
        cut = max(0, len(versions) - TURN_WINDOW)
        return TurnLog(
            version=move.version,
            state=state,
            keys=keys[cut:],
            versions=versions[cut:],
            whole=self.whole and cut == 0,
            logged=logged[cut:],
        )


@dataclass(frozen=True)
class Logged:
    """What `undo_refusal` reads of a log entry, kept in memory between moves: whose it was, and whether
    it revealed anything (its revealing events, as the log stores them)."""

    version: int
    seat: int
    user_id: int
    events: tuple[dict[str, Any], ...]

    @classmethod
    def of(cls, record: ActionRecord) -> Logged:
        return cls.made(record.version, record.seat, record.user_id, record.events)

    @classmethod
    def made(cls, version: int, seat: int, user_id: int, events: list[dict[str, Any]]) -> Logged:
        return cls(version, seat, user_id, tuple(event for event in events if event.get("reveals")))
