"""City of Iron's card and board data: pydantic models and the loader for `data/city_of_iron/*.json`.

The rule texts give names and a few numbers only; the rest is designed (see data/city_of_iron/README.md).
Every file is validated on load, entry by entry, through the shared loader (`rules.data`), so a bad
value fails with the file, the entry and the field named. Card actions are data in a small vocabulary
the engine interprets (`CardAction`).
"""

from __future__ import annotations

import operator
from functools import cache
from importlib.resources.abc import Traversable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules import data as datafiles
from rules.data import DataError, document, entries, label, read_json, read_only, require

DATA_DIR = datafiles.game_folder("city_of_iron")

LandType = Literal["grass", "forest", "mountain", "coast", "desert", "jungle", "flying_island"]
DeckLetter = Literal["A", "B", "C"]
EndBonus = Literal["coins", "distance", "one_good", "cards", "towns"]
_LETTERS: dict[str, DeckLetter] = {"A": "A", "B": "B", "C": "C"}


def deck_letter(card_id: str) -> DeckLetter:
    """The deck of a Score card instance, named by its last letter ("score-B" is a B card)."""
    return _LETTERS[card_id[-1]]


NationId = Literal["arc", "cresaria", "republic", "om"]
CardDeck = Literal["citizen", "military"]


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
    end_bonus: dict[EndBonus, int]

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

FILES: dict[str, tuple[str, type[Data], str]] = {
    "goods": ("goods.json", Good, "good"),
    "buildings": ("buildings.json", BuildingType, "building"),
    "towns": ("towns.json", TownType, "town"),
    "lands": ("lands.json", Land, "land"),
    "cards": ("cards.json", PlayerCard, "card"),
    "nations": ("nations.json", Nation, "nation"),
}
"""GameData field -> its file, the model of one entry and how an entry is named in a message."""


def _object(path: Traversable) -> dict[str, Any]:
    raw = read_json(path)
    require(isinstance(raw, dict), path, None, "file", "the top level must be an object")
    return raw


def _entries(directory: Traversable, key: str) -> dict[str, Any]:
    name, model, kind = FILES[key]
    path = directory / name
    raw = _object(path).get(key)
    require(isinstance(raw, list), path, None, key, "must be a list")
    assert isinstance(raw, list), "require() raised otherwise"
    by_id = operator.attrgetter("id")  # every model of FILES has one; entries() checked it is unique
    return {by_id(item): item for item in entries(path, raw, model, kind)}


def _known(
    directory: Traversable, key: str, items: dict[str, Any], field: str, known: dict[str, Any], what: str
) -> None:
    """Every id an entry lists in `field` (a list, a dict's keys or one optional id) is a `known` one."""
    name, _, kind = FILES[key]
    for index, item in enumerate(items.values()):
        value = getattr(item, field)
        ids = [] if value is None else [value] if isinstance(value, str) else list(value)
        for other in ids:
            require(
                other in known, directory / name, label(kind, index, item), field, f"unknown {what} {other!r}"
            )


def _check_start_decks(directory: Traversable, board: Board, cards: dict[str, PlayerCard]) -> None:
    path = directory / "board.json"
    for field in ("start_citizen", "start_military"):
        for card_id in getattr(board, field):
            require(card_id in cards, path, None, field, f"unknown card {card_id!r}")


def load_data(directory: Traversable = DATA_DIR) -> GameData:
    """Read and check every data file; raises DataError naming the file, the entry and the field."""
    found = {key: _entries(directory, key) for key in FILES}
    board_raw = _object(directory / "board.json")
    board_raw = {key: value for key, value in board_raw.items() if key not in {"designed", "source"}}
    board = document(directory / "board.json", Board, board_raw)
    goods, cards, nations = found["goods"], found["cards"], found["nations"]
    _known(directory, "buildings", found["buildings"], "goods", goods, "good")
    _known(directory, "towns", found["towns"], "goods", goods, "good")
    for field in ("start_citizen", "start_military", "add_unpurchased", "action_overrides"):
        _known(directory, "nations", nations, field, cards, "card")
    _check_start_decks(directory, board, cards)
    _known(directory, "cards", cards, "nation", nations, "nation")
    for letter in ("A", "B", "C"):
        require(
            letter in board.score_cards,
            directory / "board.json",
            None,
            "score_cards",
            f"missing deck {letter}",
        )
    return GameData(board=board, **found)


@cache
def game_data() -> GameData:
    """The shipped data, read once per process."""
    return load_data()


@cache
def rules_data() -> GameData:
    """The shipped data as read-only records (`rules.data.read_only`) for the rules' moves, menus and
    computer players: the same fields, values and properties as `game_data()`, without pydantic's
    methods, and read several times faster. Views, the catalogue and the renderer keep the models."""
    return read_only(game_data())


__all__ = [
    "DATA_DIR",
    "Board",
    "BuildingType",
    "CardAction",
    "DataError",
    "GameData",
    "Good",
    "Land",
    "Nation",
    "PlayerCard",
    "Token",
    "TownType",
    "game_data",
    "load_data",
    "rules_data",
]
