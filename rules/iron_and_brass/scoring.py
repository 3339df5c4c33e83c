"""The end of an Iron & Brass game: a win by destruction, the turn limit's count of gold worth on
the map, and the `Result`."""

from __future__ import annotations

from rules import words
from rules.core import Event, Result, Seat
from rules.iron_and_brass.moves.common import State, spec


def worth(state: State, seat: Seat) -> int:
    """The gold worth of the seat's pieces on the map (the turn limit's measure)."""
    return sum(spec(piece).gold for piece in state.pieces if piece.owner == seat)


def end(state: State, winner: Seat | None, reason: str, events: list[Event]) -> None:
    """The game is over: `winner` (None for a draw) for `reason`, told to everyone at once."""
    state.step = "over"
    state.winner = winner
    state.reason = reason
    state.picking = None
    events.append(Event(text=f"Game over: {state.reason}.", urgent=True))


def finish_at_limit(state: State, events: list[Event]) -> None:
    values = [worth(state, seat) for seat in (0, 1)]
    names = [player.name for player in state.players]
    limit = words.count(state.max_rounds, "round")
    if values[0] == values[1]:
        reason = f"A draw at the turn limit of {limit}: both sides have {values[0]} gold worth of pieces on the map"
        end(state, None, reason, events)
        return
    winner = 0 if values[0] > values[1] else 1
    reason = (
        f"{names[winner]} wins at the turn limit of {limit} with more gold worth of pieces on the map, "
        f"{values[winner]} to {names[1 - winner]}'s {values[1 - winner]}"
    )
    end(state, winner, reason, events)


def result(state: State) -> Result | None:
    if state.step != "over":
        return None
    breakdown = {
        seat: {
            "worth": worth(state, seat),
            "units": sum(1 for p in state.pieces if p.owner == seat and spec(p).military),
            "structures": sum(1 for p in state.pieces if p.owner == seat and not spec(p).military),
            "gold": player.gold,
            "mined": player.mined,
        }
        for seat, player in enumerate(state.players)
    }
    if state.winner is None:
        return Result(
            scores={0: 0, 1: 0},
            ranking=[[0, 1]],
            reason=words.sentence(state.reason),
            breakdown=breakdown,
            scored=False,
        )
    winner = state.winner
    return Result(
        scores={winner: 1, 1 - winner: 0},
        ranking=[[winner], [1 - winner]],
        reason=words.sentence(state.reason),
        breakdown=breakdown,
        scored=False,
    )
