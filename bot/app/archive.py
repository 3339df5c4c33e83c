"""Saved games: the versioned JSON file `/game export` attaches and `/game import` reads back.

A game is fully described by its rules, options, seed and effective action log (every game is
deterministic from those), so that is what the file holds, with the seat names and a hash of the
position the log leads to. Reading a file replays it through the rules and compares the hash, so a
file edited by hand, cut short, or written by a version of the rules that plays differently is refused
before anything is created.

A file is whatever its uploader made it: it is read within bounds before it is parsed (its size, then
`bot.app.untrusted`: depth, strings, numbers, list lengths, integer range), checked against the model
below (seats, moves, the seed a database column holds, the values of one move), and replayed; every
failure on the way is an `ArchiveError`, one sentence, with the file's own words in it made inert.

The seed and log reveal every hidden card and bid: who may export what is decided by the caller (the
service), not here.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Sequence
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from bot.app import untrusted
from bot.app.text import clip, escape_text, quoted
from rules import words
from rules.core import Event, Game, Rejection, RuleError

log = logging.getLogger(__name__)

FORMAT: Final = "ironhost-game"
VERSION: Final = 1
MAX_BYTES = 2_000_000
"""A 4-player City of Iron log is about 60 kB; anything near this is not one of our files."""
MAX_MOVES = 20_000
"""A 5-player City Heroes game played by the computer to 6,000 moves fills 560 kB: far above any game."""
MAX_SEED = 2**63 - 1
"""What the games table's seed column holds (SQLite INTEGER, PostgreSQL BIGINT)."""
MAX_MOVE_VALUES = 200
"""Values inside one move (a bundle trade has a dozen)."""
LIMITS = untrusted.Limits(depth=16, string=2_000, number=24, items=MAX_MOVES, integer=MAX_SEED)
"""A real file nests 5 deep, with strings of at most 100 characters (a seat's name) and small numbers."""


class ArchiveError(ValueError):
    """Why a file cannot be imported, in one sentence a player can act on."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ArchivedSeat(_Strict):
    name: str = Field(min_length=1, max_length=100)
    computer: bool = False


class ArchivedMove(_Strict):
    seat: int = Field(ge=0, le=7)
    action: Any

    @field_validator("action")
    @classmethod
    def _small(cls, action: Any) -> Any:
        values, stack = 0, [action]
        while stack:
            item = stack.pop()
            values += 1
            if values > MAX_MOVE_VALUES:
                raise ValueError(f"a move holds more than {MAX_MOVE_VALUES} values")
            if isinstance(item, dict):
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
        return action


class Archive(_Strict):
    """Version 1 of the saved-game file. New fields get a new version; old versions stay readable."""

    format: Literal["ironhost-game"]
    version: Literal[1]
    game: str = Field(max_length=60)
    game_name: str = Field(max_length=100)
    options: dict[str, Any] = Field(max_length=50)
    seed: int = Field(ge=0, le=MAX_SEED)
    seats: list[ArchivedSeat] = Field(min_length=1, max_length=8)
    moves: list[ArchivedMove] = Field(max_length=MAX_MOVES)
    position: str = Field(pattern=r"^sha256:[0-9a-f]{64}$")
    finished: bool
    exported_at: str = Field(default="", max_length=100)
    source: str = Field(default="", max_length=200)
    """Where it came from, for people (e.g. "game #12 in #boardgames"); never read back."""


def position_hash(rules: Game, state: Any) -> str:
    """A fingerprint of a position: the rules' own serialisation, hashed."""
    return _hashed(rules.dump_state(state))


