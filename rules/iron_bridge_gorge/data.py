"""The Iron Bridge Gorge card list, read once from `data/iron_bridge_gorge/cards.json` and validated.

Every card of the rule text's CARD LIST is one entry with its count, type (F/I/C/L/T/O), skill
(the U and S marks: build cost 3 and 7 instead of 5), revenue and requirements. Requirements name
other cards by id, so a typo in the file fails on load instead of silently never being owned.
"""

from __future__ import annotations

import functools
from importlib.resources.abc import Traversable
from typing import Literal

from pydantic import Field

from rules import data as datafiles
from rules.core import Model
from rules.data import DataError, read_only

DATA_DIR = datafiles.game_folder("iron_bridge_gorge")
CARDS_FILE = "cards.json"

CardType = Literal["F", "I", "C", "L", "T", "O"]
Skill = Literal["normal", "unskilled", "skilled"]
Tag = Literal["mine", "iron-mine", "water-powered", "build-discount", "ignores-worker-shortage"]
"""Effects the engine reads from the data: Flooding stops mines, Steam Pumping Engines and Long Wall
Mining add revenue to iron mines, Drought or Freeze stops water-powered works, Land Lease gives the
build discount, Worker Cottages ignore Worker Shortage."""

TYPE_NAMES: dict[str, str] = {
    "F": "Fuel",
    "I": "Iron",
    "C": "Clay",
    "L": "Limestone",
    "T": "Transportation",
    "O": "Other Industry",
}
BUILD_COST: dict[str, int] = {"normal": 5, "unskilled": 3, "skilled": 7}
"""BUILD PHASE: 'pay 5 coin ... Unskilled resources cost 3 coin. Skilled resources cost 7 coin.'"""


class CardSpec(Model):
    id: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=30)
    name: str = Field(min_length=1, max_length=40)
    count: int = Field(ge=1, le=10)
    type: CardType
    skill: Skill = "normal"
    revenue: int = Field(ge=0, le=10)
    product: str | None = None
    """What other cards' requirements call it ('Charcoal' for Charcoal Maker); defaults to the name."""
    requires: list[str] = Field(default_factory=list)
    tags: list[Tag] = Field(default_factory=list)
    cost: int | None = Field(default=None, ge=0)
    """A fixed build cost replacing the skill cost (the Iron Bridge's 20)."""
    award_vp: int = Field(default=0, ge=0)
    """A one-time award when the card is built (Patents 3, Iron Bridge 5)."""
    needs_in_play: list[str] = Field(default_factory=list)
    """Cards the builder must have in play to build this one (Iron Bridge: Wrought Iron Forge)."""
    note: str = ""

    @property
    def label(self) -> str:
        return self.product or self.name

    @property
    def base_cost(self) -> int:
        return self.cost if self.cost is not None else BUILD_COST[self.skill]


class CardFile(Model):
    source: str = ""
    cards: list[dict[str, object]]


class Catalogue:
    """The validated card list: specs by id in file order, and the full deck."""

    def __init__(self, cards: list[CardSpec]) -> None:
        self.cards: dict[str, CardSpec] = {card.id: card for card in cards}
        self.order: list[str] = [card.id for card in cards]

    def __getitem__(self, card_id: str) -> CardSpec:
        return self.cards[card_id]

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards

    def deck(self) -> list[str]:
        """Every copy of every card, in file order (shuffled by the game at setup)."""
        return [card_id for card_id in self.order for _ in range(self.cards[card_id].count)]

    def counts(self) -> dict[str, int]:
        return {card_id: self.cards[card_id].count for card_id in self.order}


def load_catalogue(directory: Traversable = DATA_DIR) -> Catalogue:
    """Read and check `cards.json` in `directory`; raise DataError naming file, card and field."""
    path = directory / CARDS_FILE
    document = datafiles.document(path, CardFile)
    cards = datafiles.entries(path, document.cards, CardSpec, "card", whole="card")
    ids = [card.id for card in cards]
    for index, card in enumerate(cards):
        who = datafiles.label("card", index, card)
        for field in ("requires", "needs_in_play"):
            for other in getattr(card, field):
                datafiles.require(other in ids, path, who, field, f"unknown card id {other!r}")
    return Catalogue(cards)


@functools.cache
def catalogue() -> Catalogue:
    """The project's card list, loaded once per process."""
    return load_catalogue()


@functools.cache
def rules_catalogue() -> Catalogue:
    """The same card list with every spec a read-only record (`rules.data.read_only`), for the rules'
    moves, menus, scoring and computer players: the same fields, values and properties (`label`,
    `base_cost`) as `catalogue()`, read several times faster than a pydantic model's. Views, the
    `/card` catalogue and the renderer keep the models."""
    cards = catalogue()
    return Catalogue([read_only(cards[card_id]) for card_id in cards.order])


__all__ = [
    "BUILD_COST",
    "DATA_DIR",
    "TYPE_NAMES",
    "CardSpec",
    "Catalogue",
    "DataError",
    "catalogue",
    "load_catalogue",
    "rules_catalogue",
]
