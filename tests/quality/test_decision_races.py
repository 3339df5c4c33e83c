"""Every pair of decisions that can meet at one table, raced many times: each decision has one outcome.

Issue 37 found two replacement proposals for one seat both announced (the seat ending with the second
substitute, the first unseated without a word), one approval announced twice with two welcome
messages, and a seat the clock dropped still voting. Here each pair is raced on a fresh table of the
test game, over and over, on SQLite and on PostgreSQL, in two ways:

- one process: both racers on one `GameService` (its per-game lock decides who goes first);
- two processes: each racer on its own `GameService` with its own connection and lock map, as two
  bot processes serving one game would be (only the store's checks keep them apart).

A seeded scheduler (`tests/support/interleave.py`) pauses the racers at every database call, so the
seeds cover many interleavings; a run counts as a race hit when both racers were in flight at once.
Runs go on until `RACE_HITS` races were hit (at most `RACE_RUNS` runs). After every run the table is
checked as stored: one seat change, one announcement, one welcome message, the loser told what was
already decided, the log replaying to the snapshot. The figures are printed (run with `-s`).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import pytest

from bench.machine import describe
from bot.app.clock import FakeClock
from bot.app.service import GameService
from bot.storage.store import DecisionConflict, MoveConflict, Store
from rules import registry
from tests.support.interleave import Interleaver, Outcome

HITS = int(os.environ.get("RACE_HITS", "6"))
RUNS = int(os.environ.get("RACE_RUNS", "40"))
ALREADY = "Already decided: "

ALICE, BOB, CAROL, DAVE, ERIN, FRANK = 1, 2, 3, 4, 5, 6
NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol", DAVE: "dave", ERIN: "erin", FRANK: "frank"}


@dataclass
class Tables:
    """Two services (two 'processes') on one database, a reader of it, and the racing scheduler."""

    services: list[GameService]
    reader: Store
    interleaver: Interleaver
    conflicts: Counter[str] = field(default_factory=Counter)
    channel: int = 0
    two: bool = False
    """Whether the second racer runs on the second process."""

    @property
    def first(self) -> GameService:
        return self.services[0]

    @property
    def second(self) -> GameService:
        return self.services[1] if self.two else self.services[0]

    async def table(self, players: list[int], **clock: object) -> tuple[int, int]:
        """A started game of the test game with `players` (alice hosts); its (game id, channel)."""
        self.channel += 1
        service, channel = self.first, self.channel
        game = await service.new_game(
            kind="test-highcard", guild_id=1, channel_id=channel, user_id=ALICE, name="alice", seed=channel
        )
        for user in players[1:]:
            await service.join(channel, user, NAMES[user])
        if clock:
            await service.set_table_clock(channel, ALICE, is_admin=True, **clock)
        await service.start(channel, ALICE)
        return game.id, channel

    async def pledge_key(self, game_id: int, user: int) -> str:
        """The choice key of `user`'s lowest pledge now (what their button carries)."""
        service = self.first
        game = await service.game(game_id)
        seat = next(s.seat for s in await service.seats(game_id) if s.user_id == user)
        return sorted((await service.choices(game, seat)), key=lambda c: c.key)[0].key

    async def pledge(self, game_id: int, user: int) -> None:
        await self.first.play(game_id, user, key=await self.pledge_key(game_id, user))

    async def outbox(self, game_id: int, kind: str, words: str) -> list:  # noqa: ANN001
        return [
            row
            for row in await self.reader.outbox(game_id)
            if row.kind == kind and words in row.payload["content"]
        ]

    async def votes(self, game_id: int) -> list[tuple[str, int]]:
        rows = await self.reader._db.fetchall("SELECT kind, user_id FROM votes WHERE game_id = ?", (game_id,))
        return [(row[0], row[1]) for row in rows]

    async def check_log(self, game_id: int) -> None:
        """Versions without gaps and the snapshot the replay of the log (but for the players' names: a
        replay names the seats' players of now, a snapshot those of its move)."""
        game = await self.reader.game(game_id)
        log = await self.reader.actions(game_id)
        assert [record.version for record in log] == list(range(1, game.version + 1))
        states = await GameService(self.reader).replay(game)
        replayed = json.loads(registry.get(game.kind).dump_state(states[-1]))
        stored = json.loads(game.state)
        assert {**replayed, "players": None} == {**stored, "players": None}


