"""City of Iron's `/card` catalogue: every good, building, town, land, citizen and military card and
nation of `data/city_of_iron/`, as `CatalogueEntry` items built from the validated data."""

from __future__ import annotations

from functools import cache

from rules import words
from rules.city_of_iron.data import BuildingType, GameData, Land, PlayerCard, TownType, game_data
from rules.core import CatalogueEntry
from rules.help import plural, unique_names

LAND_NAMES = {
    "grass": "Grass",
    "forest": "Forest",
    "mountain": "Mountain",
    "coast": "Coast (water)",
    "desert": "Desert",
    "jungle": "Jungle",
    "flying_island": "Flying Island",
}
STARS = {0: "Expansion town (no star)", 1: "Town (1 star)", 2: "Town (2 stars)", 3: "Town (3 stars)"}


def _goods(data: GameData, goods: dict[str, int]) -> str:
    return " + ".join(words.count(amount, data.goods[good].name) for good, amount in goods.items())


def _cost(coins: int, science: int) -> str:
    return plural(coins, "coin") + (f" + {science} science" if science else "")


def _draws(citizen: int, military: int) -> str:
    parts = []
    if citizen:
        parts.append(f"{citizen} citizen")
    if military:
        parts.append(f"{military} military")
    return " and ".join(parts)


def _marks(copies: list[int | None]) -> str:
    """The player-count marks of a building's physical cards, as the setup removes them."""
    always = sum(1 for mark in copies if mark is None)
    parts = [f"{always} in every game"] if always else []
    threes = sum(1 for mark in copies if mark == 2)
    fours = sum(1 for mark in copies if mark == 3)
    if threes:
        parts.append(f"{threes} marked 2 (3-4 players)")
    if fours:
        parts.append(f"{fours} marked 3 (4 players)")
    return f"{len(copies)}: " + ", ".join(parts)


def _building(data: GameData, building: BuildingType, name: str) -> CatalogueEntry:
    summary = [_cost(building.coins, building.science)]
    details = [("Cost", _cost(building.coins, building.science)), ("Deck", building.deck)]
    if building.land:
        details.append(("Needs land", LAND_NAMES[building.land]))
        summary.append(f"needs {LAND_NAMES[building.land].lower()}")
    if building.goods:
        goods = _goods(data, building.goods)
        details.append(("Goods", f"{goods} (+1 income)"))
        summary.append(f"gives {goods}")
    if building.income:
        details.append(("Income", f"+{plural(building.income, 'coin')} at every income"))
        summary.append(f"+{building.income} income")
    if building.science_income:
        details.append(("Science", f"{building.science_income} at every End Round"))
        summary.append(f"{building.science_income} science a round")
    draws = _draws(building.draws_citizen, building.draws_military)
    if draws:
        details.append(("Draws", f"{draws} at every End Round"))
        summary.append(f"{draws} draw")
    if building.capacity:
        details.append(("Building spaces", f"+{building.capacity} in its city"))
        summary.append(f"+{words.count(building.capacity, 'space')}")
    if building.vp_bonus:
        details.append(("VP", f"+{building.vp_bonus} at scoring while 1st or 2nd in its good"))
        summary.append(f"+{building.vp_bonus} VP")
    if building.eyes:
        details.append(
            ("Eyes", f"{building.eyes}: attack {plural(building.eyes, 'card')} deeper into a town pile")
        )
        summary.append(plural(building.eyes, "eye"))
    details.append(("Cards", _marks(list(building.copies))))
    if building.text:
        details.append(("Note", building.text))
    return CatalogueEntry(
        name=name,
        kind=f"Building (deck {building.deck})",
        summary=", ".join(summary) + ".",
        details=details,
        designed=building.designed,
    )


def _building_names(data: GameData) -> dict[str, str]:
    """Buildings share names across decks (and the two Srika Pastures within deck A): add the deck,
    then the goods, so each card has its own name in `/card`."""
    by_name: dict[str, list[BuildingType]] = {}
    for building in data.buildings.values():
        by_name.setdefault(building.name, []).append(building)
    names: dict[str, str] = {}
    for name, same in by_name.items():
        for building in same:
            if len(same) == 1:
                names[building.id] = name
            elif sum(1 for other in same if other.deck == building.deck) == 1:
                names[building.id] = f"{name} (deck {building.deck})"
            else:
                names[building.id] = f"{name} (deck {building.deck}, {_goods(data, building.goods)})"
    return names


def _town(data: GameData, town: TownType) -> CatalogueEntry:
    owned = data.board.owned_town_defense
    details = [("Defence", f"{town.defense} unconquered, {town.defense + owned} when owned")]
    details.append(("Distance", str(town.distance)))
    summary = [f"defence {town.defense}", f"distance {town.distance}"]
    if town.goods:
        goods = _goods(data, town.goods)
        details.append(("Goods", f"{goods} (+1 income)"))
        summary.append(f"gives {goods}")
    if town.coins:
        details.append(("Coins", f"{town.coins} at every income"))
        summary.append(plural(town.coins, "coin"))
    if town.science_income:
        details.append(("Science", f"{town.science_income} at every End Round"))
        summary.append(f"{town.science_income} science")
    draws = _draws(town.draws_citizen, town.draws_military)
    if draws:
        details.append(("Draws", f"{draws} at every End Round"))
        summary.append(f"{draws} draw")
    if town.capacity:
        lands = ", ".join(LAND_NAMES[land] for land in town.lands)
        details.append(("Holds buildings", f"{town.capacity}, like a city ({lands})"))
        summary.append(f"holds {words.count(town.capacity, 'building')}")
    if town.choose_good:
        details.append(("Goods", f"{town.choose_good} of one good you own, chosen at every End Round"))
        summary.append(f"{town.choose_good} of a good you choose")
    if town.counts_as > 1:
        details.append(("End-game bonus", f"counts as {words.count(town.counts_as, 'town')}"))
    removed = [good for good in town.goods if good in ("bottled_demons", "ore")]
    if "bottled_demons" in removed:
        details.append(("Players", "removed with 2 or 3 players (Demon town)"))
    elif "ore" in removed:
        details.append(("Players", "removed with 2 players (Ore town)"))
    if town.text:
        details.append(("Note", town.text))
    return CatalogueEntry(
        name=town.name,
        kind=STARS[town.stars],
        summary=", ".join(summary) + ".",
        details=details,
        designed=town.designed,
    )


