"""Construction: planting wheat or timber on one's tiles or on neutral tiles next to them."""

from __future__ import annotations

from rules import words
from rules.city_heroes.moves.common import adjacent, owned, pay, start, tile
from rules.city_heroes.state import CityHeroesState, Plant, Tile
from rules.core import Choice, Event, RuleError, Seat, built_choice

State = CityHeroesState


def plant_targets(state: State, seat: Seat) -> list[tuple[Tile, str]]:
    out = []
    mine = {spot.id for spot in owned(state, seat)}
    for spot in state.tiles:
        if spot.owner != seat and not (spot.owner is None and mine & set(adjacent(state, spot.id))):
            continue
        for resource in ("wheat", "timber"):
            if plant_problem(state, seat, spot, resource) is None:
                out.append((spot, resource))
    return out


def plant_problem(state: State, seat: Seat, spot: Tile, resource: str) -> str | None:
    player = state.players[seat]
    if spot.owner is not None and spot.owner != seat:
        return f"T{spot.id} belongs to {state.players[spot.owner].name}."
    if spot.owner is None and not any(
        state.tiles[other - 1].owner == seat for other in adjacent(state, spot.id)
    ):
        return f"You may plant only on your tiles or on neutral tiles next to yours (T{spot.id} is neither)."
    if resource == "wheat" and spot.terrain != "plain":
        return "Wheat grows only on Plains."
    if spot.resource == resource:
        return f"T{spot.id} already has {resource}."
    if spot.resource is not None and spot.owner != seat:
        return f"You may plant over {spot.resource} only on your own tile."
    if not any(state.tiles[other - 1].resource == resource for other in adjacent(state, spot.id)):
        return f"Planting {resource} needs {resource} on an adjacent tile."
    if player.stock[resource] < 1 or player.ready < 1:
        return f"Planting costs 1 worker and {words.count(1, resource)}."
    return None


def plant_choices(state: State, seat: Seat) -> list[Choice]:
    return [
        built_choice(
            key=f"plant:{spot.id}:{resource}",
            label=f"Plant {resource} on T{spot.id}"
            + (f" (over {spot.resource})" if spot.resource else "")
            + " - 1 worker, 1 "
            + resource,
            action={"kind": "plant", "tile": spot.id, "resource": resource},
            group="Plant",
        )
        for spot, resource in plant_targets(state, seat)
    ]


def apply_plant(state: State, seat: Seat, action: Plant, events: list[Event]) -> None:
    player = state.players[seat]
    resource = action.resource
    start(state, "plant", "construction", "plant")
    spot = tile(state, action.tile)
    problem = plant_problem(state, seat, spot, resource)
    if problem:
        raise RuleError(problem)
    pay(state, seat, {resource: 1, "workers": 1})
    old = spot.resource
    spot.resource = resource
    state.acted = "plant"
    events.append(
        Event(text=f"{player.name} planted {resource} on T{spot.id}" + (f" over {old}." if old else "."))
    )