Pair = Callable[[Tables, Interleaver], Awaitable[str]]


def refused_as_decided(outcome: Outcome) -> bool:
    return (outcome.refusal or "").startswith(ALREADY)


# ---- the pairs ------------------------------------------------------------------------------------


async def two_proposals_for_one_seat(t: Tables, race: Interleaver) -> str:
    """dave→erin and dave→frank, each one approval short, completed at the same moment."""
    game_id, channel = await t.table([ALICE, BOB, CAROL, DAVE])
    first = t.first
    await first.replace_request(channel, ALICE, DAVE, ERIN, "erin", is_admin=False)
    await first.replace_vote(game_id, BOB, DAVE, ERIN, "erin")
    await first.replace_request(channel, ALICE, DAVE, FRANK, "frank", is_admin=False)
    await first.replace_vote(game_id, CAROL, DAVE, FRANK, "frank")
    erin, frank = await race.race(
        [
            ("erin", lambda: first.replace_vote(game_id, CAROL, DAVE, ERIN, "erin")),
            ("frank", lambda: t.second.replace_vote(game_id, BOB, DAVE, FRANK, "frank")),
        ]
    )
    winner, loser = (erin, frank) if erin.error is None else (frank, erin)
    assert winner.error is None and winner.value[1] is True, (erin, frank)
    assert refused_as_decided(loser), loser.refusal
    new = ERIN if winner.name == "erin" else FRANK
    assert (
        loser.refusal == f"{ALREADY}<@{new}> already plays in this game, so this proposal no longer applies."
        or (
            loser.refusal
            == f"{ALREADY}<@{DAVE}>'s seat went to someone else, so this proposal no longer applies."
        )
    ), loser.refusal
    assert [s.user_id for s in await t.reader.seats(game_id)] == [ALICE, BOB, CAROL, new]
    (said,) = await t.outbox(game_id, "notice", "now plays in")
    assert said.payload["content"] == f"🔁 <@{new}> now plays in <@{DAVE}>'s seat."
    (welcome,) = await t.outbox(game_id, "dm", "You took over this seat")
    assert welcome.target == new
    assert await t.votes(game_id) == []
    return f"{winner.name} seated, {loser.name} told it was decided"


async def two_approvals_of_one_proposal(t: Tables, race: Interleaver) -> str:
    """dave→erin proposed by alice; bob and carol approve at the same moment."""
    game_id, channel = await t.table([ALICE, BOB, CAROL, DAVE])
    await t.first.replace_request(channel, ALICE, DAVE, ERIN, "erin", is_admin=False)
    bob, carol = await race.race(
        [
            ("bob", lambda: t.first.replace_vote(game_id, BOB, DAVE, ERIN, "erin")),
            ("carol", lambda: t.second.replace_vote(game_id, CAROL, DAVE, ERIN, "erin")),
        ]
    )
    assert bob.error is None and carol.error is None, (bob, carol)
    assert sorted([bob.value[1], carol.value[1]]) == [False, True], (bob.value, carol.value)
    assert [s.user_id for s in await t.reader.seats(game_id)] == [ALICE, BOB, CAROL, ERIN]
    assert len(await t.outbox(game_id, "notice", "now plays in")) == 1
    assert len(await t.outbox(game_id, "dm", "You took over this seat")) == 1
    assert await t.votes(game_id) == []
    decider = "bob" if bob.value[1] else "carol"
    return f"{decider} decided, the other's approval counted first"


async def same_approve_pressed_twice(t: Tables, race: Interleaver) -> str:
    """carol's Approve, the last one missing, pressed twice at once."""
    game_id, channel = await t.table([ALICE, BOB, CAROL, DAVE])
    await t.first.replace_request(channel, ALICE, DAVE, ERIN, "erin", is_admin=False)
    await t.first.replace_vote(game_id, BOB, DAVE, ERIN, "erin")
    one, two = await race.race(
        [
            ("press 1", lambda: t.first.replace_vote(game_id, CAROL, DAVE, ERIN, "erin")),
            ("press 2", lambda: t.second.replace_vote(game_id, CAROL, DAVE, ERIN, "erin")),
        ]
    )
    winner, loser = (one, two) if one.error is None else (two, one)
    assert winner.error is None and winner.value[1] is True, (one, two)
    assert loser.refusal == f"{ALREADY}<@{ERIN}> now plays in <@{DAVE}>'s seat.", loser.refusal
    assert len(await t.outbox(game_id, "notice", "now plays in")) == 1
    assert len(await t.outbox(game_id, "dm", "You took over this seat")) == 1
    return "one seat change, the other press told it was decided"


