"""City of Iron's game state and actions, JSON round-trippable: the state as `Record` pydantic dataclasses
(the rules read its fields tens of thousands of times a game; see `rules.core.Record`), the actions as
pydantic models.

Card instances are strings: a building is "<type>.<n>" ("turnip-farm.2"), a citizen or military
card "<type>.<seat><copy>" ("scholar.0a"), a town or land its data id, a Score card "score-A".
Draw piles list their top card first; discard piles list their top (latest) card last, so flipping
a discard pile into the draw pile keeps the list as it is (no shuffle, order unchanged).
"""

from __future__ import annotations

from dataclasses import field
from typing import Annotated, Any, Literal

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer
from pydantic.dataclasses import dataclass

from rules.core import Model, Record, Rng, Seat

Phase = Literal["nation", "arrange", "bid", "rebid", "actions", "snyle", "purchase", "over"]


@dataclass(kw_only=True)
class City(Record):
    id: str
    """Unique in the game: "<seat>-<n>"."""
    land: str
    token: str
    districts: list[str] = field(default_factory=list)
    buildings: list[str] = field(default_factory=list)


@dataclass(kw_only=True)
class Player(Record):
    name: str
    nation: str | None = None
    coins: int
    science: int = 0
    vp: int = 0
    actions_left: int = 0
    hand: list[str] = field(default_factory=list)
    citizen_draw: list[str] = field(default_factory=list)
    citizen_discard: list[str] = field(default_factory=list)
    military_draw: list[str] = field(default_factory=list)
    military_discard: list[str] = field(default_factory=list)
    unpurchased: list[str] = field(default_factory=list)
    selected: list[str] = field(default_factory=list)
    """Secret purchases chosen this End Round (still in `unpurchased` until revealed)."""
    done: bool = False
    """Arranged the starting decks / finished choosing purchases."""
    cities: list[City] = field(default_factory=list)
    towns: list[str] = field(default_factory=list)
    stored: list[str] = field(default_factory=list)
    snyle_good: str | None = None
    tokens: list[str] = field(default_factory=list)
    """City/District tokens not yet placed."""


@dataclass(kw_only=True)
class CityState(Record):
    players: list[Player]
    rng: Rng
    nations_mode: Literal["random", "pick"]
    abilities: bool
    expansion: bool
    stored_penalty: Literal["per_card", "per_two"]
    phase: Phase
    round: int = 1
    row: list[str | None]
    deck: list[str]
    discard: list[str] = field(default_factory=list)
    box: list[str] = field(default_factory=list)
    """Components out of this game (player-count removals, unused lands and towns)."""
    score_area: list[str] = field(default_factory=list)
    score_due: list[str] = field(default_factory=list)
    """Score cards drawn at the previous End Round: scored at the next one."""
    scorings: int = 0
    last_round: bool = False
    town_piles: dict[str, list[str]]
    expansion_row: list[str] = field(default_factory=list)
    expansion_deck: list[str] = field(default_factory=list)
    town_buildings: dict[str, list[str]] = field(default_factory=dict)
    """Buildings held by Metgra and Cazum: they follow the town when it is conquered."""
    lands: list[str]
    """Land boards still available to settle."""
    bid_order: list[Seat]
    """Left to right on the bid track."""
    track: list[Seat | None] = field(default_factory=list)
    """Turn-order track spaces, left to right; turn order runs right to left."""
    turn_order: list[Seat] = field(default_factory=list)
    current: Seat = 0
    """Who acts in a sequential step (nation pick, bid, rebid, actions, Snyle)."""
    bid_index: int = 0
    scored_now: bool = False
    """This End Round scored an A or B card (its Score card gives science)."""
    city_counter: int = 0
    ordering: bool = False
    """The current seat chose "Choose the discard order": its menu is its card actions and attacks in
    every order of their discards (and Back), until one is played. Left out of the JSON while False
    (`_without_default_order`)."""

    @model_serializer(mode="wrap")
    def _without_default_order(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """The snapshot as it was before the discard-order step (issue 41) whenever no seat is in it: a
        saved game's file checks its log against the hash of this JSON (`bot/app/archive.py`), so every
        position an older version saved still hashes the same; a snapshot without the key loads as
        False."""
        data: dict[str, Any] = handler(self)
        if not self.ordering:
            data.pop("ordering", None)
        return data


class PickNation(Model):
    kind: Literal["nation"] = "nation"
    nation: str


class Arrange(Model):
    kind: Literal["arrange"] = "arrange"
    citizen: list[str]
    """Card types of the starting citizen deck, top first."""
    military: list[str]


class Bid(Model):
    kind: Literal["bid"] = "bid"
    space: int = Field(ge=0)


class Rebid(Model):
    kind: Literal["rebid"] = "rebid"
    space: int | None = Field(default=None, ge=0)
    """None keeps the first bid."""


class Build(Model):
    kind: Literal["build"] = "build"
    card: str
    site: str
    """A city id or a town that holds buildings."""
    demolish: str | None = None


class Store(Model):
    kind: Literal["store"] = "store"
    card: str


class DrawCard(Model):
    kind: Literal["draw"] = "draw"
    deck: Literal["citizen", "military"]


class Tax(Model):
    kind: Literal["tax"] = "tax"


class BuyScience(Model):
    kind: Literal["science"] = "science"


class Attack(Model):
    kind: Literal["attack"] = "attack"
    town: str
    attackers: list[str]
    distance: list[str] = Field(default_factory=list)
    discard_order: list[str] | None = None
    """The attack's cards in the order they go down on their discard piles (each to its own pile);
    None: the attackers, then the distance cards, as listed (the order before issue 41)."""


class Play(Model):
    kind: Literal["play"] = "play"
    card: str
    payers: list[str] = Field(default_factory=list)
    """Cards paying the skills."""
    land: str | None = None
    city: str | None = None
    token: str | None = None
    discard_order: list[str] | None = None
    """The played card and its payers in the order they go down on their discard piles (each to its
    own pile); None: the played card, then the payers, as listed (the order before issue 41)."""


class ChooseOrder(Model):
    """The step before a card action or attack whose discards the seat puts down in its own order."""

    kind: Literal["order"] = "order"


class Back(Model):
    """Leave the discard-order step without playing."""

    kind: Literal["back"] = "back"


class MoveBuilding(Model):
    kind: Literal["move"] = "move"
    building: str
    site: str


class ChooseGood(Model):
    kind: Literal["snyle"] = "snyle"
    good: str


class Select(Model):
    kind: Literal["select"] = "select"
    card: str


class ClearSelection(Model):
    kind: Literal["clear"] = "clear"


class Done(Model):
    kind: Literal["done"] = "done"


Action = Annotated[
    PickNation
    | Arrange
    | Bid
    | Rebid
    | Build
    | Store
    | DrawCard
    | Tax
    | BuyScience
    | Attack
    | Play
    | ChooseOrder
    | Back
    | MoveBuilding
    | ChooseGood
    | Select
    | ClearSelection
    | Done,
    Field(discriminator="kind"),
]
