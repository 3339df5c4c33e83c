"""The outbox's queries, on SQLite and PostgreSQL: written with the move, claimed once, in order per
game, held back behind a retry, taken again from a dead worker, repaints superseded."""

from __future__ import annotations

import pytest

from bot.storage.store import Delivery, Store
from tests.bot.test_store import _started, two_stores


@pytest.fixture
async def store(store_url):
    store = await Store.open(store_url)
    yield store
    await store.close()


def _row(kind: str, due: float = 0.0, **payload) -> Delivery:
    return Delivery(kind=kind, target=10, payload={"content": kind, **payload}, due_at=due)


async def _move(store: Store, game, deliveries: list[Delivery]):
    await store.commit_move(
        game,
        seat=0,
        user_id=100,
        action={"n": game.version + 1},
        events=[],
        state=f'{{"n": {game.version + 1}}}',
        interaction_id=None,
        outbox=deliveries,
    )
    return await store.game(game.id)


async def test_rows_come_with_the_move_and_are_claimed_once_in_order(store):
    game = await _started(store)
    game = await _move(
        store, game, [_row("post", view={"seat": None}), _row("dm"), _row("repaint", due=50.0)]
    )
    rows = await store.outbox(game.id)
    assert [r.kind for r in rows] == ["post", "dm", "repaint"] and all(r.version == 1 for r in rows)
    assert rows[0].payload["view"] == {"seat": None}  # the view travels beside the payload
    claimed = await store.claim_outbox(10.0)
    assert [r.kind for r in claimed] == ["post", "dm"]  # the repaint is not due yet
    assert await store.claim_outbox(10.0) == []  # nobody takes a claimed row
    await store.outbox_done(claimed[0].id, message_id=555)
    assert (await store.outbox(game.id))[0].payload.get("view") is None  # dropped once delivered
    assert await store.live_message(game.id, claimed[1].id) == (10, 555)
    # A new move's edit supersedes the pending repaint: the edit brings a newer one.
    game = await _move(store, game, [_row("edit"), _row("repaint", due=60.0)])
    statuses = [(r.kind, r.status) for r in await store.outbox(game.id)]
    assert statuses[2] == ("repaint", "superseded") and statuses[-1] == ("repaint", "pending")
    assert (await store.live_payload(game.id))["content"] == "edit"


async def test_a_retry_holds_back_the_games_later_rows_not_other_games(store):
    game = await _started(store, channel=10)
    other = await _started(store, channel=11)
    game = await _move(store, game, [_row("post"), _row("edit")])
    other = await _move(store, other, [_row("post")])
    first = await store.claim_outbox(10.0, limit=1)
    assert [r.kind for r in first] == ["post"] and first[0].game_id == game.id
    # while the post is being sent, the edit behind it waits; the other game's post does not
    assert [r.game_id for r in await store.claim_outbox(10.0)] == [other.id]
    await store.outbox_retry(first[0].id, 30.0, "Discord 503")
    assert await store.claim_outbox(20.0) == []  # the edit waits behind the post's backoff
    retried = await store.claim_outbox(31.0)  # one worker takes both, and sends them in order
    assert [r.kind for r in retried] == ["post", "edit"] and retried[0].attempts == 1
    assert retried[0].reason == "Discord 503"


async def test_a_dead_workers_claims_are_taken_back(store_url):
    async with two_stores(store_url) as (first, second):
        game = await _started(first)
        await _move(first, game, [_row("post")])
        held = await first.claim_outbox(100.0)
        assert len(held) == 1
        assert await second.claim_outbox(200.0) == []  # a fresh claim is respected
        assert [r.id for r in await second.claim_outbox(500.0)] == [held[0].id]  # a stale one is not
        await second.release_outbox([held[0].id])
        assert await second.release_outbox_claims() == 0
        assert [r.id for r in await first.claim_outbox(500.0)] == [held[0].id]
        assert await first.release_outbox_claims() == 1  # what a restart does with its own
        assert await second.next_outbox_due() == 0.0


async def test_channel_lost_is_recorded_once_and_cleared(store):
    game = await _started(store)
    assert await store.set_channel_lost(game.id, "the channel was deleted")
    assert not await store.set_channel_lost(game.id, "the channel was deleted")
    assert (await store.game(game.id)).channel_lost == "the channel was deleted"
    assert await store.set_channel_lost(game.id, None)
    assert (await store.game(game.id)).channel_lost is None
