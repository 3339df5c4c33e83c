"""Per registered game: apply / legal_actions times (p50 is the median), random full games per second,
and the render time and PNG size of the public board late in a 4-player game (or the game's maximum)."""

from __future__ import annotations

import importlib
import random
import statistics
import time
from collections.abc import Callable

from bench.machine import summary
from renderer.registry import render
from rules import registry
from rules.core import Choice, Game
from tests.support.playouts import key_weights


def random_game(
    game: Game,
    players: int,
    seed: int,
    *,
    timings: dict[str, list[float]] | None = None,
    max_moves: int = 20_000,
):
    rng = random.Random(seed)
    state = game.setup([f"p{i}" for i in range(players)], {}, seed)
    states = [state]
    for _ in range(max_moves):
        if game.result(state) is not None:
            break
        seat = rng.choice(sorted(game.to_act(state)))
        start = time.perf_counter()
        choices = game.legal_actions(state, seat)
        middle = time.perf_counter()
        state = game.apply(state, seat, rng.choice(choices).action).state
        end = time.perf_counter()
        if timings is not None:
            timings["legal_actions"].append((middle - start) * 1000)
            timings["apply"].append((end - middle) * 1000)
        states.append(state)
    return states


def run(games_per_kind: int = 20) -> None:
    warm_playouts()
    for game in registry.all_games():
        if game.info.id.startswith("test-"):
            continue
        players = game.info.max_players if game.info.max_players <= 4 else 4
        players = max(players, game.info.min_players)
        timings: dict[str, list[float]] = {"legal_actions": [], "apply": []}
        start = time.perf_counter()
        last_states = []
        for seed in range(games_per_kind):
            last_states = random_game(game, players, seed, timings=timings)
        elapsed = time.perf_counter() - start
        print(f"\n{game.info.name} ({players} players, {games_per_kind} random games)")
        print(f"  apply          {summary(timings['apply'])}")
        print(f"  legal_actions  {summary(timings['legal_actions'])}")
        print(
            f"  random games   {games_per_kind / elapsed:8.1f} games/s ({elapsed / games_per_kind * 1000:.0f} ms each)"
        )
        late_index = max(0, int(len(last_states) * 0.85))
        late = last_states[late_index]
        view = game.view(late, None)
        render_ms: list[float] = []
        size = 0
        for _ in range(15):
            start = time.perf_counter()
            png = render(view)
            render_ms.append((time.perf_counter() - start) * 1000)
            size = len(png)
        print(
            f"  board render   {summary(render_ms)}   PNG {size / 1024:.0f} KB"
            f" (public view, move {late_index} of {len(last_states) - 1} of a {players}-player game)"
        )


# ---- warm playouts: the figure the computer player's search lives on ------------------------------
Weight = Callable[[Choice, int], float]


def city_of_iron_weight(choice: Choice, _seat: int) -> float:
    """As tests/rules/city_of_iron/test_playouts.py's `weight`: the random player finishes its secret
    purchase 8x more often than it picks any one card, so rounds end."""
    return 8.0 if choice.key == "purchase:done" else 1.0


def _test_weight(package: str, name: str) -> Weight | None:
    """Another game's random-player weights from its playout tests (None: plain random), so its
    random games end in a sensible number of moves as they do in the tests."""
    try:
        module = importlib.import_module(f"tests.rules.{package}.test_playouts")
    except ImportError:
        return None
    found = getattr(module, name, None)
    return key_weights(found) if isinstance(found, dict) else found


def warm_playout(game: Game, players: int, seed: int, weight: Weight | None, *, in_place: bool) -> int:
    """One random game from setup to its end; moves applied in place through `_apply` as the search
    does (`in_place`), or through the public `apply`, which copies the state per move. Returns the
    number of moves."""
    rng = random.Random(seed)
    state = game.setup([f"p{i}" for i in range(players)], {}, seed)
    moves = 0
    while game.result(state) is None and moves < 20_000:
        seat = rng.choice(sorted(game.to_act(state)))
        choices = game.legal_actions(state, seat)
        weights = [weight(choice, seat) for choice in choices] if weight else None
        choice = rng.choices(choices, weights)[0]
        if in_place:
            game._apply(state, seat, game.parse_action(choice.action))
        else:
            state = game.apply(state, seat, choice.action).state
        moves += 1
    return moves


WARM_PLAYOUTS = (
    # (game id, players, tests package, weight name in its test_playouts, games measured per path)
    ("city-of-iron", 4, "", "", 40),
    ("city-heroes", 4, "city_heroes", "WEIGHTS", 10),
    ("iron-bridge-gorge", 4, "iron_bridge_gorge", "WEIGHTS", 10),
)
"""Iron and Brass (2 players) is left out: about 3 s per random game, so not cheap enough here."""


def warm_playouts(budget_s: float = 2.0) -> None:
    """The issue's target figure, "a warm 4-player City of Iron random playout <= 10 ms": median ms
    per random game (setup to the end) in a process whose imports and caches were warmed by a few
    games first, moves applied in place (`_apply`, the search's path) and through `apply` (a copy
    per move, the bot's path); and the same for two other games. Each game and path stops after
    `budget_s` of measuring, so the section stays quick (about 15 s)."""
    print("\nwarm random playouts (median per game, setup to the end; warmed by 3 games first)")
    for game_id, players, package, weight_name, count in WARM_PLAYOUTS:
        game = registry.get(game_id)
        weight = city_of_iron_weight if game_id == "city-of-iron" else _test_weight(package, weight_name)
        label = "warm 4-player City of Iron playout" if game_id == "city-of-iron" else game.info.name
        for seed in range(3):
            warm_playout(game, players, seed, weight, in_place=True)
        for in_place in (True, False):
            times: list[float] = []
            moves: list[int] = []
            started = time.perf_counter()
            for seed in range(100, 100 + count):
                start = time.perf_counter()
                moves.append(warm_playout(game, players, seed, weight, in_place=in_place))
                times.append((time.perf_counter() - start) * 1000)
                if time.perf_counter() - started > budget_s:
                    break
            path = "_apply in place" if in_place else "apply (copies)"
            print(
                f"  {label:<36} {players}p  {path:<16} {statistics.median(times):8.2f} ms/game"
                f"   {statistics.median(moves):6.0f} moves/game   (n={len(times)})"
            )
