"""Computer seats think in the worker pool (issue 21): a decision is a module-level call on picklable
arguments, made in another process, and the same game seed and version give the same move wherever
it runs, so a table with computer seats replays exactly after a restart."""

from __future__ import annotations

import asyncio

import pytest

from bot.interface.workers import WorkerPool
from rules.search import decide
from tests.support.playouts import offered_games, positions


def _first_open_position(game):
    for position in positions(game, max(2, game.info.min_players), 4, every=25):
        if not position.finished:
            return position
    raise AssertionError(f"{game.info.id}: no unfinished position")


@pytest.mark.parametrize("game", offered_games(), ids=lambda g: g.info.id)
def test_a_decision_made_in_a_worker_process_is_the_one_made_here(game):
    position = _first_open_position(game)
    seat = min(game.to_act(position.state))
    seed = f"11:7:{seat}"  # the bot's shape: game seed, game version, seat
    here = decide(game, position.state, seat, seed, 1)
    legal = {choice.key for choice in game.legal_actions(position.state, seat)}
    assert here in legal

    async def in_pool() -> list[str]:
        pool = WorkerPool(processes=1)
        try:
            return [await pool.run(decide, game, position.state, seat, seed, 1) for _ in range(2)]
        finally:
            pool.close()

    assert asyncio.run(in_pool()) == [here, here]


def test_threads_serve_when_no_processes_are_wanted():
    game = offered_games()[0]
    position = _first_open_position(game)
    seat = min(game.to_act(position.state))

    async def in_threads() -> str:
        pool = WorkerPool(processes=0)
        try:
            return await pool.run(decide, game, position.state, seat, "s", 1)
        finally:
            pool.close()

    assert asyncio.run(in_threads()) == decide(game, position.state, seat, "s", 1)


def _engine_loaded() -> bool:
    from rules import words

    return words.engine.cache_info().currsize == 1


def test_worker_processes_start_warm():
    """A worker loads the wording engine (2-5 s) before its first task, so a table's first computer
    move or picture does not wait for it; `start` spawns the workers when the bot starts."""

    async def in_pool() -> bool:
        pool = WorkerPool(processes=2)
        pool.start()
        try:
            return all(await asyncio.gather(*(pool.run(_engine_loaded) for _ in range(4))))
        finally:
            pool.close()

    assert asyncio.run(in_pool())
