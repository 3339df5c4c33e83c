"""Sharding settings, and the store's shard filter: a process only claims and catches up its own games."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.config import Settings
from bot.interface.client import HostBot, ShardedHostBot, create_bot
from bot.storage.shards import Shards, owns
from bot.storage.store import Delivery, Store

ROOT = Path(__file__).resolve().parents[2]
NOW = 1_800_000_000.0


def guild_on(shard: int, count: int, n: int = 0) -> int:
    """A realistic guild id (a 2024 timestamp) that Discord routes to `shard` of `count`."""
    stamp = 1_100_000_000_000 // count * count + n * count + shard
    return (stamp << 22) | 12345


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)


def test_shard_settings_choose_the_shards_of_this_process() -> None:
    assert settings().shards is None
    assert settings(shard_count=3).shards == Shards(3, (0, 1, 2))
    assert settings(shard_count="4", shard_ids=" 2, 0,2 ").shards == Shards(4, (0, 2))
    assert settings(shard_count="", shard_ids="").shards is None
    for wrong, words in [
        ({"shard_ids": "1"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"shard_count": 2, "shard_ids": "2"}, "between 0 and 1"),
        ({"shard_count": 2, "shard_ids": "one"}, "separated by commas"),
        ({"shard_count": 0}, "at least 1"),
    ]:
        with pytest.raises(ValidationError, match=words):
            settings(**wrong)


def test_a_guild_belongs_to_the_shard_discord_sends_it_to() -> None:
    shards = Shards(3, (1,))
    assert [shards.shard_of(guild_on(s, 3, n=5)) for s in range(3)] == [0, 1, 2]
    assert shards.owns(guild_on(1, 3)) and not shards.owns(guild_on(0, 3))
    assert Shards(3, (0,)).owns(None)  # DMs and guildless games are shard 0's
    assert not shards.owns(None)
    assert owns(None, guild_on(2, 3))  # an unsharded process owns everything


def test_the_bot_is_sharded_exactly_when_shard_count_is_set() -> None:
    plain = create_bot(settings())
    assert type(plain) is HostBot and plain.owned_shards is None and plain.shard_count is None
    sharded = create_bot(settings(shard_count=2, shard_ids="1"))
    assert isinstance(sharded, ShardedHostBot)
    assert sharded.shard_count == 2 and sharded.shard_ids == [1]
    assert sharded.owned_shards == Shards(2, (1,))


def test_a_wrong_shard_setting_stops_the_start_with_a_sentence(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "SHARD_COUNT": "2", "SHARD_IDS": "0,5"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2
    assert "SHARD_IDS must be between 0 and 1" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


async def _game_with_timer(store: Store, guild_id: int | None, channel_id: int, due: float) -> int:
    game = await store.create_game(
        kind="test-highcard",
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=100,
        host_name="alice",
        options={},
        seed=7,
    )
    assert await store.start_game(game.id, "{}", [(0, "reminder", due)])
    return game.id


@pytest.fixture
async def games(tmp_path: Path) -> dict[str, int]:
    """Four started games with a due reminder each: guilds on shards 0 and 1 of 2, one without a guild."""
    store = await Store.open(tmp_path / "games.db")
    try:
        return {
            "shard0": await _game_with_timer(store, guild_on(0, 2), 1, NOW - 10),
            "shard1": await _game_with_timer(store, guild_on(1, 2), 2, NOW - 5),
            "shard1-later": await _game_with_timer(store, guild_on(1, 2, n=7), 3, NOW + 50),
            "no-guild": await _game_with_timer(store, None, 4, NOW - 1),
        }
    finally:
        await store.close()


async def test_two_processes_claim_only_their_own_shards_timers(
    tmp_path: Path, games: dict[str, int]
) -> None:
    first = await Store.open(tmp_path / "games.db")
    second = await Store.open(tmp_path / "games.db")
    try:
        mine, theirs = Shards(2, (0,)), Shards(2, (1,))
        assert await first.next_timer_due(shards=mine) == NOW - 10
        assert await second.next_timer_due(shards=theirs) == NOW - 5
        claimed_0, claimed_1 = await asyncio.gather(
            first.claim_due_timers(NOW, shards=mine), second.claim_due_timers(NOW, shards=theirs)
        )
        assert sorted(t.game_id for t in claimed_0) == sorted([games["shard0"], games["no-guild"]])
        assert [t.game_id for t in claimed_1] == [games["shard1"]]
        # Claimed, so nothing is left for anyone until the later one is due.
        assert await first.claim_due_timers(NOW) == []
        assert await second.next_timer_due(shards=theirs) == NOW + 50
        assert await first.next_timer_due(shards=mine) is None
        later = await first.claim_due_timers(NOW + 60, shards=mine)
        assert later == []  # shard 1's timer stays for shard 1's process, even once due
        assert [t.game_id for t in await second.claim_due_timers(NOW + 60, shards=theirs)] == [
            games["shard1-later"]
        ]
    finally:
        await first.close()
        await second.close()


async def test_unsharded_or_all_shards_claims_every_timer(tmp_path: Path, games: dict[str, int]) -> None:
    store = await Store.open(tmp_path / "games.db")
    try:
        assert await store.next_timer_due(shards=Shards(2, (0, 1))) == NOW - 10
        every = await store.claim_due_timers(NOW + 60)
        assert sorted(t.game_id for t in every) == sorted(games.values())
    finally:
        await store.close()


async def test_the_outbox_is_delivered_by_the_process_of_its_games_shard(
    tmp_path: Path, games: dict[str, int]
) -> None:
    """After a crash each process resumes only its own shards' deliveries; the others' are theirs."""
    store = await Store.open(tmp_path / "games.db")
    try:
        for game_id in games.values():
            await store.enqueue(
                game_id, 0, [Delivery(kind="post", target=1, payload={"content": "x"}, due_at=0.0)]
            )
        ones = await store.claim_outbox(NOW, shards=Shards(2, (1,)))
        assert {row.game_id for row in ones} == {games["shard1"], games["shard1-later"]}
        zeros = await store.claim_outbox(NOW, shards=Shards(2, (0,)))
        assert {row.game_id for row in zeros} == {games["shard0"], games["no-guild"]}
        assert await store.release_outbox_claims(shards=Shards(2, (0,))) == 2
        assert {row.game_id for row in await store.claim_outbox(NOW)} == {games["shard0"], games["no-guild"]}
    finally:
        await store.close()
