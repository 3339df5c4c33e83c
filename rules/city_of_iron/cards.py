"""City of Iron's card and board data: pydantic models and the loader for `data/city_of_iron/*.json`.

The rule texts give names and a few numbers only; the rest is designed (see data/city_of_iron/README.md).
Every file is validated on load, card by card, so a bad value fails with the file, the card and the
field named. Card actions are data in a small vocabulary the engine interprets (`CardAction`).
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from rules import data as datafiles

DATA_DIR = datafiles.game_folder("city_of_iron")

LandType = Literal["grass", "forest", "mountain", "coast", "desert", "jungle", "flying_island"]
DeckLetter = Literal["A", "B", "C"]
NationId = Literal["arc", "cresaria", "republic", "om"]
CardDeck = Literal["citizen", "military"]


class DataError(ValueError):
    """A data file is wrong; the message names the file, the card and the field."""


class Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Good(Data):
    id: str
    name: str
    vp_first: int = Field(ge=0)
    vp_second: int = Field(ge=0)
    coin_bonus: int = Field(ge=0)
    """Coins at income for the player(s) with the most of this good."""
    shield: int = Field(ge=1)
    """Having at least this many scores +1 VP at every scoring, whatever the place."""
    designed: bool = True


class BuildingType(Data):
    id: str
    name: str
    deck: DeckLetter
    coins: int = Field(ge=0)
    science: int = Field(default=0, ge=0)
    land: LandType | None = None
    goods: dict[str, int] = Field(default_factory=dict)
    income: int = Field(default=0, ge=0)
    """Extra coins at every income, besides the 1 coin of a goods-producing card."""
    science_income: int = Field(default=0, ge=0)
    draws_citizen: int = Field(default=0, ge=0)
    draws_military: int = Field(default=0, ge=0)
    capacity: int = Field(default=0, ge=0)
    """Extra building spaces this building gives the city it stands in."""
    vp_bonus: int = Field(default=0, ge=0)
    """The "+3" C-deck buildings: VP at scoring when the owner is 1st or 2nd on the building's good."""
    eyes: int = Field(default=0, ge=0)
    """Each eye lets the owner reach one card deeper into a neutral town pile when attacking."""
    copies: list[Literal[None, 2, 3]] = Field(min_length=1)
    """One entry per physical card: its player-count mark (None, 2 or 3)."""
    text: str = ""
    designed: bool = True

    @model_validator(mode="after")
    def _goods_positive(self) -> BuildingType:
        for good, amount in self.goods.items():
            if amount <= 0:
                raise ValueError(f"goods[{good}] must be positive")
        if self.goods and self.land is None:
            raise ValueError("a goods-producing building needs a land type")
        if self.vp_bonus and len(self.goods) != 1:
            raise ValueError("a +VP building must produce exactly one good")
        return self

    @property
    def produces_goods(self) -> bool:
        return bool(self.goods)


class TownType(Data):
    id: str
    name: str
    stars: Literal[0, 1, 2, 3]
    """0 = the no-star expansion towns."""
    goods: dict[str, int] = Field(default_factory=dict)
    defense: int = Field(ge=0)
    """Defence on the unconquered side; the conquered side adds the board's owned-town bonus."""
    distance: int = Field(ge=0)
    coins: int = Field(default=0, ge=0)
    science_income: int = Field(default=0, ge=0)
    draws_citizen: int = Field(default=0, ge=0)
    draws_military: int = Field(default=0, ge=0)
    capacity: int = Field(default=0, ge=0)
    """Metgra and Cazum hold buildings like a city."""
    lands: list[LandType] = Field(default_factory=list)
    counts_as: int = Field(default=1, ge=1)
    """Towns counted for the end-game "most conquered towns" bonus (Dar Embe counts 3)."""
    choose_good: int = Field(default=0, ge=0)
    """Snyle: this many of one good the owner already has, chosen at each End Round."""
    text: str = ""
    designed: bool = True

    @property
    def produces_goods(self) -> bool:
        return bool(self.goods)


