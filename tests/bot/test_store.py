"""The store's promises: migrations, one open game per channel, exactly-once moves, lobby seats."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import ChannelBusy, DuplicateInteraction, GameStatus, MoveConflict, Store


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(tmp_path / "games.db")
    yield store
    await store.close()


async def new_game(store: Store, channel: int = 10):
    return await store.create_game(
        kind="test-highcard",
        guild_id=1,
        channel_id=channel,
        host_id=100,
        host_name="alice",
        options={},
        seed=7,
    )


async def test_migrations_are_recorded_and_idempotent(tmp_path):
    store = await Store.open(tmp_path / "a.db")
    version = await store.schema_version()
    assert version >= 1
    assert await store.migrate() == version
    await store.close()
    again = await Store.open(tmp_path / "a.db")
    assert await again.schema_version() == version
    await again.close()


async def test_one_open_game_per_channel(store):
    game = await new_game(store)
    with pytest.raises(ChannelBusy):
        await new_game(store)
    await new_game(store, channel=11)
    await store.set_status(game.id, GameStatus.ABANDONED)
    await new_game(store)  # the channel is free again


async def test_seats_join_leave_renumber(store):
    game = await new_game(store)
    assert await store.add_seat(game.id, 200, "bob", max_players=3) == 1
    assert await store.add_seat(game.id, 200, "bob", max_players=3) is None  # already seated
    assert await store.add_seat(game.id, 300, "carol", max_players=3) == 2
    assert await store.add_seat(game.id, 400, "dave", max_players=3) is None  # full
    assert await store.remove_seat(game.id, 200)
    seats = await store.seats(game.id)
    assert [(s.seat, s.name) for s in seats] == [(0, "alice"), (1, "carol")]


async def _started(store: Store):
    game = await new_game(store)
    assert await store.start_game(game.id, '{"n": 0}')
    started = await store.game(game.id)
    assert started.status == GameStatus.ACTIVE and started.version == 0
    return started


async def test_commit_move_appends_and_bumps_version(store):
    game = await _started(store)
    version = await store.commit_move(
        game,
        seat=0,
        user_id=100,
        action={"kind": "x"},
        events=[{"text": "hi"}],
        state='{"n": 1}',
        interaction_id=5,
    )
    assert version == 1
    log = await store.actions(game.id)
    assert [(a.version, a.action, a.events) for a in log] == [(1, {"kind": "x"}, [{"text": "hi"}])]
    assert (await store.game(game.id)).state == '{"n": 1}'


async def test_stale_version_conflicts_and_writes_nothing(store):
    game = await _started(store)
    await store.commit_move(game, seat=0, user_id=100, action={}, events=[], state="{}", interaction_id=1)
    with pytest.raises(MoveConflict):
        await store.commit_move(game, seat=0, user_id=100, action={}, events=[], state="{}", interaction_id=2)
    assert len(await store.actions(game.id)) == 1


async def test_repeated_interaction_applies_once(store):
    game = await _started(store)
    await store.commit_move(game, seat=0, user_id=100, action={}, events=[], state="{}", interaction_id=9)
    fresh = await store.game(game.id)
    with pytest.raises(DuplicateInteraction):
        await store.commit_move(
            fresh, seat=0, user_id=100, action={}, events=[], state="{}", interaction_id=9
        )
    assert len(await store.actions(game.id)) == 1


async def test_concurrent_commits_exactly_one_wins(store):
    game = await _started(store)

    async def attempt(interaction_id: int):
        try:
            return await store.commit_move(
                game,
                seat=0,
                user_id=100,
                action={"i": interaction_id},
                events=[],
                state="{}",
                interaction_id=interaction_id,
            )
        except MoveConflict:
            return None

    results = await asyncio.gather(*(attempt(i) for i in range(20)))
    assert sum(r is not None for r in results) == 1
    assert len(await store.actions(game.id)) == 1


async def test_two_connections_on_one_file_exactly_one_wins(tmp_path):
    """Two processes share one SQLite file: the version check holds across connections."""
    first = await Store.open(tmp_path / "shared.db")
    second = await Store.open(tmp_path / "shared.db")
    game = await _started(first)
    same = await second.game(game.id)

    async def attempt(store, interaction_id):
        try:
            await store.commit_move(
                same, seat=0, user_id=1, action={}, events=[], state="{}", interaction_id=interaction_id
            )
            return True
        except MoveConflict:
            return False

    results = await asyncio.gather(attempt(first, 1), attempt(second, 2))
    assert sorted(results) == [False, True]
    await first.close()
    await second.close()


async def test_finishing_move_sets_result(store):
    game = await _started(store)
    await store.commit_move(
        game,
        seat=0,
        user_id=100,
        action={},
        events=[],
        state="{}",
        interaction_id=None,
        finished_result='{"w": 0}',
    )
    done = await store.game(game.id)
    assert done.status == GameStatus.FINISHED and done.result == '{"w": 0}' and done.finished_at