async def approval_racing_a_move(t: Tables, race: Interleaver) -> str:
    """The approval that completes alice's undo, while bob makes his own move."""
    game_id, channel = await t.table([ALICE, BOB, CAROL])
    await t.pledge(game_id, ALICE)
    _, plan, others = await t.first.undo_request(channel, ALICE)
    assert others == ["bob", "carol"]
    assert (await t.first.undo_vote(game_id, BOB, plan.last_version, True))[0] == "waiting"
    key = await t.pledge_key(game_id, BOB)
    carol, bob = await race.race(
        [
            ("approval", lambda: t.first.undo_vote(game_id, CAROL, plan.last_version, True)),
            ("move", lambda: t.second.play(game_id, BOB, key=key)),
        ]
    )
    await t.check_log(game_id)
    log = await t.reader.actions(game_id)
    undone = [r for r in log if r.action.get("kind") == "__undo__"]
    if carol.error is None:
        assert carol.value[0] == "done" and len(undone) == 1
        if bob.error is None:
            assert log[-1].user_id == BOB
            return "undo, then the move"
        assert "moved first" in bob.refusal, bob.refusal
        return "undo; the move refused (someone moved first)"
    assert bob.error is None and not undone
    assert "moved on" in carol.refusal, carol.refusal
    return "the move; the approval refused (the game moved on)"


async def undo_racing_a_deadline_skip(t: Tables, race: Interleaver) -> str:
    """Bob approves taking back alice's pass just as his own deadline passes (the clock would pass for
    him)."""
    game_id, channel = await t.table([ALICE, BOB], deadline_hours=24, on_timeout="skip")
    await t.pledge(game_id, ALICE)
    await t.pledge(game_id, BOB)  # both pledged: revealed, alice draws or passes
    await t.first.play(game_id, ALICE, key="pass")
    _, plan, others = await t.first.undo_request(channel, ALICE)
    assert others == ["bob"]
    version = plan.last_version
    undo, skip = await race.race(
        [
            ("undo", lambda: t.first.undo_vote(game_id, BOB, version, True)),
            ("deadline", lambda: t.second.time_out(game_id, 1, version=version, holder=BOB)),
        ]
    )
    await t.check_log(game_id)
    log = await t.reader.actions(game_id)
    if undo.error is None:
        assert undo.value[0] == "done" and log[-1].action["kind"] == "__undo__"
        if "moved on before the timeout" in skip.refusal:
            return "undo; the deadline found the game moved on"
        assert "moved first" in skip.refusal, skip.refusal  # the other process committed first
        return "undo; the deadline's pass refused at its commit"
    assert skip.error is None and skip.value.outcome == "played"
    assert log[-1].user_id == 0 and log[-1].action == {"kind": "pass"}
    assert "moved on" in undo.refusal, undo.refusal
    return "the clock passed for bob; the undo refused (the game moved on)"


async def replacement_racing_the_players_move(t: Tables, race: Interleaver) -> str:
    """bob's approval hands dave's seat to erin while dave makes a move."""
    game_id, channel = await t.table([ALICE, BOB, DAVE])
    await t.first.replace_request(channel, ALICE, DAVE, ERIN, "erin", is_admin=False)
    key = await t.pledge_key(game_id, DAVE)
    seat, move = await race.race(
        [
            ("replacement", lambda: t.first.replace_vote(game_id, BOB, DAVE, ERIN, "erin")),
            ("move", lambda: t.second.play(game_id, DAVE, key=key)),
        ]
    )
    await t.check_log(game_id)
    assert seat.error is None and seat.value[1] is True, seat
    assert [s.user_id for s in await t.reader.seats(game_id)] == [ALICE, BOB, ERIN]
    assert len(await t.outbox(game_id, "notice", "now plays in")) == 1
    (welcome,) = await t.outbox(game_id, "dm", "You took over this seat")
    log = await t.reader.actions(game_id)
    if move.error is None:
        assert [(r.seat, r.user_id) for r in log] == [(2, DAVE)]
        assert welcome.payload["buttons"] is None  # erin's seat had moved: nothing to do yet
        return "dave's move, then the seat to erin"
    assert log == []
    assert move.refusal in (
        "You are not playing in this game.",
        f"{ALREADY}this seat was handed to someone else before the move, so it was not made.",
    ), move.refusal
    assert welcome.payload["buttons"] == "menu"  # erin must pledge in dave's place
    return "the seat to erin; dave's move refused"