class Land(Data):
    id: str
    name: str
    distance: int = Field(ge=0)
    lands: list[LandType] = Field(min_length=1)
    requires: Literal["ship", "airship"] | None = None
    start: bool = False
    two_player: bool = True
    """False for the boards marked "2", put in the box in a 2-player game."""
    designed: bool = True


class CardAction(Data):
    """What a citizen or military card's action does, in the engine's vocabulary."""

    kind: Literal["gain", "settle", "district"]
    """gain: the listed gains; settle: a new city on a land; district: a district on one of your cities."""
    free: bool = False
    work: int = Field(default=0, ge=0)
    """Work skills (hammers) other cards must pay."""
    distance: int = Field(default=0, ge=0)
    """Distance skills other cards must pay (besides a settled land's or attacked town's distance)."""
    pay_coins: int = Field(default=0, ge=0)
    coins: int = Field(default=0, ge=0)
    coins_per_town: int = Field(default=0, ge=0)
    science: int = Field(default=0, ge=0)
    draw_citizen: int = Field(default=0, ge=0)
    draw_military: int = Field(default=0, ge=0)
    text: str = ""


class PlayerCard(Data):
    id: str
    name: str
    deck: CardDeck
    nation: NationId | None = None
    """Set for the nations' special cards, used only with special abilities on."""
    coins: int = Field(default=0, ge=0)
    science: int = Field(default=0, ge=0)
    work: int = Field(default=0, ge=0)
    distance: int = Field(default=0, ge=0)
    attack: int = Field(default=0, ge=0)
    ship: bool = False
    airship: bool = False
    copies: int = Field(default=1, ge=1)
    action: CardAction | None = None
    designed: bool = True

    @model_validator(mode="after")
    def _attack_is_military(self) -> PlayerCard:
        if self.attack and self.deck != "military":
            raise ValueError("only military cards have an attack value")
        return self


class Nation(Data):
    id: NationId
    name: str
    letter: str
    ability: str
    start_citizen: list[str] = Field(min_length=1)
    """Starting citizen deck with special abilities on (without them the board's standard deck is used)."""
    start_military: list[str] = Field(min_length=1)
    add_unpurchased: list[str] = Field(default_factory=list)
    district_bonus: dict[CardDeck, int] = Field(default_factory=dict)
    """Extra spaces on this nation's districts by draw type (Arc: military districts +1 more)."""
    move_building_cost: int | None = None
    """Arc: a free action moving a building between cities for this many coins."""
    action_overrides: dict[str, dict[str, int]] = Field(default_factory=dict)
    """Card id -> CardAction field -> value (Cresarians: Scholar pays 0 coins)."""
    second_bid: bool = False


class Token(Data):
    id: str
    city: int = Field(ge=1)
    city_draws: CardDeck
    district: int = Field(ge=1)
    district_draws: CardDeck
    start: bool = False


class Board(Data):
    designed_note: str = ""
    starting_coins: int = Field(ge=0)
    base_income: int = Field(ge=0)
    actions_per_round: int = Field(ge=1)
    science_price: int = Field(ge=1)
    discard_per_round: int = Field(ge=0)
    row_slots: dict[int, int]
    bid_costs: dict[int, list[int]]
    """Player count -> cost of each turn-order space, left to right; turn order runs right to left."""
    owned_town_defense: int = Field(ge=0)
    expansion_row: int = Field(ge=1)
    tokens: list[Token]
    start_citizen: list[str]
    start_military: list[str]
    starting_hand: int = Field(ge=0)
    score_cards: dict[DeckLetter, str]
    score_science: dict[DeckLetter, int]
    end_bonus: dict[Literal["coins", "distance", "one_good", "cards", "towns"], int]

    @model_validator(mode="after")
    def _counts(self) -> Board:
        for players in (2, 3, 4):
            if players not in self.row_slots:
                raise ValueError(f"row_slots needs {players} players")
            costs = self.bid_costs.get(players)
            if costs is None or len(costs) < players:
                raise ValueError(f"bid_costs for {players} players needs at least {players} spaces")
        if sum(1 for token in self.tokens if token.start) != 1:
            raise ValueError("exactly one token must be the starting city")
        return self


