"""The store's decision transaction (issue 37), on both backends: a decision writes all it rules (votes,
the seat change, its timers and its outbox rows) at once, and nothing at all when the table changed
after it was read; a move is refused once its seat has changed hands.
"""

from __future__ import annotations

import pytest

from bot.storage.store import (
    DecisionConflict,
    Delivery,
    GameStatus,
    Ruling,
    SeatChange,
    SeatChanged,
    Seen,
    Store,
)


@pytest.fixture
async def store(store_url):
    store = await Store.open(store_url)
    yield store
    await store.close()


async def table(store: Store):
    """A started game of alice (100) and dave (400)."""
    game = await store.create_game(
        kind="test-highcard", guild_id=1, channel_id=10, host_id=100, host_name="alice", options={}, seed=7
    )
    assert await store.add_seat(game.id, 400, "dave", 4) == 1
    assert await store.start_game(game.id, '{"n": 0}')
    return await store.game(game.id)


def handover(game_id: int) -> Ruling:
    said = Delivery(kind="notice", target=10, payload={"content": "erin plays"}, due_at=0.0)
    welcome = Delivery(kind="dm", target=500, payload={"content": "You took over this seat."}, due_at=0.0)
    return Ruling(
        seat=SeatChange(seat=1, user_id=500, name="erin"),
        clear_votes=["replace:400:%"],
        timers=[(1, "deadline", 99.0)],
        clear_timers=[1],
        outbox=[said, welcome],
    )


async def test_a_decision_writes_everything_it_rules_in_one_go(store):
    game = await table(store)
    await store.add_vote(game.id, "replace:400:500", 100)
    await store.add_vote(game.id, "replace:400:600", 100)
    _, seats, votes = await store.read_table(game.id, "replace:400:500")
    assert votes == {100}
    await store.commit_decision(
        game.id, Seen.of(game.version, seats, "replace:400:500", votes), handover(game.id)
    )
    assert [(s.user_id, s.name) for s in await store.seats(game.id)] == [(100, "alice"), (500, "erin")]
    assert (
        await store.votes(game.id, "replace:400:500")
        == set()
        == await store.votes(game.id, "replace:400:600")
    )
    assert [(t.seat, t.kind) for t in await store.timers(game.id)] == [(1, "deadline")]
    assert [row.kind for row in await store.outbox(game.id)] == ["notice", "dm"]


@pytest.mark.parametrize("change", ["version", "seat", "dropped", "ballot", "status"])
async def test_a_decision_on_a_table_that_changed_writes_nothing(store_url, change):
    """What the decision read changes in 'another process' (a second store) before it commits."""
    first, second = await Store.open(store_url), await Store.open(store_url)
    try:
        game = await table(first)
        await first.add_vote(game.id, "replace:400:500", 100)
        _, seats, votes = await first.read_table(game.id, "replace:400:500")
        seen = Seen.of(game.version, seats, "replace:400:500", votes)
        if change == "version":
            await second.commit_move(
                game, seat=0, user_id=100, action={}, events=[], state='{"n": 1}', interaction_id=None
            )
        elif change == "seat":
            await second.commit_decision(
                game.id, seen, Ruling(seat=SeatChange(seat=1, user_id=600, name="frank"))
            )
        elif change == "dropped":
            await second.commit_decision(game.id, seen, Ruling(dropped=[(1, True)]))
        elif change == "ballot":
            await second.add_vote(game.id, "replace:400:500", 700)
        else:
            assert await second.set_status(game.id, GameStatus.ABANDONED)
        outbox = len(await first.outbox(game.id))
        with pytest.raises(DecisionConflict):
            await first.commit_decision(game.id, seen, handover(game.id))
        assert 500 not in {s.user_id for s in await first.seats(game.id)}
        assert len(await first.outbox(game.id)) == outbox and await first.timers(game.id) == []
    finally:
        await first.close()
        await second.close()


async def test_a_move_is_refused_once_its_seat_changed_hands(store):
    game = await table(store)
    _, seats, _ = await store.read_table(game.id)
    await store.commit_decision(game.id, Seen.of(game.version, seats), handover(game.id))
    with pytest.raises(SeatChanged):  # dave's click, read before the change
        await store.commit_move(
            game, seat=1, user_id=400, action={}, events=[], state='{"n": 1}', interaction_id=None, holder=400
        )
    assert (await store.game(game.id)).version == 0 and await store.actions(game.id) == []
    version = await store.commit_move(
        game, seat=1, user_id=500, action={}, events=[], state='{"n": 1}', interaction_id=None, holder=500
    )
    assert version == 1
