"""What a committed move owes the channel and the players, decided once, as outbox rows.

The table speaks once per handoff. A move that hands the game to other seats (someone new must act),
that the rules core marks as urgent for everyone (`Event.urgent`: a battle's result, revealed bids, a
trade offered or answered), or that ends the game gets a new turn post: the picture, the lines since
the last post, a ping to the seats newly to act and to those an urgent event has a private line for
(the proposer whose offer was answered), the buttons. A move by a seat that goes on acting edits
the live post in place: the new lines, no ping, and the picture redrawn once the seat has paused for
`REPAINT_AFTER` seconds (each further move restarts that wait; the next post carries a fresh picture
anyway). A table can ask for one post per move instead (`/table posts`).

Each seat gets at most one direct message per post, and only when its private view changed since
its last one or a private line is waiting for it; the picture goes with it only when that seat's view
shows more than the public board.

Everything here is computed from the move alone, without Discord, and written in the move's own
transaction (`Store.commit_move(outbox=...)`): a crash after the commit cannot lose what is owed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.app.text import MAX_CONTENT, escape_text
from bot.app.timing import when_text
from bot.storage.store import Delivery, GameRecord, SeatRecord
from renderer.registry import marks_between, symbol_key
from rules import words
from rules.core import Event, Game, Result, Seat, View

REPAINT_AFTER = 20.0
"""Seconds a seat must pause, mid-sequence, before the live post's picture is redrawn."""

Posting = Literal["compact", "every_move"]


@dataclass
class Live:
    """What the game's live turn post shows and what it carries to the next post."""

    header: str = ""
    lines: list[str] = field(default_factory=list)
    """Every line the live post shows now."""
    fresh: list[str] = field(default_factory=list)
    """Lines added by edits since it was posted: the next post repeats them for who was away."""
    private: dict[int, list[str]] = field(default_factory=dict)
    """Private lines waiting for each seat's next direct message."""
    digests: dict[int, str] = field(default_factory=dict)
    """A fingerprint of each seat's private view when it last got a direct message."""
    marks: list[str] = field(default_factory=list)
    """The renderer's keys of what changed on the board since the live post was made: its repaint and
    the next post frame them, so a reader sees at a glance what the moves since the last post did."""

    @classmethod
    def load(cls, payload: dict[str, Any] | None) -> Live | None:
        if not payload or "live" not in payload:
            return None
        data = payload["live"]
        return cls(
            header=data["header"],
            lines=list(data["lines"]),
            fresh=list(data["fresh"]),
            private={int(seat): list(lines) for seat, lines in data["private"].items()},
            digests={int(seat): digest for seat, digest in data["digests"].items()},
            marks=list(data.get("marks", [])),
        )

    def dump(self) -> dict[str, Any]:
        return {
            "header": self.header,
            "lines": self.lines,
            "fresh": self.fresh,
            "private": {str(seat): lines for seat, lines in self.private.items()},
            "digests": {str(seat): digest for seat, digest in self.digests.items()},
            "marks": self.marks,
        }


@dataclass
class Table:
    """The facts about a game the announcement needs, read before the move's transaction."""

    game: GameRecord
    rules: Game
    seats: list[SeatRecord]
    posting: Posting = "compact"
    live: Live | None = None
    deadlines: dict[Seat, float] = field(default_factory=dict)
    followers: list[tuple[int, str]] = field(default_factory=list)
    now: float = 0.0
    moves: int | None = None
    """The game's effective moves once this move is made (`bot.app.numbering`): the number the post's
    header shows. None: the version given to `announce` is shown (a start or an import, where the two
    agree)."""

    def move_number(self, version: int) -> int:
        return version if self.moves is None else self.moves


def announce(
    table: Table,
    version: int,
    before: Any | None,
    after: Any,
    events: list[Event],
    result: Result | None,
    *,
    note: str | None = None,
    computer: bool = False,
) -> list[Delivery]:
    """The outbox rows of the move that took the game from `before` to `after` (None: the start);
    `computer` marks a move a computer made (an AI seat, an autopilot) with 🤖 on its first line, the
    one every game words as the actor's own move; the lines after it (a round starting, an order of
    play) are the table's, not the computer's."""
    rules, seats = table.rules, table.seats
    humans = {seat.seat for seat in seats if seat.user_id > 0}
    waiting = rules.to_act(after)
    newly = waiting - (rules.to_act(before) if before is not None else set())
    mark = "🤖 " if computer else ""
    said = [event for event in events if event.text]  # an empty text: nothing public to tell
    lines = [f"• {mark if index == 0 else ''}{one_line(event.text)}" for index, event in enumerate(said)]
    if note:  # the bot's own words, with any name in them escaped by whoever wrote the note
        lines.insert(0, " ".join(note.split()))
    private = {seat: [e.private[seat]] for e in events for seat in e.private}
    handoff = (
        table.live is None
        or before is None
        or result is not None
        or table.posting == "every_move"
        or bool(newly & humans)
        or any(getattr(event, "urgent", False) for event in events)
    )
    public = rules.view(after, None)
    shown_before = rules.view(before, None) if before is not None else None
    changed = sorted(marks_between(shown_before, public)) if shown_before is not None else []
    if not handoff:
        rows = _edit(table, version, public, lines, private, events, changed)
        if not lines and not private and not changed:
            # Nothing to tell and nothing framed (the first step of a two-step move): the post is left
            # as it is; only a repaint, if the board changed at all, which the next move supersedes.
            return [row for row in rows if row.kind == "repaint" and shown_before != public]
        return rows
    # Pinged: who must act now and was not acting, and whom an urgent event addresses (the proposer
    # whose offer was just answered, still acting but perhaps away for hours).
    addressed = {seat for event in events if getattr(event, "urgent", False) for seat in event.private}
    return _post(
        table,
        version,
        before,
        after,
        public,
        lines,
        private,
        events,
        result,
        (newly | addressed) & humans,
        changed,
    )