class GameData(Data):
    goods: dict[str, Good]
    buildings: dict[str, BuildingType]
    towns: dict[str, TownType]
    lands: dict[str, Land]
    cards: dict[str, PlayerCard]
    nations: dict[str, Nation]
    board: Board


# ---- loading -----------------------------------------------------------------------------------


def _read(directory: Path, name: str) -> dict[str, Any]:
    path = directory / name
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(f"{name}: file missing in {directory}") from None
    except json.JSONDecodeError as error:
        raise DataError(f"{name}: not valid JSON ({error})") from None
    if not isinstance(raw, dict):
        raise DataError(f"{name}: the top level must be an object")
    return raw


def _explain(name: str, card: str, error: ValidationError) -> DataError:
    first = error.errors()[0]
    field = ".".join(str(part) for part in first.get("loc", ())) or "(card)"
    return DataError(f"{name}: card {card!r}: field {field!r}: {first.get('msg', 'invalid')}")


def _items(name: str, raw: dict[str, Any], key: str, model: type[Data]) -> dict[str, Any]:
    entries = raw.get(key)
    if not isinstance(entries, list):
        raise DataError(f"{name}: field {key!r} must be a list of cards")
    out: dict[str, Any] = {}
    for index, entry in enumerate(entries):
        label = entry.get("id", f"#{index}") if isinstance(entry, dict) else f"#{index}"
        try:
            item = model.model_validate(entry)
        except ValidationError as error:
            raise _explain(name, str(label), error) from None
        if item.id in out:  # type: ignore[attr-defined]
            raise DataError(f"{name}: card {label!r}: field 'id': duplicate id")
        out[item.id] = item  # type: ignore[attr-defined]
    return out


def load_data(directory: Traversable = DATA_DIR) -> GameData:
    """Read and check every data file; raises DataError naming the file, card and field."""
    goods = _items("goods.json", _read(directory, "goods.json"), "goods", Good)
    buildings = _items("buildings.json", _read(directory, "buildings.json"), "buildings", BuildingType)
    towns = _items("towns.json", _read(directory, "towns.json"), "towns", TownType)
    lands = _items("lands.json", _read(directory, "lands.json"), "lands", Land)
    cards = _items("cards.json", _read(directory, "cards.json"), "cards", PlayerCard)
    nations = _items("nations.json", _read(directory, "nations.json"), "nations", Nation)
    board_raw = _read(directory, "board.json")
    board_raw = {key: value for key, value in board_raw.items() if key not in {"designed", "source"}}
    try:
        board = Board.model_validate(board_raw)
    except ValidationError as error:
        raise _explain("board.json", "board", error) from None

    def check(name: str, card: str, field: str, ok: bool, why: str) -> None:
        if not ok:
            raise DataError(f"{name}: card {card!r}: field {field!r}: {why}")

    for building in buildings.values():
        for good in building.goods:
            check("buildings.json", building.id, "goods", good in goods, f"unknown good {good!r}")
    for town in towns.values():
        for good in town.goods:
            check("towns.json", town.id, "goods", good in goods, f"unknown good {good!r}")
    for nation in nations.values():
        for field in ("start_citizen", "start_military", "add_unpurchased"):
            for card_id in getattr(nation, field):
                check("nations.json", nation.id, field, card_id in cards, f"unknown card {card_id!r}")
        for card_id in nation.action_overrides:
            check(
                "nations.json", nation.id, "action_overrides", card_id in cards, f"unknown card {card_id!r}"
            )
    for field in ("start_citizen", "start_military"):
        for card_id in getattr(board, field):
            check("board.json", "board", field, card_id in cards, f"unknown card {card_id!r}")
    for card in cards.values():
        check(
            "cards.json", card.id, "nation", card.nation is None or card.nation in nations, "unknown nation"
        )
    for letter in ("A", "B", "C"):
        check("board.json", "board", "score_cards", letter in board.score_cards, f"missing deck {letter}")
    return GameData(
        goods=goods, buildings=buildings, towns=towns, lands=lands, cards=cards, nations=nations, board=board
    )


@cache
def game_data() -> GameData:
    """The shipped data, read once per process."""
    return load_data()
