"""Two bot processes on two shards over one database, one of them SIGKILLed and restarted.

The emulator runs in the test with two shards; each process is a real `python -m bot` with
SHARD_COUNT=2 and its own SHARD_IDS. Games are played in a guild of each shard at once. Every
interaction must reach only the process of its guild's shard, every acknowledged move must be in the
log exactly once, the restarted process must announce what the killed one could not, and a reminder
that comes due while both run must be sent once, by the process that owns the game's guild.

The database is the `database_url` fixture: each backend in turn (two processes on one SQLite WAL
file, then on one PostgreSQL database).
`QUALITY_LONG=1` runs more kill cycles.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.app.service import GameService
from bot.emulator.driver import UserSession
from bot.emulator.server import FakeDiscord
from bot.storage.store import GameRecord, Store
from rules import registry
from tests.quality.support import BotProcess, moves_at_once, shows_move, turn_messages, until

LONG = bool(os.environ.get("QUALITY_LONG"))
CYCLES = 6 if LONG else 2
GAME = "iron-bridge-gorge"
MOVE = re.compile(r"g:\d+:act:|s:\d+:pick:")
"""The custom_id of a component that makes a move (see bot/interface/components.py)."""
REMINDER_HOURS = 0.002
"""7.2 s: the reminder tables' first reminders come due while both processes play."""


@pytest.fixture
def database_url(store_url: str) -> str:
    """The one database both processes share: a SQLite file, then a PostgreSQL database."""
    return store_url


@asynccontextmanager
async def open_store(database_url: str) -> AsyncIterator[Store]:
    """The test's own connection to that database, to read the log afterwards."""
    store = await Store.open(database_url)
    try:
        yield store
    finally:
        await store.close()


async def open_table(server: FakeDiscord, channel: int, users: list[UserSession], **clock: float) -> None:
    host = users[0]
    opened = await host.slash(channel, "game new", game=GAME, seed=channel % 1000)
    assert not opened.ephemeral, opened.content
    for user in users[1:]:
        joined = await user.slash(channel, "game join")
        assert not joined.ephemeral, joined.content
    if clock:
        set_clock = await host.slash(channel, "game clock", **clock)
        assert "⚠️" not in set_clock.content, set_clock.content
    assert "has started" in (await host.slash(channel, "game start")).content
    await until(lambda: bool(turn_messages(server, channel)), what=f"the first turn message in {channel}")


def first_reminders(server: FakeDiscord, channel: int) -> list[str]:
    """Who each first reminder in the channel pinged (later ones say "(reminder 2)" and so on)."""
    return [
        found[1]
        for message in server.public_messages(channel)
        if message.content.startswith("⏰")
        and "(reminder" not in message.content
        and (found := re.search(r"<@(\d+)>", message.content))
    ]


def interactions_heard(server: FakeDiscord, shard: int) -> set[int]:
    """Every interaction the emulator sent to a connection of `shard` (all its sessions, dead ones too)."""
    return {
        int(data["id"])
        for session in server.gateway.shard_sessions(shard)
        for data in session.dispatched("INTERACTION_CREATE")
    }


async def check_log(store: Store, game: GameRecord, acknowledged: list[int]) -> list[int]:
    """Versions without gaps, each interaction once, every acknowledged move there, the snapshot the
    replay of the log. Returns the logged interaction ids."""
    log = await store.actions(game.id)
    assert [record.version for record in log] == list(range(1, game.version + 1))
    ids = [record.interaction_id for record in log]
    assert len(ids) == len(set(ids)), "an interaction was applied twice"
    missing = set(acknowledged) - set(ids)
    assert not missing, f"confirmed moves missing from the log of game {game.id}: {missing}"
    assert len(acknowledged) == len(set(acknowledged))
    states = await GameService(store).replay(game)
    assert registry.get(game.kind).dump_state(states[-1]) == game.state, (
        "the snapshot is not the replay of the log"
    )
    return [i for i in ids if i is not None]


