"""What a committed move owes the channel and the players, decided once, as outbox rows.

The table speaks once per handoff. A move that hands the game to other seats (someone new must act),
that the rules core marks as urgent for everyone (`Event.urgent`: a battle's result, revealed bids, a
trade offered or answered), or that ends the game gets a new turn post: the picture, the lines since
the last post, a ping to the people newly to act and to those an urgent event made by someone else has
a private line for (the proposer whose offer was answered), the buttons. A move by a seat that goes on
acting edits the live post in place: the new lines, no ping, and the picture redrawn once the seat has
paused for `REPAINT_AFTER` seconds (each further move restarts that wait; the next post carries a fresh
picture anyway). A table can ask for one post per move instead (`/table posts`).

Computer seats act inside the turn they belong to: while a seat the bot plays (`bot.app.autoplay`) is
to act, a move owes nothing yet. Its lines, private lines, marks and pings are held in the live
payload (a row written `held`, never delivered), and the move that leaves no such seat to act (or ends
the game) delivers the whole run at once: one post or one edit, never a computer's turn half played.

A seat gets a direct message only with news it did not make itself: a private line of someone else's
move (a card drawn for it at a round's start, the terms of an offer to it, its losses to a raid), or of
a move the bot made for it (the clock, an autopilot). Its own move's private lines were in its
confirmation, and what the post shows publicly is not repeated; the picture goes with it only when
that seat's view shows more than the public board.

Everything here is computed from the move alone, without Discord, and written in the move's own
transaction (`Store.commit_move(outbox=...)`): a crash after the commit cannot lose what is owed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.app.text import MAX_CONTENT, escape_text, single_line
from bot.app.timing import when_text
from bot.storage.store import Delivery, GameRecord, SeatRecord
from renderer.registry import marks_between, symbol_key
from rules import words
from rules.core import Event, Game, Result, Seat, View

REPAINT_AFTER = 20.0
"""Seconds a seat must pause, mid-sequence, before the live post's picture is redrawn."""

Posting = Literal["compact", "every_move"]

OPENING_DM = "The game begins: what only you see is in this picture (My hand shows it again at any time)."


@dataclass
class Held:
    """What a run of computer moves owes so far, kept until the run ends (see the module's docstring)."""

    post: bool = False
    """A move of the run was owed a new post (a handoff to a person, an urgent event, the opening)."""
    newly: list[Seat] = field(default_factory=list)
    """People who came to act during the run: pinged if they are still to act when it ends."""
    told: list[Seat] = field(default_factory=list)
    """People an urgent event of the run addressed (the proposer whose offer was answered): pinged."""
    private: dict[int, list[str]] = field(default_factory=dict)
    """The run's private lines, for each seat's next direct message."""
    opening: bool = False
    """The run began with the game: its post is the game's first."""
    starter: Seat | None = None
    """The person whose own move began the run (an offer to the computer, the end of their turn)."""
    turn: str | None = None
    """The turn the run began in (`Game.turn_key`, as JSON): a run that ends inside it (the computer
    answered the starter's offer, or defended against their attack) finds the starter still at the
    table, mid-turn: the post pings them for nothing and no direct message repeats it to them."""

    @classmethod
    def load(cls, data: dict[str, Any] | None) -> Held | None:
        if not data:
            return None
        return cls(
            post=bool(data["post"]),
            newly=[int(seat) for seat in data["newly"]],
            told=[int(seat) for seat in data["told"]],
            private={int(seat): list(lines) for seat, lines in data.get("private", {}).items()},
            opening=bool(data.get("opening", False)),
            starter=data.get("starter"),
            turn=data.get("turn"),
        )

    def dump(self) -> dict[str, Any]:
        return {
            "post": self.post,
            "newly": self.newly,
            "told": self.told,
            "private": {str(seat): lines for seat, lines in self.private.items()},
            "opening": self.opening,
            "starter": self.starter,
            "turn": self.turn,
        }


