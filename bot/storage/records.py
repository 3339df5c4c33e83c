"""What the store reads and writes, as models: games, seats, logged moves, timers, outbox deliveries;
and the refusals a write can end in (a move conflict, a repeated interaction, a busy channel).
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class GameStatus(StrEnum):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


OPEN_STATUSES = (GameStatus.LOBBY, GameStatus.ACTIVE)


class GameRecord(BaseModel):
    id: int
    kind: str
    guild_id: int | None
    channel_id: int
    host_id: int
    status: GameStatus
    options: dict[str, Any]
    seed: int
    version: int
    state: str | None
    result: str | None
    created_at: str
    updated_at: str
    finished_at: str | None
    table_settings: dict[str, Any] = {}
    channel_lost: str | None = None
    """Why the game's channel can no longer be posted in (deleted, access lost); None while it can."""

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


class SeatRecord(BaseModel):
    game_id: int
    seat: int
    user_id: int
    name: str
    dm_closed: bool
    vacation: bool = False
    dropped: bool = False


class ActionRecord(BaseModel):
    game_id: int
    version: int
    seat: int
    user_id: int
    action: dict[str, Any]
    events: list[dict[str, Any]]
    interaction_id: int | None
    created_at: str


class Timer(BaseModel):
    game_id: int
    seat: int
    kind: str
    due_at: float
    count: int
    claimed_at: float | None


TimerPlan = tuple[int, str, float]
"""(seat, kind, due_at) of a timer a move starts."""


class Delivery(BaseModel):
    """One thing a move owes Discord, as written to the outbox: a channel post, an edit of the live
    turn post, a late repaint of its picture, a direct message, a plain channel notice, a thread post.

    `payload` is everything the delivery worker needs (text, who to ping, the view to draw), so the
    worker never reads the game again and a delivery is the same whenever, and by whichever process,
    it happens."""

    kind: str
    target: int
    """The channel id (post, edit, repaint, notice, thread: the game's channel) or the user id (dm)."""
    payload: dict[str, Any]
    due_at: float


class OutboxRow(Delivery):
    id: int
    game_id: int
    version: int
    status: str
    attempts: int
    claimed_at: float | None
    message_id: int | None
    reason: str | None
    created_at: str = ""
    """When the row was written (ISO, UTC): how long a lost answer may have been waiting."""


class MoveConflict(Exception):
    """The game moved on (another move was committed first); nothing was written."""


class DuplicateInteraction(Exception):
    """This interaction was already applied; nothing was written."""


class ChannelBusy(Exception):
    """The channel already has an open game."""
