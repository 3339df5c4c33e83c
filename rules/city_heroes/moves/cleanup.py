"""The automatic Cleanup at the end of each turn: new workers, building bonuses, gathering, public
works, tile tax, worker rotation, then the rival city grows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules import words
from rules.city_heroes.data import NATURALS, RESOURCES, BuildingSpec, rules_catalogue
from rules.city_heroes.moves.common import adjacent, give, goods_text, has, name, owned, pay_ducats, work_done
from rules.city_heroes.state import CityHeroesState, Tile
from rules.core import Event, Seat

State = CityHeroesState
Lines = dict[Seat, list[str]]
MARKET_FAMILY = ("market", "festival-grounds")
"""Buildings whose Market bonus pays at the Cleanup (the Grand Bazaar does NOT)."""
FESTIVAL_GOODS = {
    "studio": "jewellery",
    "carpenter": "scaffolds",
    "stonemason": "sculptures",
    "foundry": "tools",
    "forge": "weapons",
}
"""Festival Grounds: 'Studio -> Jewellery, Carpenter -> Scaffolds, Stonemason -> Sculpture, Foundry ->
Tools, Forge -> Weapons.'"""
SCHOLARLY = ("school", "college", "university")


def rival_growth(state: State) -> int:
    growth = rules_catalogue().rival.rival.growth
    return growth[min(state.turn, len(growth)) - 1] * len(state.players)


def gathered(state: State, spot: Tile) -> int:
    """'one resource of each type that is on a tile they own', +1 Mine/Foraging Hut, +2 Gathering Hut,
    +3 Harvesting Plant (or a finished Carrariae); Iron and Gold only with a Mine (or its upgrades)."""
    cat = rules_catalogue()
    spec = cat.buildings[spot.building] if spot.building else None
    carrariae = spot.work == "carrariae" and work_done(state, spot)
    if spot.resource in ("iron", "gold") and not ((spec and spec.mines) or carrariae):
        return 0
    count = 1 + (spec.gather_extra if spec else 0)
    if carrariae:
        count += cat.works["carrariae"].gather_extra
    return count


def cleanup(state: State, events: list[Event]) -> None:
    lines: Lines = {seat: [] for seat in range(len(state.players))}
    prestige_before = state.prestige
    _new_workers(state, lines)
    _bank_dividends(state, lines)
    _building_bonuses(state, lines)
    _gathering(state, lines)
    _works_bonuses(state, lines)
    _taxes(state, lines)
    for seat in range(len(state.players)):
        _rotate(state, seat, lines)
    # Reset the turn's marks; the rival grows.
    for spot in state.tiles:
        spot.garrison += spot.spent
        spot.spent = 0
        spot.pillaged = False
    state.log_pillaged = []
    growth = rival_growth(state)
    state.rival_prestige += growth
    for seat, parts in lines.items():
        if parts:
            events.append(Event(text=f"Cleanup, {state.players[seat].name}: " + words.sentences(parts)))
    events.append(
        Event(
            text=f"End of turn {state.turn}: city prestige {state.prestige} ({state.prestige - prestige_before:+d}), "
            f"rival {state.rival_prestige} (+{growth}).",
            urgent=True,  # the cleanup's incomes and the city's prestige check against the rival
        )
    )


def _new_workers(state: State, lines: Lines) -> None:
    """1. 'For each 2 tiles you bought this turn (rounded down), gain 1 Worker into the busy pool.'"""
    for seat, player in enumerate(state.players):
        extra = player.bought // 2
        if extra:
            player.busy += extra
            player.workers += extra
            lines[seat].append(f"+{words.count(extra, 'worker')} for new tiles")


