"""Computer players against random players: per game, N two-player games of the game's policy
(strength 3) against one random player (the policy takes seat 0 and seat 1 in turn; seeds 0..N-1).

What counts as a win: the result names the policy's seat among its winners (a shared first place
counts, and is also shown apart). A game without a winner is not a win. That happens in City
Heroes, where everybody loses when the city ends below the rival city's prestige
(`Result.no_winner`): its lines also give how often the city beat the rival, and how often the
policy's seat ranked first on influence whatever the city did, so the win rate cannot hide
either half.

Each game is played with `strict=False`: a choice that is not among the seat's legal choices, or
that `apply` refuses, is counted as an illegal move (and replaced by a random legal one so the game
goes on). The count must be 0. Decision times are the policy's own (`choose`), per decision.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from bench.machine import summary
from rules import registry
from rules.core import Game
from rules.policy import Policy, RandomPolicy, play, policy_for

OPTIONS: dict[str, dict[str, int]] = {
    "iron-and-brass": {"max_rounds": 40, "board_size": 10},
}
"""Shorter games where the game has a length option; the others play the full game (City Heroes:
the guide's 10 turns for two players)."""


class Timed:
    """Wraps a policy and records each decision's duration (ms)."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.times: list[float] = []

    def choose(self, game, state, seat, rng, strength):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        choice = self.policy.choose(game, state, seat, rng, strength)
        self.times.append((time.perf_counter() - start) * 1000)
        return choice


@dataclass
class Tally:
    """One game's figures over its N games."""

    games: int = 0
    wins: int = 0
    shared: int = 0
    lost: int = 0
    no_winner: int = 0
    unfinished: int = 0
    first: int = 0
    """The policy's seat in the result's first place (on score), whether or not anybody won."""
    illegal: int = 0
    examples: list[str] = field(default_factory=list)
    seconds: float = 0.0


def run_game(game: Game, games: int, options: dict[str, int]) -> tuple[Tally, list[float]]:
    policy = Timed(policy_for(game.info.id))
    tally = Tally(games=games)
    start = time.perf_counter()
    for index in range(games):
        mine = index % 2
        seats: list[Policy] = [RandomPolicy(), RandomPolicy()]
        seats[mine] = policy
        played = play(game, seats, [3, 3], seed=index, rng_seed=index, options=options, strict=False)
        mistakes = [entry for entry in played.illegal if entry[0] == mine]
        tally.illegal += len(mistakes)
        tally.examples += [f"game {index}: {key} ({why})" for _, key, why in mistakes[:1]]
        result = played.result
        if result is None:
            tally.unfinished += 1
            continue
        tally.first += mine in result.ranking[0]
        if getattr(result, "no_winner", False):
            tally.no_winner += 1
        elif mine in result.winners:
            tally.wins += 1
            tally.shared += len(result.winners) > 1
        else:
            tally.lost += 1
    tally.seconds = time.perf_counter() - start
    return tally, policy.times


def run(games: int = 200, only: list[str] | None = None) -> None:
    known = {game.info.id for game in registry.all_games()}
    unknown = sorted(set(only or []) - known)
    if unknown:
        raise SystemExit(f"unknown game id(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    print(
        f"\nPolicies (strength 3) against a random player, {games} two-player games per game, seats alternating"
    )
    for game in registry.all_games():
        if game.info.id.startswith("test-") or game.info.max_players < 2:
            continue
        if only and game.info.id not in only:
            continue
        options = OPTIONS.get(game.info.id, {})
        tally, times = run_game(game, games, options)
        shown = ", ".join(f"{key}={value}" for key, value in options.items()) or "full length"
        print(
            f"  {game.info.name:<18} win rate {tally.wins / games:6.1%} ({tally.wins} won, {tally.shared} of them "
            f"shared, {tally.lost} lost, {tally.no_winner} without a winner, {tally.unfinished} unfinished; "
            f"{shown}; {tally.seconds / games:.2f} s a game, {tally.seconds / 60:.1f} min in all)"
        )
        print(
            f"  {'':<18} illegal moves by the policy: {tally.illegal}"
            + "".join(f"; {e}" for e in tally.examples)
        )
        if tally.no_winner or game.info.id == "city-heroes":
            held = games - tally.no_winner - tally.unfinished
            print(
                f"  {'':<18} the city beat the rival in {held / games:6.1%} of the games; the policy's seat "
                f"ranked first on influence in {tally.first / games:6.1%}"
            )
        mean = sum(times) / len(times) if times else 0.0
        print(f"  {'':<18} decision   mean {mean:6.2f} ms   {summary(times)}")
