"""The bot's one lock map serialises work on a key and forgets keys nobody holds (issue 20)."""

from __future__ import annotations

import asyncio

from bot.app.locks import KeyedLocks


async def test_one_key_at_a_time_and_other_keys_unhindered():
    locks = KeyedLocks()
    order: list[str] = []

    async def work(key: tuple, name: str, pause: float) -> None:
        async with locks.hold(key):
            order.append(f"{name} in")
            await asyncio.sleep(pause)
            order.append(f"{name} out")

    await asyncio.gather(
        work(("game", 1), "a", 0.05), work(("game", 1), "b", 0.0), work(("calendar", 1), "c", 0.0)
    )
    assert order.index("a out") < order.index("b in"), order  # the same game waits its turn
    assert order.index("c out") < order.index("a out"), order  # the calendar never waits for a move
    assert len(locks) == 0  # every key forgotten once nobody holds or awaits it


async def test_a_failing_holder_releases_and_forgets():
    locks = KeyedLocks()
    try:
        async with locks.hold("k"):
            raise ValueError("boom")
    except ValueError:
        pass
    assert len(locks) == 0
    async with locks.hold("k"):
        assert len(locks) == 1