def _bank_dividends(state: State, lines: Lines) -> None:
    """2. Building bonuses, the Bank first."""
    for spot in state.tiles:
        if spot.owner is not None and spot.house == "bank":
            spec = rules_catalogue().buildings["bank"]
            player = state.players[spot.owner]
            paid = pay_ducats(state, spot.owner, min(spec.dividend_max, player.ducats // spec.dividend_per))
            if paid:
                lines[spot.owner].append(f"Bank dividend {words.count(paid, 'ducat')}")


def _gathering(state: State, lines: Lines) -> None:
    """3. Resources from owned tiles."""
    for spot in state.tiles:
        if spot.owner is None or spot.resource is None or spot.pillaged:
            continue
        count = gathered(state, spot)
        if count:
            got = give(state, spot.owner, spot.resource, count)
            lines[spot.owner].append(f"T{spot.id} {words.count(got, spot.resource)}")


def _taxes(state: State, lines: Lines) -> None:
    """5. Tile tax, pillage tokens."""
    for seat, player in enumerate(state.players):
        tiles = len(owned(state, seat))
        if tiles:
            got = pay_ducats(state, seat, tiles)
            lines[seat].append(f"tile tax {words.count(got, 'ducat')}")
        if player.pillage_tokens:
            player.influence += player.pillage_tokens
            lines[seat].append(f"+{player.pillage_tokens} influence for pillage tokens")


def _rotate(state: State, seat: Seat, lines: Lines) -> None:
    """6. Worker rotation (early rest from buildings, wheat feeds idle workers)."""
    buildings = rules_catalogue().buildings
    player = state.players[seat]
    player.ready += player.idle
    player.idle = player.busy
    player.busy = 0
    extra = sum(
        buildings[slot].rotation
        for spot in owned(state, seat)
        for slot in (spot.house, spot.building)
        if slot
    )
    moved = min(extra, player.idle)
    player.idle -= moved
    player.ready += moved
    fed = 0
    while player.idle and player.stock["wheat"] >= 2:
        player.stock["wheat"] -= 2
        state.bank["wheat"] += 2
        player.idle -= 1
        player.ready += 1
        fed += 1
    if moved:
        lines[seat].append(f"{words.count(moved, 'worker')} rested early")
    if fed:
        lines[seat].append(f"{2 * fed} wheat fed {words.count(fed, 'worker')}")
    player.bought = 0


# ---- building bonuses ------------------------------------------------------------------------------
@dataclass
class _Bonuses:
    """What the building bonuses share over one Cleanup."""

    state: State
    lines: Lines
    city_tiles: int
    city_workers: int
    manors: list[int]
    market_seen: dict[Seat, set[int]] = field(default_factory=dict)
    festival_seen: dict[Seat, set[int]] = field(default_factory=dict)


def _building_bonuses(state: State, lines: Lines) -> None:
    run = _Bonuses(
        state=state,
        lines=lines,
        city_tiles=sum(1 for spot in state.tiles if spot.owner is not None),
        city_workers=sum(player.workers for player in state.players),
        manors=[has(state, seat, "manor") for seat in range(len(state.players))],
    )
    buildings = rules_catalogue().buildings
    for spot in state.tiles:
        if spot.owner is None:
            continue
        for slot in (spot.house, spot.building):
            if slot is None:
                continue
            spec = buildings[slot]
            for bonus in _SLOT_BONUSES:
                bonus(run, spot, slot, spec)


def _prestige_influence(run: _Bonuses, spot: Tile, slot: str, spec: BuildingSpec) -> None:
    seat = spot.owner
    assert seat is not None
    if spec.prestige:
        run.state.prestige += spec.prestige
    if spec.influence:
        run.state.players[seat].influence += spec.influence
    if spec.prestige or spec.influence:
        run.lines[seat].append(
            f"{spec.name} T{spot.id}: +{spec.prestige} prestige, +{spec.influence} influence"
        )


def _neighbours(run: _Bonuses, spot: Tile, slot: str, spec: BuildingSpec) -> None:
    seat = spot.owner
    assert seat is not None, "the slot bonuses are given for owned tiles only"
    if not spec.neighbour_influence:
        return
    state = run.state
    owners = {
        state.tiles[other - 1].owner
        for other in adjacent(state, spot.id)
        if state.tiles[other - 1].owner not in (None, seat)
    }
    if owners:
        gain = spec.neighbour_influence * len(owners)
        state.players[seat].influence += gain
        run.lines[seat].append(f"{spec.name} T{spot.id}: +{gain} influence from neighbours")


def _production(run: _Bonuses, spot: Tile, slot: str, spec: BuildingSpec) -> None:
    if spec.produces:
        produce(run.state, spot, spec, run.lines)


def _worship(run: _Bonuses, spot: Tile, slot: str, spec: BuildingSpec) -> None:
    if slot not in ("temple", "cathedral"):
        return
    state, seat = run.state, spot.owner
    assert seat is not None
    player = state.players[seat]
    ducats = len(owned(state, seat)) // 2
    if has(state, seat, "cathedral"):
        ducats += run.city_tiles // 2
    paid = pay_ducats(state, seat, ducats)
    influence = player.workers // 2 if slot == "temple" else run.city_workers
    player.influence += influence
    run.lines[seat].append(f"{spec.name} T{spot.id}: {words.count(paid, 'ducat')}, +{influence} influence")


def _markets(run: _Bonuses, spot: Tile, slot: str, spec: BuildingSpec) -> None:
    seat = spot.owner
    assert seat is not None
    if slot in MARKET_FAMILY and not spot.pillaged:
        market(run.state, spot, run.market_seen.setdefault(seat, set()), run.lines)
    if slot == "festival-grounds" and not spot.pillaged:
        festival(run.state, spot, run.festival_seen.setdefault(seat, set()), run.lines)


def _bazaar(run: _Bonuses, spot: Tile, slot: str, spec: BuildingSpec) -> None:
    if slot != "grand-bazaar":
        return
    state = run.state
    for other in range(len(state.players)):
        share = 1 if other == spot.owner else 2
        got = [
            give(state, other, resource, (4 if resource in NATURALS else 2) // share)
            for resource in RESOURCES
        ]
        run.lines[other].append(f"Grand Bazaar: {words.count(sum(got), 'resource')}")


def _manors(run: _Bonuses, spot: Tile, slot: str, spec: BuildingSpec) -> None:
    seat = spot.owner
    assert seat is not None
    manors = run.manors
    if slot == "manor" and manors[seat] and manors.count(max(manors)) == 1 and manors[seat] == max(manors):
        run.state.players[seat].influence += 5
        run.lines[seat].append("most manors: +5 influence")


_SLOT_BONUSES: tuple[Callable[[_Bonuses, Tile, str, BuildingSpec], None], ...] = (
    _prestige_influence,
    _neighbours,
    _production,
    _worship,
    _markets,
    _bazaar,
    _manors,
)
"""Each building's bonuses, in the order the Cleanup pays them."""


def produce(state: State, spot: Tile, spec: Any, lines: Lines) -> None:
    seat = spot.owner
    assert seat is not None
    player = state.players[seat]
    production = next((p for p in spec.produces if p.mode == spot.mode), spec.produces[0])
    if player.stock["iron"] < production.iron:
        lines[seat].append(f"{spec.name} T{spot.id}: no iron to work")
        return
    player.stock["iron"] -= production.iron
    state.bank["iron"] += production.iron
    double = 2 if has(state, seat, "manufactory") and spot.building != "manufactory" else 1
    made = {good: give(state, seat, good, count * double) for good, count in production.output.items()}
    lines[seat].append(f"{spec.name} T{spot.id}: {goods_text(made)}")


def market(state: State, place: Tile, seen: set[int], lines: Lines) -> None:
    """1 ducat per adjacent (or own-tile) resource of the owner, 1 copy of the resource from another
    player's tile; each resource once per owner; pillaged tiles give nothing."""
    seat = place.owner
    assert seat is not None
    ducats, copies = 0, []
    for tile_id in (place.id, *adjacent(state, place.id)):
        spot = state.tiles[tile_id - 1]
        if tile_id in seen or spot.resource is None or spot.owner is None or spot.pillaged:
            continue
        seen.add(tile_id)
        if spot.owner == seat:
            ducats += pay_ducats(state, seat, 1)
        elif give(state, seat, spot.resource, 1):
            copies.append(spot.resource)
    if ducats or copies:
        got = [words.count(ducats, "ducat")] if ducats else []
        got += [words.count(copies.count(resource), resource) for resource in dict.fromkeys(copies)]
        lines[seat].append(f"{name(place.building or '')} T{place.id}: {words.listed(got)}")


def festival(state: State, grounds: Tile, seen: set[int], lines: Lines) -> None:
    seat = grounds.owner
    assert seat is not None
    ducats, copies = 0, []
    for tile_id in adjacent(state, grounds.id):
        spot = state.tiles[tile_id - 1]
        if tile_id in seen or spot.owner is None or spot.pillaged or spot.building not in FESTIVAL_GOODS:
            continue
        seen.add(tile_id)
        if spot.owner == seat:
            ducats += pay_ducats(state, seat, 2)
        elif give(state, seat, FESTIVAL_GOODS[spot.building], 1):
            copies.append(FESTIVAL_GOODS[spot.building])
    if ducats or copies:
        extra = f", {', '.join(copies)}" if copies else ""
        lines[seat].append(f"Festival Grounds T{grounds.id}: {words.count(ducats, 'ducat')}{extra}")


# ---- public works ----------------------------------------------------------------------------------
def _works_bonuses(state: State, lines: Lines) -> None:
    """4. Public works: prestige, the owner's influence, then each work's own bonus."""
    works = rules_catalogue().works
    for spot in state.tiles:
        if not spot.work or not work_done(state, spot):
            continue
        spec = works[spot.work]
        state.prestige += spec.prestige
        if spot.owner is not None and spec.owner_influence:
            state.players[spot.owner].influence += spec.owner_influence
            lines[spot.owner].append(f"{spec.name}: +{spec.owner_influence} influence")
        special = _WORK_BONUSES.get(spot.work)
        if special is not None:
            special(state, spot, lines)


def _city_hall(state: State, hall: Tile, lines: Lines) -> None:
    if hall.owner is None:
        for seat in range(len(state.players)):
            got = pay_ducats(state, seat, 2)
            lines[seat].append(f"City Hall: {words.count(got, 'ducat')}")
        return
    for seat, player in enumerate(state.players):
        if seat == hall.owner:
            continue
        paid = min(2, player.ducats)
        player.ducats -= paid
        state.players[hall.owner].ducats += paid
        if paid:
            lines[seat].append(f"paid {words.count(paid, 'ducat')} to the City Hall")
            lines[hall.owner].append(f"City Hall: {words.count(paid, 'ducat')} from {player.name}")


def _rotonda(state: State, rotonda: Tile, lines: Lines) -> None:
    for tile_id in adjacent(state, rotonda.id):
        other = state.tiles[tile_id - 1]
        if other.owner is None or other.terrain != "plain" or other.resource is None or other.pillaged:
            continue
        if gathered(state, other) and give(state, other.owner, other.resource, 1):
            lines[other.owner].append(f"La Rotonda: +{words.count(1, other.resource)} from T{tile_id}")


def _biblioteka(state: State, library: Tile, lines: Lines) -> None:
    near = {library.id, *adjacent(state, library.id)}
    for other in state.tiles:
        if other.owner is None or other.building not in SCHOLARLY:
            continue
        bonus = 4 if other.id in near else 2
        state.prestige += bonus
        state.players[other.owner].influence += bonus
        lines[other.owner].append(f"Biblioteka: {name(other.building or '')} T{other.id} +{bonus}")


_WORK_BONUSES: dict[str, Callable[[State, Tile, Lines], None]] = {
    "city-hall": _city_hall,
    "la-rotonda": _rotonda,
    "biblioteka-marciana": _biblioteka,
}
