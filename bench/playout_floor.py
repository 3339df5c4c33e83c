"""Where a warm 4-player City of Iron random playout spends its time, and the least the current menus
can cost: issue 21's "≤ 10 ms" target set against what the rules' contract leaves. Run by path
(`python bench/playout_floor.py`) with the checkout to measure first on PYTHONPATH, as
`bench/warm_playouts.py` is, whose random player (the tests' weights) and playout this reuses.

The same fresh games are timed four ways, so the parts subtract:
- fresh: the playout as `warm_playouts` times it, in a process warmed by 3 other games;
- replayed: the same seeds again, every menu cache already holding their hands (no menu can be
  found faster than a cache hit, so this is the menus' floor);
- menus handed back: each game again with the menus recorded in the fresh run handed back in place of
  `legal_actions` (the random player's weighted pick, the action's parse, the move, the setup);
- moves only: setup, parse and `_apply` of the recorded actions.
Fresh minus "menus handed back" is what building the menus costs a fresh game; replayed minus it,
what they cost with every cache warm. The cyclic garbage collector's share of the fresh run is timed
with `gc.callbacks`: it runs as the caches grow."""

from __future__ import annotations

import gc
import random
import statistics
import time
from typing import Any

from warm_playouts import Weight, _weight, playout

from rules import registry
from rules.core import Choice, Game

GAMES = 30
FIRST_SEED = 100
TARGET_MS = 10.0
ROUNDS = 3
"""The repeatable parts are timed this many times, interleaved, and the fastest median kept: the
shared cores here move a figure by up to a third between runs of the same code."""


def _recorded(
    game: Game, seed: int, weight: Weight | None
) -> tuple[list[list[Choice]], list[tuple[int, Any]]]:
    """The menus a fresh game met and the moves its random player made (seat, action JSON), in the
    order `warm_playouts.playout` draws them, so handing them back replays the same game."""
    rng = random.Random(seed)
    state = game.setup([f"p{i}" for i in range(4)], {}, seed)
    menus: list[list[Choice]] = []
    moves: list[tuple[int, Any]] = []
    while game.result(state) is None:
        seat = rng.choice(sorted(game.to_act(state)))
        choices = game.legal_actions(state, seat)
        weights = [weight(choice, seat) for choice in choices] if weight else None
        choice = rng.choices(choices, weights)[0]
        menus.append(choices)
        moves.append((seat, choice.action))
        game._apply(state, seat, game.parse_action(choice.action))
    return menus, moves


def _handed_back(game: Game, seed: int, weight: Weight | None, menus: list[list[Choice]]) -> Any:
    """`playout` with each menu taken from the record instead of built; the final state."""
    rng = random.Random(seed)
    state = game.setup([f"p{i}" for i in range(4)], {}, seed)
    for choices in menus:
        seat = rng.choice(sorted(game.to_act(state)))
        weights = [weight(choice, seat) for choice in choices] if weight else None
        choice = rng.choices(choices, weights)[0]
        game._apply(state, seat, game.parse_action(choice.action))
    assert game.result(state) is not None, "the recorded menus no longer replay the game"
    return state


def _moves_only(game: Game, seed: int, moves: list[tuple[int, Any]]) -> Any:
    """The recorded game's moves applied to its setup, no menu and no pick; the final state."""
    state = game.setup([f"p{i}" for i in range(4)], {}, seed)
    for seat, action in moves:
        game._apply(state, seat, game.parse_action(action))
    return state


def _timed(run: Any, *arguments: Any) -> float:
    start = time.perf_counter()
    run(*arguments)
    return (time.perf_counter() - start) * 1000


class _Collector:
    """Milliseconds the cyclic garbage collector ran while `on`."""

    def __init__(self) -> None:
        self.ms = 0.0
        self.on = False
        self._started = 0.0

    def __call__(self, phase: str, _info: dict[str, Any]) -> None:
        if not self.on:
            return
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.ms += (time.perf_counter() - self._started) * 1000


def main() -> None:
    game = registry.get("city-of-iron")
    weight = _weight("city_of_iron")
    for seed in range(3):
        playout(game, 4, seed, weight, in_place=True)
    seeds = range(FIRST_SEED, FIRST_SEED + GAMES)
    collector = _Collector()
    gc.collect()
    gc.callbacks.append(collector)
    collector.on = True
    fresh = [_timed(lambda seed: playout(game, 4, seed, weight, in_place=True), seed) for seed in seeds]
    collector.on = False
    gc.callbacks.remove(collector)
    records = {seed: _recorded(game, seed, weight) for seed in seeds}
    parts = {
        "replayed": lambda seed: playout(game, 4, seed, weight, in_place=True),
        "handed": lambda seed: _handed_back(game, seed, weight, records[seed][0]),
        "moves": lambda seed: _moves_only(game, seed, records[seed][1]),
    }
    best = dict.fromkeys(parts, float("inf"))
    for _ in range(ROUNDS):
        for name, run in parts.items():
            gc.collect()
            best[name] = min(best[name], statistics.median(_timed(run, seed) for seed in seeds))
    replayed, handed, moves = best["replayed"], best["handed"], best["moves"]

    median = statistics.median
    rows = [
        ("fresh playout (the target's figure)", median(fresh)),
        ("  of which the garbage collector", collector.ms / GAMES),
        ("the same games replayed, every cache warm", replayed),
        ("menus handed back: pick, parse, move, setup", handed),
        ("moves only: setup, parse, _apply", moves),
        ("menus, fresh (fresh - handed back)", median(fresh) - handed),
        ("menus, every cache warm (replayed - handed back)", replayed - handed),
    ]
    print(
        f"warm 4-player City of Iron playout, {GAMES} fresh games (seeds {FIRST_SEED}..), median ms per game"
    )
    for label, value in rows:
        print(f"  {label:<52} {value:7.2f} ms")
    print(
        f"  target {TARGET_MS:.0f} ms; the floor with every menu a cache hit is the replayed figure,"
        f" {replayed / TARGET_MS:.2f}x the target"
    )


if __name__ == "__main__":
    main()
