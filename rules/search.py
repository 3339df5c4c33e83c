"""The strong computer player: single-observer information-set Monte Carlo tree search (SO-ISMCTS,
Cowling, Powley and Whitehouse 2012), for every game through the rules contract.

Why this search: our games hide hands, decks, bids and future dice, so a plain tree search on the true
state would cheat. ISMCTS searches one tree over the deciding seat's *information set*: every
iteration first samples a world consistent with what the seat can see (its game's determinizer:
hidden hands, deck order, undecided bids and the rng resampled), then walks the tree in that world,
considering only the moves legal there (a child's "availability" counts the iterations in which it
could have been chosen, which corrects UCB for moves that exist only in some worlds).

Iteration: determinize -> select (UCB1 over available children, from the acting seat's point of view)
-> expand one untried move -> optionally play a few random moves -> value the position for every seat
on the path with the game's own evaluation of that seat's view (`rules/<game>/policy.py: evaluate`;
one spectator's view for all of them where the evaluation reads only public facts) -> back each
value up to the nodes that seat moved into.

Why values and not wins: a game here lasts hundreds of moves, so a budget of hundreds of iterations
never sees the end, and a rank (who leads) throws away by how much, which is what separates good moves
from bad ones. The values are in the game's own units (coins, VP), so UCB compares them after scaling
each seat's by the smallest and largest value seen in this search (as MuZero does): no constant per game.

Why the heuristic still has a say (`choose`): the heuristic's move is expanded first at the root, and it
is played unless the search finds a move *clearly* better (`MARGIN` of the values' range, with enough
visits to trust the difference). Where the search cannot tell moves apart (a small budget, a loan and
its repayment that only shuffle coins) an arbitrary pick would be worse than the heuristic's judgement,
and a search that wandered from it on noise could fall into cycles; with the gate, more thinking can
only add the moves the search is sure of. The heuristic's move is played without a search at a table
size where the search was not measured to beat it (`SEARCH_TABLES`), and at a step whose every choice
is of a kind the game leaves to the heuristic's prior (`HEURISTIC_DECIDES`: City of Iron's secret
purchases, whose worth shows only rounds later).

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

from rules.core import Choice, Game, Rng, RuleError, Seat, copied
from rules.policy import Evaluate, game_module, generic_evaluate, policy_of

Determinizer = Callable[[Any, Seat, random.Random], Any]
"""(true state, deciding seat, rng) -> a full state the seat cannot tell apart from the true one."""

BUDGETS = {1: 40, 2: 150, 3: 500}
"""Iterations per decision for each `ai_strength` (a game may set its own, `SEARCH_BUDGETS` in its
policy module); sized by `python -m bench --only search` so the top strength decides within 1 s (p95)
and the lowest within 0.2 s on a 2-core machine."""
ROLLOUT_MOVES = {1: 0, 2: 0, 3: 0}
"""Random moves played past the tree before the position is valued: none by default, since a random
move of these games mostly spoils the position the evaluation would judge."""
EXPLORATION = 0.7
MARGIN = 0.04
"""How much better (as a share of the values' range) the search's favourite must be than the
heuristic's move to be played instead."""
SEARCH_TABLES = frozenset({2})
"""The table sizes at which the search decides, unless a game's policy module says otherwise
(`SEARCH_TABLES`); at the others the heuristic's move is played. A search at a table size must first
be measured to beat the heuristic there (bench/README.md): City of Iron's did at four players only
once its evaluation valued the cards a seat owns (0 of 20 games before, where the heuristic in the
same seat won 7)."""
TRUSTED_VISITS = 8
"""Visits the heuristic's move and the favourite each need before their difference is believed."""
SETTLED_AFTER = 20
"""Iterations before the search may stop early because no later one could change its favourite."""


def reseeded(state: Any, rng: random.Random) -> Any:
    """A copy whose future shuffles and dice differ from the true ones: the least every determinizer
    must do, since the state's own Rng says what the next die will show."""
    world = copied(state)
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


def skipped_kinds(game: Game) -> frozenset[str]:
    """Action kinds the search does not consider (`SEARCH_SKIPS` of the game's policy module): moves
    that only undo earlier ones or open a trade, which a computer has no use for and which could
    otherwise repeat forever (an offer declined, made again)."""
    return frozenset(getattr(game_module(game, "policy"), "SEARCH_SKIPS", ()))


def heuristic_only(game: Game) -> frozenset[str]:
    """Action kinds only the heuristic plays (`HEURISTIC_ONLY` of the game's policy module): the search
    never looks into them (skipped like `SEARCH_SKIPS`), and plays the heuristic's move when it is one.
    For a step that only says how the move after it is made, which the evaluation cannot see (City of
    Iron's "Choose the discard order", entered by its heuristic for the card action it chose): to the
    tree it is worth the best move after it, so a search free to enter it would split its visits between
    each move and its twin behind the step."""
    return frozenset(getattr(game_module(game, "policy"), "HEURISTIC_ONLY", ()))


def heuristic_kinds(game: Game) -> frozenset[str]:
    """Action kinds the heuristic decides (`HEURISTIC_DECIDES` of the game's policy module): a step whose
    every choice is one of them is played as the heuristic plays it, the search does not look. For
    decisions the heuristic judges by a measured prior that the evaluation cannot see the worth of
    (City of Iron's secret purchases: a card bought pays off over rounds the search does not reach)."""
    return frozenset(getattr(game_module(game, "policy"), "HEURISTIC_DECIDES", ()))


def search_tables_for(game: Game) -> frozenset[int]:
    return frozenset(getattr(game_module(game, "policy"), "SEARCH_TABLES", SEARCH_TABLES))


def evaluates_in_public(game: Game) -> bool:
    """True when the game's evaluation reads only what every seat sees (`PUBLIC_EVALUATION` in its
    policy module, checked over played positions by `tests/rules/test_search.py`): then one spectator's
    view of a valued world serves every seat on the path, where building a view per seat was the
    largest part of a decision (City of Iron at four players: 2.6 views an iteration, 42 % of the time)."""
    return bool(getattr(game_module(game, "policy"), "PUBLIC_EVALUATION", False))


def budgets_for(game: Game) -> dict[int, int]:
    return dict(getattr(game_module(game, "policy"), "SEARCH_BUDGETS", None) or BUDGETS)


@dataclass
class _Node:
    seat: Seat | None
    """Who moved into this node (None at the root)."""
    key: str
    """The key of the choice that led here ("" at the root)."""
    parent: _Node | None
    children: dict[str, _Node] = field(default_factory=dict)
    visits: int = 0
    available: int = 0
    value: float = 0.0
    """The sum of the values backed up for `seat`."""

    def mean(self) -> float:
        return self.value / self.visits if self.visits else 0.0


@dataclass
class _Range:
    """The smallest and largest value seen per seat, to scale values into [0, 1] for UCB."""

    low: dict[Seat, float] = field(default_factory=dict)
    high: dict[Seat, float] = field(default_factory=dict)

    def see(self, seat: Seat, value: float) -> None:
        self.low[seat] = min(self.low.get(seat, value), value)
        self.high[seat] = max(self.high.get(seat, value), value)

    def scaled(self, seat: Seat, value: float) -> float:
        low, high = self.low.get(seat, 0.0), self.high.get(seat, 0.0)
        return (value - low) / (high - low) if high > low else 0.5


@dataclass
class _Context:
    """What one search keeps while it runs."""

    game: Game
    evaluate: Evaluate
    skips: frozenset[str]
    rng: random.Random
    avoid: frozenset[str] = frozenset()
    """Root moves the caller has seen lead round in a circle (`decide`'s `avoid`)."""
    range: _Range = field(default_factory=_Range)
    public: bool = False
    """Value worlds from the spectator's view (`evaluates_in_public`)."""


def _actor(game: Game, state: Any) -> Seat | None:
    waiting = game.to_act(state)
    return min(waiting) if waiting else None


def _considered(context: _Context, state: Any, seat: Seat, root: bool = False) -> list[Choice]:
    """The seat's legal choices but the skipped kinds and, at the root, the avoided moves (each filter
    only if it leaves something)."""
    choices = context.game.legal_actions(state, seat)
    kept = [choice for choice in choices if choice.action.get("kind") not in context.skips] or choices
    if root and context.avoid:
        kept = [choice for choice in kept if choice.key not in context.avoid] or kept
    return kept


@dataclass
class SearchPolicy:
    """ISMCTS as a `rules.policy.Policy`: `choose(game, state, seat, rng, strength)`."""

    budgets: dict[int, int] | None = None
    """Iterations per strength; None: the game's own (`budgets_for`)."""
    rollout_moves: dict[int, int] = field(default_factory=lambda: dict(ROLLOUT_MOVES))
    exploration: float = EXPLORATION
    margin: float = MARGIN
    tables: frozenset[int] | None = None
    """The table sizes at which to search; None: the game's own (`search_tables_for`)."""

    def choose(
        self,
        game: Game,
        state: Any,
        seat: Seat,
        rng: random.Random,
        strength: int = 3,
        avoid: frozenset[str] = frozenset(),
    ) -> Choice:
        """`avoid`: keys not to play unless nothing else is legal (moves that, from this very position,
        came back to it)."""
        strength = min(3, max(1, strength))
        only = heuristic_only(game)
        context = _Context(
            game,
            evaluator_for(game),
            skipped_kinds(game) | only,
            rng,
            avoid,
            public=evaluates_in_public(game),
        )
        choices = _considered(context, state, seat, root=True)
        if not choices:
            raise RuleError(f"Seat {seat} has nothing to decide now.")
        if len(choices) == 1:
            return choices[0]
        choices = _not_idle(context, state, seat, choices)
        if len(choices) == 1:
            return choices[0]
        hint = policy_of(game).choose(game, state, seat, random.Random(rng.random()), strength)
        if hint.action.get("kind") in only:
            return hint
        tables = search_tables_for(game) if self.tables is None else self.tables
        heuristics = heuristic_kinds(game)
        by_heuristic = bool(heuristics) and all(c.action.get("kind") in heuristics for c in choices)
        if (by_heuristic or len(game.view(state, seat).players) not in tables) and hint.key in {
            c.key for c in choices
        }:
            return hint
        iterations = (self.budgets or budgets_for(game))[strength]
        root = self._search(context, state, seat, hint.key, iterations, self.rollout_moves[strength])
        return self._pick(context, root, seat, choices, hint)

    def search(
        self, game: Game, state: Any, seat: Seat, rng: random.Random, iterations: int, depth: int = 0
    ) -> _Node:
        """The root of a search of `iterations` (for benchmarks and tests)."""
        context = _Context(
            game,
            evaluator_for(game),
            skipped_kinds(game) | heuristic_only(game),
            rng,
            public=evaluates_in_public(game),
        )
        return self._search(context, state, seat, None, iterations, depth)

    def _search(
        self, context: _Context, state: Any, seat: Seat, first: str | None, iterations: int, depth: int
    ) -> _Node:
        determinize = determinizer_for(context.game)
        root = _Node(seat=None, key="", parent=None)
        for iteration in range(iterations):
            world = determinize(state, seat, context.rng)
            node = self._descend(context, world, seat, root, first)
            if node is None:  # a move refused in this world: the world may be half changed, value nothing
                continue
            self._roll_out(context, world, depth)
            self._back_up(context, world, node)
            if iteration >= SETTLED_AFTER and _settled(root, iterations - iteration - 1):
                break
        return root

    def _pick(
        self, context: _Context, root: _Node, seat: Seat, choices: list[Choice], hint: Choice
    ) -> Choice:
        """The most visited move if it is clearly better than the heuristic's, else the heuristic's."""
        by_key = {choice.key: choice for choice in choices}
        ranked = sorted(
            (child for child in root.children.values() if child.key in by_key),
            key=lambda child: (child.visits, child.mean(), child.key),
            reverse=True,
        )
        if hint.key not in by_key:  # the heuristic's move was an idle one, left out
            return by_key[ranked[0].key] if ranked else choices[0]
        hinted = root.children.get(hint.key)
        if not ranked or hinted is None or ranked[0] is hinted:
            return hint
        best = ranked[0]
        if min(best.visits, hinted.visits) < TRUSTED_VISITS:
            return hint
        gain = context.range.scaled(seat, best.mean()) - context.range.scaled(seat, hinted.mean())
        return by_key[best.key] if gain >= self.margin else hint

    def _descend(
        self, context: _Context, world: Any, seat: Seat, root: _Node, first: str | None
    ) -> _Node | None:
        """Select and expand in `world` (changed in place); the node reached, or None when the engine
        refused the move chosen (legal in the view, not in this world): an engine may have changed the
        state before refusing, so that world is not valued."""
        node = root
        actor: Seat | None = seat
        while actor is not None:
            choices = {choice.key: choice for choice in _considered(context, world, actor, node is root)}
            if not choices:
                break
            for key in choices.keys() & node.children.keys():
                node.children[key].available += 1
            untried = [key for key in choices if key not in node.children]
            if untried:
                key = first if node is root and first in untried else context.rng.choice(untried)
                child = node.children[key] = _Node(seat=actor, key=key, parent=node, available=1)
            else:
                child = self._select(context, node, choices, actor)
            if not _play(context.game, world, actor, choices[child.key]):
                if untried:
                    del node.children[child.key]
                return None
            node = child
            if untried:
                return node
            actor = _actor(context.game, world)
        return node

    def _select(self, context: _Context, node: _Node, choices: dict[str, Choice], actor: Seat) -> _Node:
        scaled = context.range.scaled

        def ucb(child: _Node) -> tuple[float, str]:
            explore = math.sqrt(math.log(child.available) / child.visits)
            return scaled(actor, child.mean()) + self.exploration * explore, child.key

        return max((node.children[key] for key in choices), key=ucb)

    def _roll_out(self, context: _Context, world: Any, depth: int) -> None:
        for _ in range(depth):
            actor = _actor(context.game, world)
            if actor is None:
                return
            choices = _considered(context, world, actor)
            if not choices or not _play(context.game, world, actor, context.rng.choice(choices)):
                return

    def _back_up(self, context: _Context, world: Any, node: _Node | None) -> None:
        """Value the world for each seat that moved on the path (its own view only, or the one public
        view when the evaluation reads nothing else) and add it up."""
        values: dict[Seat, float] = {}
        public = None
        while node is not None:
            node.visits += 1
            if node.seat is not None:
                if node.seat not in values:
                    if not context.public:
                        view = context.game.view(world, node.seat)
                    elif public is None:
                        view = public = context.game.view(world, None)
                    else:
                        view = public
                    values[node.seat] = context.evaluate(view, node.seat)
                    context.range.see(node.seat, values[node.seat])
                node.value += values[node.seat]
            node = node.parent


def _not_idle(context: _Context, state: Any, seat: Seat, choices: list[Choice]) -> list[Choice]:
    """The choices but those that change nothing the seat can see and leave it to move again (all of
    them if every one is idle). Such a move (City of Iron: a free Scout Ship drawing itself back from
    empty piles) is worth exactly as much as the best move after it, so a search can prefer it forever.
    Judged in one sampled world, never the true state."""
    game = context.game
    world = determinizer_for(game)(state, seat, context.rng)
    before, waiting = game.view(world, seat), game.to_act(world)
    kept = []
    for choice in choices:
        try:
            after = game.apply(world, seat, choice.action).state
        except RuleError:  # refused in this world only: the search will find out
            kept.append(choice)
            continue
        if game.to_act(after) != waiting or game.view(after, seat) != before:
            kept.append(choice)
    return kept or choices


def _settled(root: _Node, remaining: int) -> bool:
    """No remaining iteration could make another move the most visited."""
    visits = sorted((child.visits for child in root.children.values()), reverse=True)
    return len(visits) >= 2 and visits[0] - visits[1] > remaining


def _play(game: Game, world: Any, actor: Seat, choice: Choice) -> bool:
    """Apply in place (the world is the iteration's own copy); False if the engine refuses."""
    try:
        game._apply(world, actor, game.parse_action(choice.action))
    except RuleError:
        return False
    return True


POLICY = SearchPolicy()


def decide(
    game: Game, state: Any, seat: Seat, seed: str, strength: int, avoid: frozenset[str] = frozenset()
) -> str:
    """A computer seat's move, as the key of one of its legal choices: what the bot runs in its worker
    pool (a module-level function of picklable arguments; a game pickles as a reference to its class, so
    a game registered only in the bot's process, as tests do, still works). The same seed gives the
    same move, so a table with computer seats replays exactly. `avoid`: see `SearchPolicy.choose`."""
    return POLICY.choose(game, state, seat, random.Random(seed), strength, avoid).key
