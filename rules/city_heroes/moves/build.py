"""Construction: building a level 1 building on one's tile and upgrading buildings (House track or
main slot)."""

from __future__ import annotations

from rules import words
from rules.city_heroes.data import rules_catalogue
from rules.city_heroes.moves.common import (
    cost,
    cost_text,
    discounts,
    name,
    owned,
    pay,
    shortfall,
    start,
    tile,
)
from rules.city_heroes.state import BuildAction, CityHeroesState, Tile, Upgrade
from rules.core import Choice, Event, RuleError, Seat, built_choice

State = CityHeroesState


def build_problem(
    state: State,
    seat: Seat,
    spot: Tile,
    building: str,
    discount: dict[str, int] | None = None,
    price: dict[str, int] | None = None,
) -> str | None:
    """Why the seat may not build `building` on `spot` now (None: it may); `price`: its `cost`, when
    the caller has it."""
    spec = rules_catalogue().buildings.get(building)
    if spec is None or spec.level != 1 or spec.track != "main":
        return f"{name(building)} is not a level 1 building you can build (upgrade to it instead)."
    if spot.owner != seat:
        return f"You may only build on your own tiles (T{spot.id} is not yours)."
    if spot.building is not None:
        return f"T{spot.id} already has {words.a(name(spot.building))}."
    if spot.work is not None:
        return f"T{spot.id} holds the {name(spot.work)} public work."
    if spec.placement is not None and spot.resource not in spec.placement:
        return f"{words.a(spec.name, start=True)} goes only on a tile with {' or '.join(spec.placement)}."
    if price is None:
        price = cost(state, seat, spec.cost, building, discount)
    short = shortfall(state.players[seat], price)
    if short:
        return f"You cannot afford {words.a(spec.name)}: {short}."
    return None


def build_choices(state: State, seat: Seat) -> list[Choice]:
    choices = []
    discount = discounts(state, seat)
    prices: dict[str, dict[str, int]] = {}  # a building's cost is the same on every tile
    for spot in owned(state, seat):
        if spot.building is not None or spot.work is not None:
            continue
        for spec in rules_catalogue().buildings.values():
            if spec.level != 1 or spec.track != "main":
                continue
            price = prices.get(spec.id)
            if price is None:
                price = prices[spec.id] = cost(state, seat, spec.cost, spec.id, discount)
            if build_problem(state, seat, spot, spec.id, discount, price) is None:
                choices.append(
                    built_choice(
                        key=f"build:{spot.id}:{spec.id}",
                        label=f"Build {words.a(spec.name)} on T{spot.id} ({cost_text(price)})"[:100],
                        action={"kind": "build", "tile": spot.id, "building": spec.id},
                        group="Build",
                        style="success",
                    )
                )
    return choices


def upgrade_problem(
    state: State,
    seat: Seat,
    spot: Tile,
    target: str,
    discount: dict[str, int] | None = None,
    price: dict[str, int] | None = None,
) -> str | None:
    """Why the seat may not upgrade `spot` to `target` now (None: it may); `price`: its `cost`, when
    the caller has it."""
    cat = rules_catalogue()
    spec = cat.buildings.get(target)
    if spec is None or spec.level == 1:
        return f"{name(target)} is not an upgrade."
    if spot.owner != seat:
        return f"T{spot.id} is not yours."
    current = spot.house if spec.track == "house" else spot.building
    if current is None or current not in cat.upgrades_from[target]:
        sources = words.listed((name(source) for source in cat.upgrades_from[target]), "or")
        return (
            f"{words.a(spec.name, start=True)} upgrades {words.a(sources)}, which T{spot.id} does not have."
        )
    if spec.is_unique and target in state.unique_built:
        return f"There is already {words.a(spec.name)} in the game (level 3 buildings are unique)."
    if price is None:
        price = cost(state, seat, spec.cost, target, discount)
    short = shortfall(state.players[seat], price)
    if short:
        return f"You cannot afford {words.a(spec.name)}: {short}."
    return None


def upgrade_choices(state: State, seat: Seat) -> list[Choice]:
    cat = rules_catalogue()
    choices = []
    discount = discounts(state, seat)
    prices: dict[str, dict[str, int]] = {}  # a target's cost is the same on every tile
    for spot in owned(state, seat):
        for current in (spot.house, spot.building):
            for target in cat.upgrades_to.get(current or "", []):
                price = prices.get(target)
                if price is None and target in cat.buildings:
                    price = prices[target] = cost(state, seat, cat.buildings[target].cost, target, discount)
                if upgrade_problem(state, seat, spot, target, discount, price) is None:
                    assert price is not None, "upgrade_problem accepts only a known building, priced above"
                    spec = cat.buildings[target]
                    choices.append(
                        built_choice(
                            key=f"upgrade:{spot.id}:{target}",
                            label=f"Upgrade T{spot.id} {name(current or '')} to {spec.name} "
                            f"({cost_text(price)})"[:100],
                            action={"kind": "upgrade", "tile": spot.id, "building": target},
                            group="Upgrade",
                            style="success",
                        )
                    )
    return choices


def on_built(state: State, seat: Seat, building: str) -> None:
    spec = rules_catalogue().buildings[building]
    player = state.players[seat]
    if spec.idle_workers:
        player.idle += spec.idle_workers
        player.workers += spec.idle_workers
    player.rate_moves += spec.rate_tokens
    player.prestige_moves += spec.prestige_tokens


def apply_build(state: State, seat: Seat, action: BuildAction, events: list[Event]) -> None:
    player = state.players[seat]
    building = action.building
    start(state, "build", "construction", "build")
    spot = tile(state, action.tile)
    problem = build_problem(state, seat, spot, building)
    if problem:
        raise RuleError(problem)
    spec = rules_catalogue().buildings[building]
    price = cost(state, seat, spec.cost, building)
    pay(state, seat, price)
    spot.building = building
    spot.mode = spec.produces[0].mode if spec.produces else None
    on_built(state, seat, building)
    state.acted = "build"
    events.append(Event(text=f"{player.name} built {words.a(spec.name)} on T{spot.id} ({cost_text(price)})."))


def apply_upgrade(state: State, seat: Seat, action: Upgrade, events: list[Event]) -> None:
    player = state.players[seat]
    target = action.building
    start(state, "upgrade", "construction", "upgrade")
    spot = tile(state, action.tile)
    problem = upgrade_problem(state, seat, spot, target)
    if problem:
        raise RuleError(problem)
    spec = rules_catalogue().buildings[target]
    price = cost(state, seat, spec.cost, target)
    pay(state, seat, price)
    old = spot.house if spec.track == "house" else spot.building
    if spec.track == "house":
        spot.house = target
    else:
        spot.building = target
        spot.mode = spec.produces[0].mode if spec.produces else None
    if spec.is_unique:
        state.unique_built.append(target)
    on_built(state, seat, target)
    state.acted = "upgrade"
    events.append(
        Event(
            text=f"{player.name} upgraded the {name(old or '')} on T{spot.id} to {words.a(spec.name)} "
            f"({cost_text(price)})."
        )
    )
