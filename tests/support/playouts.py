"""States from games played by each game's own computer player, for tests and benches that need
realistic positions rather than hand-made ones (pictures, words, menus).

The computer player plays like a person would (it builds, trades, attacks) so the positions have
full hands, crowded maps and long logs; a few random moves mixed in reach the odd corners.
Deterministic from the seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rules import registry
from rules.core import Game
from rules.policy import policy_for

NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")


def offered_games() -> list[Game]:
    """The games the bot offers (not the tests' own High Card game)."""
    return [
        game for game in registry.all_games() if type(game).__module__.startswith(registry.BUILTIN_MODULES)
    ]


@dataclass(frozen=True)
class Position:
    """A state of a played game, with the state before the last move (for "what changed")."""

    game: Game
    state: Any
    before: Any
    move: int
    finished: bool


def positions(
    game: Game,
    players: int,
    seed: int,
    *,
    every: int = 25,
    max_moves: int = 3000,
    options: dict[str, Any] | None = None,
    random_share: float = 0.15,
) -> Iterator[Position]:
    """Every `every`-th position of one game played to its end (or `max_moves`), and the last one."""
    rng = random.Random(seed)
    policy = policy_for(game.info.id)
    names = list(NAMES[:players])
    state = game.setup(names, options or {}, seed)
    before = state
    for move in range(max_moves):
        finished = game.result(state) is not None
        if finished or move % every == 0:
            yield Position(game, state, before, move, finished)
        if finished:
            return
        seat = min(game.to_act(state))
        if rng.random() < random_share:
            choice = rng.choice(game.legal_actions(state, seat))
        else:
            choice = policy.choose(game, state, seat, rng, 1)
        before, state = state, game.apply(state, seat, choice.action).state
    yield Position(game, state, before, max_moves, game.result(state) is not None)


def table_sizes(game: Game) -> tuple[int, int]:
    """The smallest and the largest table the game seats."""
    return game.info.min_players, game.info.max_players
