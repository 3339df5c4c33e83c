"""Iron & Brass: ECONOMIC against MILITARY (rules/iron_and_brass/policy.py), the evidence issue 6
asks for ("balanced so both an economic and a military strategy can win").

Per board size, N seeded games at the lobby's default turn limit, each seed played twice with the
seats swapped, so each strategy moves first in half of the games (the opening roll decides who
starts, and it comes from the seed): each strategy's win rate,
draws, games decided by the turn limit, how the games were won, and their mean length in rounds.
Then each strategy against the random player. Figures are printed, never asserted; the test with a
few of these seeds is tests/rules/iron_and_brass/test_strategies.py.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from rules.iron_and_brass import GAME
from rules.iron_and_brass.policy import ECONOMIC, MILITARY
from rules.policy import Policy, RandomPolicy, play

SIZES = (10, 12, 14, 16)
"""The smallest, the default and the largest board, and one between."""


def _name(policy: Policy) -> str:
    return getattr(policy, "name", "random")


def _ending(reason: str) -> str:
    if reason.startswith("Turn limit"):
        return "turn limit"
    if "military units" in reason:
        return "all units"
    return "HQ"


@dataclass
class Tally:
    games: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    """Wins by strategy name ('draw' for a draw)."""
    endings: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(winner, how): 'HQ', 'all units' or 'turn limit'."""
    started: Counter[str] = field(default_factory=Counter)
    """Games each strategy moved first in."""
    won_first: Counter[str] = field(default_factory=Counter)
    """Games each strategy won having moved first."""
    rounds: int = 0
    seconds: float = 0.0

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins.update(other.wins)
        self.endings.update(other.endings)
        self.started.update(other.started)
        self.won_first.update(other.won_first)
        self.rounds += other.rounds
        self.seconds += other.seconds


def match(first: Policy, second: Policy, size: int, games: int) -> Tally:
    """`games` games on a board of `size`: each seed twice, the seats swapped, so the opening roll
    (the seed's) lets each strategy move first in one of the two."""
    tally = Tally()
    for index in range(games):
        seats = [first, second] if index % 2 == 0 else [second, first]
        seed = index // 2
        start = time.perf_counter()
        played = play(GAME, seats, [3, 3], seed=seed, rng_seed=seed, options={"board_size": size})
        tally.seconds += time.perf_counter() - start
        result, state = played.result, played.state
        tally.games += 1
        tally.rounds += state.round
        opener = _name(seats[state.first])
        tally.started[opener] += 1
        if result is None or len(result.winners) != 1:
            tally.wins["draw"] += 1
            tally.endings["draw", "turn limit"] += 1
            continue
        winner = _name(seats[result.winners[0]])
        tally.wins[winner] += 1
        tally.endings[winner, _ending(result.reason)] += 1
        if winner == opener:
            tally.won_first[winner] += 1
    return tally


def _rate(count: int, games: int) -> str:
    return f"{count / games:6.1%}" if games else "   n/a"


def _line(label: str, tally: Tally, names: tuple[str, str]) -> str:
    games = tally.games
    limit = sum(count for (_, how), count in tally.endings.items() if how == "turn limit")
    parts = [f"{name} {_rate(tally.wins[name], games)}" for name in names]
    return (
        f"  {label:<10} {games:4d} games   {'   '.join(parts)}   draws {tally.wins['draw']:3d}"
        f"   turn limit {limit:3d}   mean {tally.rounds / games:5.1f} rounds"
        f"   {tally.seconds / games:5.2f} s a game"
    )


def run(games: int = 40) -> None:
    names = (ECONOMIC.name, MILITARY.name)
    print(
        f"\nIron & Brass strategies: ECONOMIC against MILITARY, {games} games per board size "
        "(each seed with both seatings, so each moves first in half; default turn limit)"
    )
    total = Tally()
    for size in SIZES:
        tally = match(ECONOMIC, MILITARY, size, games)
        total.add(tally)
        print(_line(f"{size}x{size}", tally, names))
    print(_line("all sizes", total, names))
    for name in names:
        ways = ", ".join(
            f"{how} {count}" for (who, how), count in sorted(total.endings.items()) if who == name
        )
        print(
            f"  {name:<10} won by: {ways or 'nothing'}; moved first in {total.started[name]} games and "
            f"won {_rate(total.won_first[name], total.started[name]).strip()} of them"
        )
    print(f"\nEach strategy against the random player, {games} games per board size")
    for strategy in (ECONOMIC, MILITARY):
        against = Tally()
        for size in SIZES:
            against.add(match(strategy, RandomPolicy(), size, games))
        print(_line(strategy.name, against, (strategy.name, "random")))
