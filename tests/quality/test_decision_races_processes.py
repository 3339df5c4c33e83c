"""The decision races of `test_decision_races.py` again, through Discord, on two real bot processes.

Two `python -m bot` processes share one database (a SQLite file, then PostgreSQL) and both run the
emulator's two shards, as a restarted process overlaps the one it replaces: the emulator hands each
interaction to the next of them (`Gateway.routing = "round_robin"`), so the two clicks of a race go to
different processes and only the database keeps them apart. Tables are opened in a guild of each
shard in turn. What each user sees is checked: one public line per decision, one welcome message
for the newcomer, the loser's ephemeral "Already decided: …", and no error in either process's log.
Each pair runs until `PROCESS_RACE_HITS` races were hit (both clicks in flight before either was
answered), at most `PROCESS_RACE_RUNS` runs; the figures are printed (run with `-s`).
"""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench.machine import describe
from bot.emulator.driver import InteractionResult, UserSession
from bot.emulator.server import FakeDiscord
from bot.storage.store import Store
from tests.quality.support import BotProcess, move_options, open_menu, turn_messages, until

HITS = int(os.environ.get("PROCESS_RACE_HITS", "2"))
RUNS = int(os.environ.get("PROCESS_RACE_RUNS", "6"))
USERS = ("alice", "bob", "carol", "dave", "erin", "frank")
ALREADY = "⚠️ Already decided: "


@dataclass
class Discord:
    server: FakeDiscord
    guilds: list[int]
    users: dict[str, UserSession]
    reader: Store
    tables: int = 0

    def user(self, name: str) -> UserSession:
        return self.users[name]

    async def table(self, players: tuple[str, ...], **clock: float | str) -> int:
        """A new channel, alternately in each shard's guild, with a started game of the test game."""
        self.tables += 1
        channel = self.server.add_channel(self.guilds[self.tables % 2], f"race-{self.tables}")
        host = self.user(players[0])
        opened = await host.slash(channel, "game new", game="test-highcard", seed=self.tables)
        assert not opened.ephemeral, opened.content
        for name in players[1:]:
            joined = await self.user(name).slash(channel, "game join")
            assert "joined" in joined.content, joined.content
        if clock:
            assert "⚠️" not in (await host.slash(channel, "game clock", **clock)).content
        assert "has started" in (await host.slash(channel, "game start")).content
        await until(lambda: bool(turn_messages(self.server, channel)), what="the first turn post")
        return channel

    def said(self, channel: int, words: str) -> list[str]:
        """The channel's announcements with `words`; a vote's own message, edited to show its outcome
        once decided, is the ballot, not a second announcement."""
        return [
            m.content
            for m in self.server.public_messages(channel)
            if words in m.content and " proposes that " not in m.content
        ]

    def welcomes(self, name: str, channel: int) -> int:
        """The welcome messages `name` got for a seat at the game of `channel`."""
        return sum(
            "You took over this seat" in m.content and f"<#{channel}>" in m.content
            for m in self.user(name).dms()
        )

    async def owed(self, channel: int, kind: str, words: str) -> int:
        """How many rows of `kind` with `words` the channel's game owes Discord, as stored."""
        game = await self.reader.latest_game_in(channel)
        return sum(
            r.kind == kind and words in r.payload["content"] for r in await self.reader.outbox(game.id)
        )

    async def propose(self, channel: int, asker: str, old: str, new: str) -> InteractionResult:
        asked = await self.user(asker).slash(
            channel, "game replace", old=self.user(old).id, new=self.user(new).id
        )
        assert "Still to agree" in asked.content and not asked.ephemeral, asked.content
        return asked

    def approve(self, result: InteractionResult, name: str) -> Callable[[], Awaitable[InteractionResult]]:
        """`name` pressing Approve under the vote message `result` posted."""
        user = self.user(name)
        button = next(cid for label, cid, _ in user.buttons(result.message.id) if label == "Approve")
        return lambda: user.click(result.message.id, button)

    async def move_button(self, channel: int, name: str) -> Callable[[], Awaitable[InteractionResult]]:
        """`name` opens their menu now; the returned click pledges their first card."""
        user = self.user(name)
        menu = await open_menu(user, turn_messages(self.server, channel)[-1])
        assert menu is not None and menu.message is not None
        custom_id, _ = move_options(menu.message)[0]
        return lambda: user.click(menu.message.id, custom_id)

    async def settled(self, condition: Callable[[], bool], what: str) -> None:
        await until(condition, timeout=30, what=what)
        await asyncio.sleep(0.3)  # anything sent twice would arrive by now


def in_flight_together(results: list[InteractionResult]) -> bool:
    """Every click was sent before any of them was answered."""
    sent = [r.record.created_mono for r in results]
    answered = [r.record.callback_mono or float("inf") for r in results]
    return max(sent) < min(answered)


