"""The turn's end: 'End turn' skips whatever phases remain, and the END PHASE: 'Max hand size is 5
cards. Discard excess cards.' The engine then moves on to the next turn or step."""

from __future__ import annotations

from rules.core import Choice, Event, RuleError, Seat
from rules.iron_bridge_gorge.data import rules_catalogue
from rules.iron_bridge_gorge.state import Discard, EndTurn, IronBridgeGorgeState

State = IronBridgeGorgeState

HAND_LIMIT = 5


def end_turn_choices() -> list[Choice]:
    return [
        Choice(
            key="end-turn",
            label="End turn",
            action={"kind": "end_turn"},
            group="Turn",
            style="primary",
            ends=True,
            timeout="pass",  # "End turn" skips what is left of the turn
        )
    ]


def discard_choices(state: State, seat: Seat) -> list[Choice]:
    cards = rules_catalogue()
    return [
        Choice(
            key=f"discard:{card}",
            label=f"Discard {cards[card].name}",
            action={"kind": "discard", "card": card},
            group="Discard",
            style="danger",
            timeout="safe" if index == 0 else None,  # no pass: the clock discards the first card in hand
        )
        for index, card in enumerate(dict.fromkeys(state.players[seat].hand))
    ]


def end_turn(state: State, seat: Seat, action: EndTurn, events: list[Event]) -> None:
    events.append(Event(text=f"{state.players[seat].name} ended the turn."))


def discard(state: State, seat: Seat, action: Discard, events: list[Event]) -> None:
    player = state.players[seat]
    if state.phase != "discard":
        raise RuleError("You only discard at the end of your turn, above the hand limit.")
    if action.card not in player.hand:
        raise RuleError("You have no such card in your hand.")
    player.hand.remove(action.card)
    state.discard.append(action.card)
    events.append(
        Event(
            text=f"{player.name} discarded {rules_catalogue()[action.card].name} (hand limit {HAND_LIMIT})."
        )
    )