def _hashed(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def export(
    rules: Game,
    *,
    options: dict[str, Any],
    seed: int,
    seats: Sequence[ArchivedSeat],
    moves: Sequence[tuple[int, Any]],
    state: Any,
    exported_at: str = "",
    source: str = "",
) -> bytes:
    """The file for a game whose effective log is `moves` and current position `state`."""
    archive = Archive(
        format=FORMAT,
        version=VERSION,
        game=rules.info.id,
        game_name=rules.info.name,
        options=options,
        seed=seed,
        seats=list(seats),
        moves=[ArchivedMove(seat=seat, action=action) for seat, action in moves],
        position=position_hash(rules, state),
        finished=rules.result(state) is not None,
        exported_at=exported_at,
        source=source,
    )
    return (json.dumps(archive.model_dump(mode="json"), indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def read(raw: bytes, rules_for: Callable[[str], Game | None]) -> tuple[Archive, Game]:
    """The archive in `raw` and its rules; ArchiveError with the reason when it is not one we can open."""
    if len(raw) > MAX_BYTES:
        raise ArchiveError(f"That file is {len(raw) // 1000:,} kB; a saved game is far smaller.")
    try:
        data = untrusted.load(raw, LIMITS)
    except untrusted.Bounds as error:
        if error.kind == "not_json":
            raise ArchiveError(f"That file is not a saved game: {error}.") from None
        raise ArchiveError(f"That file cannot be a saved game: {error}.") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ArchiveError("That file is not an Ironhost saved game (use a file from `/game export`).")
    if data.get("version") != VERSION or isinstance(data.get("version"), bool):
        raise ArchiveError(
            f"That saved game is format version {quoted(data.get('version'))}; this bot reads version {VERSION}."
        )
    try:
        archive = Archive.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "file"
        raise ArchiveError(
            f"That saved game is damaged: {escape_text(clip(where, 60))}: {escape_text(clip(first['msg'], 120))}."
        ) from None
    rules = rules_for(archive.game)
    if rules is None:
        raise ArchiveError(
            f"That saved game is of {quoted(archive.game_name)}, which this bot does not host."
        )
    if not rules.info.min_players <= len(archive.seats) <= rules.info.max_players:
        raise ArchiveError(
            f"That saved game has {words.count(len(archive.seats), 'seat')}; {rules.info.name} takes "
            f"{rules.info.players_text()}."
        )
    return archive, rules


def replay(rules: Game, archive: Archive, names: Sequence[str] | None = None) -> list[Any]:
    """Every state of the saved game from its seed and moves, checked against its hash (see `replayed`)."""
    return replayed(rules, archive, names)[0]


def replayed(
    rules: Game, archive: Archive, names: Sequence[str] | None = None
) -> tuple[list[Any], list[list[Event]]]:
    """Every state of the saved game and each move's events, checked against the file's hash.

    The hash is checked with the file's own seat names; `names` (the people now taking the seats) then
    replace them, replaying again, since names appear only in the game's words, never in its play.

    A file saved by an earlier version of the rules holds the hash of the position as that version
    wrote it, and its log may end where that version made a move by itself that today's asks for
    (`Game.saved_forms`): the position it matches is the one the game goes on from."""
    seats = [seat.name for seat in archive.seats]
    states, events = _replayed(rules, seats, archive)
    settled = _saved_settled(rules, states[-1], archive.position)
    if names is not None and list(names) != seats:
        states, events = _replayed(rules, list(names), archive)
    if settled:
        ended = rules.log_end(states[-1])
        assert ended is not None  # it matched: the names change no move
        states[-1] = ended.state
        events[-1] = [*events[-1], *ended.events]
    return states, events


def _replayed(rules: Game, names: list[str], archive: Archive) -> tuple[list[Any], list[list[Event]]]:
    """`_states`, with whatever stops the replay told in one sentence."""
    try:
        return _states(rules, names, archive.options, archive)
    except RuleError as error:
        said = escape_text(clip(error.message, 300))
        raise ArchiveError(f"That saved game does not replay here: {said}{_stop(said)}") from None
    except Exception as error:  # noqa: BLE001 - a hostile file must get its sentence, whatever broke
        # The rules promise a RuleError for any move they refuse; this file found one they did not
        # refuse cleanly. Kept with its traceback for whoever fixes the rules, told as a refusal.
        log.warning("a saved %s game broke its replay", rules.info.id, exc_info=error)
        raise ArchiveError(f"That saved game does not replay here ({type(error).__name__}).") from None


def _stop(text: str) -> str:
    """The full stop a sentence ending in `text` still needs."""
    return "" if text.endswith((".", "!", "?", ".)")) else "."


def _saved_settled(rules: Game, state: Any, position: str) -> bool:
    """Whether the file was saved at `state` settled as an earlier version ended its log (`Game.log_end`)
    rather than at `state` itself; ArchiveError when it was saved at neither."""
    for final, text in rules.saved_forms(state):
        if _hashed(text) == position:
            return final is not state
    raise ArchiveError(
        "That saved game replays to a different position than it was saved at: the file was changed, "
        "or the game's rules have changed since."
    )


def _states(
    rules: Game, names: list[str], options: dict[str, Any], archive: Archive
) -> tuple[list[Any], list[list[Event]]]:
    states = [rules.setup(names, rules.stored_options(options), archive.seed)]
    events: list[list[Event]] = []
    for number, move in enumerate(archive.moves, start=1):
        if move.seat >= len(names):
            raise RuleError(f"move {number} is by seat {move.seat + 1}, which the game does not have")
        try:
            applied = rules.apply_logged(states[-1], move.seat, move.action)
        except RuleError as error:
            if error.reason in (Rejection.NOT_YOUR_TURN, Rejection.GAME_OVER):
                raise RuleError(f"move {number} is by seat {move.seat + 1}, whose turn it was not") from None
            raise RuleError(f"move {number} is refused ({error})") from None
        states.append(applied.state)
        events.append(applied.events)
    return states, events
