"""Computer players: the policies that play a seat for an absent player or fill a table.

A policy is pure like the rest of the rules core: it gets the game, the state, the seat and a
`random.Random` owned by the caller (no global random, no clock, no I/O), and returns one of
`game.legal_actions(state, seat)`. Same state, same rng seed, same strength: same choice.

How the generic `GreedyPolicy` decides (one-ply lookahead):

1. It lists the seat's legal choices; at low strength it looks at a random sample of them only
   (strength 1: half the time a random move, else the best of 4; strength 2: best of 10;
   strength 3: best of 40; a game whose turns offer many more choices sets its own sizes,
   `GreedyPolicy.sample`, as City Heroes does).
2. Each candidate is scored:
   - if the game's heuristics give it a *prior* (a score without lookahead: secret bids, dice,
     draws, simultaneous choices), that prior is its score;
   - otherwise the choice is applied to a copy of the state. If the move revealed anything
     (an `Event` with `reveals=True`: a draw, a die, a shuffle, a reveal of secret choices), its
     outcome is *not* looked at: the choice scores as "nothing changed" (the value before the move);
   - otherwise the resulting state is scored by the game's `evaluate(view, seat)` on
     `game.view(state_after, seat)`: the seat's own view, so the evaluation cannot read other
     seats' hands, bids or deck order. A move that ends the game with the seat among the winners adds 1000 and the
     score margin; one that ends it otherwise scores as "nothing changed" (punishing it would make
     the policy stall a lost game forever with moves that undo each other).
3. The best score wins; ties are broken with the rng.

The full state is only handed to `game.apply` (the engine needs it) and never read by the policy.
A game's package can refine the policy in `rules/<game>/policy.py`:
- `evaluate(view, seat) -> float`: how good the seat's view is for the seat (default: the seat's
  score/VP/influence minus the best other seat's, found in the view's `seats` list);
- `prior(view, seat, choice) -> float | None`: the score *change* of a choice decided without
  lookahead (None: look ahead);
- `POLICY`: a whole policy object, used instead of the generic greedy one (e.g. a `GreedyPolicy`
  with the game's own `sample` sizes).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol

from rules.core import Choice, Game, RuleError, Seat, View

Evaluate = Callable[[Any, Seat], float]
Prior = Callable[[Any, Seat, Choice], "float | None"]

WIN = 1000.0
"""A finished game's bonus for a winner, far above any evaluation."""

SAMPLE = {1: 4, 2: 10, 3: 40}
"""How many choices each strength looks at (the rest are not considered)."""

RANDOM_SHARE = {1: 0.5, 2: 0.0, 3: 0.0}
"""How often each strength plays a random legal move instead of thinking."""


class Policy(Protocol):
    def choose(self, game: Game, state: Any, seat: Seat, rng: random.Random, strength: int) -> Choice: ...


def _legal(game: Game, state: Any, seat: Seat) -> list[Choice]:
    choices = game.legal_actions(state, seat)
    if not choices:
        raise RuleError(f"Seat {seat} has nothing to decide now.")
    return choices


class RandomPolicy:
    """Any legal move, uniformly: the baseline the benchmarks measure the others against."""

    def choose(self, game: Game, state: Any, seat: Seat, rng: random.Random, strength: int = 1) -> Choice:
        return rng.choice(_legal(game, state, seat))


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _seat_score(entry: Any) -> float | None:
    for name in ("score", "vp", "points", "influence"):
        value = _number(getattr(entry, name, None))
        if value is not None:
            return value
    return None


def generic_evaluate(view: View, seat: Seat) -> float:
    """The seat's public score (score, vp, points or influence of `view.seats[seat]`, or the view's
    own `score`) minus the best other seat's: the fallback for a game without heuristics."""
    seats = getattr(view, "seats", None)
    if isinstance(seats, list) and seat < len(seats):
        mine = _seat_score(seats[seat])
        if mine is not None:
            others = [_seat_score(entry) for index, entry in enumerate(seats) if index != seat]
            best = max((value for value in others if value is not None), default=0.0)
            return mine - 0.5 * best
    value = _number(getattr(view, "score", None))
    return value if value is not None else 0.0


def terminal_score(game: Game, state: Any, seat: Seat) -> float | None:
    """A finished game's bonus for the seat (results are public): WIN + margin for a winner, 0 for
    the others; None while it runs."""
    result = game.result(state)
    if result is None:
        return None
    if seat not in result.winners:
        return 0.0
    margin = result.scores.get(seat, 0) - max(
        (score for other, score in result.scores.items() if other != seat), default=0
    )
    return WIN + margin


