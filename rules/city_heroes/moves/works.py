"""Construction: public works, laying a foundation and building its stages (a finished Carrariae puts
stone on the hills around it)."""

from __future__ import annotations

from rules import words
from rules.city_heroes.data import rules_catalogue
from rules.city_heroes.moves.common import adjacent, cost, discounts, name, pay, shortfall, start, tile
from rules.city_heroes.state import CityHeroesState, Found, Stage, Tile
from rules.core import Choice, Event, RuleError, Seat, built_choice

State = CityHeroesState


def found_problem(state: State, seat: Seat, spot: Tile, work: str) -> str | None:
    spec = rules_catalogue().works.get(work)
    if spec is None:
        return f"There is no public work called {work!r}."
    if work in state.works_placed:
        return f"The {spec.name} has already been founded."
    if spot.work is not None:
        return f"T{spot.id} already holds the {name(spot.work)}."
    if spot.building is not None:
        return f"T{spot.id} has {words.a(name(spot.building))}: a tile holds a building or a public work."
    if spot.owner is None and not any(
        state.tiles[other - 1].owner is not None for other in adjacent(state, spot.id)
    ):
        return "A foundation goes on a city tile or on a tile next to one."
    if spec.placement == "hill" and spot.terrain != "hill":
        return f"The {spec.name} must be placed on a hill."
    short = shortfall(state.players[seat], cost(state, seat, spec.foundation))
    if short:
        return f"You cannot afford the {spec.name}'s foundation: {short}."
    return None


def stage_problem(state: State, seat: Seat, spot: Tile) -> str | None:
    if spot.work is None:
        return f"T{spot.id} holds no public work."
    spec = rules_catalogue().works[spot.work]
    if spot.stages >= spec.stages:
        return f"The {spec.name} is already finished."
    short = shortfall(state.players[seat], cost(state, seat, spec.stage))
    if short:
        return f"You cannot afford a stage of the {spec.name}: {short}."
    return None


def _stage_choices(state: State, seat: Seat, discount: dict[str, int]) -> list[Choice]:
    works = rules_catalogue().works
    player = state.players[seat]
    choices = []
    for spot in state.tiles:
        if spot.work is None or spot.stages >= works[spot.work].stages:
            continue
        spec = works[spot.work]
        if shortfall(player, cost(state, seat, spec.stage, discount=discount)) is None:
            choices.append(
                built_choice(
                    key=f"stage:{spot.id}",
                    label=f"Build stage {spot.stages + 1}/{spec.stages} of the {spec.name} on T{spot.id}",
                    action={"kind": "stage", "tile": spot.id},
                    group="Public works",
                    style="success",
                )
            )
    return choices


def _found_choices(state: State, seat: Seat, discount: dict[str, int]) -> list[Choice]:
    player = state.players[seat]
    choices = []
    for spec in rules_catalogue().works.values():
        if spec.id in state.works_placed:
            continue
        if shortfall(player, cost(state, seat, spec.foundation, discount=discount)):
            continue
        for spot in state.tiles:
            if found_problem(state, seat, spot, spec.id) is None:
                choices.append(
                    built_choice(
                        key=f"found:{spot.id}:{spec.id}",
                        label=f"Lay the {spec.name} foundation on T{spot.id}",
                        action={"kind": "found", "tile": spot.id, "work": spec.id},
                        group="Public works",
                    )
                )
    return choices


def works_choices(state: State, seat: Seat) -> list[Choice]:
    discount = discounts(state, seat)
    return _stage_choices(state, seat, discount) + _found_choices(state, seat, discount)


def carrariae(state: State, work: Tile) -> str:
    """'Adds Stone to adjacent hills: if on a neutral tile, in all adjacent tiles (and its own tile). If
    placed on a tile owned by a player, only in tiles owned by the player. Doesn't replace existing
    resources. Ownership calculated at completion of the final stage.'"""
    added = []
    for tile_id in (work.id, *adjacent(state, work.id)):
        other = state.tiles[tile_id - 1]
        if other.terrain != "hill" or other.resource is not None:
            continue
        if work.owner is not None and other.owner != work.owner:
            continue
        other.resource = "stone"
        added.append(f"T{tile_id}")
    return f" Stone appears on {', '.join(added)}." if added else " No empty hill gets stone."


def apply_found(state: State, seat: Seat, action: Found, events: list[Event]) -> None:
    player = state.players[seat]
    work = action.work
    start(state, "works", "construction", "build public works")
    spot = tile(state, action.tile)
    problem = found_problem(state, seat, spot, work)
    if problem:
        raise RuleError(problem)
    spec = rules_catalogue().works[work]
    pay(state, seat, cost(state, seat, spec.foundation))
    spot.work = work
    spot.stages = 0
    state.works_placed.append(work)
    state.acted = "works"
    events.append(Event(text=f"{player.name} laid the {spec.name} foundation on T{spot.id}."))


def apply_stage(state: State, seat: Seat, action: Stage, events: list[Event]) -> None:
    player = state.players[seat]
    start(state, "works", "construction", "build public works")
    spot = tile(state, action.tile)
    problem = stage_problem(state, seat, spot)
    if problem:
        raise RuleError(problem)
    assert spot.work is not None, "stage_problem refuses a tile without a public work"
    spec = rules_catalogue().works[spot.work]
    pay(state, seat, cost(state, seat, spec.stage))
    spot.stages += 1
    state.acted = "works"
    text = f"{player.name} built stage {spot.stages}/{spec.stages} of the {spec.name} on T{spot.id}."
    finished = spot.stages == spec.stages
    if finished:
        text += f" The {spec.name} is finished!"
        if spot.work == "carrariae":
            text += carrariae(state, spot)
    # A finished public work changes every player's turn (ducats, defence, gathering, prestige).
    events.append(Event(text=text, urgent=finished))
