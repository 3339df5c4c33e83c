"""Decisions at a table other than moves (a vote, a proposal, a seat change, a deadline's action): each
decided under the game's lock, like a move, and committed in one transaction with everything it owes
Discord (the announcement, the welcome message) and the check that the table is still as it was read.

Within a process the lock puts decisions and moves on one game one after the other, so the second of
two racing decisions reads the first one's outcome and answers "already decided". Across processes
the store's check does the same (`Store.commit_decision`): a decision taken on a table another
process changed meanwhile is not written, and is taken again on what is stored now.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from bot.app.base import playing
from bot.app.moves import MoveActions
from bot.app.refusals import Refusal, UserError
from bot.app.text import MAX_CONTENT, clip
from bot.storage.store import (
    DecisionConflict,
    Delivery,
    GameRecord,
    GameStatus,
    MoveConflict,
    Ruling,
    SeatRecord,
    Seen,
)

T = TypeVar("T")

Ballot = str | Callable[[GameRecord], str] | None
"""The ballot a decision counts: its kind, or made from the game (votes keyed by the game's version)."""

ATTEMPTS = 5
"""How often a decision is taken again after another process changed the table under it; each retry
reads that change, so more than one or two means the table is changing faster than people click."""

NOTHING = Ruling()

ALREADY = "Already decided: "
"""How the loser of a race is answered: what was decided instead follows."""


@dataclass
class Verdict(Generic[T]):
    """A decision taken on what `seen` records: what it writes, and what the caller is told."""

    seen: Seen
    ruling: Ruling
    outcome: T


Decide = Callable[[GameRecord, list[SeatRecord], set[int]], Awaitable[Verdict[T]]]
"""Takes a decision on the game, its seats and the approvals of its ballot, all read together."""


class Decisions(MoveActions):
    """The service's part that decides and commits table decisions."""

    async def _decided(self, game_id: int, decide: Decide[T], ballot: Ballot = None) -> T:
        """Take a decision under the game's lock on the game as stored (`decide` reads it, with the
        approvals of `ballot`, and refuses with a UserError, or rules), and commit it; taken again if
        another process got there first. A decision that is a move (an agreed undo, a deadline's pass)
        commits it itself, rules NOTHING more, and raises MoveConflict to be taken again."""
        async with self._lock(game_id):
            return await self._decided_locked(game_id, decide, ballot)

    async def _decided_locked(self, game_id: int, decide: Decide[T], ballot: Ballot = None) -> T:
        """`_decided` for a caller that holds the game's lock already."""
        for _ in range(ATTEMPTS):
            game, seats, votes = await self.store.read_table(game_id, ballot)
            if game is not None and game.status == GameStatus.ABANDONED:
                raise already("the game was abandoned.")
            try:
                verdict = await decide(playing(game), seats, votes)
            except MoveConflict:
                continue  # the decision's own move lost to another process: decide again on what it did
            if verdict.ruling == NOTHING:  # decided by a move, which committed itself
                return verdict.outcome
            try:
                await self.store.commit_decision(game_id, verdict.seen, verdict.ruling)
            except DecisionConflict:
                continue
            self._timers_planned(verdict.ruling.timers)
            if verdict.ruling.outbox:
                self._outbox_written()
            return verdict.outcome
        raise UserError("The table kept changing while this was decided; please try again.", Refusal.STALE)


def notice(game: GameRecord, text: str, *, ping: Sequence[int] = (), **extra: object) -> Delivery:
    """A plain line in the game's channel, delivered through the outbox; only `ping` is pinged."""
    return Delivery(
        kind="notice",
        target=game.channel_id,
        payload={"content": clip(text, MAX_CONTENT), "ping": list(ping), **extra},
        due_at=0.0,
    )


def already(what: str) -> UserError:
    """The refusal of a decision that lost its race (or came after it): what was decided instead."""
    return UserError(ALREADY + what)
