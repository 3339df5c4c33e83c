"""Construction: crafting goods from resources, and choosing what a production building makes."""

from __future__ import annotations

from rules import words
from rules.city_heroes.data import rules_catalogue
from rules.city_heroes.moves.common import cost_text, give, goods_text, has, name, owned, pay, start, tile
from rules.city_heroes.state import CityHeroesState, Craft, Produce
from rules.core import Choice, Event, RuleError, Seat, built_choice

State = CityHeroesState


def craft_count(state: State, seat: Seat, good: str) -> tuple[int, dict[str, int]] | str:
    """How many of `good` the seat can craft now and the input of one, or why not."""
    recipe = rules_catalogue().recipes.get(good)
    if recipe is None:
        return f"{good} cannot be crafted."
    if recipe.needs and not any(has(state, seat, need) for need in recipe.needs):
        return f"Crafting {good} needs {words.a(words.listed((name(need) for need in recipe.needs), 'or'))}."
    needed: dict[str, int] = dict(recipe.input.items())
    if recipe.guild and recipe.guild_input and has(state, seat, recipe.guild):
        needed = dict(recipe.guild_input.items())
    player = state.players[seat]
    most = min(player.stock[key] // count for key, count in needed.items())
    most = min(most, state.bank[good])
    if most < 1:
        return (
            f"Crafting {words.count(1, good)} takes {cost_text(needed)} (and the bank must have {good} left)."
        )
    return most, needed


def craft_choices(state: State, seat: Seat) -> list[Choice]:
    if state.acted is None and state.players[seat].ready < 1:
        return []
    choices = []
    for good in rules_catalogue().recipes:
        found = craft_count(state, seat, good)
        if isinstance(found, str):
            continue
        most, needed = found
        for count in sorted({1, most}):
            price = {key: value * count for key, value in needed.items()}
            choices.append(
                built_choice(
                    key=f"craft:{good}:{count}",
                    label=f"Craft {words.count(count, good)} from {cost_text(price)}",
                    action={"kind": "craft", "good": good, "count": count},
                    group="Craft",
                )
            )
    return choices


def apply_craft(state: State, seat: Seat, action: Craft, events: list[Event]) -> None:
    player = state.players[seat]
    good, count = action.good, action.count
    start(state, "craft", "construction", "craft goods")
    found = craft_count(state, seat, good)
    if isinstance(found, str):
        raise RuleError(found)
    most, needed = found
    if count > most:
        raise RuleError(f"You can craft at most {words.count(most, good)} now.")
    if state.acted is None and player.ready < 1:
        raise RuleError("Crafting needs a Ready worker.")
    price = {key: value * count for key, value in needed.items()}
    pay(state, seat, price | ({"workers": 1} if state.acted is None else {}))
    give(state, seat, good, count)
    state.acted = "craft"
    events.append(Event(text=f"{player.name} crafted {words.count(count, good)} from {cost_text(price)}."))


def produce_choices(state: State, seat: Seat) -> list[Choice]:
    """Construction phase: switch a production building to another of its outputs (a free choice)."""
    buildings = rules_catalogue().buildings
    choices = []
    for spot in owned(state, seat):
        if spot.building and buildings[spot.building].produces:
            for production in buildings[spot.building].produces:
                if production.mode != spot.mode:
                    choices.append(
                        built_choice(
                            key=f"produce:{spot.id}:{production.mode}",
                            label=f"{name(spot.building)} on T{spot.id}: make {goods_text(production.output)}",
                            action={"kind": "produce", "tile": spot.id, "mode": production.mode},
                            group="Production",
                        )
                    )
    return choices


def apply_produce(state: State, seat: Seat, action: Produce, events: list[Event]) -> None:
    player = state.players[seat]
    mode = action.mode
    spot = tile(state, action.tile)
    if state.phase != "construction":
        raise RuleError("Production is set in the Construction phase.")
    if spot.owner != seat or spot.building is None:
        raise RuleError(f"You have no production building on T{action.tile}.")
    modes = [production.mode for production in rules_catalogue().buildings[spot.building].produces]
    if mode not in modes:
        made = [goods_text(p.output) for p in rules_catalogue().buildings[spot.building].produces]
        raise RuleError(
            f"{words.a(name(spot.building), start=True)} makes {words.listed(made, 'or', 'nothing')}."
        )
    spot.mode = mode
    chosen = next(p for p in rules_catalogue().buildings[spot.building].produces if p.mode == mode)
    events.append(
        Event(
            text=f"{player.name}'s {name(spot.building)} on T{spot.id} will make {goods_text(chosen.output)}."
        )
    )
