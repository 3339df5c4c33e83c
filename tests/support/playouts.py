"""The one playout harness every game's tests use.

- `random_game`: a seeded random player plays a game to its end, checking the contract after every
  move (someone can act, the menu is non-empty with unique keys, random illegal moves are refused
  without touching the state) and whatever invariants the game's own tests pass in; `replays` then
  checks setup + log through the public `apply` gives the same state byte for byte.
- `positions`: states from games played by each game's own computer player, for tests and benches
  that need realistic positions rather than hand-made ones (pictures, words, menus).

The computer player plays like a person would (it builds, trades, attacks) so the positions have
full hands, crowded maps and long logs; a few random moves mixed in reach the odd corners.
Deterministic from the seed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules import registry
from rules.core import Choice, Event, Game, RuleError
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


Weight = Callable[[Choice, int], float]
"""A random player's liking for a choice (by seat); 1.0 for all is the plain random player."""


def key_weights(weights: Mapping[str, float], default: float | None = None) -> Weight:
    """Weights by the choice key's first part ("build:3" -> "build"); a key not listed takes `default`,
    or fails when there is none, so a new kind of move is noticed by the test that plays it."""

    def weight(choice: Choice, _seat: int) -> float:
        kind = choice.key.split(":")[0]
        if kind in weights:
            return weights[kind]
        if default is None:
            raise AssertionError(f"no weight for the move kind {kind!r}")
        return default

    return weight


@dataclass
class Playout:
    """One random game: its final state, the action log (seat, action) and the number of moves."""

    state: Any
    log: list[tuple[int, Any]]
    steps: int


def random_game(  # noqa: PLR0913 - every knob is a test's
    game: Game,
    players: Sequence[str],
    seed: int,
    *,
    options: Mapping[str, Any] | None = None,
    weight: Weight | None = None,
    pick_seat: Callable[[random.Random, list[int]], int] | None = None,
    public_apply: bool = False,
    fuzz: float = 0.0,
    random_action: Callable[[random.Random, Any], Any] | None = None,
    check: Callable[[Any, list[Event], Any], None] | None = None,
    views: float = 0.0,
    check_views: Callable[[Any], None] | None = None,
    markers: Sequence[str] = (),
    seen: Counter[str] | None = None,
    max_steps: int = 50_000,
) -> Playout:
    """Play one game with a seeded random player to its end.

    Each move: someone must act, the acting seat has choices with unique keys; with probability `fuzz`
    a `random_action` (any move, legal or not) is tried on a copy and, when refused, must leave it
    unchanged; with probability `views` `check_views(state)` runs. The move is applied through
    `game.apply` (a copy, as the bot does) with `public_apply`, else through the `_apply` hook on the
    live state; then `check(state, events, action)`. Event texts containing a `markers` phrase are
    counted in `seen`, so a test can prove its games reached every rule."""
    rng = random.Random(seed)
    state = game.setup(list(players), dict(options or {}), seed)
    log: list[tuple[int, Any]] = []
    steps = 0
    while game.result(state) is None:
        steps += 1
        assert steps < max_steps, "the game does not end"
        to_act = sorted(game.to_act(state))
        assert to_act, "nobody can move in an unfinished game"
        seat = pick_seat(rng, to_act) if pick_seat else rng.choice(to_act)
        choices = game.legal_actions(state, seat)
        assert choices, f"seat {seat} must act but has no choice"
        assert len({choice.key for choice in choices}) == len(choices), "two choices share a key"
        if random_action is not None and rng.random() < fuzz:
            refused_changes_nothing(game, state, seat, random_action(rng, state))
        if check_views is not None and rng.random() < views:
            check_views(state)
        weights = [weight(choice, seat) for choice in choices] if weight else None
        choice = rng.choices(choices, weights)[0]
        log.append((seat, choice.action))
        if public_apply:
            applied = game.apply(state, seat, choice.action)
            state, events = applied.state, applied.events
        else:
            events = game._apply(state, seat, game.parse_action(choice.action))
        if seen is not None and markers:
            seen.update(marker for event in events for marker in markers if marker in event.text)
        if check is not None:
            check(state, events, choice.action)
    return Playout(state, log, steps)


def refused_changes_nothing(game: Game, state: Any, seat: int, raw: Any) -> None:
    """Try `raw` on a deep copy; a refusal (RuleError) must leave the copy exactly as it was."""
    probe, before = game.copy_state(state), game.dump_state(state)
    try:
        game._apply(probe, seat, game.parse_action(raw))
    except RuleError:
        assert game.dump_state(probe) == before, "a refused move changed the state"


def replays(
    game: Game, players: Sequence[str], seed: int, playout: Playout, options: Mapping[str, Any] | None = None
) -> None:
    """setup(seed) + the playout's log through the public `apply` gives the same final state JSON, and
    the state survives a dump/load round trip unchanged."""
    state = game.setup(list(players), dict(options or {}), seed)
    for seat, action in playout.log:
        state = game.apply(state, seat, action).state
    assert game.dump_state(state) == game.dump_state(playout.state)
    assert game.dump_state(game.load_state(game.dump_state(state))) == game.dump_state(playout.state)
