"""The computer player never loops on a free action that changes nothing (found by the search
benchmark: a seat played Scout Ship hundreds of times in one turn)."""

from __future__ import annotations

import random

from rules.city_of_iron import GAME
from rules.search import SearchPolicy, _Context, _not_idle, evaluator_for

from .helpers import act, give, start_actions


def _scout_ship_alone():
    """Seat `current` holds a Scout Ship ("Free action: draw 1 citizen card", designed) and its citizen
    draw and discard piles are empty."""
    state = start_actions(players=2, seed=3)
    seat = state.current
    uid = give(state, seat, "scout-ship")
    player = state.players[seat]
    player.unpurchased.extend(player.citizen_draw + player.citizen_discard)
    player.citizen_draw.clear()
    player.citizen_discard.clear()
    return state, seat, uid


def test_the_scout_ship_draws_itself_back_when_its_piles_are_empty():
    """Rulebook, End Round step 4: "If there are no cards remaining in the draw pile of a deck and you
    need to draw, pick up the discard pile (do not shuffle it ...) ... and draw"; and free actions may be
    played "as many ... as you want, before you take your real Action". So with empty piles the free
    draw returns the card just played: a legal move that changes nothing."""
    state, seat, uid = _scout_ship_alone()
    again = act(state, seat, {"kind": "play", "card": uid, "payers": []})
    assert again.players[seat].hand == state.players[seat].hand
    assert GAME.view(again, seat) == GAME.view(state, seat)


def test_the_search_leaves_out_moves_that_change_nothing():
    state, seat, uid = _scout_ship_alone()
    choices = GAME.legal_actions(state, seat)
    assert f"play:{uid}" in {choice.key for choice in choices}
    context = _Context(GAME, evaluator_for(GAME), frozenset(), random.Random(1))
    kept = {choice.key for choice in _not_idle(context, state, seat, choices)}
    assert kept == {choice.key for choice in choices} - {f"play:{uid}"}


def test_the_search_never_plays_the_idle_scout_ship():
    state, seat, uid = _scout_ship_alone()
    search = SearchPolicy(budgets={1: 40, 2: 40, 3: 40})
    for index in range(4):
        assert search.choose(GAME, state, seat, random.Random(index), 3).key != f"play:{uid}"
