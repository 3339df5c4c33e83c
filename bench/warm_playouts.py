"""Warm random playouts, run by path (`python bench/warm_playouts.py`) with the checkout to measure first
on PYTHONPATH: it imports only `rules` and the tests' random-player weights, never `bench`, so a
baseline checkout and the working tree run exactly this code (see `bench/rules_speed.py`).

Per game: a few games warm the imports and caches, then random games from setup to the end, moves
applied in place (`_apply`, the search's path) and through `apply` (a copy per move, the bot's path);
the median ms per game and moves per game. Each game and path stops after BUDGET_S of measuring."""

from __future__ import annotations

import importlib
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules import registry
from rules.core import Choice, Game

Weight = Callable[[Choice, int], float]
BUDGET_S = 2.0
GAMES = (
    # (game id, players, tests package whose test_playouts has the random player's weights, games per path)
    ("city-of-iron", 4, "city_of_iron", 40),
    ("city-heroes", 4, "city_heroes", 10),
    ("iron-bridge-gorge", 4, "iron_bridge_gorge", 10),
    ("iron-and-brass", 2, "iron_and_brass", 10),
)


def _weight(package: str) -> Weight | None:
    """The random player's weights from the game's playout tests (City of Iron: "purchase:done" x8, so
    rounds end), so random games last as they do in the tests; None: uniform. A table of weights is
    read here rather than with `tests.support.playouts.key_weights`, which older baselines lack."""
    try:
        module = importlib.import_module(f"tests.rules.{package}.test_playouts")
    except ImportError:
        return None
    found = getattr(module, "weight", None) or getattr(module, "WEIGHTS", None)
    if isinstance(found, dict):
        table = found
        return lambda choice, _seat: table.get(choice.key.split(":", 1)[0], 1.0)
    return found


@dataclass
class Recording:
    """What one `playout` met (for `bench/playout_floor.py`): each menu, each move as (seat, action
    JSON), and the final state."""

    menus: list[list[Choice]] = field(default_factory=list)
    moves: list[tuple[int, Any]] = field(default_factory=list)
    final: Any = None


def playout(
    game: Game,
    players: int,
    seed: int,
    weight: Weight | None,
    *,
    in_place: bool,
    menus: list[list[Choice]] | None = None,
    recording: Recording | None = None,
) -> int:
    """One random game; the moves it took. `menus`: a recorded game's menus, handed back instead of
    built (the same seed then plays the same game without the menus' cost); `recording`: filled with
    what this game met."""
    rng = random.Random(seed)
    state = game.setup([f"p{i}" for i in range(players)], {}, seed)
    moves = 0
    while game.result(state) is None and moves < 20_000:
        seat = rng.choice(sorted(game.to_act(state)))
        choices = game.legal_actions(state, seat) if menus is None else menus[moves]
        weights = [weight(choice, seat) for choice in choices] if weight else None
        choice = rng.choices(choices, weights)[0]
        if recording is not None:
            recording.menus.append(choices)
            recording.moves.append((seat, choice.action))
        if in_place:
            game._apply(state, seat, game.parse_action(choice.action))
        else:
            state = game.apply(state, seat, choice.action).state
        moves += 1
    if recording is not None:
        recording.final = state
    return moves


def main() -> None:
    for game_id, players, package, count in GAMES:
        game = registry.get(game_id)
        weight = _weight(package)
        label = f"warm {players}-player {game.info.name} playout"
        for seed in range(3):
            playout(game, players, seed, weight, in_place=True)
        for in_place in (True, False):
            times: list[float] = []
            moves: list[int] = []
            started = time.perf_counter()
            for seed in range(100, 100 + count):
                start = time.perf_counter()
                moves.append(playout(game, players, seed, weight, in_place=in_place))
                times.append((time.perf_counter() - start) * 1000)
                if time.perf_counter() - started > BUDGET_S:
                    break
            path = "_apply in place" if in_place else "apply (copies)"
            print(
                f"{label:<40} {path:<16} {statistics.median(times):8.2f} ms/game"
                f"   {statistics.median(moves):6.0f} moves/game   (n={len(times)})"
            )


if __name__ == "__main__":
    main()
