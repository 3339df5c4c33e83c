"""City Heroes' `/card` catalogue: every building, public work, rival exchange row and crafting recipe
of `data/city_heroes/` as `CatalogueEntry` items."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TypeVar

from rules.city_heroes.data import BuildingSpec, Catalogue, RateRow, Recipe, WorkSpec, catalogue
from rules.core import CatalogueEntry
from rules.help import unique_names

NAMES = {
    "wheat": "Wheat",
    "timber": "Timber",
    "stone": "Stone",
    "iron": "Iron",
    "gold": "Gold",
    "weapons": "Weapons",
    "tools": "Tools",
    "jewellery": "Jewellery",
    "planks": "Planks",
    "scaffolds": "Scaffolds",
    "sculptures": "Sculptures",
    "ducats": "Ducats",
    "workers": "Workers",
}


Key = TypeVar("Key", bound=str)


def cost_text(cost: Mapping[Key, int]) -> str:
    return ", ".join(f"{amount} {NAMES[item]}" for item, amount in cost.items()) or "free"


def _building(cat: Catalogue, spec: BuildingSpec) -> CatalogueEntry:
    track = "House track" if spec.track == "house" else "Building"
    details = [("Cost", cost_text(spec.cost)), ("Level", str(spec.level))]
    sources = cat.upgrades_from.get(spec.id, [])
    if sources:
        details.append(("Upgrade of", " or ".join(cat.buildings[source].name for source in sources)))
    targets = cat.upgrades_to.get(spec.id, [])
    if targets:
        details.append(("Upgrades to", ", ".join(cat.buildings[target].name for target in targets)))
    if spec.level == 3:
        details.append(("Unique", "yes: one in the whole game" if spec.is_unique else "no"))
    if spec.placement:
        details.append(("Placed on", ", ".join(NAMES[item] for item in spec.placement)))
    details.append(("Effect", spec.text))
    return CatalogueEntry(
        name=spec.name,
        kind=f"{track} (level {spec.level})",
        summary=f"{cost_text(spec.cost)}. {spec.text}",
        details=details,
        designed=spec.designed,
    )


def _work(spec: WorkSpec) -> CatalogueEntry:
    details = [
        ("Foundation", cost_text(spec.foundation)),
        ("Each stage", cost_text(spec.stage)),
        ("Stages", f"{spec.stages} after the foundation"),
    ]
    if spec.placement:
        details.append(("Placed on", f"a {spec.placement}"))
    details.append(("When finished", spec.text))
    return CatalogueEntry(
        name=spec.name,
        kind="Public work",
        summary=f"Foundation {cost_text(spec.foundation)}; {spec.stages} stages of {cost_text(spec.stage)}.",
        details=details,
        designed=spec.designed,
    )


def _rate(cat: Catalogue, row: RateRow, buys: bool) -> CatalogueEntry:
    resource = NAMES[row.resource]
    rival = cat.rival
    rates = ", ".join(f"{give}:{get}" for give, get in row.rates)
    if buys:
        name, how = f"Rival buys {resource}", f"you give {resource}, the rival pays Ducats"
        prestige = ("Prestige per lot", ", ".join(str(value) for value in rival.sales_prestige))
    else:
        name, how = f"Rival sells {resource}", f"you pay Ducats, you get {resource}"
        prestige = ("Prestige per lot", ", ".join(str(value) for value in rival.purchase_prestige))
    return CatalogueEntry(
        name=name,
        kind="Rival exchange",
        summary=f"Rates from worst to best: {rates}.",
        details=[
            ("Rates (give:get)", f"{rates}: {how}"),
            prestige,
            ("Better rates", "each Market moves your token one step right; a Grand Bazaar one more"),
            ("Limit", "1 + Festival Grounds + 2 x Grand Bazaar lots per phase"),
        ],
        designed=row.designed,
    )


def _recipe(cat: Catalogue, recipe: Recipe) -> CatalogueEntry:
    good = NAMES[recipe.good]
    details = [
        ("Input", cost_text(recipe.input) + " per good"),
        ("Action", "Craft: 1 worker, any number"),
    ]
    if recipe.needs:
        details.append(("Needs", " or ".join(cat.buildings[need].name for need in recipe.needs)))
    if recipe.guild and recipe.guild_input:
        details.append(("With " + cat.buildings[recipe.guild].name, cost_text(recipe.guild_input)))
    return CatalogueEntry(
        name=f"Craft {good}",
        kind="Crafting recipe",
        summary=f"1 {good} from {cost_text(recipe.input)} (Construction phase).",
        details=details,
        designed=cat.setup.crafting.designed,
    )


@cache
def entries() -> tuple[CatalogueEntry, ...]:
    """Buildings, public works, the rival's exchange rows and the crafting recipes."""
    cat = catalogue()
    found = [_building(cat, spec) for spec in cat.buildings.values()]
    found += [_work(spec) for spec in cat.works.values()]
    found += [_rate(cat, row, True) for row in cat.rival.they_buy]
    found += [_rate(cat, row, False) for row in cat.rival.they_sell]
    found += [_recipe(cat, recipe) for recipe in cat.setup.crafting.recipes]
    return tuple(unique_names(found))
