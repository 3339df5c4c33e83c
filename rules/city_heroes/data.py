"""City Heroes data, read once from `data/city_heroes/*.json` and validated by pydantic.

`buildings.json` is the guide's Building List (plus the designed Studio, Villa, Estate, Bank and the
upgrade paths), `public_works.json` its Public Work List, `rival.json` the rival city's exchange table
and prestige, `setup.json` the starting stock, bank, game length, bank prices, crafting recipes and the
map generator. A bad file fails with the file, the entry and the field named.
"""

from __future__ import annotations

import functools
from importlib.resources.abc import Traversable
from typing import Any, Literal

from pydantic import Field

from rules import data as datafiles
from rules.core import Model
from rules.data import DataError as DataError  # re-exported: `from rules.city_heroes.data import DataError`
from rules.data import document, entries, label, read_only, require

DATA_DIR = datafiles.game_folder("city_heroes")

Natural = Literal["wheat", "timber", "stone", "iron", "gold"]
Good = Literal["weapons", "tools", "jewellery", "planks", "scaffolds", "sculptures"]
NATURALS: tuple[str, ...] = ("wheat", "timber", "stone", "iron", "gold")
GOODS: tuple[str, ...] = ("weapons", "tools", "jewellery", "planks", "scaffolds", "sculptures")
RESOURCES: tuple[str, ...] = NATURALS + GOODS
PriceKind = Literal["natural", "good", "jewellery"]
CostKey = Literal[
    "wheat",
    "timber",
    "stone",
    "iron",
    "gold",
    "weapons",
    "tools",
    "jewellery",
    "planks",
    "scaffolds",
    "sculptures",
    "ducats",
    "workers",
]
Cost = dict[CostKey, int]


class Production(Model):
    mode: str
    iron: int = Field(ge=0)
    output: dict[Good, int]


class BuildingSpec(Model):
    id: str = Field(pattern=r"^[a-z]+(-[a-z]+)*$")
    name: str
    level: int = Field(ge=1, le=3)
    track: Literal["main", "house"] = "main"
    cost: Cost
    text: str
    designed: bool = False
    attack: int = Field(default=0, ge=0)
    defence: int = Field(default=0, ge=0)
    prestige: int = Field(default=0, ge=0)
    influence: int = Field(default=0, ge=0)
    neighbour_influence: int = Field(default=0, ge=0)
    gather_extra: int = Field(default=0, ge=0)
    mines: bool = False
    """Iron and Gold are gathered only from a tile with a building that mines."""
    placement: list[Natural] | None = None
    rotation: int = Field(default=0, ge=0)
    idle_workers: int = Field(default=0, ge=0)
    rate_tokens: int = Field(default=0, ge=0)
    prestige_tokens: int = Field(default=0, ge=0)
    produces: list[Production] = Field(default_factory=list)
    dividend_per: int = Field(default=0, ge=0)
    dividend_max: int = Field(default=0, ge=0)
    unique: bool | None = None
    """Level 3 buildings are unique unless this says False (Estates, Banks, Apartments, Harvesting Plants)."""

    @property
    def is_unique(self) -> bool:
        return self.level == 3 and self.unique is not False


class UpgradePaths(Model):
    designed: bool
    note: str = ""
    from_: dict[str, list[str]] = Field(alias="from")


class BuildingFile(Model):
    source: str = ""
    buildings: list[dict[str, Any]]
    upgrade_paths: UpgradePaths


class WorkSpec(Model):
    id: str = Field(pattern=r"^[a-z]+(-[a-z]+)*$")
    name: str
    foundation: Cost
    stage: Cost
    stages: int = Field(ge=1)
    placement: Literal["hill"] | None = None
    prestige: int = Field(default=0, ge=0)
    owner_influence: int = Field(default=0, ge=0)
    defence: int = Field(default=0, ge=0)
    gather_extra: int = Field(default=0, ge=0)
    text: str
    designed: bool = False


class WorkFile(Model):
    source: str = ""
    public_works: list[dict[str, Any]]


class RateRow(Model):
    resource: Literal[
        "wheat",
        "timber",
        "stone",
        "iron",
        "gold",
        "weapons",
        "tools",
        "jewellery",
        "planks",
        "scaffolds",
        "sculptures",
    ]
    rates: list[tuple[int, int]] = Field(min_length=5, max_length=5)
    designed: bool = False


class RivalSpec(Model):
    designed: bool
    start: int
    growth: list[int] = Field(min_length=1)
    note: str = ""


class RivalFile(Model):
    source: str = ""
    note: str = ""
    they_buy: list[RateRow]
    they_sell: list[RateRow]
    sales_prestige: list[int] = Field(min_length=5, max_length=5)
    purchase_prestige: list[int] = Field(min_length=5, max_length=5)
    rival: RivalSpec


