"""The search player (ISMCTS, `rules/search.py`) against each game's heuristic policy (issue 21).

Per game: N two-player games, the search seat alternating between seat 0 and seat 1 (seeds 0..N-1),
then N games at three and at four players (where the game seats them) with one search seat among
heuristic ones, the seat rotating. A win is the search seat among the result's winners; a shared win
counts as 1/k of a win, so the fair share at n players is 1/n. Win rates come with a Wilson 95%
interval. The other seats, and the baseline in the search's seat, play the reference heuristic
(`reference_policy`: the heuristic as the issue found it); the shipped heuristic, which gives the
search its hint, is played in that seat too, to tell its gain from the search's. Decision times are
the search's own `choose`, per decision, at the strength asked for; the
lowest strength's times are measured on the same positions' first 200 decisions.

Games run in worker processes (one per core): a figure is per decision, so parallel games do not
change it beyond the shared machine's noise, which the printout states.

Why a ledger (`--search-ledger FILE`): 200 games per game and table size is about 40 hours of search on
a 2-core machine, more than one sitting. Each finished game is appended to the file as one JSON line
with a fingerprint of the rules code and data it ran on; a later run (another day, another machine)
with the same fingerprint skips the games already there and reports the win rate over all of them.
A change to the rules or the search changes the fingerprint, so old games never mix with new ones.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from pathlib import Path

from bench.machine import describe, summary
from bench.policies import Timed
from rules import registry
from rules.core import Game
from rules.policy import GreedyPolicy, Policy, game_module, play, policy_for
from rules.search import SearchPolicy

OPTIONS: dict[str, dict[str, int]] = {"iron-and-brass": {"max_rounds": 40, "board_size": 10}}


@dataclass
class Outcome:
    share: float
    illegal: int
    times: list[float] = field(default_factory=list)


HEURISTIC = -1
"""The `strength` of a benchmark seat played by the shipped heuristic; 0 is the reference heuristic."""


def reference_policy(game_id: str) -> Policy:
    """Issue 21's yardstick, "today's heuristic policy": the heuristic as it was when the issue was
    filed. A game whose evaluation has since been retuned (the rival's weight, what owned cards are
    worth) says in its policy module which `evaluate` arguments undo that (`REFERENCE`), and which
    `prior` arguments undo a retuned prior (`REFERENCE_PRIOR`: City of Iron's purchases), and is played
    here with them, so a better evaluation counts for the search only as far as it beats the old one.
    A game whose computer player has since become another policy object (its `POLICY`) keeps the old
    one as `REFERENCE_POLICY` in its policy module, and that is returned as it stands."""
    module = game_module(registry.get(game_id), "policy")
    if getattr(module, "REFERENCE_POLICY", None) is not None:
        return module.REFERENCE_POLICY
    policy = policy_for(game_id)
    if not isinstance(policy, GreedyPolicy):
        return policy
    if getattr(module, "REFERENCE", None):
        policy = replace(policy, evaluate=partial(module.evaluate, **module.REFERENCE))
    if getattr(module, "REFERENCE_PRIOR", None) and policy.prior is not None:
        policy = replace(policy, prior=partial(module.prior, **module.REFERENCE_PRIOR))
    return policy


def _one(game_id: str, players: int, index: int, strength: int) -> Outcome:
    """Game `index`: the search at `strength` in seat `index % players`, the reference heuristic in the
    others; strength 0 puts the reference in that seat too (the same seeds' baseline), `HEURISTIC` the
    shipped heuristic (what the search starts from)."""
    game = registry.get(game_id)
    mine = index % players
    reference = reference_policy(game_id)
    if strength == 0:
        search = Timed(reference)
    elif strength == HEURISTIC:
        search = Timed(policy_for(game_id))
    else:
        search = Timed(SearchPolicy())
    seats: list[Policy] = [reference] * players
    seats[mine] = search
    played = play(
        game,
        seats,
        [strength if s == mine and strength > 0 else 3 for s in range(players)],
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


def fingerprint() -> str:
    """A hash of what a game's outcome depends on: the rules core (games, policies, search) and the
    game data."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for folder, pattern in ((root / "rules", "*.py"), (root / "data", "*")):
        for path in sorted(folder.rglob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


@dataclass
class Ledger:
    """Finished games of earlier runs with the same code (see the module doc); None path: no ledger."""

    path: Path | None
    code: str = field(default_factory=fingerprint)
    machine: str = field(default_factory=describe)

    def games(self, game_id: str, players: int, strength: int) -> dict[int, Outcome]:
        if self.path is None or not self.path.exists():
            return {}
        found: dict[int, Outcome] = {}
        for line in self.path.read_text().splitlines():
            row = json.loads(line)
            if (row["code"], row["game"], row["players"], row["strength"]) == (
                self.code,
                game_id,
                players,
                strength,
            ):
                found[row["index"]] = Outcome(row["share"], row["illegal"], row["times"])
        return found

    def add(self, game_id: str, players: int, strength: int, index: int, outcome: Outcome) -> None:
        if self.path is None:
            return
        row = {"code": self.code, "game": game_id, "players": players, "strength": strength, "index": index}
        row |= asdict(outcome) | {"machine": self.machine}
        with self.path.open("a") as ledger:
            ledger.write(json.dumps(row) + "\n")


def _games(only: list[str] | None) -> list[Game]:
    """The offered games (not the tests' own), or those of `only`."""
    return [
        game
        for game in registry.all_games()
        if not game.info.id.startswith("test-") and (not only or game.info.id in only)
    ]


def run(
    games: int = 200,
    only: list[str] | None = None,
    strength: int = 3,
    workers: int = 2,
    ledger: Path | None = None,
    tables: list[int] | None = None,
) -> None:
    book = Ledger(ledger)
    print(
        f"\nSearch (ISMCTS, strength {strength}) against the heuristic policies, {games} games per table size"
        + (f" (ledger {ledger}, code {book.code})" if ledger else "")
    )
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for game in _games(only):
            for players in range(max(2, game.info.min_players), min(4, game.info.max_players) + 1):
                if tables is None or players in tables:
                    _table(pool, game, players, games, strength, book)


def _table(
    pool: ProcessPoolExecutor, game: Game, players: int, games: int, strength: int, book: Ledger
) -> None:
    """The search's games and, on the same seeds and seats, the heuristic's: a seed can favour a seat
    (City Heroes' rival, a first move), so the heuristic's own share there is the figure to beat, and
    the games where only one of them won say which way the difference goes."""
    start = time.perf_counter()
    outcomes, reused = _outcomes(pool, game, players, games, strength, book)
    baseline, _ = _outcomes(pool, game, players, games, 0, book)
    shipped, _ = _outcomes(pool, game, players, games, HEURISTIC, book)
    wins, held = sum(o.share for o in outcomes), sum(o.share for o in baseline)
    heuristic = sum(o.share for o in shipped)
    low, high = wilson(wins, games)
    times = [t for outcome in outcomes for t in outcome.times]
    fair = 1 / players
    better = sum(1 for o, b in zip(outcomes, baseline, strict=True) if o.share > b.share)
    worse = sum(1 for o, b in zip(outcomes, baseline, strict=True) if o.share < b.share)
    print(
        f"  {game.info.name:<18} {players}p  wins {wins / games:6.1%} (95% {low:.1%}-{high:.1%}; fair share "
        f"{fair:.0%}, ×{wins / games / fair:.2f})  illegal {sum(o.illegal for o in outcomes)}  "
        f"{(time.perf_counter() - start) / 60:.1f} min ({reused} from the ledger)"
    )
    print(
        f"  {'':<18}     the reference heuristic in its seat, same seeds: {held / games:6.1%}; "
        f"games the search did better in: {better}, worse in: {worse}"
    )
    print(f"  {'':<18}     today's heuristic (the search's hint) in its seat: {heuristic / games:6.1%}")
    print(f"  {'':<18}     decision {summary(times)}")


def _outcomes(
    pool: ProcessPoolExecutor, game: Game, players: int, games: int, strength: int, book: Ledger
) -> tuple[list[Outcome], int]:
    """Games 0..games-1 at `strength`, from the ledger where it has them; and how many it had."""
    done = book.games(game.info.id, players, strength)
    missing = [index for index in range(games) if index not in done]
    count = len(missing)
    fresh = pool.map(_one, [game.info.id] * count, [players] * count, missing, [strength] * count)
    for index, outcome in zip(missing, fresh, strict=True):
        book.add(game.info.id, players, strength, index, outcome)
        done[index] = outcome
    return [done[index] for index in range(games)], games - count


def decision_times(strength: int, positions_per_game: int = 40, only: list[str] | None = None) -> None:
    """Decision time alone at one strength, on positions from games the heuristic policy plays. The
    first decision of each game is not counted: it loads the game's data and warms its caches, which a
    running bot did once at its first move (it showed as a 2.7 s p99 at strength 1)."""
    from tests.support.playouts import positions

    print(f"\nSearch decision time at strength {strength} ({positions_per_game} positions per game)")
    for game in _games(only):
        search = Timed(SearchPolicy())
        count = 0
        warm = True
        for players in (max(2, game.info.min_players), min(4, game.info.max_players)):
            for position in positions(game, players, 11, every=7, options=OPTIONS.get(game.info.id)):
                if position.finished:
                    continue
                seat = min(game.to_act(position.state))
                if warm:
                    SearchPolicy().choose(game, position.state, seat, random.Random(count), strength)
                    warm = False
                search.choose(game, position.state, seat, random.Random(count), strength)
                count += 1
                if count % (positions_per_game // 2) == 0:
                    break
        print(f"  {game.info.name:<18} {summary(search.times)}")