@dataclass
class Live:
    """What the game's live turn post shows and what it carries to the next post."""

    header: str = ""
    lines: list[str] = field(default_factory=list)
    """Every line the live post shows now (with a held run's lines: what it will show)."""
    fresh: list[str] = field(default_factory=list)
    """Lines added by edits since it was posted: the next post repeats them for who was away."""
    private: dict[int, list[str]] = field(default_factory=dict)
    """Private lines waiting for each seat's next direct message."""
    digests: dict[int, str] = field(default_factory=dict)
    """Kept from older payloads (a fingerprint of each seat's private view when it last got a direct
    message); a direct message is now owed by a private line, not by a changed view."""
    marks: list[str] = field(default_factory=list)
    """The renderer's keys of what changed on the board since the live post was made: its repaint and
    the next post frame them, so a reader sees at a glance what the moves since the last post did."""
    held: Held | None = None
    """A computer seat's run in progress: nothing of it is delivered yet."""

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
            digests={int(seat): digest for seat, digest in data.get("digests", {}).items()},
            marks=list(data.get("marks", [])),
            held=Held.load(data.get("held")),
        )

    def dump(self) -> dict[str, Any]:
        data = {
            "header": self.header,
            "lines": self.lines,
            "fresh": self.fresh,
            "private": {str(seat): lines for seat, lines in self.private.items()},
            "digests": {str(seat): digest for seat, digest in self.digests.items()},
            "marks": self.marks,
        }
        if self.held is not None:
            data["held"] = self.held.dump()
        return data

    def carrying(self, lines: list[str], private: dict[int, list[str]], changed: list[str]) -> Live:
        """This live post with a move's lines added (an edit's, or a held run's)."""
        carried = {seat: list(told) for seat, told in self.private.items()}
        for seat, told in private.items():
            carried[seat] = carried.get(seat, []) + told
        return Live(
            header=self.header,
            lines=self.lines + lines,
            fresh=self.fresh + lines,
            private=carried,
            digests=self.digests,
            marks=sorted(set(self.marks) | set(changed)),
        )


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
    automated: set[Seat] = field(default_factory=set)
    """The seats the bot plays (`bot.app.autoplay.automated`): while one is to act, a move is held."""
    shown: tuple[Any, View] | None = None
    """(state, its public view) of the last announcement, when the caller kept it: a move's `before`
    is the previous move's `after`, whose view need not be made twice. Set to the move's own after."""
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
    seat: Seat | None = None,
    release: bool = False,
    told: Collection[Seat] = (),
) -> list[Delivery]:
    """The outbox rows of the move `seat` made, taking the game from `before` to `after` (None: the
    start). `computer`: a computer made it (an AI seat, an autopilot); its first line gets 🤖 when it
    is worded as that seat's own doing (a defender's answer resolves the attacker's battle: that line
    is the attacker's, not the computer's). `note` heads the lines (the clock played for the seat).
    `release`: end a held run now, whoever is to act (the computer seat could not move). `told`: seats
    this move is news to although it is theirs (an undo the table agreed to: its asker learns the
    outcome), posted and pinged like an urgent event's addressees, with no direct message."""
    rules, seats = table.rules, table.seats
    humans = {s.seat for s in seats if s.user_id > 0}
    waiting = rules.to_act(after)
    newly = waiting - (rules.to_act(before) if before is not None else set())
    # A person's own move: its private lines were in their confirmation, and its news is their own.
    own = seat if seat is not None and not computer and note is None else None
    said = [event for event in events if event.text]  # an empty text: nothing public to tell
    lines = [f"• {one_line(event.text)}" for event in said]
    if computer and lines and seat is not None and _names(said[0].text, seats, seat):
        lines[0] = "• 🤖 " + lines[0][2:]
    if note:  # the bot's own words, with any name in them escaped by whoever wrote the note
        lines.insert(0, " ".join(note.split()))
    private: dict[int, list[str]] = {}
    for event in events:
        for addressee, line in event.private.items():
            if addressee != own:
                private.setdefault(addressee, []).append(line)
    urgent = [event for event in events if getattr(event, "urgent", False)]
    addressed = {addressee for event in urgent for addressee in event.private} - {own} | set(told)
    live, held = table.live, table.live.held if table.live is not None else None
    owes_post = (
        live is None
        or before is None
        or result is not None
        or table.posting == "every_move"
        or bool(newly & humans)
        or bool(urgent)
        or bool(told)
    )
    public = rules.view(after, None)
    kept = table.shown
    if before is None:
        shown_before = None
    elif kept is not None and kept[0] is before:
        shown_before = kept[1]
    else:
        shown_before = rules.view(before, None)
    table.shown = (after, public)
    changed = sorted(marks_between(shown_before, public)) if shown_before is not None else []
    run = held or Held(opening=before is None, starter=own, turn=_turn(rules, before))
    if held is not None:  # the moves of the run so far, as if they were this move's
        owes_post = owes_post or held.post
        newly = newly | set(held.newly)
        addressed = addressed | set(held.told)
        for addressee, held_lines in held.private.items():
            private[addressee] = held_lines + private.get(addressee, [])
    if result is None and not release and waiting & table.automated:
        # A computer seat acts next: its run is decided before anything is posted.
        run.post = owes_post
        run.newly, run.told, run.private = sorted(newly & humans), sorted(addressed & humans), private
        return [_hold(table, lines, changed, run)]
    if (
        held is not None
        and held.starter is not None
        and held.turn is not None
        and held.turn == _turn(rules, after)
    ):
        # The run ended inside the turn its starter's move began it in: they are still at the table.
        newly.discard(held.starter)
        addressed.discard(held.starter)
        private.pop(held.starter, None)
    if not owes_post:
        rows = _edit(table, version, public, lines, private, events, changed)
        if held is None and not lines and not private and not changed:
            # Nothing to tell and nothing framed (the first step of a two-step move): the post is left
            # as it is; only a repaint, if the board changed at all, which the next move supersedes.
            return [row for row in rows if row.kind == "repaint" and shown_before != public]
        return rows
    # Pinged: who must act now and was not acting, and whom an urgent event made by someone else
    # addresses (the proposer whose offer was just answered, still acting but perhaps away for hours).
    return _post(
        table,
        version,
        after,
        public,
        lines,
        private,
        events,
        result,
        (newly & waiting & humans) | (addressed & humans),
        changed,
        opening=run.opening,
    )