class Recipe(Model):
    good: Good
    input: dict[Natural, int]
    needs: list[str] = Field(default_factory=list)
    guild: str | None = None
    guild_input: dict[Natural, int] | None = None


class Crafting(Model):
    designed: bool
    note: str = ""
    recipes: list[Recipe]


class MapSpec(Model):
    designed: bool
    radius: int = Field(ge=3, le=5)
    hill_share: float = Field(gt=0, lt=1)
    hill_resources: dict[Literal["none", "iron", "gold", "stone", "timber"], int]
    plain_resources: dict[Literal["none", "wheat", "timber"], int]
    note: str = ""


class Price(Model):
    buy: int = Field(ge=1)
    """What the bank pays."""
    sell: int = Field(ge=1)
    """What the bank asks."""


class SetupFile(Model):
    source: str = ""
    start: dict[Literal["wheat", "timber", "stone", "ducats", "workers"], int]
    bank: dict[Literal["each", "ducats"], int]
    turns: dict[Literal["1", "2", "3", "4", "5"], int]
    bank_prices: dict[PriceKind, Price]
    crafting: Crafting
    map: MapSpec


class Catalogue:
    def __init__(
        self,
        buildings: list[BuildingSpec],
        paths: dict[str, list[str]],
        works: list[WorkSpec],
        rival: RivalFile,
        setup: SetupFile,
    ) -> None:
        self.buildings = {spec.id: spec for spec in buildings}
        self.upgrades_from = paths
        self.upgrades_to: dict[str, list[str]] = {}
        for target, sources in paths.items():
            for source in sources:
                self.upgrades_to.setdefault(source, []).append(target)
        self.works = {spec.id: spec for spec in works}
        self.rival = rival
        self.rows = {f"sell-{row.resource}": row for row in rival.they_buy} | {
            f"buy-{row.resource}": row for row in rival.they_sell
        }
        """Rival rows by id: 'sell-iron' (they buy iron), 'buy-wheat' (they sell wheat)."""
        self.setup = setup
        self.recipes: dict[str, Recipe] = {recipe.good: recipe for recipe in setup.crafting.recipes}

    def building(self, building_id: str) -> BuildingSpec:
        return self.buildings[building_id]


def load_catalogue(directory: Traversable = DATA_DIR) -> Catalogue:
    path = directory / "buildings.json"
    building_file = document(path, BuildingFile)
    buildings = entries(path, building_file.buildings, BuildingSpec, "building")
    known = {spec.id: spec for spec in buildings}
    paths = building_file.upgrade_paths.from_
    for target, sources in paths.items():
        field = f"from.{target}"
        require(target in known, path, "upgrade_paths", field, f"unknown building {target!r}")
        for source in sources:
            require(source in known, path, "upgrade_paths", field, f"unknown building {source!r}")
            require(
                known[source].level == known[target].level - 1 and known[source].track == known[target].track,
                path,
                "upgrade_paths",
                field,
                f"{source!r} is not one level below on the same track",
            )
    for index, spec in enumerate(buildings):
        require(
            spec.level == 1 or spec.id in paths,
            path,
            label("building", index, spec),
            "from",
            "no upgrade path leads to it",
        )
    path = directory / "public_works.json"
    works = entries(path, document(path, WorkFile).public_works, WorkSpec, "public work")
    rival = document(directory / "rival.json", RivalFile)
    path = directory / "setup.json"
    setup = document(path, SetupFile)
    for index, recipe in enumerate(setup.crafting.recipes):
        for needed in recipe.needs + ([recipe.guild] if recipe.guild else []):
            require(
                needed in known,
                path,
                f"recipe {index + 1} ({recipe.good})",
                "needs",
                f"unknown building {needed!r}",
            )
    return Catalogue(buildings, paths, works, rival, setup)


@functools.cache
def catalogue() -> Catalogue:
    return load_catalogue()


@functools.cache
def rules_catalogue() -> Catalogue:
    """The shipped catalogue with its specs as read-only records (`rules.data.read_only`), for the rules'
    moves, menus and computer players: the same fields, values and properties (`is_unique`) as
    `catalogue()`'s models, read several times faster (the menus read building and work specs thousands
    of times a game). Views, the `/card` catalogue, the renderer and `GAME.cat` keep the models."""
    cat = catalogue()
    return Catalogue(
        read_only(list(cat.buildings.values())),
        cat.upgrades_from,
        read_only(list(cat.works.values())),
        read_only(cat.rival),
        read_only(cat.setup),
    )