@dataclass
class GreedyPolicy:
    """One-ply lookahead over the legal choices, scored on the seat's own view (see the module doc)."""

    evaluate: Evaluate = generic_evaluate
    prior: Prior | None = None
    sample: dict[int, int] | None = None
    """Choices looked at per strength, for a game whose turns offer many more than `SAMPLE`'s."""

    def choose(self, game: Game, state: Any, seat: Seat, rng: random.Random, strength: int = 3) -> Choice:
        return self.choose_from(game, state, seat, rng, strength, _legal(game, state, seat))

    def choose_from(
        self, game: Game, state: Any, seat: Seat, rng: random.Random, strength: int, choices: list[Choice]
    ) -> Choice:
        """`choose` among the seat's legal `choices`, already listed (a game's own policy that reads
        them first need not build its menu twice)."""
        strength = min(3, max(1, strength))
        if len(choices) == 1:
            return choices[0]
        if rng.random() < RANDOM_SHARE[strength]:
            return rng.choice(choices)
        cap = (self.sample or SAMPLE)[strength]
        candidates = choices if len(choices) <= cap else rng.sample(choices, cap)
        before = game.view(state, seat)
        base = self.evaluate(before, seat)
        best: Choice | None = None
        best_key = (float("-inf"), 0.0)
        for choice in candidates:
            score = self.score(game, state, seat, choice, before, base)
            if score is None:
                continue
            key = (score, rng.random())
            if key > best_key:
                best, best_key = choice, key
        return best if best is not None else rng.choice(choices)

    def score(
        self, game: Game, state: Any, seat: Seat, choice: Choice, before: View, base: float
    ) -> float | None:
        """The choice's score, or None when the engine refuses it (never picked then)."""
        if self.prior is not None:
            known = self.prior(before, seat, choice)
            if known is not None:
                return base + known
        try:
            applied = game.apply(state, seat, choice.action)
        except RuleError:
            return None
        if any(event.reveals for event in applied.events):
            return base  # the outcome depends on hidden information: not looked at
        after = applied.state
        final = terminal_score(game, after, seat)
        if final is not None and final <= 0.0:
            # Ending a game the seat does not win scores as "nothing changed": punishing it would
            # make the policy stall a lost game forever with moves that undo each other.
            return base
        value = self.evaluate(game.view(after, seat), seat)
        return value + final if final is not None else value


def game_module(game: Game, name: str) -> ModuleType | None:
    """`rules/<game>/<name>.py` of the package that defines the game's class, if there is one: where a
    game refines the generic computer players (its `policy`, its `determinize`)."""
    package = type(game).__module__.rpartition(".")[0]
    if not package.startswith("rules."):
        return None
    try:
        return importlib.import_module(f"{package}.{name}")
    except ModuleNotFoundError as error:
        if error.name == f"{package}.{name}":
            return None
        raise


_policies: dict[str, Policy] = {}


def policy_for(game_id: str) -> Policy:
    """The heuristic policy of the registered game `game_id` (see `policy_of`)."""
    from rules import registry

    return policy_of(registry.get(game_id))


def policy_of(game: Game) -> Policy:
    """The game's own policy (`POLICY` in `rules/<game>/policy.py`), else a `GreedyPolicy` using that
    module's `evaluate` and `prior` where it has them, else a generic `GreedyPolicy`. Takes the game, not
    its id: a worker process knows the game object it was handed, not what the bot registered."""
    if game.info.id in _policies:
        return _policies[game.info.id]
    module = game_module(game, "policy")
    policy: Policy
    if module is not None and getattr(module, "POLICY", None) is not None:
        policy = module.POLICY
    else:
        policy = GreedyPolicy(
            evaluate=getattr(module, "evaluate", generic_evaluate),
            prior=getattr(module, "prior", None),
        )
    _policies[game.info.id] = policy
    return policy


@dataclass
class Played:
    """A game played to its end (or to the move limit) by policies."""

    state: Any
    moves: list[tuple[Seat, str]]
    """(seat, choice key) of every move, in order."""
    result: Any
    decisions: int = 0
    illegal: list[tuple[Seat, str, str]] = field(default_factory=list)
    """(seat, choice key, why) of every choice that was not legal (only with `strict=False`)."""


def _apply_counted(
    game: Game, state: Any, seat: Seat, choice: Choice, rng: random.Random, illegal: list
) -> tuple[Any, Choice]:
    """Apply the choice if it is one of the seat's legal choices and `apply` takes it; else record
    why not and apply a random legal choice instead."""
    legal = _legal(game, state, seat)
    why = None if choice.key in {option.key for option in legal} else "not among the legal choices"
    if why is None:
        try:
            return game.apply(state, seat, choice.action).state, choice
        except RuleError as error:
            why = str(error)
    illegal.append((seat, choice.key, why))
    fallback = rng.choice(legal)
    return game.apply(state, seat, fallback.action).state, fallback


def play(
    game: Game,
    policies: list[Policy],
    strengths: list[int],
    *,
    seed: int,
    rng_seed: int,
    options: dict[str, Any] | None = None,
    max_moves: int = 20_000,
    strict: bool = True,
) -> Played:
    """Play one game with one policy per seat; every move goes through `game.apply`, so an illegal
    choice raises `RuleError`. With `strict=False` (the benchmark's count) an illegal choice is
    recorded in `Played.illegal` and replaced by a random legal one, and the game goes on.
    Deterministic in (seed, rng_seed)."""
    rng = random.Random(rng_seed)
    state = game.setup([f"p{seat}" for seat in range(len(policies))], options or {}, seed)
    moves: list[tuple[Seat, str]] = []
    illegal: list[tuple[Seat, str, str]] = []
    for _ in range(max_moves):
        if game.result(state) is not None:
            break
        waiting = sorted(game.to_act(state))
        seat = waiting[0] if len(waiting) == 1 else rng.choice(waiting)
        choice = policies[seat].choose(game, state, seat, rng, strengths[seat])
        if strict:
            state = game.apply(state, seat, choice.action).state
        else:
            state, choice = _apply_counted(game, state, seat, choice, rng, illegal)
        moves.append((seat, choice.key))
    return Played(state=state, moves=moves, result=game.result(state), decisions=len(moves), illegal=illegal)
