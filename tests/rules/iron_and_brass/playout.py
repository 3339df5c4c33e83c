"""Seeded random games of Iron & Brass with the invariants checked after every move."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from rules.core import Choice, RuleError
from rules.iron_and_brass import GAME
from rules.iron_and_brass.data import catalogue
from rules.iron_and_brass.state import IronAndBrassState

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


def _weight(choice: Choice, seat: int) -> float:
    head = choice.key.split(":")[0]
    weight = WEIGHTS[head]
    if head == "mv":
        # Prefer moves toward the enemy's base row, so units meet.
        _, source, target = choice.key.split(":")[:3]
        ahead = int(target[1:]) - int(source[1:])
        weight *= 3.0 if (ahead > 0) == (seat == 0) and ahead != 0 else 0.5
    return weight


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
        for token, count in setup.advantage_tokens.counts().items():
            assert 0 <= player.tokens[token] <= count
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


def run_game(
    seed: int,
    *,
    max_rounds: int,
    size: int = 10,
    public_apply: bool = False,
    fuzz: float = 0.05,
    views: float = 0.02,
    seen: Counter[str] | None = None,
) -> tuple[IronAndBrassState, list[tuple[int, dict[str, Any]]], int]:
    """Play one game with a seeded random player; return the final state, the action log and the steps.

    With `public_apply` every move goes through `GAME.apply` (a deep copy each); otherwise through the
    `_apply` hook on the live state after the same whose-turn check."""
    rng = random.Random(seed)
    state = GAME.setup(list(NAMES), {"max_rounds": max_rounds, "board_size": size}, seed)
    log: list[tuple[int, dict[str, Any]]] = []
    steps = 0
    while GAME.result(state) is None:
        steps += 1
        assert steps < 50_000, "the game does not end"
        to_act = sorted(GAME.to_act(state))
        assert len(to_act) == 1, "one seat decides at a time"
        seat = to_act[0]
        choices = GAME.legal_actions(state, seat)
        assert choices, f"seat {seat} must act but has no choice"
        assert len({choice.key for choice in choices}) == len(choices)
        assert all(len(choice.key) <= 60 and len(choice.label) <= 100 for choice in choices)
        if rng.random() < fuzz:
            probe, before = state.model_copy(deep=True), GAME.dump_state(state)
            try:
                GAME._apply(probe, seat, GAME.parse_action(_random_action(rng, state)))
            except RuleError:
                assert GAME.dump_state(probe) == before, "a refused move changed the state"
        if rng.random() < views:
            check_views(state)
        choice = rng.choices(choices, [_weight(choice, seat) for choice in choices])[0]
        log.append((seat, choice.action))
        if public_apply:
            applied = GAME.apply(state, seat, choice.action)
            state, events = applied.state, applied.events
        else:
            events = GAME._apply(state, seat, GAME.parse_action(choice.action))
        if seen is not None:
            seen.update(marker for event in events for marker in MARKERS if marker in event.text)
        check_invariants(state)
    check_views(state)
    return state, log, steps