async def test_two_shard_processes_on_one_database_lose_and_double_nothing(
    tmp_path: Path, database_url: str
) -> None:
    server = FakeDiscord(shard_count=2)
    await server.start()
    processes = [
        BotProcess(server, tmp_path / f"process-{i}", database_url=database_url, shards=(2, str(i)))
        for i in range(2)
    ]
    try:
        guilds = [server.add_guild(f"Shard {i}", shard=i) for i in range(2)]
        tables = [server.add_channel(guild, "table") for guild in guilds]
        slow = [server.add_channel(guild, "slow") for guild in guilds]
        users = [server.user(server.add_user(name)) for name in ("alice", "bob", "carol")]
        for process in processes:
            await process.start()
        for shard, process in enumerate(processes):
            assert [session.shard for session in process.sessions] == [(shard, 2)]

        # Reminders first: they come due while both processes play below.
        for channel in slow:
            await open_table(server, channel, users[:2], reminder_hours=REMINDER_HOURS)
        for channel in tables:
            await open_table(server, channel, users)

        rng = random.Random(5)
        acknowledged: dict[int, list[int]] = {0: [], 1: []}

        async def both(rounds: int) -> None:
            for _ in range(rounds):
                found = await asyncio.gather(
                    *(
                        moves_at_once(users, server, tables[shard], random.Random(rng.random()))
                        for shard in (0, 1)
                    )
                )
                for shard in (0, 1):
                    acknowledged[shard] += found[shard]

        await both(3)
        await until(
            lambda: all(first_reminders(server, channel) for channel in slow),
            timeout=60,
            what="the first reminders of both slow tables",
        )
        await server.settle()
        for channel in slow:
            pinged = first_reminders(server, channel)
            assert len(pinged) == len(set(pinged)), f"a reminder was sent twice: {pinged}"

        for _cycle in range(CYCLES):
            await both(2)
            # Kill shard 1's process between a move's commit and its answer, moves in flight in both guilds.
            held_before = len(server.held)
            server.hold_responses(lambda rec: rec.guild_id == guilds[1] and bool(MOVE.match(rec.name)))
            in_flight = asyncio.gather(
                *(
                    moves_at_once(users, server, tables[shard], random.Random(rng.random()))
                    for shard in (0, 1)
                )
            )
            await until(
                lambda held_before=held_before: len(server.held) > held_before,
                what="a move on shard 1 waiting for its answer",
            )
            processes[1].kill()
            server.release_responses()
            found = await in_flight
            for shard in (0, 1):
                acknowledged[shard] += found[shard]
            # Shard 0's guild plays on while shard 1 is down.
            while_down = []
            for _ in range(3):
                while_down += await moves_at_once(users, server, tables[0], rng)
            assert while_down, "shard 0 stopped answering when shard 1's process died"
            acknowledged[0] += while_down
            await processes[1].start()
        before = len(acknowledged[1])
        await both(4)
        assert len(acknowledged[1]) > before, "no move was confirmed on shard 1 after its restart"
        assert all(len(found) >= 3 * CYCLES for found in acknowledged.values()), "too few confirmed moves"

        async with open_store(database_url) as store:
            for shard in (0, 1):
                game = await store.latest_game_in(tables[shard])
                assert game is not None
                logged = await check_log(store, game, acknowledged[shard])
                if shard == 1:  # the moves whose answer died with the process were committed, once
                    held = {rec.id for rec in server.held}
                    killed = held & set(logged)  # (a held answer could also be a refusal: not logged)
                    assert killed, "no kill fell between a commit and its answer"
                    assert not held & set(acknowledged[1])
                    # ...and the restarted process posted them, which the killed one never did.
                    lines = [
                        f"• {event['text']}"
                        for record in await store.actions(game.id)
                        if record.interaction_id in killed
                        for event in record.events
                    ]
                    assert lines
                    await until(
                        lambda lines=lines: all(
                            line in "\n".join(m.content for m in turn_messages(server, tables[1]))
                            for line in lines
                        ),
                        what="the turn messages of the moves whose process was killed",
                    )
                # Each interaction reached only the connection of its guild's shard.
                assert set(logged) <= interactions_heard(server, shard)
                assert not set(logged) & interactions_heard(server, 1 - shard)
                print(
                    f"\nshard {shard}: confirmed {len(acknowledged[shard])}, logged {len(logged)},"
                    f" version {game.version}, errors {len(server.errors)}"
                )
                # The restarted process announced every committed move of its own games.
                last = (await store.actions(game.id))[-1]
                await until(
                    lambda last=last, shard=shard: shows_move(server, tables[shard], last),
                    what=f"the turn message of move {game.version} on shard {shard}",
                )
            # Each slow table's first reminder came from the process of its guild's shard.
            for shard in (0, 1):
                game = await store.latest_game_in(slow[shard])
                assert game is not None
                fired = f"reminder 1 of game {game.id} "
                assert fired in processes[shard].log_text()
                assert fired not in processes[1 - shard].log_text()
        unexpected = [e for e in server.errors if "not acknowledged" not in e and "10062" not in e]
        assert not unexpected, unexpected
    finally:
        for process in processes:
            process.stop()
        await server.stop()
