"""Seeded random playouts: thousands of complete games, invariants after every move, exact replays."""

from __future__ import annotations

import time
from collections import Counter

from rules.city_heroes import GAME

from .helpers import NAMES
from .playout import MARKERS, run_game


def test_two_thousand_random_games_reach_a_result_with_the_invariants_kept():
    """2,000 complete games, 1 to 5 players. Most last 1 or 2 turns (the `turns` option) to stay fast; every
    200th is a full-length game (12 solo, 10, 10, 9, 8 turns). After every move: no negative stock, ducats,
    influence or bank; resources and ducats conserved (bank, players, garrisons, what left the game);
    workers conserved across the pools except by the rules that add them; no tile pillaged twice in a turn;
    listed choices always apply; random illegal moves are refused without touching the state; views show
    every public fact and hide trade contents from third parties."""
    started = time.perf_counter()
    moves = 0
    seen: Counter[str] = Counter()
    for seed in range(2000):
        turns = 0 if seed % 200 == 0 else 2 if seed % 5 == 0 else 1
        state, _, steps = run_game(
            seed, players=1 + seed % 5, turns=turns, public_apply=seed % 50 == 1, seen=seen
        )
        moves += steps
        result = GAME.result(state)
        assert result is not None
        assert sorted(seat for place in result.ranking for seat in place) == list(range(len(state.players)))
    elapsed = time.perf_counter() - started
    assert {marker for marker in MARKERS if not seen[marker]} == set(), "the random games missed a rule"
    print(f"\n2000 games, {moves} moves in {elapsed:.1f}s")


def test_replay_reproduces_the_final_state_byte_for_byte():
    """setup(seed) + the action log, through the public `apply`, gives the same final state JSON."""
    for seed, players, turns in [(11, 1, 0), (12, 3, 3), (13, 5, 0)]:
        final, log, _ = run_game(seed, players, turns)
        state = GAME.setup(list(NAMES[:players]), {"turns": turns}, seed)
        for seat, action in log:
            state = GAME.apply(state, seat, action).state
        assert GAME.dump_state(state) == GAME.dump_state(final)
        assert GAME.dump_state(GAME.load_state(GAME.dump_state(state))) == GAME.dump_state(final)