def _turn(rules: Game, state: Any | None) -> str | None:
    """The state's turn (`Game.turn_key`) as JSON, None where the game has no multi-move turns."""
    if state is None:
        return None
    key = rules.turn_key(state)
    return None if key is None else json.dumps(key, default=str)


def _names(text: str, seats: list[SeatRecord], seat: Seat) -> bool:
    """Whether a line is worded as `seat`'s own doing: it begins with the seat's name."""
    name = seats[seat].name if seat < len(seats) else ""
    return bool(name) and (text.startswith(name + " ") or text.startswith(name + "'s "))


def _hold(table: Table, lines: list[str], changed: list[str], run: Held) -> Delivery:
    """The row that keeps a held move's due in the live payload: written `held`, so never delivered
    (the store marks it superseded), and read back by the next move's announcement."""
    live = (table.live or Live()).carrying(lines, {}, changed)
    live.held = run
    payload = {"held": True, "live": live.dump()}
    return Delivery(kind="edit", target=table.game.channel_id, payload=payload, due_at=table.now)


def release(table: Table, version: int, state: Any, result: Result | None) -> list[Delivery]:
    """What a held run owes, delivered now although a computer seat is still to act (its move could not
    be made); nothing when no run is held."""
    if table.live is None or table.live.held is None:
        return []
    return announce(table, version, state, state, [], result, release=True)