def _post(
    table: Table,
    version: int,
    before: Any | None,
    after: Any,
    public: View,
    lines: list[str],
    private: dict[int, list[str]],
    events: list[Event],
    result: Result | None,
    ping: set[Seat],
    changed: list[str],
) -> list[Delivery]:
    rules, game, seats = table.rules, table.game, table.seats
    live = table.live or Live()
    name = rules.info.name
    header = (
        f"**{name}** · move {table.move_number(version)}"
        if before is not None
        else f"**{name}** · the game begins"
    )
    shown = live.fresh + lines
    footer = _footer(table, public, result)
    pinged = sorted(seats[seat].user_id for seat in ping)
    told = [user for user in pinged if f"<@{user}>" not in "\n".join(footer)]
    if told:  # addressed by an urgent event without being to act: the mention is what pings them
        footer.append("🔔 " + " ".join(f"<@{user}>" for user in told) + " — news for you above.")
    payload = {
        "content": _compose(header, shown, footer),
        "ping": pinged,
        "view": public.model_dump(mode="json"),
        "marks": sorted(set(live.marks) | set(changed)),
        "picture": f"board-{game.id}-v{version}.png",
        "alt": _alt(public, events, opening=before is None),
        "buttons": "finished" if result is not None else "turn",
    }
    waiting_private = {seat: live.private.get(seat, []) + private.get(seat, []) for seat in range(len(seats))}
    digests = dict(live.digests)
    rows: list[Delivery] = []
    shown_publicly = public.model_dump(mode="json")
    for seat in seats:
        if seat.user_id <= 0:
            continue
        told = waiting_private.get(seat.seat, [])
        seat_view = rules.view(after, seat.seat) if rules.info.hidden_information else public
        part = private_part(shown_publicly, seat_view)
        digest = _digest(part)
        changed = bool(part) and digest != live.digests.get(seat.seat)
        digests[seat.seat] = digest
        if not (changed or told) or result is not None and not told:
            continue
        rows.append(
            private_dm(
                table,
                version,
                seat,
                seat_view if part else public,
                told,
                seat.seat in public.to_act,
                bool(part),
            )
        )
    payload["live"] = Live(header=header, lines=shown, fresh=[], private={}, digests=digests).dump()
    posts = [Delivery(kind="post", target=game.channel_id, payload=payload, due_at=table.now)]
    return posts + rows + _followers(table, version, public, shown, result)


def _edit(
    table: Table,
    version: int,
    public: View,
    lines: list[str],
    private: dict[int, list[str]],
    events: list[Event],
    changed: list[str],
) -> list[Delivery]:
    live = table.live
    assert live is not None
    carried = dict(live.private)
    for seat, told in private.items():
        carried[seat] = carried.get(seat, []) + told
    shown = live.lines + lines
    marks = sorted(set(live.marks) | set(changed))
    payload = {
        "content": _compose(live.header, shown, _footer(table, public, None)),
        "live": Live(
            header=live.header,
            lines=shown,
            fresh=live.fresh + lines,
            private=carried,
            digests=live.digests,
            marks=marks,
        ).dump(),
    }
    repaint = {
        "view": public.model_dump(mode="json"),
        "marks": marks,
        "picture": f"board-{table.game.id}-v{version}.png",
        "alt": _alt(public, events),
    }
    return [
        Delivery(kind="edit", target=table.game.channel_id, payload=payload, due_at=table.now),
        Delivery(
            kind="repaint", target=table.game.channel_id, payload=repaint, due_at=table.now + REPAINT_AFTER
        ),
    ]


