"""Seeded random playouts on the shared harness (`tests/support/playouts.py`): 2,000 complete games,
invariants after every move, exact replays. This file keeps only what is Iron & Brass's own: the
random player's weights, its random (often illegal) moves, the invariants and the rule markers."""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from rules.core import Choice, Event
from rules.iron_and_brass import GAME
from rules.iron_and_brass.data import catalogue
from rules.iron_and_brass.state import IronAndBrassState
from tests.support.playouts import Playout, key_weights, random_game, replays

from .helpers import NAMES

WEIGHTS = {
    "mine": 3.0,
    "hire": 1.0,
    "pick": 2.5,
    "build": 1.0,
    "mv": 1.0,
    "at": 6.0,
    "aim": 3.0,
    "cf": 1.0,
    "rep": 2.0,
    "heal": 2.0,
    "def": 1.0,
    "back": 0.05,
    "end": 0.3,
}
"""A random player that mines, builds and attacks often, so games reach the fighting."""

MARKERS = (
    "mined gold",
    "hired a crew",
    "commissioned",
    "trained",
    "is ready at",
    "moved to",
    "with Open Road",
    "Spotter +1 range",
    "+ Surge 2",
    "may answer with Surge",
    "concentrated fire on",
    "is destroyed.",
    "is disabled (",
    "no damage",
    "more than double",
    "repaired",
    "healed",
    "Game over",
)
"""Event phrases the random games should all reach, so the playouts are known to cover the rules."""


_by_kind = key_weights(WEIGHTS)


def _weight(choice: Choice, seat: int) -> float:
    """The kind's weight; moves toward the enemy's base row preferred, so units meet. Every choice
    weighed is first checked against the contract's limits (choices are built without validation)."""
    assert len(choice.key) <= 60 and len(choice.label) <= 100, choice.key
    weight = _by_kind(choice, seat)
    if choice.key.split(":")[0] == "mv":
        _, source, target = choice.key.split(":")[:3]
        ahead = int(target[1:]) - int(source[1:])
        weight *= 3.0 if (ahead > 0) == (seat == 0) and ahead != 0 else 0.5
    return weight


def _one_seat(rng: random.Random, seats: list[int]) -> int:
    """One seat decides at a time (the defender's Surge included); no draw from the rng."""
    assert len(seats) == 1, "one seat decides at a time"
    return seats[0]


def _random_action(rng: random.Random, state: IronAndBrassState) -> dict[str, Any]:
    """Any move at all, legal or not, for the 'refused moves change nothing' check."""
    size = state.size

    def square() -> str:
        return f"{'ABCDEFGHIJKLMNOPQ'[rng.randrange(size + 1)]}{rng.randint(0, size + 1)}"

    item = rng.choice([*catalogue().order, "castle"])
    return rng.choice(
        [
            {"kind": "mine"},
            {"kind": "hire"},
            {"kind": "pick", "item": item},
            {"kind": "build", "item": item, "square": square()},
            {"kind": "move", "unit": square(), "to": square(), "open_road": rng.random() < 0.3},
            {
                "kind": "attack",
                "unit": square(),
                "target": square(),
                "token": rng.choice([None, "surge", "spotter"]),
            },
            {"kind": "aim", "target": square()},
            {
                "kind": "concentrate",
                "units": [square(), square()],
                "target": square(),
                "surge": rng.random() < 0.5,
            },
            {"kind": "repair", "square": square()},
            {"kind": "heal", "square": square()},
            {"kind": "defend", "surge": rng.random() < 0.5},
            {"kind": "back"},
            {"kind": "end_turn"},
        ]
    )


