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
    """The seat `user_id` holds now, dropped by the clock or not. A player who was replaced holds none:
    the seat has their substitute's id."""
    return next((seat for seat in humans(seats) if seat.user_id == user_id), None)


NOT_A_VOTER = "Only the players of this game vote on this."
DROPPED_VOTER = (
    "The clock dropped you from this game, so you no longer vote: the players still seated decide."
)


def voting_seat(
    seats: list[SeatRecord], user_id: int, *, about: int | None = None, refusal: str = NOT_A_VOTER
) -> SeatRecord:
    """The seat an Approve or Refuse (or a vote by command) comes from: a seat that holds a vote now,
    one of `voters`. Anyone else is refused with `refusal`, a player the clock dropped with
    `DROPPED_VOTER`, and nothing changes. The player a replacement is `about` does not vote on it
    either."""
    seat = held_seat(seats, user_id)
    if seat is None:
        raise UserError(refusal)
    if user_id == about:
        raise UserError("This vote is about your own seat, so the other players decide.")
    if seat.dropped:
        raise UserError(DROPPED_VOTER)
    return seat


def still_to_agree(seats: list[SeatRecord], agreed: set[int], *, about: int | None = None) -> list[str]:
    """The names of the voters who have not agreed yet (the player a vote is `about` never votes)."""
    return [seat.name for seat in voters(seats) if seat.user_id not in agreed and seat.user_id != about]


def replace_vote_kind(old_user: int, new_user: int) -> str:
    return f"replace:{old_user}:{new_user}"


def replacements_about(old_user: int) -> str:
    """Every replacement ballot about `old_user`'s seat (a pattern `Ruling.clear_votes` takes)."""
    return f"replace:{old_user}:%"


def replacements_for(new_user: int) -> str:
    """Every replacement ballot proposing `new_user` as the substitute."""
    return f"replace:%:{new_user}"


def undo_vote_kind(version: int) -> str:
    return f"undo:{version}"


def abandon_vote_kind(version: int) -> str:
    """Keyed by the game's version, like undo and export votes: an agreement given days ago lapses once
    the table plays on, since a move made after it says the game is still wanted."""
    return f"abandon:{version}"


def export_vote_kind(version: int) -> str:
    """Keyed by the game's version: the players agree to save the game as it stands."""
    return f"export:{version}"
