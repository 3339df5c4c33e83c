"""The Opportunity cards: the Development Step flips them into the row, the Decision Phase takes one into
the hand, the Expansion Phase buys more from the deck."""

from __future__ import annotations

from rules import words
from rules.core import Choice, Event, RuleError, Seat
from rules.iron_bridge_gorge.data import TYPE_NAMES, rules_catalogue
from rules.iron_bridge_gorge.moves.phases import enter, names, require_phase
from rules.iron_bridge_gorge.moves.revenue import card_revenue
from rules.iron_bridge_gorge.state import Draw, IronBridgeGorgeState, Take

State = IronBridgeGorgeState

DRAW_COST = 10


def deal(state: State, events: list[Event]) -> str | None:
    """The top card of the deck; 'If the deck runs out, shuffle the discard and draw from it.'"""
    if not state.deck and state.discard:
        state.deck = state.rng.shuffled(state.discard)
        state.discard = []
        events.append(
            Event(text="The deck ran out: the discard pile was shuffled into a new deck.", reveals=True)
        )
    return state.deck.pop() if state.deck else None


def develop(state: State, events: list[Event]) -> None:
    """DEVELOPMENT STEP: 'Flip over the top X + 1D6 cards of the deck. X = the number of players.'"""
    roll = state.rng.die()
    wanted = len(state.players) + roll
    for _ in range(wanted):
        card = deal(state, events)
        if card is None:
            break
        state.row.append(card)
    short = "" if len(state.row) == wanted else f" (only {len(state.row)} left to flip)"
    events.append(
        Event(
            text=f"Round {state.round}: development roll {roll}, {wanted} opportunity cards{short}: "
            f"{names(state.row) or 'none'}.",
            reveals=True,
        )
    )


# ---- Decision Phase --------------------------------------------------------------------------------
def take_choices(state: State) -> list[Choice]:
    cards = rules_catalogue()
    return [
        Choice(
            key=f"take:{card}",
            label=f"Take {cards[card].name} ({TYPE_NAMES[cards[card].type]}, "
            f"revenue {card_revenue(cards, card, state.innovations)})",
            action={"kind": "take", "card": card},
            group="Take",
            style="primary",
            timeout="safe" if index == 0 else None,  # compulsory: the clock takes the row's first card
        )
        for index, card in enumerate(dict.fromkeys(state.row))
    ]


def take(state: State, seat: Seat, action: Take, events: list[Event]) -> None:
    player = state.players[seat]
    if state.phase != "decision":
        raise RuleError("You already took your opportunity card this turn.")
    if action.card not in state.row:
        raise RuleError("That card is not in the opportunity row.")
    state.row.remove(action.card)
    player.hand.append(action.card)
    state.phase = "expansion"
    events.append(
        Event(text=f"{player.name} took {rules_catalogue()[action.card].name} from the opportunity row.")
    )


# ---- Expansion Phase -------------------------------------------------------------------------------
def draw_choices(state: State, seat: Seat) -> list[Choice]:
    player = state.players[seat]
    if player.coins < DRAW_COST or not (state.deck or state.discard):
        return []
    return [
        Choice(
            key="draw",
            label=f"Draw a card from the deck for {words.count(DRAW_COST, 'coin')}",
            action={"kind": "draw"},
            group="Expand",
        )
    ]


def draw(state: State, seat: Seat, action: Draw, events: list[Event]) -> None:
    player = state.players[seat]
    require_phase(state, "expansion", "draw from the deck")
    if player.coins < DRAW_COST:
        raise RuleError(
            f"Drawing a card costs {words.count(DRAW_COST, 'coin')}; you have {words.count(player.coins, 'coin')}."
        )
    if not state.deck and not state.discard:
        raise RuleError("There are no cards left to draw.")
    enter(state, "expansion", events)
    player.coins -= DRAW_COST
    state.bank += DRAW_COST
    card = deal(state, events)
    assert card is not None
    player.hand.append(card)
    events.append(
        Event(
            text=f"{player.name} paid {words.count(DRAW_COST, 'coin')} to draw a card.",
            private={seat: f"You drew {rules_catalogue()[card].name}."},
            reveals=True,
        )
    )