def check_invariants(state: IronAndBrassState) -> None:
    cards = catalogue()
    setup = cards.setup
    used = setup.gold_mined - state.gold_left
    assert 0 <= state.gold_left <= setup.gold_mined
    assert used <= sum(p.mined for p in state.players) <= 3 * used
    standing = Counter((p.owner, p.kind) for p in state.pieces)
    pending = Counter((b.owner, b.kind) for b in state.builds)
    for seat, player in enumerate(state.players):
        assert player.gold >= 0 and player.crew >= 0
        assert player.gold == setup.gold + player.mined - player.spent
        assert 0 <= player.advantage_tokens <= setup.advantage_tokens
        assert player.advantage_tokens + sum(player.played.values()) == setup.advantage_tokens
        for kind, trained in player.trained.items():
            spec = cards[kind]
            assert spec.military and trained <= spec.count
            assert standing[seat, kind] + pending[seat, kind] <= trained, "a destroyed unit came back"
        for kind in ("barracks", "armored-wall", "turret", "foundry", "arsenal", "steam-works"):
            assert standing[seat, kind] + pending[seat, kind] <= cards[kind].count, kind
        commands = standing[seat, "headquarters"] + standing[seat, "fortress"]
        assert commands == 1 or (state.step == "over" and state.winner == 1 - seat and not commands)
    squares = [(p.col, p.row) for p in state.pieces]
    squares += [(b.col, b.row) for b in state.builds if b.kind != "fortress"]
    assert len(squares) == len(set(squares)), "two pieces on one square"
    assert all(0 <= c < state.size and 0 <= r < state.size for c, r in squares)
    assert len({p.id for p in state.pieces}) == len(state.pieces)
    assert (state.combat is not None) == (state.step == "defend")
    assert 1 <= state.round <= state.max_rounds
    if state.step == "play":
        assert 1 <= state.actions_left <= setup.actions
    if state.step == "over":
        assert GAME.result(state) is not None and state.picking is None


def check_views(state: IronAndBrassState) -> None:
    public = GAME.view(state, None)
    assert public.picking is None
    dumped = public.model_dump_json()
    assert '"rng"' not in dumped and '"seed"' not in dumped
    assert len(public.pieces) == len(state.pieces)
    for seat in (0, 1):
        own = GAME.view(state, seat)
        assert own.picking == (state.picking if seat == state.current and state.step == "play" else None)
        assert own.pieces == public.pieces


def _after_move(state: IronAndBrassState, events: list[Event], action: Any) -> None:
    check_invariants(state)


def run_game(
    seed: int,
    *,
    max_rounds: int,
    size: int = 10,
    public_apply: bool = False,
    seen: Counter[str] | None = None,
) -> Playout:
    """One game of the seeded random player (see `random_game`), its views checked at the end too."""
    playout = random_game(
        GAME,
        NAMES,
        seed,
        options=_options(max_rounds, size),
        weight=_weight,
        pick_seat=_one_seat,
        public_apply=public_apply,
        fuzz=0.05,
        random_action=_random_action,
        check=_after_move,
        views=0.02,
        check_views=check_views,
        markers=MARKERS,
        seen=seen,
    )
    check_views(playout.state)
    return playout


def _options(max_rounds: int, size: int) -> dict[str, Any]:
    return {"max_rounds": max_rounds, "board_size": size}


def test_two_thousand_random_games_end_with_the_invariants_kept():
    """2,000 complete games on every board size. To stay fast most are short (a turn limit of 1-2 rounds,
    the `max_rounds` safety net); every 200th plays to a victory or a 60-round limit. After every move: no
    negative gold or crew, gold = 8 + mined - spent, the shared marker and the mining rolls agree, tokens
    left and played add up to 8, unit and structure counts within the token counts, one piece per square, one
    HQ/Fortress each while the game runs; listed choices always apply; random illegal moves are refused
    without touching the state; views hide the half-made choice and the rng."""
    started = time.perf_counter()
    moves = 0
    seen: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    for seed in range(2000):
        full = seed % 200 == 0
        playout = run_game(
            seed,
            max_rounds=60 if full else 1 + seed % 2,
            size=10 + seed % 7,
            public_apply=seed % 50 == 1,
            seen=seen,
        )
        moves += playout.steps
        result = GAME.result(playout.state)
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
        replays(GAME, NAMES, seed, run_game(seed, max_rounds=rounds, size=size), _options(rounds, size))
