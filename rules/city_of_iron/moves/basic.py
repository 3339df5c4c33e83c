"""The plain actions: drawing a citizen or military card, taxing for a coin, buying science."""

from __future__ import annotations

from functools import cache

from rules import words
from rules.city_of_iron.choices import action_of, card_names
from rules.city_of_iron.data import rules_data
from rules.city_of_iron.moves.cards import draw_cards
from rules.city_of_iron.state import BuyScience, CityState, DrawCard, Tax
from rules.core import Choice, Event, RuleError, Seat, built_choice


def basic_choices(state: CityState, seat: Seat) -> list[Choice]:
    """Drawing a citizen or military card (while either pile has one), taxing, buying science."""
    player = state.players[seat]
    choices: list[Choice] = []
    if player.citizen_draw or player.citizen_discard:
        choices.append(_draw_choice("citizen"))
    if player.military_draw or player.military_discard:
        choices.append(_draw_choice("military"))
    choices.append(_tax_choice())
    if player.coins >= rules_data().board.science_price:
        choices.append(_science_choice())
    return choices


# These choices never change: built once and shared (treat choices as read-only).
@cache
def _draw_choice(deck: str) -> Choice:
    return built_choice(
        key=f"draw:{deck}",
        label=f"Draw a {deck} card",
        action=action_of(DrawCard, deck=deck),
        group="Draw",
    )


@cache
def _tax_choice() -> Choice:
    return built_choice(key="tax", label="Tax: gain 1 coin", action=action_of(Tax), group="Other")


@cache
def _science_choice() -> Choice:
    price = rules_data().board.science_price
    return built_choice(
        key="science",
        label=f"Buy 1 science for {words.count(price, 'coin')}",
        action=action_of(BuyScience),
        group="Other",
    )


def apply_draw(state: CityState, seat: Seat, action: DrawCard) -> list[Event]:
    player = state.players[seat]
    drawn = draw_cards(player, action.deck, 1)
    if not drawn:
        raise RuleError(f"Your {action.deck} draw and discard piles are both empty.")
    events = [
        Event(
            text=f"{player.name} drew a {action.deck} card.",
            private={seat: f"You drew {card_names(drawn)}."},
            reveals=bool(drawn),
        )
    ]
    return events


def apply_tax(state: CityState, seat: Seat, action: Tax) -> list[Event]:
    player = state.players[seat]
    player.coins += 1
    return [Event(text=f"{player.name} taxed: +1 coin.")]


def apply_science(state: CityState, seat: Seat, action: BuyScience) -> list[Event]:
    player = state.players[seat]
    price = rules_data().board.science_price
    if player.coins < price:
        raise RuleError(f"Science costs {words.count(price, 'coin')}; you have {player.coins}.")
    player.coins -= price
    player.science += 1
    return [Event(text=f"{player.name} bought 1 science for {words.count(price, 'coin')}.")]
