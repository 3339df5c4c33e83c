"""Worlds for the information-set search (issue 21): what a seat of City Heroes cannot know.

Almost everything in City Heroes is public: the map, every stock, the worker pools, the exchange tokens
('Every stock is public'), and a pillage is declared openly ('the attacker declares the target tile, and
the number of weapons they will use'; each loot is announced). Two facts are hidden from a seat:

- The randomness to come: the state's Rng (it only drew the map so far) is replaced in every world
  (`rules.search.reseeded`).
- The terms of a trade offer between two other players. 'The other player will then get an alert on
  their client, where they can accept or deny the trade request': the table sees that an offer was made
  and between whom, only the two parties see what it moves (the view's `give`/`get` are None for the
  others). For a third seat the world holds terms drawn from the offers the proposer could have made
  from the public stocks: a gift of one resource, the menu's 2 ducats for one of the partner's
  resources, or a swap of up to 3 of one holding for up to 3 of one of the partner's. They are valid
  ('the trade can't be empty', no identical goods both ways) and never read the true terms.
"""

from __future__ import annotations

import random

from rules.city_heroes.data import RESOURCES
from rules.city_heroes.moves.trade import TRADE_PRICE
from rules.city_heroes.state import CityHeroesState, PlayerState
from rules.core import Seat
from rules.search import reseeded

SWAP_MOST = 3
"""The most of one holding a sampled swap moves each way."""

Terms = tuple[dict[str, int], dict[str, int]]


def determinize(state: CityHeroesState, seat: Seat, rng: random.Random) -> CityHeroesState:
    """A new state `seat` cannot tell from `state`: a fresh Rng, and the terms of a trade offer between
    two other players resampled. The input is never changed."""
    world = reseeded(state, rng)
    proposal = world.proposal
    if proposal is not None and seat not in (proposal.proposer, proposal.partner):
        offers = trade_offers(world.players[proposal.proposer], world.players[proposal.partner])
        offers.append(_swap(world.players[proposal.proposer], world.players[proposal.partner], rng))
        give, get = rng.choice([offer for offer in offers if _valid(offer)])
        proposal.give, proposal.get = give, get
    return world


def _holdings(player: PlayerState) -> list[tuple[str, int]]:
    """What a player could put into a trade, in a fixed order: ducats, then the resources."""
    held = [("ducats", player.ducats), *((r, player.stock.get(r, 0)) for r in RESOURCES)]
    return [(key, count) for key, count in held if count > 0]


def trade_offers(proposer: PlayerState, partner: PlayerState) -> list[Terms]:
    """The trade menu's offers from the public stocks, in a fixed order: gifts of one resource, and
    TRADE_PRICE ducats for one of the partner's resources."""
    offers: list[Terms] = [({key: 1}, {}) for key, _ in _holdings(proposer) if key != "ducats"]
    if proposer.ducats >= TRADE_PRICE:
        offers += [({"ducats": TRADE_PRICE}, {key: 1}) for key, _ in _holdings(partner) if key != "ducats"]
    return offers


def _swap(proposer: PlayerState, partner: PlayerState, rng: random.Random) -> Terms:
    """Up to SWAP_MOST of one of the proposer's holdings for up to SWAP_MOST of one of the partner's
    (one side empty when that player holds nothing, or when both sides would be the same)."""
    sides: list[dict[str, int]] = []
    for player in (proposer, partner):
        held = _holdings(player)
        if not held:
            sides.append({})
            continue
        key, count = rng.choice(held)
        sides.append({key: rng.randint(1, min(count, SWAP_MOST))})
    give, get = sides
    return (give, {}) if give == get else (give, get)


def _valid(terms: Terms) -> bool:
    give, get = terms
    return bool(give or get) and give != get
