"""Buildings: where a player can build (cities and towns holding buildings), building from the row
or from storage, storing a building for later, and the Arc's free move of a building."""

from __future__ import annotations

from functools import lru_cache

from rules import words
from rules.city_of_iron import scoring
from rules.city_of_iron.choices import action_of, fit_key
from rules.city_of_iron.data import LandType, rules_data
from rules.city_of_iron.scoring import building, town
from rules.city_of_iron.state import Build, CityState, MoveBuilding, Player, Store
from rules.core import Choice, Event, RuleError, Seat, built_choice

Site = tuple[str, list[LandType], list[str], int]
"""(site id, land types, buildings, base capacity): a city or town that can hold buildings."""


def building_sites(state: CityState, player: Player) -> list[Site]:
    """(site id, land types, buildings, base capacity) for each place the player can build."""
    data = rules_data()
    sites = []
    for city in player.cities:
        sites.append(
            (
                city.id,
                data.lands[city.land].lands,
                city.buildings,
                scoring.city_capacity(state, player, city),
            )
        )
    for town_id in player.towns:
        held = town(town_id)
        if held.capacity:
            sites.append(
                # Read only: `_apply` makes the list exist before a move can append to it.
                (town_id, held.lands, state.town_buildings.get(town_id, []), held.capacity)
            )
    return sites


def find_site(state: CityState, player: Player, site_id: str) -> Site:
    for site in building_sites(state, player):
        if site[0] == site_id:
            return site
    raise RuleError("You have no city or town that can hold buildings there.")


def site_name(state: CityState, site_id: str) -> str:
    if site_id in rules_data().towns:
        return town(site_id).name
    for player in state.players:
        for city in player.cities:
            if city.id == site_id:
                return rules_data().lands[city.land].name
    return site_id


def fits(base: int, buildings: list[str]) -> bool:
    return len(buildings) <= base + sum(building(uid).capacity for uid in buildings)


def science_cost(state: CityState, player: Player, uid: str, owned: set[str] | None = None) -> int:
    """Science is paid once per building name: 0 while the player owns one of the same name."""
    kind = building(uid)
    if not kind.science:
        return 0
    if owned is None:
        owned = {building(other).name for other in scoring.player_buildings(state, player)}
    return 0 if kind.name in owned else kind.science


def _build_options(player: Player, uid: str, sites: list[Site], science: int) -> list[tuple[str, str | None]]:
    """(site, demolished building) pairs where the player may build this card now."""
    kind = building(uid)
    if kind.coins > player.coins or science > player.science:
        return []
    options: list[tuple[str, str | None]] = []
    for site_id, lands, buildings, base in sites:
        if kind.land is not None and kind.land not in lands:
            continue
        if fits(base, [*buildings, uid]):
            options.append((site_id, None))
            continue
        seen: set[str] = set()
        for old in buildings:
            if old.rsplit(".", 1)[0] in seen:
                continue
            remaining = [other for other in buildings if other != old]
            if fits(base, [*remaining, uid]):
                seen.add(old.rsplit(".", 1)[0])
                options.append((site_id, old))
    return options


@lru_cache(maxsize=8192)
def _build_choice(uid: str, site_id: str, where: str, old: str | None, cost: str, stored: bool) -> Choice:
    text = f"Build {building(uid).name} ({cost}) in {where}"
    key = f"build:{uid}:{site_id}"
    if old:
        text += f", demolishing {building(old).name}"
        key += f":x:{old}"
    if stored:
        text += " (stored)"
    return built_choice(
        key=fit_key(key),
        label=text,
        action=action_of(Build, card=uid, site=site_id, demolish=old),
        group="Build",
        style="primary",
    )


def build_choices(state: CityState, seat: Seat) -> list[Choice]:
    """Each building on offer (then each stored one), one type at a time, at every site it fits.
    The sites and the names the player owns are looked up only once a building is affordable: most
    turns the row holds nothing the seat can pay for."""
    player = state.players[seat]
    choices: list[Choice] = []
    seen: set[tuple[str, str]] = set()
    sites: list[Site] | None = None
    names: dict[str, str] = {}
    owned: set[str] | None = None
    for source, uid in [("row", uid) for uid in state.row if uid] + [
        ("stored", uid) for uid in player.stored
    ]:
        kind = building(uid)
        if kind.coins > player.coins or (source, kind.id) in seen:
            continue
        seen.add((source, kind.id))
        if kind.science and owned is None:
            owned = {building(other).name for other in scoring.player_buildings(state, player)}
        science = science_cost(state, player, uid, owned)
        if science > player.science:
            continue
        if sites is None:
            sites = building_sites(state, player)
        for site_id, old in _build_options(player, uid, sites, science):
            if site_id not in names:
                names[site_id] = site_name(state, site_id)
            choices.append(
                _build_choice(
                    uid, site_id, names[site_id], old, _cost(kind.coins, science), source == "stored"
                )
            )
    return choices


@lru_cache(maxsize=256)
def _cost(coins: int, science: int) -> str:
    """A build's price as its label shows it ("3 coins + 1 science")."""
    return f"{words.count(coins, 'coin')}" + (f" + {science} science" if science else "")


