"""The strong computer player: single-observer information-set Monte Carlo tree search (SO-ISMCTS,
Cowling, Powley and Whitehouse 2012), for every game through the rules contract.

Why this search: our games hide hands, decks, bids and future dice, so a plain tree search on the true
state would cheat. ISMCTS searches one tree over the deciding seat's *information set*: every
iteration first samples a world consistent with what the seat can see (its game's determinizer:
hidden hands, deck order, undecided bids and the rng resampled), then walks the tree in that world,
considering only the moves legal there (a child's "availability" counts the iterations in which it
could have been chosen, which corrects UCB for moves that exist only in some worlds).

Iteration: determinize -> select (UCB1 over available children, from the acting seat's point of view)
-> expand one untried move -> roll out with a cheap policy for a bounded number of moves -> reward
every seat (a finished game: a share of the win; otherwise the game's own evaluation, as ranks) ->
back up each node's reward for the seat that moved into it. The move played is the root's most visited
child.

Pure like the rest of the core: budgets are iteration counts, not seconds (no clock), the randomness is
the caller's `random.Random`, and the true state is only handed to the determinizer, which must not let
hidden facts through (tests check that a decision does not change when only hidden facts do).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.core import Choice, Game, Rng, RuleError, Seat
from rules.policy import Evaluate, game_module, generic_evaluate, policy_for

Determinizer = Callable[[Any, Seat, random.Random], Any]
"""(true state, deciding seat, rng) -> a full state the seat cannot tell apart from the true one."""

BUDGETS = {1: 60, 2: 250, 3: 1000}
"""Iterations per decision for each `ai_strength`; sized by `python -m bench --only search` so the top
strength decides within 1 s (p95) and the lowest within 0.2 s on a 2-core machine."""
ROLLOUT_MOVES = {1: 6, 2: 10, 3: 16}
"""Moves played out past the tree before the position is evaluated."""
EXPLORATION = 0.7
HINT_SHARE = 0.9
"""The heuristic policy's move is played when the search visited it nearly as often as its favourite:
where the search sees no difference (a small budget, moves that only shuffle coins back and forth such
as a loan and its repayment) the heuristic's judgement is better than an arbitrary pick, and it ends
cycles the search alone could wander into."""


def reseeded(state: Any, rng: random.Random) -> Any:
    """A deep copy whose future shuffles and dice differ from the true ones: the least every
    determinizer must do, since the state's own Rng says what the next die will show."""
    world = state.model_copy(deep=True)
    if isinstance(getattr(world, "rng", None), Rng):
        world.rng = Rng(seed=rng.getrandbits(62))
    return world


def determinizer_for(game: Game) -> Determinizer:
    """`determinize` of `rules/<game>/determinize.py`; a game without one hides nothing but its rng."""
    module = game_module(game, "determinize")
    return getattr(module, "determinize", None) or (lambda state, _seat, rng: reseeded(state, rng))


def evaluator_for(game: Game) -> Evaluate:
    module = game_module(game, "policy")
    return getattr(module, "evaluate", None) or generic_evaluate


@dataclass
class _Node:
    seat: Seat | None
    """Who moved into this node (None at the root)."""
    key: str | None
    parent: _Node | None
    children: dict[str, _Node] = field(default_factory=dict)
    visits: int = 0
    available: int = 0
    reward: float = 0.0

    def ucb(self, exploration: float) -> float:
        return self.reward / self.visits + exploration * math.sqrt(math.log(self.available) / self.visits)


def _actor(game: Game, state: Any) -> Seat | None:
    waiting = game.to_act(state)
    return min(waiting) if waiting else None


def _rewards(game: Game, state: Any, seats: int, evaluate: Evaluate) -> list[float]:
    """Each seat's reward in [0, 1]: a winner's share of a finished game, or, mid-game, the seat's rank
    by the game's evaluation of its own view (the best 1, the worst 0, ties shared)."""
    result = game.result(state)
    if result is not None:
        winners = set(result.winners)
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(seats)]
    if seats == 1:
        return [0.5 + math.atan(evaluate(game.view(state, 0), 0)) / math.pi]
    values = [evaluate(game.view(state, seat), seat) for seat in range(seats)]
    return [
        (sum(v < values[seat] for v in values) + 0.5 * (sum(v == values[seat] for v in values) - 1))
        / (seats - 1)
        for seat in range(seats)
    ]


