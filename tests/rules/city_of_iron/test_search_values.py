"""What City of Iron's search thinks a purchase is worth at four players."""

from __future__ import annotations

import random

import pytest

from rules.city_of_iron import policy
from rules.search import SearchPolicy
from tests.rules.city_of_iron.helpers import heuristic_purchases


def _first_purchase_of_round_two(players: int):
    """Seat 0's first secret purchase in round 2 of a game the heuristic plays (seed 3)."""
    return next((game, state) for game, state in heuristic_purchases(players) if state.round == 2)


@pytest.mark.parametrize(("owned", "buys"), [(None, True), ({}, False)])
def test_at_four_players_the_search_values_buying_cards(monkeypatch, owned, buys):
    """Rulebook, End Round step 5: "Players may purchase as many cards as they can pay for ... each
    player places the new cards directly in his hand", and a played card goes to the discard pile,
    which comes back as the draw pile: a card bought is used round after round. Valued only as a card
    in hand (1.2) against the coins it costs, every purchase looked like a loss to the search, which
    then bought nothing and lost every four-player game (bench/README.md). With `OWNED` the search's
    best-valued move at this purchase is a card; without it, buying nothing."""
    if owned is not None:
        monkeypatch.setattr(policy, "OWNED", owned)
    game, state = _first_purchase_of_round_two(4)
    root = SearchPolicy().search(game, state, 0, random.Random(7), 400)
    best = max(root.children.values(), key=lambda child: child.mean())
    assert best.key.startswith("select:") is buys, best.key
