"""How City of Iron's heuristic makes its secret purchases (`policy.prior`, "select" choices)."""

from __future__ import annotations

import random

from bench.search import reference_policy
from rules.city_of_iron import policy
from rules.policy import policy_for
from rules.search import SearchPolicy
from tests.rules.city_of_iron.helpers import heuristic_purchases


def _purchase_step(players: int = 3):
    """Seat 0's first secret purchase with at least three cards on offer, in a game the heuristic
    plays (seed 3), with seat 0 given plenty of coins and science."""
    for game, state in heuristic_purchases(players):
        if state.players[0].selected:
            continue
        state = game.copy_state(state)
        state.players[0].coins, state.players[0].science = 30, 10
        selects = [c for c in game.legal_actions(state, 0) if c.action["kind"] == "select"]
        if len(selects) >= 3:
            return game, state, selects
    raise AssertionError("no purchase step with three cards on offer")


def _price(game, state, choice) -> int:
    card = next(c for c in game.view(state, 0).private.unpurchased if c.uid == choice.action["card"])
    return card.coins


def test_a_purchase_keeps_the_reserve_of_coins():
    """Rulebook, End Round step 5: "Players may purchase as many cards as they can pay for", but the
    coins also pay for the next round's buildings ("You must pay the cost in Coins and Science") and
    its turn-order bid ("he pays the indicated amount in coins"). A card that would leave fewer than
    `PURCHASE_RESERVE` coins is refused (-1, below "done"'s 0); with exactly the reserve left it is
    weighed on its merits."""
    game, state, selects = _purchase_step()
    choice = selects[0]
    price = _price(game, state, choice)
    state.players[0].coins = price + policy.PURCHASE_RESERVE[3]
    assert policy.prior(game.view(state, 0), 0, choice) != -1.0
    state.players[0].coins = price + policy.PURCHASE_RESERVE[3] - 1
    assert policy.prior(game.view(state, 0), 0, choice) == -1.0


def test_a_purchase_stops_at_the_limit_of_cards():
    """Once `PURCHASE_LIMIT` cards are chosen, every further card is refused, however rich the seat."""
    game, state, selects = _purchase_step()
    for choice in selects[: policy.PURCHASE_LIMIT[3]]:
        assert policy.prior(game.view(state, 0), 0, choice) != -1.0
        state = game.apply(state, 0, choice.action).state
    rest = [c for c in game.legal_actions(state, 0) if c.action["kind"] == "select"]
    assert rest
    assert all(policy.prior(game.view(state, 0), 0, c) == -1.0 for c in rest)


def test_the_reference_heuristic_buys_as_the_issue_found_it():
    """The benchmark's yardstick keeps 2 coins and buys up to 3 cards, as the heuristic did when issue
    21 was filed (`REFERENCE_PRIOR`); the shipped heuristic keeps more and buys fewer."""
    game, state, selects = _purchase_step()
    reference, shipped = reference_policy("city-of-iron"), policy_for("city-of-iron")
    choice = selects[0]
    price = _price(game, state, choice)
    state.players[0].coins = price + 2
    view = game.view(state, 0)
    assert reference.prior(view, 0, choice) != -1.0
    assert shipped.prior(view, 0, choice) == -1.0
    state.players[0].coins = 30
    for choice in selects[:2]:
        state = game.apply(state, 0, choice.action).state
    third = next(c for c in game.legal_actions(state, 0) if c.action["kind"] == "select")
    view = game.view(state, 0)
    assert reference.prior(view, 0, third) != -1.0
    assert shipped.prior(view, 0, third) == -1.0


def test_the_search_leaves_the_secret_purchases_to_the_heuristic():
    """Where the search decides City of Iron's moves (here two players, asked for explicitly: the
    shipped tables leave every decision to the heuristic), a step offering only secret purchases
    (`HEURISTIC_DECIDES`) is played as the heuristic plays it: the search valued a card by the
    position right after the reveal, where it is one card in hand, and bought too little (bench/
    README.md). Every pick along a whole purchase step is the heuristic's."""
    game, state, _ = _purchase_step(players=2)
    heuristic = policy_for("city-of-iron")
    picks = 0
    while 0 in game.to_act(state) and state.phase == "purchase":
        seed = 11 + picks
        searched = SearchPolicy(tables=frozenset({2})).choose(game, state, 0, random.Random(seed), 3)
        hinted = heuristic.choose(game, state, 0, random.Random(random.Random(seed).random()), 3)
        assert searched.key == hinted.key
        state = game.apply(state, 0, searched.action).state
        picks += 1
    assert picks >= 2  # at least one card and "done"
