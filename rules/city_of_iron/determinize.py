"""City of Iron's determinizer for the information-set search (`rules.search`): a world the deciding
seat cannot tell apart from the true state, every fact hidden from it resampled.

What the rulebook hides, and what stays as it is:

- The building deck. Setup: "shuffle each deck separately. Place the decks facedown", the "A" Score
  card "face down at the bottom of the A deck" (and B, C likewise). The seat sees the deck's size and
  how far the next Score card lies (`cards_to_next_score`); which buildings remain in each of the A, B
  and C parts follows from everything that was ever face up (the row, and the discards that come out
  of it). So each stretch of the deck between Score cards is reshuffled in place: same cards, same
  Score-card positions, a new order.
- The expansion towns' deck: face down, only its size is shown; reshuffled.
- Other players' citizen and military cards: "Players may not look through other player's Citizen
  and Military discard and draw piles", and their hands are secret. What each player owns is known
  (the starting deck of their nation, and every purchase is revealed), so that player's cards in hand,
  draw and discard piles are dealt again from the same cards: each pile keeps its size, the draw and
  discard piles only take cards of their own deck (citizen or military), the hand takes the rest.
- The secret purchases: "Players select the cards they want to buy in secret, placing them face down
  ... When all players declare they are finished, each player reveals". While the purchase step is on,
  another player's choice (`selected`) is drawn again: a random affordable set of their unpurchased
  cards. The unpurchased cards themselves are public knowledge (owned minus revealed purchases).
- The order of other players' discard piles, which they choose ("in the order you choose"; issue 41):
  dealt again with the rest of their cards, as above. A seat in the discard-order step (`ordering`) is
  public and kept.
- The state's Rng, so that future shuffles (the last round's discard reshuffle) differ.

Everything else is face up (the row, town piles, lands, cities, stored buildings, coins, science, the
building discard that only ever receives face-up cards) or out of the game by the player count (the
box), and is kept. The deciding seat's own cards are all known to it and kept.

Invariance: the world depends only on what the seat sees and on `rng`: hidden values are read only to
count them or to collect a pool, and every pool is sorted before it is shuffled.
"""

from __future__ import annotations

import random
from functools import cache

from rules.city_of_iron.data import rules_data
from rules.city_of_iron.state import CityState, Player
from rules.core import Seat
from rules.search import reseeded

DECKS = ("citizen", "military")


def determinize(state: CityState, seat: Seat, rng: random.Random) -> CityState:
    """A new full state with every fact hidden from `seat` resampled (the input is not changed)."""
    world: CityState = reseeded(state, rng)
    world.deck = _reshuffled_deck(world.deck, rng)
    world.expansion_deck = _shuffled(world.expansion_deck, rng)
    for index, player in enumerate(world.players):
        if index == seat:
            continue
        _redeal_cards(player, rng)
        player.selected = _secret_purchase(player, rng) if world.phase == "purchase" else []
    return world


def _shuffled(cards: list[str], rng: random.Random) -> list[str]:
    pool = sorted(cards)
    rng.shuffle(pool)
    return pool


def _reshuffled_deck(deck: list[str], rng: random.Random) -> list[str]:
    """Each run of buildings between Score cards is shuffled; the Score cards stay where they are
    (their positions are public: the decks' sizes are known and each Score card ends its deck)."""
    out: list[str] = []
    run: list[str] = []
    for uid in deck:
        if uid.startswith("score-"):
            out += _shuffled(run, rng)
            out.append(uid)
            run = []
        else:
            run.append(uid)
    return out + _shuffled(run, rng)


@cache
def _deck_of(uid: str) -> str:
    """'citizen' or 'military' for a citizen or military card instance ("scholar.0a")."""
    return rules_data().cards[uid.rsplit(".", 1)[0]].deck


def _redeal_cards(player: Player, rng: random.Random) -> None:
    """Deal another player's owned cards (hand, draw and discard piles) out again, pile sizes kept."""
    owned = player.hand + player.citizen_draw + player.citizen_discard
    owned += player.military_draw + player.military_discard
    hand: list[str] = []
    for deck in DECKS:
        pool = _shuffled([uid for uid in owned if _deck_of(uid) == deck], rng)
        draw = len(getattr(player, f"{deck}_draw"))
        discard = len(getattr(player, f"{deck}_discard"))
        setattr(player, f"{deck}_draw", pool[:draw])
        setattr(player, f"{deck}_discard", pool[draw : draw + discard])
        hand += pool[draw + discard :]
    rng.shuffle(hand)
    player.hand = hand


def _secret_purchase(player: Player, rng: random.Random) -> list[str]:
    """A random set of unpurchased cards the player can pay for together (coins and science)."""
    coins, science = player.coins, player.science
    chosen: list[str] = []
    for uid in _shuffled(player.unpurchased, rng):
        kind = rules_data().cards[uid.rsplit(".", 1)[0]]
        if rng.random() < 0.5 and kind.coins <= coins and kind.science <= science:
            chosen.append(uid)
            coins -= kind.coins
            science -= kind.science
    return chosen
