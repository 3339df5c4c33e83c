"""Expansion: buying a tile (and placing a House on it)."""

from __future__ import annotations

from rules import words
from rules.city_heroes.moves.common import owned, pay, price, start, tile
from rules.city_heroes.state import Buy, CityHeroesState
from rules.core import Choice, Event, RuleError, Seat, built_choice

State = CityHeroesState


def buy_choices(state: State, seat: Seat) -> list[Choice]:
    player = state.players[seat]
    if player.ready < 1 or len(owned(state, seat)) + 1 > player.workers:
        return []
    choices = []
    for spot in state.tiles:
        if spot.owner is not None:
            continue
        cost = price(state, seat, spot.id)
        if cost > player.ducats:
            continue
        what = f"{spot.terrain}{', ' + spot.resource if spot.resource else ''}"
        choices.append(
            built_choice(
                key=f"buy:{spot.id}",
                label=f"Buy T{spot.id} ({what}) for {words.count(cost, 'ducat')}",
                action={"kind": "buy", "tile": spot.id},
                group="Buy a tile",
                style="success",
            )
        )
    return choices


def apply_buy(state: State, seat: Seat, action: Buy, events: list[Event]) -> None:
    player = state.players[seat]
    start(state, "buy", "expansion", "buy tiles")
    if state.acted is not None:
        raise RuleError("You buy one tile per action.")
    bought = tile(state, action.tile)
    if bought.owner is not None:
        raise RuleError(f"T{bought.id} already belongs to {state.players[bought.owner].name}.")
    count = len(owned(state, seat))
    if count + 1 > player.workers:
        raise RuleError(
            f"This would be your tile number {count + 1} and you have only "
            f"{words.count(player.workers, 'worker')} in all pools."
        )
    if player.ready < 1:
        raise RuleError("Buying a tile needs a Ready worker.")
    cost = price(state, seat, bought.id)
    if player.ducats < cost:
        raise RuleError(f"T{bought.id} costs {words.count(cost, 'ducat')}; you have {player.ducats}.")
    pay(state, seat, {"ducats": cost, "workers": 1} if cost else {"workers": 1})
    bought.owner = seat
    bought.house = "house"
    player.bought += 1
    state.acted = "buy"
    events.append(
        Event(
            text=f"{player.name} bought T{bought.id} ({bought.terrain}) for {words.count(cost, 'ducat')} and placed a House."
        )
    )