def _footer(table: Table, public: View, result: Result | None) -> list[str]:
    seats, game = table.seats, table.game
    if result is not None:
        lines = ["🏁 **Game over.** " + one_line(result.reason)]
        if result.no_winner:
            lines.append("Nobody wins this time.")
        for place, group in enumerate(result.ranking, start=1):
            for seat in group:
                lines.append(result.place_line(place, seat, one_line(seats[seat].name)))
        return lines
    lines = [f"**{one_line(public.headline)}**"]
    acting = [seats[seat].user_id for seat in sorted(public.to_act) if seats[seat].user_id > 0]
    if acting:
        lines.append("Your move: " + " ".join(f"<@{user}>" for user in acting) + " — press **Take my turn**.")
    due = {seat: when for seat, when in table.deadlines.items() if seat in public.to_act}
    if due:
        if len(set(due.values())) == 1:
            lines.append(f"⏳ Deadline {when_text(next(iter(due.values())))}")
        else:
            parts = [f"{one_line(seats[seat].name)} {when_text(when)}" for seat, when in sorted(due.items())]
            lines.append("⏳ Deadline " + "; ".join(parts))
    if public.topic:
        lines.append(f"📖 Rules for this step: `/rules game:{game.kind} topic:{public.topic}`")
    return lines


def _compose(header: str, lines: list[str], footer: list[str]) -> str:
    """The post's text within Discord's limit: the oldest lines give way first, with a pointer to /log."""
    kept = list(lines)
    dropped = 0
    while True:
        shown = ([f"• … {words.count(dropped, 'earlier line')}: `/log`"] if dropped else []) + kept
        text = "\n".join([header, *shown, *footer])
        if len(text) <= MAX_CONTENT or not kept:
            return text[:MAX_CONTENT]
        kept.pop(0)
        dropped += 1


def private_dm(
    table: Table, version: int, seat: SeatRecord, view: View, told: list[str], to_act: bool, picture: bool
) -> Delivery:
    """`view` is the seat's own view; its picture goes only where it shows more than the public board."""
    info, game = table.rules.info, table.game
    text = [f"**{info.name}** in <#{game.channel_id}> · {one_line(view.headline)}"]
    text += [f"• {one_line(line)}" for line in told]
    if picture:
        text.append("This is your private view: nobody else sees it.")
    payload: dict[str, Any] = {
        "content": _compose(text[0], text[1:], []),
        "buttons": "menu" if to_act else None,
        "seat": seat.seat,
    }
    if picture:
        payload |= {
            "view": view.model_dump(mode="json"),
            "picture": f"hand-{game.id}-v{version}.png",
            "alt": _alt(view, []),
        }
    return Delivery(kind="dm", target=seat.user_id, payload=payload, due_at=table.now)


def _followers(
    table: Table, version: int, public: View, lines: list[str], result: Result | None
) -> list[Delivery]:
    if not table.followers:
        return []
    info, game = table.rules.info, table.game
    head = f"**{info.name}** in <#{game.channel_id}> · move {table.move_number(version)}"
    tail = [("🏁 " + one_line(result.reason)) if result else f"**{one_line(public.headline)}**"]
    text = _compose(head, lines, tail)
    rows = [
        Delivery(kind="dm", target=user, payload={"content": text, "buttons": None}, due_at=table.now)
        for user, mode in table.followers
        if mode == "dm"
    ]
    if any(mode == "thread" for _, mode in table.followers):
        rows.append(
            Delivery(kind="thread", target=game.channel_id, payload={"content": text}, due_at=table.now)
        )
    return rows


def _alt(view: View, events: list[Event], *, opening: bool = False) -> str:
    """`opening`: the events are what setup rolled or decided, not a move."""
    said = " ".join(one_line(event.text) for event in events if event.text)
    return picture_alt(view, (("At the start: " if opening else "Last move: ") + said) if events else "")


def picture_alt(view: View, news: str = "") -> str:
    """A picture's description: the view in words, then `news` (the last move, what changed), then what
    the picture's symbols mean (the renderer's key), cut to Discord's 1,024 characters: the key is what
    gives way (its start, on the symbols seen most, is kept where there is room)."""
    text = " ".join(part for part in (view.alt_text(), news) if part)
    key = symbol_key(view.game)
    if key and len(text) < 900:
        text += " Key: " + key
    return text if len(text) <= 1000 else text[:999] + "…"


def private_part(public: dict[str, Any], seat_view: View) -> dict[str, Any]:
    """The fields of a seat's view that the public view (dumped as JSON) does not show: what a direct
    message tells."""
    mine = seat_view.model_dump(mode="json")
    return {key: value for key, value in mine.items() if key != "seat" and public.get(key) != value}


def _digest(part: dict[str, Any]) -> str:
    if not part:
        return ""
    return hashlib.blake2s(json.dumps(part, sort_keys=True).encode(), digest_size=8).hexdigest()


def one_line(text: str) -> str:
    """User-made text (names inside the rules' lines) on one line, with its markdown and mentions made
    inert, so a name can neither break the post's layout nor ping or format anything."""
    return escape_text(" ".join(text.split()))
