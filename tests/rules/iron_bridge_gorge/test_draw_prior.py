"""How Iron Bridge Gorge's heuristic draws from the deck (`policy.prior`, the "draw" choice)."""

from __future__ import annotations

import random

import pytest

from bench.search import reference_policy
from rules.iron_bridge_gorge import GAME, policy
from rules.policy import policy_for
from rules.search import SearchPolicy, search_tables_for
from tests.rules.iron_bridge_gorge.helpers import at_turn
from tests.support.playouts import positions

GAME_ID = "iron-bridge-gorge"
LEADS = [
    "coal-mine",
    "coal-mine",
    "iron-ore-mine",
    "iron-ore-mine",
    "roads",
    "canals",
    "clay-mine",
    "clay-mine",
]
LEADS += ["limestone-quarry", "limestone-quarry"]
"""Two of each scored type (Fuel, Iron, Transportation, Clay, Limestone)."""


def _draw(state):
    return next(c for c in GAME.legal_actions(state, 0) if c.action["kind"] == "draw")


def _rich(coins: int = 100):
    """Round 1 of 25, seat 0 in its Expansion Phase with a Coal Mine in hand and `coins` coins."""
    return at_turn(2, hands={0: ["coal-mine"]}, coins={0: coins})


def test_a_rich_seat_draws_before_it_builds():
    """EXPANSION PHASE: 'You may pay 10 coin to draw 1 card from the deck ... You may do this multiple
    times', before the BUILD PHASE ('pay 5 coin to put a card into play'). With 24 rounds of revenue
    and every majority ('the most Fuel Resources in play gets 2 VP', each round) still open, a card is
    worth more than 10 coins: the heuristic draws, and does so before building, which would close the
    Expansion Phase."""
    state = _rich()
    view = GAME.view(state, 0)
    assert policy.draw_value(view, 0) > policy.DRAW_COST
    assert policy.prior(view, 0, _draw(state)) >= policy.DRAW_FIRST
    for seed in range(5):
        chosen = policy_for(GAME_ID).choose(GAME, state, 0, random.Random(seed), 3)
        assert chosen.key == "draw"


def test_a_draw_keeps_the_coins_to_build_the_hand():
    """BUILD PHASE: the Coal Mine in hand costs 5 to build; a draw (10) that would leave less than that
    is not made, one that leaves exactly that is."""
    draw = _draw(_rich())
    assert policy.prior(GAME.view(_rich(15), 0), 0, draw) >= policy.DRAW_FIRST
    assert policy.prior(GAME.view(_rich(14), 0), 0, draw) < 0


def test_no_draw_when_a_card_is_worth_less_than_its_price():
    """In the last round a card earns no more revenue (REVENUE STEP comes before the turns) and seat 0
    already leads every majority by two or more, so a drawn card adds nothing it could score: it could
    only be sold back ('sell Cards and Resources to the Bank for 5 coins each') for half of its 10
    coins. However rich, the seat does not draw."""
    state = at_turn(2, in_play={0: LEADS}, hands={0: []}, coins={0: 500})
    state.round = state.rounds
    view = GAME.view(state, 0)
    assert policy.draw_value(view, 0) < policy.DRAW_COST
    assert policy.prior(view, 0, _draw(state)) < 0


def test_the_reference_heuristic_draws_as_the_issue_found_it():
    """The benchmark's yardstick prices a draw at a fixed -10 + 5 + 1 (`REFERENCE_PRIOR`), as the
    heuristic did when issue 21 was filed, and so never draws, even with 100 coins; the shipped
    heuristic draws there."""
    state = _rich()
    view = GAME.view(state, 0)
    reference = reference_policy(GAME_ID)
    assert reference.prior(view, 0, _draw(state)) == -4.0
    for seed in range(5):
        assert reference.choose(GAME, state, 0, random.Random(seed), 3).key != "draw"


def test_the_search_leaves_every_decision_to_the_heuristic(monkeypatch):
    """`SEARCH_TABLES` is empty: with the draws above the heuristic won nearly every two-player game
    against the reference, more than a search a hundred times slower could be shown to add, so a
    computer seat plays the heuristic's move at every table size; only an explicit table list
    searches."""
    assert search_tables_for(GAME) == frozenset()

    def searched(*args, **kwargs):
        raise AssertionError("searched")

    monkeypatch.setattr(SearchPolicy, "_search", searched)
    decided = 0
    for players in (2, 3, 4):
        for position in positions(GAME, players, 5, every=40):
            seat = min(GAME.to_act(position.state), default=None)
            if seat is None:
                continue
            chosen = SearchPolicy().choose(GAME, position.state, seat, random.Random(1), 3)
            assert chosen.key in {choice.key for choice in GAME.legal_actions(position.state, seat)}
            decided += 1
    assert decided >= 10
    with pytest.raises(AssertionError, match="searched"):
        for position in positions(GAME, 2, 5, every=40):
            seat = min(GAME.to_act(position.state), default=None)
            if seat is not None and len(GAME.legal_actions(position.state, seat)) > 1:
                SearchPolicy(tables=frozenset({2})).choose(GAME, position.state, seat, random.Random(1), 3)