async def take_seat_pressed_twice(t: Tables, race: Interleaver) -> str:
    """The clock dropped bob; erin presses Take the seat twice at once."""
    game_id, _ = await t.table([ALICE, BOB], deadline_hours=24, on_timeout="replace")
    assert (await t.first.time_out(game_id, 1, version=0, holder=BOB)).outcome == "dropped"
    one, two = await race.race(
        [
            ("press 1", lambda: t.first.take_seat(game_id, 1, ERIN, "erin")),
            ("press 2", lambda: t.second.take_seat(game_id, 1, ERIN, "erin")),
        ]
    )
    winner, loser = (one, two) if one.error is None else (two, one)
    assert winner.error is None and loser.refusal == f"{ALREADY}you took this seat.", (one, two)
    assert [s.user_id for s in await t.reader.seats(game_id)] == [ALICE, ERIN]
    assert len(await t.outbox(game_id, "notice", "takes the empty seat")) == 1
    assert len(await t.outbox(game_id, "dm", "You took over this seat")) == 1
    return "seated once, the other press told it was decided"


async def two_newcomers_for_one_seat(t: Tables, race: Interleaver) -> str:
    """The clock dropped bob; erin and frank press Take the seat at once."""
    game_id, _ = await t.table([ALICE, BOB], deadline_hours=24, on_timeout="replace")
    assert (await t.first.time_out(game_id, 1, version=0, holder=BOB)).outcome == "dropped"
    erin, frank = await race.race(
        [
            ("erin", lambda: t.first.take_seat(game_id, 1, ERIN, "erin")),
            ("frank", lambda: t.second.take_seat(game_id, 1, FRANK, "frank")),
        ]
    )
    winner, loser = (erin, frank) if erin.error is None else (frank, erin)
    new = ERIN if winner.name == "erin" else FRANK
    assert winner.error is None and loser.refusal == f"{ALREADY}<@{new}> took that seat.", (erin, frank)
    assert [s.user_id for s in await t.reader.seats(game_id)] == [ALICE, new]
    assert len(await t.outbox(game_id, "notice", "takes the empty seat")) == 1
    (welcome,) = await t.outbox(game_id, "dm", "You took over this seat")
    assert welcome.target == new
    return f"{winner.name} seated, {loser.name} told it was decided"


async def undo_asked_twice(t: Tables, race: Interleaver) -> str:
    """alice presses Undo twice at once: one request (one post), the other told it stands."""
    game_id, channel = await t.table([ALICE, BOB, CAROL])
    await t.pledge(game_id, ALICE)
    one, two = await race.race(
        [
            ("press 1", lambda: t.first.undo_request(channel, ALICE)),
            ("press 2", lambda: t.second.undo_request(channel, ALICE)),
        ]
    )
    winner, loser = (one, two) if one.error is None else (two, one)
    assert winner.error is None and winner.value[2] == ["bob", "carol"], (one, two)
    assert loser.refusal == "You have asked for this undo already. Waiting for: bob, carol.", loser.refusal
    assert await t.votes(game_id) == [(f"undo:{winner.value[1].last_version}", ALICE)]
    return "one request, the other press told it stands"


async def undo_approved_twice(t: Tables, race: Interleaver) -> str:
    """bob's Approve of alice's undo, the only one needed, pressed twice at once."""
    game_id, channel = await t.table([ALICE, BOB])
    await t.pledge(game_id, ALICE)
    _, plan, _ = await t.first.undo_request(channel, ALICE)
    one, two = await race.race(
        [
            ("press 1", lambda: t.first.undo_vote(game_id, BOB, plan.last_version, True)),
            ("press 2", lambda: t.second.undo_vote(game_id, BOB, plan.last_version, True)),
        ]
    )
    winner, loser = (one, two) if one.error is None else (two, one)
    assert winner.error is None and winner.value[0] == "done", (one, two)
    assert loser.refusal == f"{ALREADY}everyone agreed, and it was taken back.", loser.refusal
    await t.check_log(game_id)
    assert [r.action["kind"] for r in await t.reader.actions(game_id)] == ["pledge", "__undo__"]
    assert await t.votes(game_id) == []
    return "taken back once, the other press told it was decided"