def _land(land: Land) -> CatalogueEntry:
    types = ", ".join(LAND_NAMES[kind] for kind in land.lands)
    details = [("Distance", str(land.distance)), ("Land types", types)]
    summary = f"distance {land.distance}, {types}"
    if land.requires:
        details.append(("Needs", f"a {land.requires.title()} card to settle"))
        summary += f", needs a {land.requires}"
    if land.start:
        details.append(("Starting land", "a player's first city stands here"))
    if not land.two_player:
        details.append(("Players", 'marked "2": removed in a 2-player game'))
    return CatalogueEntry(
        name=land.name,
        kind="Starting land" if land.start else "Land",
        summary=summary + ".",
        details=details,
        designed=land.designed,
    )


def _card(data: GameData, card: PlayerCard) -> CatalogueEntry:
    skills = []
    if card.work:
        skills.append(plural(card.work, "work"))
    if card.distance:
        skills.append(f"{card.distance} distance")
    details = [("Cost", _cost(card.coins, card.science))]
    summary = [f"costs {_cost(card.coins, card.science)}"]
    if skills:
        details.append(("Skills", ", ".join(skills)))
        summary.append("skills " + ", ".join(skills))
    if card.attack:
        details.append(("Attack", str(card.attack)))
        summary.append(f"attack {card.attack}")
    if card.ship or card.airship:
        status = "Ship" if card.ship else "Airship"
        details.append(("Status", f"{status} (counts with its distance)"))
        summary.append(status.lower())
    if card.action is not None:
        action = card.action
        text = action.text or action.kind
        details.append(("Action", ("Free action. " if action.free and "Free" not in text else "") + text))
        summary.append("action: " + text.rstrip("."))
    else:
        details.append(("Action", "none: used for its skills"))
    deck = f"{card.deck.title()} card"
    if card.nation is not None:
        nation = data.nations[card.nation].name
        details.append(("Nation", f"{nation} only (with nation abilities)"))
        deck = f"{deck} ({nation})"
    start = [
        label
        for label, ids in (("citizen", data.board.start_citizen), ("military", data.board.start_military))
        if card.id in ids
    ]
    if start:
        details.append(("Starting deck", f"in every player's starting {start[0]} deck"))
    details.append(("Copies", f"{card.copies} per nation"))
    return CatalogueEntry(
        name=card.name,
        kind=deck,
        summary="; ".join(summary) + ".",
        details=details,
        designed=card.designed,
    )


def _nation(data: GameData, nation_id: str) -> CatalogueEntry:
    nation = data.nations[nation_id]

    def names(ids: list[str]) -> str:
        return ", ".join(data.cards[card_id].name for card_id in ids) or "none"

    details = [
        ("Ability", nation.ability),
        ("Letter", nation.letter),
        ("Starting citizen deck", names(nation.start_citizen)),
        ("Starting military deck", names(nation.start_military)),
    ]
    if nation.add_unpurchased:
        details.append(("Added to unpurchased cards", names(nation.add_unpurchased)))
    return CatalogueEntry(
        name=nation.name,
        kind="Nation",
        summary=nation.ability,
        details=details,
        designed=False,
    )


def _good(data: GameData, good_id: str) -> CatalogueEntry:
    good = data.goods[good_id]
    producers = sorted(
        {
            f"{building.name} ({LAND_NAMES[building.land]})"
            for building in data.buildings.values()
            if good_id in building.goods and building.land
        }
    )
    details = [
        ("VP at scoring", f"1st {good.vp_first}, 2nd {good.vp_second}"),
        ("Shield", f"+1 VP at scoring with {good.shield} or more"),
        ("Coin bonus", f"+{plural(good.coin_bonus, 'coin')} at income for the most"),
        ("Made by", ", ".join(producers) or "towns only"),
    ]
    return CatalogueEntry(
        name=good.name,
        kind="Good",
        summary=(
            f"1st {good.vp_first} VP, 2nd {good.vp_second} VP; +1 VP from {good.shield}; "
            f"the most earns +{good.coin_bonus} at income."
        ),
        details=details,
        designed=good.designed,
    )


@cache
def entries() -> tuple[CatalogueEntry, ...]:
    """Goods, buildings (one per building type: copies are counted in its details), towns, lands,
    citizen and military cards, nations; names unique."""
    data = game_data()
    names = _building_names(data)
    found: list[CatalogueEntry] = [_good(data, good_id) for good_id in data.goods]
    found += [_building(data, building, names[building.id]) for building in data.buildings.values()]
    found += [_town(data, town) for town in data.towns.values()]
    found += [_land(land) for land in data.lands.values()]
    found += [_card(data, card) for card in data.cards.values()]
    found += [_nation(data, nation_id) for nation_id in data.nations]
    return tuple(unique_names(found))
