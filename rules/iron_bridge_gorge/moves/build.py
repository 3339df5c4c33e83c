"""BUILD PHASE: 'pay 5 coin to put a card from your hand into play as a resource. Unskilled resources
cost 3 coin. Skilled resources cost 7 coin.' A Land Lease takes 1 off; the Iron Bridge has its own."""

from __future__ import annotations

from collections.abc import Iterable

from rules import words
from rules.core import Choice, Event, RuleError, Seat
from rules.iron_bridge_gorge.data import rules_catalogue
from rules.iron_bridge_gorge.moves.phases import enter, require_phase
from rules.iron_bridge_gorge.state import Build, IronBridgeGorgeState, PlayerState

State = IronBridgeGorgeState


def build_cost(player: PlayerState, card_id: str) -> int:
    """BUILD PHASE costs; 'If you have a Land Lease resource in play other resources cost 1 less'."""
    return cost_beside(card_id, player.in_play)


def cost_beside(card_id: str, in_play: Iterable[str]) -> int:
    """`build_cost` for a seat with these cards in play (the computer player knows them from its view)."""
    cards = rules_catalogue()
    spec = cards[card_id]
    cost = spec.base_cost
    discount = spec.cost is None and "build-discount" not in spec.tags
    if discount and any("build-discount" in cards[card].tags for card in in_play):
        cost -= 1
    return cost


def problem(player: PlayerState, card: str) -> str | None:
    cards = rules_catalogue()
    if card not in player.hand:
        return f"You have no {cards[card].name} in your hand."
    spec = cards[card]
    for needed in spec.needs_in_play:
        if needed not in player.in_play:
            return f"{spec.name} needs {cards[needed].name} in play first."
    cost = build_cost(player, card)
    if player.coins < cost:
        return f"Building {spec.name} costs {words.count(cost, 'coin')}; you have {words.count(player.coins, 'coin')}."
    return None


def choices(state: State, seat: Seat) -> list[Choice]:
    cards = rules_catalogue()
    player = state.players[seat]
    return [
        Choice(
            key=f"build:{card}",
            label=f"Build {cards[card].name} for {words.count(build_cost(player, card), 'coin')}",
            action={"kind": "build", "card": card},
            group="Build",
            style="success",
        )
        for card in dict.fromkeys(player.hand)
        if problem(player, card) is None
    ]


def build(state: State, seat: Seat, action: Build, events: list[Event]) -> None:
    cards = rules_catalogue()
    player = state.players[seat]
    card = action.card
    require_phase(state, "build", "build")
    if card not in cards:
        raise RuleError(f"There is no card called {card!r}.")
    found = problem(player, card)
    if found:
        raise RuleError(found)
    enter(state, "build", events)
    cost = build_cost(player, card)
    player.coins -= cost
    state.bank += cost
    player.hand.remove(card)
    player.in_play.append(card)
    award = cards[card].award_vp
    player.vp += award
    extra = f" and gained {award} VP" if award else ""
    events.append(
        Event(text=f"{player.name} built {cards[card].name} for {words.count(cost, 'coin')}{extra}.")
    )