async def race(*clicks: Callable[[], Awaitable[InteractionResult]]) -> list[InteractionResult]:
    return list(await asyncio.gather(*(click() for click in clicks)))


def done(result: InteractionResult) -> bool:
    return result.ephemeral and result.content.startswith("✅ Done:")


def decided(result: InteractionResult) -> bool:
    return result.ephemeral and result.content.startswith(ALREADY)


# ---- the pairs ------------------------------------------------------------------------------------


async def two_proposals_for_one_seat(d: Discord) -> tuple[list[InteractionResult], str]:
    channel = await d.table(("alice", "bob", "carol", "dave"))
    first = await d.propose(channel, "alice", "dave", "erin")
    await d.approve(first, "bob")()  # counted; the proposal's message: still to agree: carol
    second = await d.propose(channel, "alice", "dave", "frank")
    await d.approve(second, "carol")()  # still to agree: bob
    results = await race(d.approve(first, "carol"), d.approve(second, "bob"))
    erin, frank = results
    assert sorted([done(erin), done(frank)]) == [False, True], (erin.content, frank.content)
    winner, loser = ("erin", "frank") if done(erin) else ("frank", "erin")
    assert decided(frank if winner == "erin" else erin)
    await d.settled(lambda: d.welcomes(winner, channel) == 1, f"{winner}'s welcome")
    assert len(d.said(channel, "now plays in")) == 1 and await d.owed(channel, "notice", "now plays in") == 1
    assert d.welcomes(loser, channel) == 0
    return results, f"{winner} seated, {loser} told it was decided"


async def two_approvals_of_one_proposal(d: Discord) -> tuple[list[InteractionResult], str]:
    channel = await d.table(("alice", "bob", "carol", "dave"))
    asked = await d.propose(channel, "alice", "dave", "erin")
    results = await race(d.approve(asked, "bob"), d.approve(asked, "carol"))
    assert sum(done(r) for r in results) == 1, [r.content for r in results]
    waited = next(r for r in results if not done(r))
    assert waited.ephemeral and "Still to agree" in waited.content, waited.content  # counted privately
    await d.settled(lambda: d.welcomes("erin", channel) == 1, "erin's welcome")
    assert len(d.said(channel, "now plays in")) == 1
    return results, "one waited, the other decided"


async def same_approve_pressed_twice(d: Discord) -> tuple[list[InteractionResult], str]:
    channel = await d.table(("alice", "bob", "carol", "dave"))
    asked = await d.propose(channel, "alice", "dave", "erin")
    await d.approve(asked, "bob")()  # counted; still to agree: carol
    results = await race(d.approve(asked, "carol"), d.approve(asked, "carol"))
    assert sorted([done(r) for r in results]) == [False, True], [r.content for r in results]
    assert any(decided(r) for r in results), [r.content for r in results]
    await d.settled(lambda: d.welcomes("erin", channel) == 1, "erin's welcome")
    assert len(d.said(channel, "now plays in")) == 1
    return results, "one seat change, the other press told it was decided"


async def replacement_racing_the_players_move(d: Discord) -> tuple[list[InteractionResult], str]:
    channel = await d.table(("alice", "bob", "dave"))
    asked = await d.propose(channel, "alice", "dave", "erin")
    results = await race(d.approve(asked, "bob"), await d.move_button(channel, "dave"))
    seat, move = results
    assert done(seat), seat.content
    await d.settled(lambda: d.welcomes("erin", channel) == 1, "erin's welcome")
    assert len(d.said(channel, "now plays in")) == 1
    game = await d.reader.latest_game_in(channel)
    log = await d.reader.actions(game.id)
    if move.answer.startswith("✅"):
        assert [(r.seat, r.user_id) for r in log] == [(2, d.user("dave").id)]
        return results, "dave's move, then the seat to erin"
    assert move.answer.startswith("⚠️") and log == [], move.answer
    return results, "the seat to erin; dave's move refused"


async def approval_racing_a_move(d: Discord) -> tuple[list[InteractionResult], str]:
    channel = await d.table(("alice", "bob", "carol"))
    await (await d.move_button(channel, "alice"))()
    asked = await d.user("alice").slash(channel, "undo")
    assert "Waiting for: bob, carol" in asked.content, asked.content
    waiting = await d.approve(asked, "bob")()
    assert "Waiting for: carol" in waiting.content, waiting.content
    results = await race(d.approve(asked, "carol"), await d.move_button(channel, "bob"))
    approval, move = results
    game = await d.reader.latest_game_in(channel)
    undone = [r for r in await d.reader.actions(game.id) if r.action.get("kind") == "__undo__"]
    if approval.content.startswith("↩️"):
        assert len(undone) == 1
        if move.answer.startswith("✅"):
            return results, "undo, then the move"
        assert move.answer.startswith("⚠️"), move.answer
        return results, "undo; the move refused"
    assert approval.content.startswith("⚠️") and move.answer.startswith("✅") and not undone
    return results, "the move; the approval refused"


