"""The painter draws the same picture once (issue 37): a request for a picture already drawn, or being
drawn for someone else, costs no render."""

from __future__ import annotations

import asyncio

from bot.interface.pictures import Painter
from rules import registry


class CountingPool:
    def __init__(self) -> None:
        self.calls = 0

    async def run(self, function, *args):  # noqa: ANN001, ANN002, ANN201
        self.calls += 1
        await asyncio.sleep(0.01)
        return b"png:" + repr(args[1:]).encode()


async def test_the_same_view_is_drawn_once_even_when_asked_at_once() -> None:
    rules = registry.get("iron-bridge-gorge")
    state = rules.setup(["a", "b"], {}, 1)
    public, mine = rules.view(state, None), rules.view(state, 0)
    pool = CountingPool()
    painter = Painter(pool)  # type: ignore[arg-type]
    first = await asyncio.gather(*(painter.png(public) for _ in range(10)))
    again = await painter.png(rules.view(state, None))  # an equal view, built again
    assert len(set(first)) == 1 and again == first[0]
    assert pool.calls == painter.renders == 1
    await painter.png(mine)
    await painter.png(public, frozenset({"row"}))
    assert pool.calls == painter.renders == 3, "another view, or other marks, is another picture"


async def test_the_cache_keeps_to_its_budget() -> None:
    rules = registry.get("iron-bridge-gorge")
    pool = CountingPool()
    painter = Painter(pool, cache_bytes=40)  # type: ignore[arg-type]
    views = [rules.view(rules.setup(["a", "b"], {}, seed), None) for seed in range(3)]
    for view in views:
        await painter.png(view)
    await painter.png(views[0])
    assert pool.calls == 4, "the oldest picture gave way"