def _post(
    table: Table,
    version: int,
    after: Any,
    public: View,
    lines: list[str],
    private: dict[int, list[str]],
    events: list[Event],
    result: Result | None,
    ping: set[Seat],
    changed: list[str],
    *,
    opening: bool,
) -> list[Delivery]:
    rules, game, seats = table.rules, table.game, table.seats
    live = table.live or Live()
    name = rules.info.name
    header = f"**{name}** · the game begins" if opening else f"**{name}** · move {table.move_number(version)}"
    shown = live.fresh + lines
    footer = _footer(table, public, result)
    pinged = sorted(seats[seat].user_id for seat in ping)
    told = [user for user in pinged if f"<@{user}>" not in "\n".join(footer)]
    if told:  # addressed by an urgent event without being to act: the mention is what pings them
        footer.append("🔔 " + " ".join(f"<@{user}>" for user in told) + " — news for you above.")
    payload: dict[str, Any] = {
        "content": _compose(header, shown, footer),
        "ping": pinged,
        "view": public.model_dump(mode="json"),
        "marks": sorted(set(live.marks) | set(changed)),
        "picture": f"board-{game.id}-v{version}.png",
        "alt": _alt(public, events, opening=opening),
        "buttons": "finished" if result is not None else "turn",
    }
    waiting_private = {seat: live.private.get(seat, []) + private.get(seat, []) for seat in range(len(seats))}
    rows: list[Delivery] = []
    shown_publicly: dict[str, Any] | None = None
    for seat in seats:
        told_seat = waiting_private.get(seat.seat, [])
        if seat.user_id <= 0 or not (told_seat or opening and rules.info.hidden_information):
            continue  # a direct message only with news the seat did not make itself
        seat_view = public
        part: dict[str, Any] = {}
        if rules.info.hidden_information:
            seat_view = rules.view(after, seat.seat)
            shown_publicly = shown_publicly or payload["view"]
            part = private_part(shown_publicly, seat_view)
        if not told_seat:
            if not part:
                continue
            told_seat = [OPENING_DM]  # what only this seat sees at the start is news to it
        rows.append(
            private_dm(
                table,
                version,
                seat,
                seat_view if part else public,
                told_seat,
                seat.seat in public.to_act,
                bool(part),
            )
        )
    payload["live"] = Live(header=header, lines=shown, fresh=[], private={}, digests=live.digests).dump()
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
    carried = live.carrying(lines, private, changed)
    payload = {
        "content": _compose(
            _through(live.header, table.move_number(version)), carried.lines, _footer(table, public, None)
        ),
        "live": carried.dump(),
    }
    repaint = {
        "view": public.model_dump(mode="json"),
        "marks": carried.marks,
        "picture": f"board-{table.game.id}-v{version}.png",
        "alt": _alt(public, events),
    }
    return [
        Delivery(kind="edit", target=table.game.channel_id, payload=payload, due_at=table.now),
        Delivery(
            kind="repaint", target=table.game.channel_id, payload=repaint, due_at=table.now + REPAINT_AFTER
        ),
    ]


_FIRST_MOVE = re.compile(r"· move (\d+)$")


def _through(header: str, last: int) -> str:
    """The live post's header once edits added moves to it: the moves it shows, first to last ("move
    31–37"), so the number read at the top is never older than the lines below it. The stored header
    keeps the first move, the one that made the post."""
    found = _FIRST_MOVE.search(header)
    if found is not None:
        return header if last <= int(found.group(1)) else f"{header}–{last}"
    return f"{header} · up to move {last}" if last > 0 else header


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
    said = " ".join(single_line(event.text) for event in events if event.text)  # alt text shows as typed
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


def one_line(text: str) -> str:
    """User-made text (names inside the rules' lines) on one line, with its markdown and mentions made
    inert, so a name can neither break the post's layout nor ping or format anything."""
    return escape_text(" ".join(text.split()))
