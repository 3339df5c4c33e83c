"""TRADE PHASE: 'You may trade coins, cards in hand, resources in play, VP's, and non-binding promises.'

A proposal goes to one partner, who accepts or declines (the proposer may withdraw it); the protocol
itself is the shared `rules.trade`, this module gives it Iron Bridge Gorge's goods and words, the
ready-made offers of the choice list and the trade composer's form.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules import trade, words
from rules.core import Choice, Event, RuleError, Seat, TradeForm, TradeGood, TradePartner
from rules.iron_bridge_gorge.data import rules_catalogue
from rules.iron_bridge_gorge.moves.phases import enter, names, require_phase
from rules.iron_bridge_gorge.state import IronBridgeGorgeState, PlayerState, Proposal, Propose, TradeItems

State = IronBridgeGorgeState

OFFER_PRICE = 5
"""The coin amount of the ready-made trade offers in the choice list (any amount can be proposed)."""


# ---- words ---------------------------------------------------------------------------------------
def describe(items: TradeItems, *, hidden_hand: bool = False) -> str:
    parts: list[str] = []
    if items.coins:
        parts.append(words.count(items.coins, "coin"))
    if items.vp:
        parts.append(f"{items.vp} VP")
    if items.hand:
        if hidden_hand:
            parts.append(f"{words.count(len(items.hand), 'card')} from hand")
        else:
            parts.append(f"{names(items.hand)} (from hand)")
    if items.in_play:
        parts.append(f"{names(items.in_play)} (in play)")
    return ", ".join(parts) or "nothing"


def terms(proposal: Proposal, seat: Seat, *, done: bool = False) -> str:
    """A proposal's contents in words, as `seat` (one of its two parties) sees its own side first. Both
    parties saw the whole offer when it was made, so naming it to either of them hides nothing."""
    give, get = (proposal.give, proposal.get) if seat == proposal.proposer else (proposal.get, proposal.give)
    verbs = ("gave", "got") if done else ("give", "get")
    return f"you {verbs[0]} {describe(give)}; you {verbs[1]} {describe(get)}"


def offer_text(state: State, proposal: Proposal) -> str:
    """The whole offer in words, for the two parties' views."""
    proposer, partner = state.players[proposal.proposer].name, state.players[proposal.partner].name
    return f"{proposer} gives {describe(proposal.give)}; {partner} gives {describe(proposal.get)}."


def _accepted(state: State, proposal: Proposal) -> str:
    """What the public is told of an accepted trade: the cards from hand by count only."""
    proposer, partner = state.players[proposal.proposer].name, state.players[proposal.partner].name
    return (
        f"{proposer} gave {describe(proposal.give, hidden_hand=True)}; "
        f"{partner} gave {describe(proposal.get, hidden_hand=True)}"
    )


# ---- checks and the transfer ---------------------------------------------------------------------
def _contains(pool: list[str], wanted: list[str]) -> bool:
    have = Counter(pool)
    return all(have[card] >= count for card, count in Counter(wanted).items())


def _remove(pool: list[str], cards: list[str]) -> None:
    for card in cards:
        pool.remove(card)


def _shape_problem(state: State, proposal: Proposal) -> str | None:
    cards = rules_catalogue()
    if proposal.partner == proposal.proposer or not 0 <= proposal.partner < len(state.players):
        return "Choose another player to trade with."
    if proposal.give.empty() and proposal.get.empty():
        return "A trade must move something."
    for items in (proposal.give, proposal.get):
        for card in items.hand + items.in_play:
            if card not in cards:
                return f"There is no card called {card!r}."
    return None


def _side_problem(owner: PlayerState, items: TradeItems, who: str, check_hand: bool) -> str | None:
    if items.coins > owner.coins:
        return f"{who} only {words.count(owner.coins, 'coin')}."
    if items.vp > owner.vp:
        return f"{who} only {owner.vp} VP."
    if not _contains(owner.in_play, items.in_play):
        return f"{who} not got {names(items.in_play)} in play."
    if check_hand and not _contains(owner.hand, items.hand):
        return f"{who} not got {names(items.hand)} in hand."
    return None


def problem(state: State, proposal: Proposal, *, accepting: bool) -> str | None:
    """Why the trade cannot happen, or None. The partner's hand is checked only when accepting,
    so a proposal never tells the proposer what the partner holds."""
    shape = _shape_problem(state, proposal)
    if shape:
        return shape
    actor = proposal.partner if accepting else proposal.proposer
    for seat, items in ((proposal.proposer, proposal.give), (proposal.partner, proposal.get)):
        owner = state.players[seat]
        who = "You have" if seat == actor else f"{owner.name} has"
        found = _side_problem(owner, items, who, seat == proposal.proposer or accepting)
        if found:
            return found
    return None


def transfer(state: State, proposal: Proposal) -> None:
    proposer, partner = state.players[proposal.proposer], state.players[proposal.partner]
    for giver, taker, items in ((proposer, partner, proposal.give), (partner, proposer, proposal.get)):
        giver.coins -= items.coins
        taker.coins += items.coins
        giver.vp -= items.vp
        taker.vp += items.vp
        _remove(giver.hand, items.hand)
        taker.hand.extend(items.hand)
        _remove(giver.in_play, items.in_play)
        taker.in_play.extend(items.in_play)


