"""Seeded random playouts: thousands of complete games, invariants after every move, exact replays."""

from __future__ import annotations

import time
from collections import Counter

from rules.iron_bridge_gorge import GAME

from .helpers import NAMES
from .playout import MARKERS, run_game


def test_two_thousand_random_games_end_with_the_invariants_kept():
    """2,000 complete games, 2 to 6 players. Most are 1-4 rounds (the rounds option) to stay fast; every
    50th is a full 25-round game. After every move: coins and VP never negative, money conserved between
    players and bank, every card in exactly one place, hand limit kept; listed choices always apply; random
    illegal moves are refused without touching the state; views hide hands and unrevealed bids."""
    started = time.perf_counter()
    moves = 0
    seen: Counter[str] = Counter()
    for seed in range(2000):
        rounds = 25 if seed % 50 == 0 else 1 + seed % 4
        state, _, steps = run_game(
            seed, players=2 + seed % 5, rounds=rounds, public_apply=seed % 25 == 1, seen=seen
        )
        moves += steps
        result = GAME.result(state)
        assert result is not None and sorted(s for place in result.ranking for s in place) == list(
            range(len(state.players))
        )
    elapsed = time.perf_counter() - started
    assert {marker for marker in MARKERS if not seen[marker]} == set(), "the random games missed a rule"
    print(f"\n2000 games, {moves} moves in {elapsed:.1f}s")


def test_replay_reproduces_the_final_state_byte_for_byte():
    """setup(seed) + the action log, through the public `apply`, gives the same final state JSON."""
    for seed, players, rounds in [(11, 2, 25), (12, 4, 6), (13, 6, 3)]:
        final, log, _ = run_game(seed, players, rounds)
        state = GAME.setup(list(NAMES[:players]), {"rounds": rounds}, seed)
        for seat, action in log:
            state = GAME.apply(state, seat, action).state
        assert GAME.dump_state(state) == GAME.dump_state(final)
        assert GAME.dump_state(GAME.load_state(GAME.dump_state(state))) == GAME.dump_state(final)
