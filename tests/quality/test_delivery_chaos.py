"""Nothing owed is lost or posted twice: Discord faults on every kind of request, and SIGKILLs.

The bot is a real `python -m bot` subprocess on a SQLite file; the emulator fails a share of every
kind of REST request the bot makes (channel posts and edits, DM channels, interaction answers) with
503s, 500s beyond discord.py's own retries, 429s with `retry_after`, and connections dropped after
Discord did the work. Several channels play at once while the process is killed at random moments
and restarted. At the end (faults off, the outbox drained) every handoff of every game has exactly
one post, pinging exactly the seats newly to act; every delivered row is one message; every move
the bot confirmed is in the log once. `QUALITY_LONG=1` plays longer and kills more often.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections import Counter
from pathlib import Path

from bot.app.service import GameService
from bot.emulator.server import FakeDiscord
from bot.interface.delivery import nonce
from bot.storage.store import Store
from rules import registry
from tests.quality.support import BotProcess, handoffs, moves_at_once, turn_messages, until

LONG = bool(os.environ.get("QUALITY_LONG"))
KILLS = 20 if LONG else 10
MOVES = 1000 if LONG else 500
TABLES = (("iron-bridge-gorge", 3), ("city-of-iron", 2), ("iron-and-brass", 2), ("iron-bridge-gorge", 2))

FAULTS = (
    ("POST", r"/channels/\d+/messages", {"status": 503, "probability": 0.08}),
    ("POST", r"/channels/\d+/messages", {"status": 500, "probability": 0.02}),
    ("POST", r"/channels/\d+/messages", {"status": 429, "retry_after": 0.2, "probability": 0.05}),
    ("POST", r"/channels/\d+/messages", {"drop": True, "after_create": True, "probability": 0.05}),
    ("PATCH", r"/channels/\d+/messages/\d+", {"status": 503, "probability": 0.08}),
    ("PATCH", r"/channels/\d+/messages/\d+", {"drop": True, "after_create": True, "probability": 0.05}),
    ("POST", r"/users/@me/channels", {"status": 503, "probability": 0.05}),
    ("POST", r"/interactions/\d+/[^/]+/callback", {"status": 500, "probability": 0.02}),
)


async def test_faults_and_sigkills_lose_nothing_and_double_nothing(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("OUTBOX_RETRY_BASE", "0.05")
    server = FakeDiscord()
    await server.start()
    bot = BotProcess(server, tmp_path)
    try:
        guild = server.add_guild("Chaos")
        tables = []
        for index, (game, players) in enumerate(TABLES):
            channel = server.add_channel(guild, f"table-{index}")
            users = [server.user(server.add_user(f"p{index}-{n}")) for n in range(players)]
            tables.append((game, channel, users))
        await bot.start()
        for index, (game, channel, users) in enumerate(tables):
            assert not (await users[0].slash(channel, "game new", game=game, seed=index + 1)).ephemeral
            for user in users[1:]:
                assert not (await user.slash(channel, "game join")).ephemeral
            assert "has started" in (await users[0].slash(channel, "game start")).content
            await until(lambda c=channel: bool(turn_messages(server, c)), what="the first turn message")
        for seed, (method, path, fault) in enumerate(FAULTS):
            server.faults.add(method, path, seed=seed, **fault)

        rng = random.Random(18)
        acknowledged: list[int] = []
        kills = 0
        rounds_per_kill = max(1, MOVES // (KILLS * len(tables) * 2))

        async def play_round() -> list[int]:
            found = await asyncio.gather(
                *(
                    moves_at_once(users, server, channel, random.Random(rng.random()))
                    for _, channel, users in tables
                )
            )
            return [interaction for batch in found for interaction in batch]

        while len(acknowledged) < MOVES or kills < KILLS:
            for _ in range(rounds_per_kill):
                acknowledged += await play_round()
            if kills < KILLS:
                in_flight = asyncio.create_task(play_round())
                await asyncio.sleep(rng.uniform(0.0, 0.3))
                bot.kill()
                kills += 1
                acknowledged += await in_flight
                await bot.start()
        assert server.faults.injected, "no fault was injected"
        kinds = Counter(fault.kind for fault in server.faults.injected)

        server.faults.clear()
        bot.stop()
        await bot.start()  # the last process delivers whatever is still owed
        store = await Store.open(bot.db_path)
        try:

            async def owed() -> int:
                rows = [
                    row for game in await store.list_games(limit=100) for row in await store.outbox(game.id)
                ]
                return sum(1 for row in rows if row.status == "pending" and row.kind != "repaint")

            for _ in range(600):
                if await owed() == 0:
                    break
                await asyncio.sleep(0.1)
            assert await owed() == 0, "deliveries still pending after the faults stopped"
            await server.settle()
            await _check(server, store, tables, acknowledged)
        finally:
            await store.close()
        print(f"\n{len(acknowledged)} confirmed moves, {kills} kills, faults injected: {dict(kinds)}")
    finally:
        bot.stop()
        await server.stop()


async def _check(server: FakeDiscord, store: Store, tables, acknowledged: list[int]) -> None:
    service = GameService(store)
    logged: list[int] = []
    first_versions = {}
    for message in server.message_versions:
        first_versions.setdefault(message.id, message)
    for game_kind, channel, _users in tables:
        game = await store.latest_game_in(channel)
        assert game is not None and game.kind == game_kind
        records = await store.actions(game.id)
        assert [r.version for r in records] == list(range(1, game.version + 1))
        logged += [r.interaction_id for r in records if r.interaction_id is not None]
        states = await service.replay(game)
        assert registry.get(game.kind).dump_state(states[-1]) == game.state
        owed, _ = await handoffs(service, game)
        rows = await store.outbox(game.id)
        posts = [row for row in rows if row.kind == "post"]
        assert all(row.status == "sent" for row in posts), [(r.version, r.status, r.reason) for r in posts]
        posted = Counter(row.version for row in posts)
        assert not [v for v, n in posted.items() if n > 1], "a version was posted twice"
        assert set(owed) <= set(posted), f"handoffs never posted: {sorted(set(owed) - set(posted))}"
        public = {m.id: m for m in server.public_messages(channel)}
        for row in posts:
            message = public.get(row.message_id)
            assert message is not None, f"post of version {row.version} is not in the channel"
            pinged = set(first_versions[message.id].pinged_users)
            assert pinged == owed.get(row.version, set()), (row.version, pinged)
        # every delivered row is exactly one message: its nonce appears on one message only
        by_nonce = Counter(m.nonce for m in server.world.messages.values() if m.nonce)
        for row in rows:
            if row.status == "sent" and row.kind in ("post", "dm", "notice"):
                assert by_nonce[nonce(row)] == 1, (row.kind, row.version, by_nonce[nonce(row)])
        bot_posts = [m for m in server.public_messages(channel) if m.author_id == server.bot_user_id]
        assert len({m.id for m in bot_posts}) == len(bot_posts)
    assert len(logged) == len(set(logged)), "an interaction was applied twice"
    missing = set(acknowledged) - set(logged)
    assert not missing, f"confirmed moves missing from the log: {missing}"