async def abandon_racing_a_move(t: Tables, race: Interleaver) -> str:
    """alice agreed to abandon; bob agrees too while alice makes a move (which keeps the game going)."""
    game_id, channel = await t.table([ALICE, BOB])
    assert (await t.first.abandon(channel, ALICE, is_admin=False))[1] is False
    key = await t.pledge_key(game_id, ALICE)
    agree, move = await race.race(
        [
            ("abandon", lambda: t.first.abandon(channel, BOB, is_admin=False)),
            ("move", lambda: t.second.play(game_id, ALICE, key=key)),
        ]
    )
    game = await t.reader.game(game_id)
    said = await t.outbox(game_id, "notice", "abandoned")
    if agree.error is None and agree.value[1]:
        assert game.status == "abandoned" and len(said) == 1
        assert move.error is not None and (
            move.refusal
            in ("That game no longer exists.", f"{ALREADY}the game was abandoned, so the move was not made.")
        ), move.refusal
        assert await t.reader.actions(game_id) == []
        return "abandoned; the move refused"
    assert move.error is None and game.status == "active" and not said
    assert agree.error is None and agree.value[2] == ["alice"]  # the earlier agreement lapsed with the move
    return "the move; the abandon vote starts again"


PAIRS: list[Pair] = [
    two_proposals_for_one_seat,
    two_approvals_of_one_proposal,
    same_approve_pressed_twice,
    approval_racing_a_move,
    undo_racing_a_deadline_skip,
    replacement_racing_the_players_move,
    take_seat_pressed_twice,
    two_newcomers_for_one_seat,
    undo_asked_twice,
    undo_approved_twice,
    abandon_racing_a_move,
]


# ---- running them ---------------------------------------------------------------------------------


async def open_tables(url: str) -> Tables:
    clock = FakeClock()
    interleaver = Interleaver()
    services = []
    conflicts: Counter[str] = Counter()
    for _ in range(2):
        store = await Store.open(url)
        interleaver.wrap(store)
        count_conflicts(store, conflicts)
        service = GameService(store, clock=clock)
        interleaver.wrap_locks(service.locks)
        services.append(service)
    return Tables(
        services=services, reader=await Store.open(url), interleaver=interleaver, conflicts=conflicts
    )


def count_conflicts(store: Store, conflicts: Counter[str]) -> None:
    """Count the commits the store refused because another process had changed the table first."""
    for name in ("commit_decision", "commit_move"):
        original = getattr(store, name)

        async def checked(*args, _original=original, **kwargs):  # noqa: ANN002, ANN003, ANN202
            try:
                return await _original(*args, **kwargs)
            except (DecisionConflict, MoveConflict):
                conflicts["caught"] += 1
                raise

        setattr(store, name, checked)


@pytest.mark.parametrize("processes", [1, 2], ids=["one-process", "two-processes"])
async def test_each_pair_of_decisions_has_one_outcome(store_url: str, processes: int) -> None:
    t = await open_tables(store_url)
    t.two = processes == 2
    backend = store_url.split(":", 1)[0]
    lines = []
    try:
        for number, pair in enumerate(PAIRS):
            outcomes: Counter[str] = Counter()
            hits = runs = 0
            t.conflicts.clear()
            while hits < HITS and runs < RUNS:
                t.interleaver.reset(seed=1000 * number + runs)
                outcomes[await pair(t, t.interleaver)] += 1
                hits += t.interleaver.overlapped()
                runs += 1
            assert hits, f"{pair.__name__}: no race hit in {runs} runs"
            shown = "; ".join(f"{count} × {what}" for what, count in outcomes.most_common())
            lines.append(
                f"{backend:10} {processes} proc  {pair.__name__:38} runs {runs:3}  races hit {hits:3}"
                f"  store conflicts {t.conflicts['caught']:3}  outcomes: {shown}"
            )
    finally:
        print("\n" + "\n".join([describe(), *lines]))
        for service in t.services:
            await service.store.close()
        await t.reader.close()
