"""Where a warm 4-player City of Iron random playout spends its time, and the least the current menus
can cost: issue 21's "≤ 10 ms" target set against what the rules' contract leaves. Run by path
(`python bench/playout_floor.py`) with the checkout to measure first on PYTHONPATH, as
`bench/warm_playouts.py` is, whose random player (the tests' weights) and playout this reuses.

The same fresh games are timed four ways, so the parts subtract:
- fresh: the playout as `warm_playouts` times it, in a process warmed by 3 other games;
- replayed: the same seeds again, every menu cache already holding their hands (no menu can be
  found faster than a cache hit, so this is the menus' floor);
- menus handed back: each game again with its recorded menus handed back in place of `legal_actions`
  (`playout(menus=...)`: the random player's weighted pick, the action's parse, the move, the setup);
- moves only: setup, parse and `_apply` of the recorded actions.
Fresh minus "menus handed back" is what building the menus costs a fresh game; replayed minus it,
what they cost with every cache warm. The cyclic garbage collector's share of the fresh run is timed
with `gc.callbacks`: it runs as the caches grow."""

from __future__ import annotations

import gc
import statistics
import time
from functools import partial
from typing import Any

from warm_playouts import Recording, _weight, playout

from rules import registry
from rules.core import Game

GAMES = 30
FIRST_SEED = 100
TARGET_MS = 10.0
ROUNDS = 3
"""Each game's repeatable ways are timed this many times and the fastest kept: the shared cores here
move a figure by up to a third between runs of the same code."""


def _moves_only(game: Game, seed: int, moves: list[tuple[int, Any]]) -> Any:
    """The recorded game's moves applied to its setup, no menu and no pick; the final state."""
    state = game.setup([f"p{i}" for i in range(4)], {}, seed)
    for seat, action in moves:
        game._apply(state, seat, game.parse_action(action))
    return state


def _timed(run: Any, *arguments: Any, **keywords: Any) -> float:
    start = time.perf_counter()
    run(*arguments, **keywords)
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
    collector = _Collector()
    gc.collect()
    gc.callbacks.append(collector)
    times: dict[str, list[float]] = {name: [] for name in ("fresh", "replayed", "handed", "moves")}
    for seed in range(FIRST_SEED, FIRST_SEED + GAMES):
        # Each game's four ways run back to back, so a slow spell of the shared cores hits all of them.
        collector.on = True
        times["fresh"].append(_timed(playout, game, 4, seed, weight, in_place=True))
        collector.on = False
        recorded = Recording()
        playout(game, 4, seed, weight, in_place=True, recording=recorded)
        parts = {
            "replayed": partial(playout, game, 4, seed, weight, in_place=True),
            "handed": partial(playout, game, 4, seed, weight, in_place=True, menus=recorded.menus),
            "moves": partial(_moves_only, game, seed, recorded.moves),
        }
        for name, run in parts.items():
            times[name].append(min(_timed(run) for _ in range(ROUNDS)))
    gc.callbacks.remove(collector)

    median = statistics.median
    fresh = median(times["fresh"])

    def share(name: str) -> float:
        return median(part / whole for part, whole in zip(times[name], times["fresh"], strict=True))

    rows = [
        ("fresh playout (the target's figure)", fresh, 1.0),
        ("  of which the garbage collector", collector.ms / GAMES, collector.ms / sum(times["fresh"])),
        ("the same game replayed, every cache warm", median(times["replayed"]), share("replayed")),
        ("menus handed back: pick, parse, move, setup", median(times["handed"]), share("handed")),
        ("moves only: setup, parse, _apply", median(times["moves"]), share("moves")),
    ]
    print(
        f"warm 4-player City of Iron playout, {GAMES} fresh games (seeds {FIRST_SEED}..):"
        " median ms per game, and its share of the fresh game (median of per-game ratios)"
    )
    for label, value, part in rows:
        print(f"  {label:<52} {value:7.2f} ms   {part:5.0%}")
    print(
        f"  the menus take {1 - share('handed'):.0%} of a fresh game and {share('replayed') - share('handed'):.0%}"
        f" when every one is a cache hit; with every menu a hit the game would take {share('replayed'):.0%}"
        f" of it: {share('replayed') * fresh:.1f} ms at this run's speed, against the target's {TARGET_MS:.0f} ms"
    )


if __name__ == "__main__":
    main()