def apply_build(state: CityState, seat: Seat, action: Build) -> list[Event]:
    player = state.players[seat]
    uid = action.card
    if uid in state.row:
        source = "row"
    elif uid in player.stored:
        source = "stored"
    else:
        raise RuleError("That building is neither on the board nor stored by you.")
    kind = building(uid)
    science = science_cost(state, player, uid)
    if kind.coins > player.coins:
        raise RuleError(f"{kind.name} costs {words.count(kind.coins, 'coin')}; you have {player.coins}.")
    if science > player.science:
        raise RuleError(f"{kind.name} costs {science} science; you have {player.science}.")
    site_id, lands, buildings, base = find_site(state, player, action.site)
    where = site_name(state, site_id)
    if kind.land is not None and kind.land not in lands:
        raise RuleError(f"{kind.name} needs {kind.land.replace('_', ' ')} land; {where} has none.")
    if action.demolish is None:
        if not fits(base, [*buildings, uid]):
            raise RuleError(f"{where} is full: demolish a building there or build elsewhere.")
    else:
        if action.demolish not in buildings:
            raise RuleError(f"There is no such building to demolish in {where}.")
        if fits(base, [*buildings, uid]):
            raise RuleError(f"{where} has room: there is no need to demolish a building.")
        if not fits(base, [*[b for b in buildings if b != action.demolish], uid]):
            raise RuleError(f"Demolishing that building does not make room in {where}.")
    player.coins -= kind.coins
    player.science -= science
    if source == "row":
        state.row[state.row.index(uid)] = None
    else:
        player.stored.remove(uid)
    text = f"{player.name} built {kind.name} for {words.count(kind.coins, 'coin')}"
    if science:
        text += f" and {science} science"
    text += f" in {where}"
    if action.demolish:
        buildings.remove(action.demolish)
        state.discard.append(action.demolish)
        text += f", demolishing {building(action.demolish).name}"
    buildings.append(uid)
    if kind.goods:
        goods = ", ".join(words.count(n, rules_data().goods[g].name) for g, n in kind.goods.items())
        text += f"; +1 income, {goods}"
    return [Event(text=text + ".")]


# Choices that depend only on their content are built once and shared: treat choices as read-only.
@lru_cache(maxsize=1024)
def _store_choice(uid: str) -> Choice:
    return built_choice(
        key=f"store:{uid}",
        label=f"Store {building(uid).name} for later",
        action=action_of(Store, card=uid),
        group="Store",
    )


def store_choices(state: CityState) -> list[Choice]:
    return [_store_choice(uid) for uid in state.row if uid is not None]


def apply_store(state: CityState, seat: Seat, action: Store) -> list[Event]:
    if action.card not in state.row:
        raise RuleError("You can only store a building on offer on the board.")
    player = state.players[seat]
    state.row[state.row.index(action.card)] = None
    player.stored.append(action.card)
    return [Event(text=f"{player.name} stored {building(action.card).name}.")]


def move_cost(state: CityState, player: Player) -> int | None:
    if not state.abilities or player.nation is None:
        return None
    return rules_data().nations[player.nation].move_building_cost


def move_choices(state: CityState, seat: Seat) -> list[Choice]:
    player = state.players[seat]
    cost = move_cost(state, player)
    if cost is None or player.coins < cost:
        return []
    choices: list[Choice] = []
    sites = building_sites(state, player)
    for source_id, _, source_buildings, source_base in sites:
        for uid in source_buildings:
            if not fits(source_base, [other for other in source_buildings if other != uid]):
                continue
            for target_id, lands, buildings, base in sites:
                if target_id == source_id:
                    continue
                land = building(uid).land
                if (land is None or land in lands) and fits(base, [*buildings, uid]):
                    choices.append(
                        built_choice(
                            key=fit_key(f"move:{uid}:{target_id}"),
                            label=(
                                f"Free: move {building(uid).name} to "
                                f"{site_name(state, target_id)} ({cost} coin)"
                            ),
                            action=action_of(MoveBuilding, building=uid, site=target_id),
                            group="Free actions",
                        )
                    )
    return choices


def apply_move(state: CityState, seat: Seat, action: MoveBuilding) -> list[Event]:
    player = state.players[seat]
    cost = move_cost(state, player)
    if cost is None:
        raise RuleError("Only the City-State of Arc (with nation abilities) may move buildings.")
    if player.coins < cost:
        raise RuleError(f"Moving a building costs {words.count(cost, 'coin')}; you have {player.coins}.")
    sites = building_sites(state, player)
    source = next((site for site in sites if action.building in site[2]), None)
    if source is None:
        raise RuleError("That building is not in one of your cities.")
    target = next((site for site in sites if site[0] == action.site), None)
    if target is None or target[0] == source[0]:
        raise RuleError("Move the building to another of your cities.")
    kind = building(action.building)
    if kind.land is not None and kind.land not in target[1]:
        raise RuleError(f"{kind.name} needs {kind.land.replace('_', ' ')} land there.")
    if not fits(target[3], [*target[2], action.building]):
        raise RuleError(f"{site_name(state, target[0])} has no room for it.")
    if not fits(source[3], [b for b in source[2] if b != action.building]):
        raise RuleError("Moving it would leave its city over capacity.")
    player.coins -= cost
    source[2].remove(action.building)
    target[2].append(action.building)
    where = site_name(state, target[0])
    return [Event(text=f"{player.name} moved {kind.name} to {where} for {words.count(cost, 'coin')}.")]
