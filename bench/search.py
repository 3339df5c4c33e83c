"""The search player (ISMCTS, `rules/search.py`) against each game's heuristic policy (issue 21).

Per game: N two-player games, the search seat alternating between seat 0 and seat 1 (seeds 0..N-1),
then N games at three and at four players (where the game seats them) with one search seat among
heuristic ones, the seat rotating. A win is the search seat among the result's winners; a shared win
counts as 1/k of a win, so the fair share at n players is 1/n. Win rates come with a Wilson 95%
interval. Decision times are the search's own `choose`, per decision, at the strength asked for; the
lowest strength's times are measured on the same positions' first 200 decisions.

Games run in worker processes (one per core): a figure is per decision, so parallel games do not
change it beyond the shared machine's noise, which the printout states.
"""

from __future__ import annotations

import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from bench.machine import summary
from bench.policies import Timed
from rules import registry
from rules.core import Game
from rules.policy import Policy, play, policy_for
from rules.search import SearchPolicy

OPTIONS: dict[str, dict[str, int]] = {"iron-and-brass": {"max_rounds": 40, "board_size": 10}}


@dataclass
class Outcome:
    share: float
    illegal: int
    times: list[float] = field(default_factory=list)


def _one(game_id: str, players: int, index: int, strength: int) -> Outcome:
    game = registry.get(game_id)
    mine = index % players
    search = Timed(SearchPolicy())
    heuristic = policy_for(game_id)
    seats: list[Policy] = [heuristic] * players
    seats[mine] = search
    played = play(
        game,
        seats,
        [strength if s == mine else 3 for s in range(players)],
        seed=index,
        rng_seed=index,
        options=OPTIONS.get(game_id, {}),
        strict=False,
    )
    winners = played.result.winners if played.result is not None else []
    share = 1 / len(winners) if mine in winners else 0.0
    return Outcome(share, sum(1 for seat, _, _ in played.illegal if seat == mine), search.times)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def run(games: int = 200, only: list[str] | None = None, strength: int = 3, workers: int = 2) -> None:
    print(
        f"\nSearch (ISMCTS, strength {strength}) against the heuristic policies, {games} games per table size"
    )
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for game in registry.all_games():
            if game.info.id.startswith("test-") or (only and game.info.id not in only):
                continue
            for players in range(max(2, game.info.min_players), min(4, game.info.max_players) + 1):
                _table(pool, game, players, games, strength)


def _table(pool: ProcessPoolExecutor, game: Game, players: int, games: int, strength: int) -> None:
    start = time.perf_counter()
    outcomes = list(
        pool.map(_one, [game.info.id] * games, [players] * games, range(games), [strength] * games)
    )
    wins = sum(outcome.share for outcome in outcomes)
    low, high = wilson(wins, games)
    times = [t for outcome in outcomes for t in outcome.times]
    fair = 1 / players
    print(
        f"  {game.info.name:<18} {players}p  wins {wins / games:6.1%} (95% {low:.1%}-{high:.1%}; fair share "
        f"{fair:.0%}, ×{wins / games / fair:.2f})  illegal {sum(o.illegal for o in outcomes)}  "
        f"{(time.perf_counter() - start) / 60:.1f} min"
    )
    print(f"  {'':<18}     decision {summary(times)}")


def decision_times(strength: int, positions_per_game: int = 40) -> None:
    """Decision time alone at one strength, on positions from games the heuristic policy plays."""
    from tests.support.playouts import positions

    print(f"\nSearch decision time at strength {strength} ({positions_per_game} positions per game)")
    for game in registry.all_games():
        if game.info.id.startswith("test-"):
            continue
        search = Timed(SearchPolicy())
        count = 0
        for players in (max(2, game.info.min_players), min(4, game.info.max_players)):
            for position in positions(game, players, 11, every=7, options=OPTIONS.get(game.info.id)):
                if position.finished:
                    continue
                seat = min(game.to_act(position.state))
                search.choose(game, position.state, seat, random.Random(count), strength)
                count += 1
                if count % (positions_per_game // 2) == 0:
                    break
        print(f"  {game.info.name:<18} {summary(search.times)}")
