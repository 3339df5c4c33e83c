"""How City of Iron's heuristic bids for turn order (`policy.prior`, "bid" choices)."""

from __future__ import annotations

import random

from bench.search import reference_policy
from rules.city_of_iron import GAME, policy
from rules.policy import policy_for
from tests.rules.city_of_iron.helpers import arrange_all, new_game


def _first_bid(players: int):
    """The first bidder's turn at the round's turn-order bid: every space of the track is open."""
    state = arrange_all(new_game(["Sam", "Julia", "Mark", "Mary"][:players], seed=5))
    assert state.phase == "bid"
    return state, state.bid_order[0]


def test_the_first_bidder_takes_the_earliest_free_turn_at_four_players():
    """Rulebook, Turn Order Bid: a player "may place his cube on any open spot on the turn order track
    ... he pays the indicated amount in coins", and "Turn order is opposite of bid order, right to
    left"; in the Sample Round, Sam, bidding first, "bids on the zero the furthest to the right". At
    four players three spaces cost nothing (board.json 0 0 0 1 2 5): the heuristic takes the free one
    furthest right, every time, and never pays for its place."""
    state, seat = _first_bid(4)
    heuristic = policy_for("city-of-iron")
    for rng_seed in range(12):
        choice = heuristic.choose(GAME, state, seat, random.Random(rng_seed), 3)
        assert choice.action == {"kind": "bid", "space": 2}


def test_the_reference_heuristic_bids_as_the_issue_found_it():
    """The benchmark's yardstick looks a bid ahead like any move: it sees only the coins, so it picks
    among the free spaces at random (`REFERENCE_PRIOR` has no bid order)."""
    state, seat = _first_bid(4)
    reference = reference_policy("city-of-iron")
    bid = next(c for c in GAME.legal_actions(state, seat) if c.action == {"kind": "bid", "space": 0})
    assert reference.prior(GAME.view(state, seat), seat, bid) is None
    spaces = {reference.choose(GAME, state, seat, random.Random(s), 3).action["space"] for s in range(30)}
    assert spaces == {0, 1, 2}


def test_the_bid_order_never_pays_a_coin_for_an_earlier_turn():
    """`BID_ORDER` is worth less than a coin across the track: a space that costs a coin more scores
    lower than every free space, at every table size."""
    for players in (2, 3, 4):
        state, seat = _first_bid(players)
        view = GAME.view(state, seat)
        values = {
            c.action["space"]: policy.prior(view, seat, c)
            for c in GAME.legal_actions(state, seat)
            if c.action["kind"] == "bid"
        }
        costs = policy.rules_data().board.bid_costs[players]
        free = [space for space, cost in enumerate(costs) if cost == 0]
        paid = [space for space, cost in enumerate(costs) if cost > 0]
        if policy.BID_ORDER.get(players):
            assert min(values[s] for s in free) > max(values[s] for s in paid)
        else:
            assert all(value is None for value in values.values())