@dataclass
class SearchPolicy:
    """ISMCTS as a `rules.policy.Policy`: `choose(game, state, seat, rng, strength)`."""

    budgets: dict[int, int] = field(default_factory=lambda: dict(BUDGETS))
    rollout_moves: dict[int, int] = field(default_factory=lambda: dict(ROLLOUT_MOVES))
    exploration: float = EXPLORATION
    rollout: Any = None
    """The policy that plays rollouts; None plays them at random (cheap and unbiased)."""

    def choose(self, game: Game, state: Any, seat: Seat, rng: random.Random, strength: int = 3) -> Choice:
        choices = game.legal_actions(state, seat)
        if not choices:
            raise RuleError(f"Seat {seat} has nothing to decide now.")
        if len(choices) == 1:
            return choices[0]
        strength = min(3, max(1, strength))
        hint = policy_for(game.info.id).choose(game, state, seat, random.Random(rng.random()), strength)
        root = self.search(game, state, seat, rng, self.budgets[strength], self.rollout_moves[strength])
        by_key = {choice.key: choice for choice in choices}
        ranked = sorted(
            (child for child in root.children.values() if child.key in by_key),
            key=lambda child: (child.visits, child.reward, child.key),
            reverse=True,
        )
        if not ranked:
            return hint
        hinted = root.children.get(hint.key)
        if hinted is not None and hinted.visits >= HINT_SHARE * ranked[0].visits:
            return hint  # the search cannot tell them apart: the heuristic's sense breaks the tie
        return by_key[ranked[0].key]

    def search(
        self, game: Game, state: Any, seat: Seat, rng: random.Random, iterations: int, depth: int
    ) -> _Node:
        determinize = determinizer_for(game)
        evaluate = evaluator_for(game)
        seats = _seat_count(state)
        root = _Node(seat=None, key=None, parent=None)
        for _ in range(iterations):
            world = determinize(state, seat, rng)
            node = self._descend(game, world, seat, root, rng)
            self._roll_out(game, world, rng, depth)
            rewards = _rewards(game, world, seats, evaluate)
            while node is not None:
                node.visits += 1
                if node.seat is not None:
                    node.reward += rewards[node.seat]
                node = node.parent
        return root

    def _descend(self, game: Game, world: Any, seat: Seat, root: _Node, rng: random.Random) -> _Node:
        """Select and expand in `world` (changed in place); the node reached."""
        node = root
        actor: Seat | None = seat
        while actor is not None:
            choices = {choice.key: choice for choice in game.legal_actions(world, actor)}
            if not choices:
                break
            for key in choices.keys() & node.children.keys():
                node.children[key].available += 1
            untried = [key for key in choices if key not in node.children]
            if untried:
                key = rng.choice(untried)
                child = node.children[key] = _Node(seat=actor, key=key, parent=node, available=1)
            else:
                child = max(
                    (node.children[key] for key in choices), key=lambda c: (c.ucb(self.exploration), c.key)
                )
            if not _play(game, world, actor, choices[child.key]):
                del node.children[child.key]
                return node
            node = child
            if untried:
                return node
            actor = _actor(game, world)
        return node

    def _roll_out(self, game: Game, world: Any, rng: random.Random, depth: int) -> None:
        for _ in range(depth):
            actor = _actor(game, world)
            if actor is None:
                return
            choices = game.legal_actions(world, actor)
            if not choices:
                return
            choice = self.rollout.choose(game, world, actor, rng, 1) if self.rollout else rng.choice(choices)
            if not _play(game, world, actor, choice):
                return


def _play(game: Game, world: Any, actor: Seat, choice: Choice) -> bool:
    """Apply in place (the world is the iteration's own copy); False if the engine refuses."""
    try:
        game._apply(world, actor, game.parse_action(choice.action))
    except RuleError:
        return False
    return True


def _seat_count(state: Any) -> int:
    players = getattr(state, "players", None)
    return len(players) if isinstance(players, list) else 1


POLICY = SearchPolicy()
