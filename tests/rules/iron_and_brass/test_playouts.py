"""Seeded random playouts: 2,000 complete games, invariants after every move, exact replays."""

from __future__ import annotations

import time
from collections import Counter

from rules.iron_and_brass import GAME

from .helpers import NAMES
from .playout import MARKERS, run_game


def test_two_thousand_random_games_end_with_the_invariants_kept():
    """2,000 complete games on every board size. To stay fast most are short (a turn limit of 1-2 rounds,
    the `max_rounds` safety net); every 200th plays to a victory or a 60-round limit. After every move: no
    negative gold or crew, gold = 8 + mined - spent, the shared marker and the mining rolls agree, tokens
    within their mix, unit and structure counts within the token counts, one piece per square, one
    HQ/Fortress each while the game runs; listed choices always apply; random illegal moves are refused
    without touching the state; views hide the half-made choice and the rng."""
    started = time.perf_counter()
    moves = 0
    seen: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    for seed in range(2000):
        full = seed % 200 == 0
        state, _, steps = run_game(
            seed,
            max_rounds=60 if full else 1 + seed % 2,
            size=10 + seed % 7,
            public_apply=seed % 50 == 1,
            seen=seen,
        )
        moves += steps
        result = GAME.result(state)
        assert result is not None and sorted(s for place in result.ranking for s in place) == [0, 1]
        if full:
            endings["limit" if "turn limit" in result.reason else "victory"] += 1
    elapsed = time.perf_counter() - started
    assert {marker for marker in MARKERS if not seen[marker]} == set(), "the random games missed a rule"
    assert endings["victory"] >= 5, endings
    print(f"\n2000 games, {moves} moves in {elapsed:.1f}s; full games: {dict(endings)}")


def test_replay_reproduces_the_final_state_byte_for_byte():
    """setup(seed) + the action log, through the public `apply`, gives the same final state JSON."""
    for seed, size, rounds in [(11, 10, 60), (12, 16, 40), (13, 12, 3)]:
        final, log, _ = run_game(seed, max_rounds=rounds, size=size)
        state = GAME.setup(list(NAMES), {"max_rounds": rounds, "board_size": size}, seed)
        for seat, action in log:
            state = GAME.apply(state, seat, action).state
        assert GAME.dump_state(state) == GAME.dump_state(final)
        assert GAME.dump_state(GAME.load_state(GAME.dump_state(state))) == GAME.dump_state(final)
