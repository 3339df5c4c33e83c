"""Computer players against random players: per game, the win rate of the game's policy (strength 3)
against one random player over N two-player games (the policy takes seat 0 and seat 1 in turn), and
the mean time the policy takes per decision.

A win is the policy's seat among the result's winners; a shared win counts as a win and is also
shown apart. City Heroes is lost by everybody when the city ends below the rival's prestige (a
random partner sinks it by buying from the rival), so its line also gives how often the policy's
influence beat the random player's, which is who would have won had the city held.
"""

from __future__ import annotations

import time

from bench.machine import summary
from rules import registry
from rules.policy import Policy, RandomPolicy, play, policy_for

OPTIONS: dict[str, dict[str, int]] = {
    "iron-and-brass": {"max_rounds": 40, "board_size": 10},
    "city-heroes": {"turns": 4},
}
"""Shorter games where the game has a length option (Iron Bridge Gorge and City of Iron play full length)."""


class _Timed:
    """Wraps a policy and records each decision's duration (ms)."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.times: list[float] = []

    def choose(self, game, state, seat, rng, strength):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        choice = self.policy.choose(game, state, seat, rng, strength)
        self.times.append((time.perf_counter() - start) * 1000)
        return choice


def run(games: int = 200) -> None:
    print(
        f"\nPolicies (strength 3) against a random player, {games} two-player games per game, seats alternating"
    )
    for game in registry.all_games():
        if game.info.id.startswith("test-") or game.info.max_players < 2:
            continue
        options = OPTIONS.get(game.info.id, {})
        policy = _Timed(policy_for(game.info.id))
        wins = shared = lost = unfinished = lead = 0
        start = time.perf_counter()
        for index in range(games):
            mine = index % 2
            seats: list[Policy] = [RandomPolicy(), RandomPolicy()]
            seats[mine] = policy
            played = play(game, seats, [3, 3], seed=index, rng_seed=index, options=options)
            result = played.result
            if result is None:
                unfinished += 1
                continue
            if mine in result.winners:
                wins += 1
                shared += len(result.winners) > 1
            else:
                lost += 1
            if result.scores.get(mine, 0) > result.scores.get(1 - mine, 0):
                lead += 1
        elapsed = time.perf_counter() - start
        shown = ", ".join(f"{key}={value}" for key, value in options.items()) or "full length"
        line = (
            f"  {game.info.name:<18} win rate {wins / games:6.1%} ({wins} won, {shared} of them shared, "
            f"{lost} lost, {unfinished} unfinished; {shown}; {elapsed / games:.2f} s a game)"
        )
        print(line)
        if game.info.id == "city-heroes":
            print(f"  {'':<18} influence above the random player's in {lead / games:6.1%} of the games")
        mean = sum(policy.times) / len(policy.times) if policy.times else 0.0
        print(f"  {'':<18} decision   mean {mean:6.2f} ms   {summary(policy.times)}")
