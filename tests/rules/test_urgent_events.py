"""`Event.urgent` over every registered game: urgent events happen, stay rare, and survive the action log.

The bot posts a new turn message at a handoff (the seats to act change) or after a move with an urgent
event, and otherwise edits its last post. Each game decides which of its events are urgent (see the
per-game `test_urgent_events.py` and `data/<game>/README.md`); this test checks the budget: in seeded
random playouts, few moves are urgent, and fewer still cost a post that the handoff alone would not.

Measured with the player below (seeds 0-2 and 100-119, 300 moves, each game at its smallest, 3-player and
largest table), the share of urgent moves was at most: City Heroes 13% (5 players; 4% solo), City of Iron
9%, Iron & Brass 3%, Iron Bridge Gorge 14% (2 players); the share of urgent moves where the same seats
acted on (an extra post) at most 6% (Iron Bridge Gorge, 2 players). A player that proposes a trade at
every chance doubles the first figure in the trading games (up to 26% in Iron Bridge Gorge), but an offer
and its answer are handoffs anyway, and the second figure does not move.
"""

from __future__ import annotations

import json
import random

import pytest

from rules import registry
from rules.core import Event, Game

GAMES = [game for game in registry.all_games() if type(game).__module__.startswith(registry.BUILTIN_MODULES)]
"""The registered games the bot offers (not the tests' own High Card game, which marks nothing urgent)."""
NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")
SEEDS = (0, 1, 2)
MOVES = 300
MOST_URGENT = 0.25
"""At most this share of moves may carry an urgent event (measured at most 14%)."""
MOST_EXTRA_POSTS = 0.10
"""At most this share of moves may be urgent while the same seats act on (measured at most 6%)."""
TRADE_WEIGHT = 0.1
"""The random player picks a trade offer a tenth as often as any other choice, as people do."""


def _tables(game: Game) -> list[int]:
    info = game.info
    return sorted({info.min_players, min(3, info.max_players), info.max_players})


def _playout(game: Game, players: int, seed: int) -> tuple[int, int, int, list[Event]]:
    """Moves played, moves with an urgent event, those of them that were no handoff, and every urgent event."""
    rng = random.Random(seed)
    state = game.setup(list(NAMES[:players]), {}, seed)
    moves = urgent_moves = extra_posts = 0
    urgent: list[Event] = []
    while moves < MOVES and game.result(state) is None:
        before = game.to_act(state)
        seat = rng.choice(sorted(before))
        choices = game.legal_actions(state, seat)
        weights = [
            TRADE_WEIGHT if choice.group.lower() in ("trade", "trading") else 1.0 for choice in choices
        ]
        choice = rng.choices(choices, weights)[0]
        applied = game.apply(state, seat, choice.action)
        state = applied.state
        moves += 1
        marked = [event for event in applied.events if event.urgent]
        if marked:
            urgent_moves += 1
            extra_posts += game.to_act(state) == before
            urgent += marked
    return moves, urgent_moves, extra_posts, urgent


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.info.id)
def test_urgent_events_happen_and_stay_rare(game: Game) -> None:
    moves = urgent_moves = extra_posts = 0
    seen: list[Event] = []
    for players in _tables(game):
        for seed in SEEDS:
            played, urgent, extra, events = _playout(game, players, seed)
            moves, urgent_moves, extra_posts = moves + played, urgent_moves + urgent, extra_posts + extra
            seen += events
    assert seen, f"{game.info.id}: no urgent event in {moves} random moves"
    assert urgent_moves / moves < MOST_URGENT, f"{urgent_moves} of {moves} moves were urgent"
    assert extra_posts / moves < MOST_EXTRA_POSTS, f"{extra_posts} of {moves} moves cost an extra post"
    for event in seen:
        # The action log stores `model_dump(mode="json")` through json.dumps and reads it back.
        stored = json.loads(json.dumps(event.model_dump(mode="json")))
        assert stored["urgent"] is True
        assert Event.model_validate(stored) == event
        assert Event.model_validate_json(event.model_dump_json()) == event


def test_old_logs_without_the_field_load_as_not_urgent() -> None:
    """Actions logged before the field existed have events without `urgent`: they read as routine."""
    old = {"text": "Alice built a Coal Mine for 5.", "private": {"0": "You built it."}, "reveals": False}
    event = Event.model_validate(old)
    assert event.urgent is False and event.private == {0: "You built it."}
    assert Event.model_validate_json(json.dumps(old)).urgent is False
    assert Event(text="x").urgent is False