TERMS: trade.Terms[State, Proposal] = trade.Terms(
    problem=lambda state, proposal: problem(state, proposal, accepting=True),
    transfer=transfer,
    terms=terms,
    accepted=_accepted,
    cancel_label="Withdraw the trade offer",
    cancel_word="withdraw",
    cancelled="withdrew",
)
"""Iron Bridge Gorge on the shared trade protocol."""


# ---- proposing -----------------------------------------------------------------------------------
def propose(state: State, seat: Seat, action: Propose, events: list[Event]) -> None:
    require_phase(state, "trade", "propose a trade")
    offer = Proposal(proposer=seat, partner=action.partner, give=action.give, get=action.get)
    found = problem(state, offer, accepting=False)
    if found:
        raise RuleError(found)
    enter(state, "trade", events)
    player = state.players[seat]
    partner = state.players[action.partner].name
    trade.propose(
        state,
        offer,
        events,
        f"{player.name} proposed a trade to {partner}.",
        {
            seat: f"Offer: you give {describe(action.give)}; you get {describe(action.get)}.",
            action.partner: f"{player.name} offers {describe(action.give)} for {_yours(action.get)}.",
        },
    )


def _yours(items: TradeItems) -> str:
    """What an offer asks of its partner, as the partner reads it: "your 2 coins", or "nothing" (never
    "your nothing") for a gift."""
    wanted = describe(items)
    return "nothing" if wanted == "nothing" else f"your {wanted}"


def _items(
    *, coins: int = 0, hand: list[str] | None = None, in_play: list[str] | None = None
) -> dict[str, Any]:
    """One side of a trade as JSON (the choice list holds many offers: plain dicts are cheaper)."""
    return {"coins": coins, "vp": 0, "hand": hand or [], "in_play": in_play or []}


def offer_choices(state: State, seat: Seat) -> list[Choice]:
    """Ready-made single-item offers; any other trade is a structured `propose` action."""
    player = state.players[seat]
    choices: list[Choice] = []
    for partner, other in enumerate(state.players):
        if partner == seat:
            continue
        if other.coins >= OFFER_PRICE:
            choices += _sell_offers(player, partner, other)
        if player.coins >= OFFER_PRICE:
            choices += _buy_offers(partner, other)
    return choices


def _sell_offers(player: PlayerState, partner: Seat, other: PlayerState) -> list[Choice]:
    cards = rules_catalogue()
    return [
        Choice(
            key=f"offer:{partner}:{card}",
            label=f"Offer your {cards[card].name} card to {other.name} for {words.count(OFFER_PRICE, 'coin')}",
            action={
                "kind": "propose",
                "partner": partner,
                "give": _items(hand=[card]),
                "get": _items(coins=OFFER_PRICE),
            },
            group="Trade",
        )
        for card in dict.fromkeys(player.hand)
    ]


def _buy_offers(partner: Seat, other: PlayerState) -> list[Choice]:
    cards = rules_catalogue()
    return [
        Choice(
            key=f"ask:{partner}:{card}",
            label=f"Offer {words.count(OFFER_PRICE, 'coin')} to {other.name} for their {cards[card].name}",
            action={
                "kind": "propose",
                "partner": partner,
                "give": _items(coins=OFFER_PRICE),
                "get": _items(in_play=[card]),
            },
            group="Trade",
        )
        for card in dict.fromkeys(other.in_play)
    ]


# ---- the trade composer --------------------------------------------------------------------------
def _public(owner: PlayerState) -> list[TradeGood]:
    cards = rules_catalogue()
    listed = [
        TradeGood(key="coins", label="coins", most=owner.coins),
        TradeGood(key="vp", label="VP", most=owner.vp),
    ]
    in_play = Counter(owner.in_play)
    return listed + [
        TradeGood(key=f"in_play:{card}", label=f"{cards[card].name} (in play)", most=count)
        for card, count in in_play.items()
    ]


def form(state: State, seat: Seat) -> TradeForm:
    """The proposer sees their own hand and everyone's resources in play, but only the names of cards
    another player might hold, never how many (a hand is private until the trade is accepted)."""
    cards = rules_catalogue()
    player = state.players[seat]
    in_hand = Counter(player.hand)
    gives = _public(player) + [
        TradeGood(key=f"hand:{card}", label=f"{cards[card].name} (from hand)", most=count)
        for card, count in in_hand.items()
    ]
    return TradeForm(
        gives=gives,
        partners=[
            TradePartner(
                seat=other,
                name=owner.name,
                asks=_public(owner)
                + [
                    TradeGood(key=f"hand:{card}", label=f"{cards[card].name} (from hand)")
                    for card in cards.order
                ],
            )
            for other, owner in enumerate(state.players)
            if other != seat
        ],
        note="Promises are just chat: only what is listed moves, when the partner accepts.",
    )


def action(partner: Seat, give: dict[str, int], get: dict[str, int]) -> dict[str, Any]:
    """The composer's bundles ('coins', 'hand:<card>', ...) as a `propose` action."""

    def side(bundle: dict[str, int]) -> dict[str, Any]:
        items: dict[str, Any] = {"coins": 0, "vp": 0, "hand": [], "in_play": []}
        for key, count in bundle.items():
            where, _, card = key.partition(":")
            if card:
                items[where] += [card] * count
            else:
                items[where] += count
        return items

    return {"kind": "propose", "partner": partner, "give": side(give), "get": side(get)}