async def two_newcomers_for_one_seat(d: Discord) -> tuple[list[InteractionResult], str]:
    channel = await d.table(("alice", "bob"), deadline_hours=0.0005, on_timeout="replace")  # 1.8 s
    await until(lambda: bool(d.said(channel, "bob ran out of time")), timeout=30, what="bob dropped")
    notice = next(m for m in d.server.public_messages(channel) if "bob ran out of time" in m.content)
    clicks = []
    for name in ("erin", "frank"):
        user = d.user(name)
        ((label, button, _),) = user.buttons(notice.id)
        assert label == "Take bob's seat"
        clicks.append(lambda user=user, button=button: user.click(notice.id, button))
    results = await race(*clicks)
    erin, frank = results
    assert sorted([decided(erin), decided(frank)]) == [False, True], (erin.content, frank.content)
    winner = "frank" if decided(erin) else "erin"
    await d.settled(lambda: d.welcomes(winner, channel) == 1, f"{winner}'s welcome")
    assert len(d.said(channel, "takes the empty seat")) == 1
    assert d.welcomes("frank" if winner == "erin" else "erin", channel) == 0
    return results, f"{winner} seated, the other told it was decided"


async def undo_button_pressed_twice(d: Discord) -> tuple[list[InteractionResult], str]:
    channel = await d.table(("alice", "bob"))
    pledged = await (await d.move_button(channel, "alice"))()
    alice = d.user("alice")
    undo = next(cid for label, cid, _ in alice.buttons(pledged.message.id) if label.startswith("Undo"))
    results = await race(*(lambda: alice.click(pledged.message.id, undo) for _ in range(2)))
    asked = [r for r in results if not r.ephemeral]
    assert len(asked) == 1 and "asks to take back" in asked[0].content, [r.content for r in results]
    other = next(r for r in results if r.ephemeral)
    assert "You have asked for this undo already" in other.content, other.content
    return results, "one request posted, the other press told it stands"


PAIRS = [
    two_proposals_for_one_seat,
    two_approvals_of_one_proposal,
    same_approve_pressed_twice,
    replacement_racing_the_players_move,
    approval_racing_a_move,
    two_newcomers_for_one_seat,
    undo_button_pressed_twice,
]


@dataclass
class Figures:
    runs: int = 0
    hits: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)


async def test_decision_races_on_two_bot_processes(tmp_path: Path, store_url: str) -> None:
    # The answer within 3 s is another test's subject (tests/e2e/test_platform.py); here a machine busy
    # with other runs may start the processes slowly, and the races, not the time, are checked.
    server = FakeDiscord(shard_count=2, ack_timeout=15.0)
    await server.start()
    server.gateway.routing = "round_robin"
    processes = [
        BotProcess(
            server, tmp_path / f"process-{i}", database_url=store_url, shards=(2, "0,1"), test_game=True
        )
        for i in range(2)
    ]
    lines: list[str] = []
    reader = None
    try:
        guilds = [server.add_guild(f"Shard {i}", shard=i) for i in range(2)]
        users = {name: server.user(server.add_user(name)) for name in USERS}
        for process in processes:
            await process.start(timeout=120)
        reader = await Store.open(store_url)
        d = Discord(server=server, guilds=guilds, users=users, reader=reader)
        backend = store_url.split(":", 1)[0]
        for pair in PAIRS:
            figures = Figures()
            while figures.hits < HITS and figures.runs < RUNS:
                results, outcome = await pair(d)
                figures.runs += 1
                figures.hits += in_flight_together(results)
                figures.outcomes[outcome] += 1
            assert figures.hits, f"{pair.__name__}: no race hit in {figures.runs} runs"
            shown = "; ".join(f"{count} × {what}" for what, count in figures.outcomes.most_common())
            lines.append(
                f"{backend:10} 2 bot processes  {pair.__name__:38} runs {figures.runs:2}"
                f"  races hit {figures.hits:2}  outcomes: {shown}"
            )
        for process in processes:
            log = process.log_text()
            assert "Traceback" not in log and " ERROR " not in log, log[-3000:]
        unexpected = [e for e in server.errors if "not acknowledged" not in e and "10062" not in e]
        assert not unexpected, unexpected
    finally:
        print("\n" + "\n".join([describe(), *lines]))
        for process in processes:
            process.stop()
        if reader is not None:
            await reader.close()
        await server.stop()
