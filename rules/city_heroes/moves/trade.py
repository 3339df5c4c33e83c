"""Interaction: trades between two players on the shared protocol (rules/trade.py: one open proposal,
the partner's Accept or Decline, the proposer's Cancel, their events and the view). This module keeps
what is City Heroes' own: the checks (`trade_problem`), the transfer of resources and ducats, the
words, the ready-made offers and the composer's form."""

from __future__ import annotations

from typing import Any

from rules import trade as shared
from rules import words
from rules.city_heroes.data import RESOURCES
from rules.city_heroes.moves.common import goods_text, start
from rules.city_heroes.state import CityHeroesState, PlayerState, Proposal, Propose
from rules.core import Choice, Event, RuleError, Seat, TradeForm, TradeGood, TradePartner, built_choice

State = CityHeroesState
TRADE_KEYS = (*RESOURCES, "ducats")
TRADE_PRICE = 2
"""Ducats of the ready-made 'ask for one' trade offers (any trade can be proposed)."""


def terms(proposal: Proposal, seat: Seat, *, done: bool = False) -> str:
    """A proposal's contents in words, as `seat` (one of its two parties) sees its own side first; both
    parties saw the whole offer when it was made."""
    give, get = (proposal.give, proposal.get) if seat == proposal.proposer else (proposal.get, proposal.give)
    verbs = ("gave", "got") if done else ("give", "get")
    return f"you {verbs[0]} {goods_text(give)}; you {verbs[1]} {goods_text(get)}"


def clean(items: dict[str, int]) -> dict[str, int]:
    return {key: value for key, value in sorted(items.items()) if value}


def trade_problem(state: State, proposal: Proposal) -> str | None:
    if proposal.partner == proposal.proposer or not 0 <= proposal.partner < len(state.players):
        return "Choose another player to trade with."
    for items in (proposal.give, proposal.get):
        for key, count in items.items():
            if key not in TRADE_KEYS:
                return f"{key!r} cannot be traded."
            if count < 0:
                return "A trade cannot move a negative amount."
    if not proposal.give and not proposal.get:
        return "A trade cannot be empty."
    if proposal.give == proposal.get:
        return "A trade cannot swap identical goods both ways."
    for seat, items in ((proposal.proposer, proposal.give), (proposal.partner, proposal.get)):
        owner = state.players[seat]
        for key, count in items.items():
            have = owner.ducats if key == "ducats" else owner.stock[key]
            if have < count:
                return f"{owner.name} has only {words.count(have, key)}."
    return None


def transfer(state: State, proposal: Proposal) -> None:
    """The goods change hands both ways (checked by `trade_problem` just before)."""
    proposer, partner = state.players[proposal.proposer], state.players[proposal.partner]
    for giver, taker, items in ((proposer, partner, proposal.give), (partner, proposer, proposal.get)):
        for key, count in items.items():
            if key == "ducats":
                giver.ducats -= count
                taker.ducats += count
            else:
                giver.stock[key] -= count
                taker.stock[key] += count


def _acted(state: State, _proposal: Proposal) -> None:
    state.acted = "trade"  # 'one trade per action'


TERMS = shared.Terms(
    problem=trade_problem,
    transfer=transfer,
    terms=terms,
    cancel_label="Cancel your trade offer",
    cancel_word="cancel",
    cancelled="cancelled",
    name_partner=True,
    after=_acted,
)
"""How City Heroes plugs into the shared protocol (rules/trade.py): its checks, transfer and words."""


def answer_choices(state: State, seat: Seat) -> list[Choice]:
    """While a proposal waits: the partner accepts (when it still holds) or declines; the proposer may
    cancel."""
    return shared.answer_choices(state, seat, TERMS, make=built_choice)


def offer_choices(state: State, seat: Seat) -> list[Choice]:
    """The ready-made offers: a gift of one resource, or TRADE_PRICE ducats for one of theirs."""
    player = state.players[seat]
    choices = []
    for partner, other in enumerate(state.players):
        if partner == seat:
            continue
        for resource in RESOURCES:
            if player.stock[resource] >= 1:
                choices.append(
                    built_choice(
                        key=f"gift:{partner}:{resource}",
                        label=f"Offer {words.count(1, resource)} to {other.name} as a gift",
                        action={"kind": "propose", "partner": partner, "give": {resource: 1}, "get": {}},
                        group="Trade",
                    )
                )
            if other.stock[resource] >= 1 and player.ducats >= TRADE_PRICE:
                choices.append(
                    built_choice(
                        key=f"ask:{partner}:{resource}",
                        label=f"Offer {words.count(TRADE_PRICE, 'ducat')} to {other.name} for {words.count(1, resource)}",
                        action={
                            "kind": "propose",
                            "partner": partner,
                            "give": {"ducats": TRADE_PRICE},
                            "get": {resource: 1},
                        },
                        group="Trade",
                    )
                )
    return choices


def _goods(player: PlayerState) -> list[TradeGood]:
    listed = [TradeGood(key="ducats", label="ducats", most=player.ducats)]
    return listed + [TradeGood(key=r, label=r, most=player.stock[r]) for r in RESOURCES]


def trade_form(state: State, seat: Seat) -> TradeForm | None:
    """'During Phase 3, players can trade with each other' (resources, goods and ducats; 'the trade
    can't be empty'). Every stock is public, so the composer shows how much each side holds."""
    if (
        state.phase != "interaction"
        or state.proposal is not None
        or state.raid is not None
        or state.acted is not None
        or seat != state.current  # with no proposal waiting, only the current player acts
        or len(state.players) < 2
    ):
        return None
    return TradeForm(
        gives=_goods(state.players[seat]),
        partners=[
            TradePartner(seat=other, name=player.name, asks=_goods(player))
            for other, player in enumerate(state.players)
            if other != seat
        ],
        note="The partner accepts or declines; either of you may cancel before that.",
    )


def trade_action(partner: Seat, give: dict[str, int], get: dict[str, int]) -> dict[str, Any]:
    return {"kind": "propose", "partner": partner, "give": give, "get": get}


def apply_propose(state: State, seat: Seat, action: Propose, events: list[Event]) -> None:
    start(state, "trade", "interaction", "trade")
    if state.acted is not None:
        raise RuleError("One trade per action.")
    player = state.players[seat]
    give, get = clean(action.give), clean(action.get)
    proposal = Proposal(proposer=seat, partner=action.partner, give=give, get=get)
    problem = trade_problem(state, proposal)
    if problem:
        raise RuleError(problem)
    partner = state.players[action.partner].name
    if state.alongside:
        # The offer is this turn's phase action whatever the answer: a decline or a cancel leaves the
        # player free to pass, not held to offer again until somebody accepts (which kept a seat that
        # had sold to the bank offering and cancelling for ever).
        state.round_used = False
    shared.propose(
        state,
        proposal,
        events,
        f"{player.name} offered {partner} a trade.",
        {
            seat: f"You offer {goods_text(give)} for {goods_text(get)}.",
            action.partner: f"{player.name} offers you {goods_text(give)} for "
            + (f"your {goods_text(get)}." if any(get.values()) else "nothing."),
        },
    )


def answer(state: State, seat: Seat, action: Any, events: list[Event]) -> list[Event]:
    """A move while a proposal waits: the proposer's Cancel, or the partner's Accept or Decline."""
    return shared.answer(state, seat, action, TERMS, events)


def refuse_stray_answer(action: Any) -> None:
    """An Accept, Decline or Cancel with no proposal waiting."""
    if isinstance(action, shared.ANSWERS):
        raise RuleError(shared.NO_OFFER)
