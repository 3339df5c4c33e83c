"""Iron Bridge Gorge's determinizer for the information-set search (`rules.search`): a world the
deciding seat cannot tell apart from the true state, every fact hidden from it resampled.

What the rules hide, and what stays as it is:

- Other players' hands and the deck order. Cards reach a hand face down ("pay 10 coin to draw 1 card
  from the deck and put it in your hand"; traded hand cards are not named to the table), and the
  deck is shuffled. The seat sees only each hand's size and the deck's size, so the cards it has not
  seen (the deck and the other hands) are pooled, sorted, shuffled and dealt back in the same counts.
  The discard pile stays: every card reaches it face up (the Opportunity row's leftovers, "Discard
  excess cards" and sales are announced by name).
- Secret initiative bids: "Initiative bids are secret and revealed together" (NOTES). Another player's
  placed but unrevealed bid is drawn again, uniformly from 0 to that player's coins.
- A trade offer's terms, which only its two parties see: a third party gets a random offer the
  proposer could have made to the same partner in this world. A partner knows the proposer holds the
  hand cards offered (the offer was checked against that hand), so they are dealt to the proposer.
- The state's Rng, so that future development, event, innovation and tie-break dice and the
  discard reshuffle differ.

Everything else is public (row, resources in play, coins, VP, loans, events, bank) and is kept.
Invariance: the world depends only on what the seat sees and on `rng`: hidden values are read only to
count them or to collect the unseen pool, and every pool is sorted before it is shuffled.
"""

from __future__ import annotations

import random

from rules.core import Seat
from rules.iron_bridge_gorge import GAME
from rules.iron_bridge_gorge.moves import trade
from rules.iron_bridge_gorge.state import IronBridgeGorgeState, Proposal, TradeItems
from rules.search import reseeded

State = IronBridgeGorgeState


def determinize(state: State, seat: Seat, rng: random.Random) -> State:
    """A new full state with every fact hidden from `seat` resampled (the input is not changed)."""
    world: State = reseeded(state, rng)
    _deal_hands(world, seat, rng)
    if world.step == "initiative":
        for index, player in enumerate(world.players):
            if index != seat and player.bid is not None:
                player.bid = rng.randint(0, player.coins)
    proposal = world.proposal
    if proposal is not None and seat not in (proposal.proposer, proposal.partner):
        world.proposal = _some_offer(world, proposal.proposer, proposal.partner, rng)
    return world


def _known_cards(state: State, seat: Seat) -> dict[Seat, list[str]]:
    """Cards of another player's hand the seat knows of: a proposer's offered hand cards, to its partner."""
    proposal = state.proposal
    if proposal is not None and seat == proposal.partner:
        return {proposal.proposer: list(proposal.give.hand)}
    return {}


def _deal_hands(world: State, seat: Seat, rng: random.Random) -> None:
    """Pool the deck and the other hands (less the known cards), shuffle, deal the same counts back."""
    known = _known_cards(world, seat)
    pool = list(world.deck)
    for index, player in enumerate(world.players):
        if index != seat:
            pool += player.hand
    for cards in known.values():
        for card in cards:
            pool.remove(card)
    pool.sort()
    rng.shuffle(pool)
    for index, player in enumerate(world.players):
        if index == seat:
            continue
        fixed = known.get(index, [])
        count = len(player.hand) - len(fixed)
        player.hand = fixed + pool[:count]
        rng.shuffle(player.hand)
        del pool[:count]
    world.deck = pool


def _some_offer(world: State, proposer: Seat, partner: Seat, rng: random.Random) -> Proposal:
    """A random offer from `proposer` to `partner` that the engine would take in this world: one of the
    ready-made offers, or a single item either of them has, given or asked for."""
    offers: list[tuple[TradeItems, TradeItems]] = []
    for choice in trade.offer_choices(world, proposer):
        action = choice.action
        if action["partner"] == partner:
            offers.append((TradeItems(**action["give"]), TradeItems(**action["get"])))
    nothing = TradeItems()
    for side, owner in ((0, world.players[proposer]), (1, world.players[partner])):
        items = []
        if owner.coins:
            items.append(TradeItems(coins=1))
        if owner.vp:
            items.append(TradeItems(vp=1))
        items += [TradeItems(in_play=[card]) for card in sorted(set(owner.in_play))]
        items += [TradeItems(hand=[card]) for card in sorted(set(owner.hand))]
        offers += [(item, nothing) if side == 0 else (nothing, item) for item in items]
    if not offers:  # nobody has anything: the offer can only have asked for a card the partner lacks
        offers.append((nothing, TradeItems(hand=[GAME.cards.order[0]])))
    give, get = rng.choice(offers)
    return Proposal(proposer=proposer, partner=partner, give=give, get=get)
