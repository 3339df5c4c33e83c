"""Who decides a table's votes (undo, replacement, abandon) and the keys the votes are stored under."""

from __future__ import annotations

from bot.app.refusals import UserError
from bot.storage.store import SeatRecord


def humans(seats: list[SeatRecord]) -> list[SeatRecord]:
    """The seats people sit in: computer seats (negative ids) never vote."""
    return [seat for seat in seats if seat.user_id > 0]


def voters(seats: list[SeatRecord]) -> list[SeatRecord]:
    """The people who decide a table's vote (undo, replacement, abandon): players seated now, not the
    computer and not a player the clock dropped (they are gone; waiting for them would block the vote)."""
    return [seat for seat in humans(seats) if not seat.dropped]


def held_seat(seats: list[SeatRecord], user_id: int) -> SeatRecord | None:
    """The seat `user_id` holds now. A player who was replaced holds none: the seat has their
    substitute's id."""
    return next((seat for seat in humans(seats) if seat.user_id == user_id), None)


NOT_A_VOTER = "Only the players of this game vote on this."


def voting_seat(seats: list[SeatRecord], user_id: int, *, about: int | None = None) -> SeatRecord:
    """The seat an Approve or Refuse is pressed from; anyone else is refused and nothing changes. The
    player a replacement is `about` does not vote on it either."""
    seat = held_seat(seats, user_id)
    if seat is None:
        raise UserError(NOT_A_VOTER)
    if user_id == about:
        raise UserError("This vote is about your own seat, so the other players decide.")
    return seat


def replace_vote_kind(old_user: int, new_user: int) -> str:
    return f"replace:{old_user}:{new_user}"


def undo_vote_kind(version: int) -> str:
    return f"undo:{version}"


def abandon_vote_kind(version: int) -> str:
    """Keyed by the game's version, like undo and export votes: an agreement given days ago lapses once
    the table plays on, since a move made after it says the game is still wanted."""
    return f"abandon:{version}"
