"""State and actions of City Heroes, JSON round-trippable: the state as `Record` pydantic dataclasses (the rules
read its fields tens of thousands of times a game; see `rules.core.Record`), the actions as pydantic
models."""

from __future__ import annotations

from dataclasses import field
from typing import Annotated, Any, Literal

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer
from pydantic.dataclasses import dataclass

from rules import trade
from rules.core import FlatRecord, Model, Record, Rng, Seat, copied
from rules.trade import Accept, Cancel, Decline

__all__ = ["Accept", "Cancel", "Decline"]  # the shared answers, in this game's action union

Phase = Literal["expansion", "construction", "interaction", "over"]
PHASES: tuple[Phase, ...] = ("expansion", "construction", "interaction")
Terrain = Literal["hill", "plain"]
ActionKind = Literal["buy", "garrison", "plant", "build", "upgrade", "works", "craft", "trade", "pillage"]


@dataclass(kw_only=True)
class Tile(FlatRecord):
    id: int
    """1-based: T1, T2, ..."""
    q: int
    r: int
    terrain: Terrain
    resource: str | None = None
    owner: Seat | None = None
    house: str | None = None
    """The House upgrade track (House, Tenement, Apartment, ...): every bought tile has one."""
    building: str | None = None
    """Any other building (one per tile, never together with a public work)."""
    mode: str | None = None
    """What a production building makes (its `produces` mode)."""
    work: str | None = None
    stages: int = 0
    """Stages of the public work built after its foundation."""
    garrison: int = 0
    """Weapons of the owner ready to attack or defend."""
    spent: int = 0
    """Weapons that attacked this turn: flipped, they neither pillage nor defend until the Cleanup."""
    pillaged: bool = False


@dataclass(kw_only=True)
class PlayerState(Record):
    name: str
    stock: dict[str, int]
    ducats: int
    influence: int = 0
    ready: int
    busy: int = 0
    idle: int = 0
    workers: int
    """Workers in all pools (checked against ready + busy + idle)."""
    pillage_tokens: int = 0
    bought: int = 0
    """Tiles bought this turn."""
    passed: bool = False
    tokens: dict[str, int] = field(default_factory=dict)
    """Exchange token positions: rival row id -> steps right; 'sales'/'purchase' -> prestige steps down."""
    rate_moves: int = 0
    """Market token moves earned and not yet made."""
    prestige_moves: int = 0
    """Festival Grounds token moves earned and not yet made."""
    exchanged: dict[str, int] = field(default_factory=dict)
    """Lots exchanged with the rival this phase, by row."""

    def _fields_copy(self) -> dict[str, Any]:
        values = self.__dict__.copy()  # scalars and flat dicts
        values["stock"] = values["stock"].copy()
        values["tokens"] = values["tokens"].copy()
        values["exchanged"] = values["exchanged"].copy()
        return values


class Proposal(trade.Proposal[dict[str, int]]):
    """An open offer between two players (rules/trade.py): resources and ducats, by name."""


@dataclass(kw_only=True)
class Raid(Record):
    """A pillage waiting for the attacker's loot and casualty choices."""

    attacker: Seat
    defender: Seat
    tile: int
    loot: int
    casualties: int
    committed: dict[int, int]
    # What the defender lost, kept for their summary when the raid ends ('In a network game, the player
    # whose tile is pillaged will receive a summary of what was looted and how many defenders were lost').
    taken: dict[str, int] = field(default_factory=dict)
    defenders_lost: int = 0
    influence_lost: int = 0
    tokens_lost: int = 0


@dataclass(kw_only=True)
class CityHeroesState(Record):
    players: list[PlayerState]
    rng: Rng
    tiles: list[Tile]
    radius: int
    turns: int
    turn: int = 1
    phase: Phase = "expansion"
    current: Seat = 0
    turns_begun: int = 0
    """Player turns begun so far: tells one turn from the next, also when a solo player follows themself."""
    acted: ActionKind | None = None
    """The phase action the current player has started this turn (None: not yet)."""
    round_used: bool = False
    """The current player took a round action this turn (with `alongside`: one that no trade offer has
    gone with yet; an action in progress is `acted`)."""
    alongside: bool = False
    """Round actions only alongside a phase action of the same turn, never alone (the lobby's
    `round_actions` option, "with_phase_action", issue 41). False in the games created before it, whose
    snapshots lack the field: they keep the earlier rule (alone, then a pass, when no phase action was
    possible), and their JSON leaves it out so that it stays what it was (`_without_old_rule`)."""
    first_passer: Seat | None = None
    bank: dict[str, int]
    bank_ducats: int
    prestige: int = 0
    rival_prestige: int
    unique_built: list[str] = field(default_factory=list)
    """Level 3 buildings that exist (only one each in the game)."""
    works_placed: list[str] = field(default_factory=list)
    outside: dict[str, int] = field(default_factory=dict)
    """Net resources that left the game (lost weapons, sales to the rival minus purchases)."""
    outside_ducats: int = 0
    """Net ducats the rival city paid in (negative: it received more than it paid)."""
    proposal: Proposal | None = None
    raid: Raid | None = None
    log_pillaged: list[int] = field(default_factory=list)
    """Tiles pillaged this turn, in order."""

    def _fields_copy(self) -> dict[str, Any]:
        values = self.__dict__.copy()  # the fields' order is kept: it is the JSON's
        for key, value in values.items():
            values[key] = _flat_copies(value) if key == "tiles" else copied(value)
        return values

    @model_serializer(mode="wrap")
    def _without_old_rule(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """The JSON without `alongside` when it is False: a game created before the field existed dumps,
        and hashes, exactly as it did (an exported file's position, the stored snapshot a replay must
        reach)."""
        data: dict[str, Any] = handler(self)
        if not data["alongside"]:
            del data["alongside"]
        return data


def _flat_copies(tiles: list[Tile]) -> list[Tile]:
    """Copies of the map's tiles (flat records: a copy of each `__dict__`), without the generic path's
    per-value dispatch: the map is most of the state."""
    return [tile._clone(tile.__dict__.copy()) for tile in tiles]


# ---- actions ---------------------------------------------------------------------------------
class Buy(Model):
    kind: Literal["buy"] = "buy"
    tile: int


class Pass(Model):
    kind: Literal["pass"] = "pass"


class EndAction(Model):
    """Finish the phase action in progress; `and_pass` also passes for the rest of the phase."""

    kind: Literal["end"] = "end"
    and_pass: bool = False


class Garrison(Model):
    """The new layout of your ready weapons on your tiles (tile id -> weapons); the rest go to supply."""

    kind: Literal["garrison"] = "garrison"
    layout: dict[int, int]


class Plant(Model):
    kind: Literal["plant"] = "plant"
    tile: int
    resource: Literal["wheat", "timber"]


class BuildAction(Model):
    kind: Literal["build"] = "build"
    tile: int
    building: str


class Upgrade(Model):
    kind: Literal["upgrade"] = "upgrade"
    tile: int
    building: str


class Found(Model):
    """Place a public work's foundation."""

    kind: Literal["found"] = "found"
    tile: int
    work: str


class Stage(Model):
    kind: Literal["stage"] = "stage"
    tile: int


class Craft(Model):
    kind: Literal["craft"] = "craft"
    good: Literal["planks", "scaffolds", "sculptures", "jewellery"]
    count: int = Field(ge=1, le=50)


class Produce(Model):
    """Free: choose what a production building makes at the Cleanup."""

    kind: Literal["produce"] = "produce"
    tile: int
    mode: str


class Token(Model):
    """Free: move an exchange token (a rival row right with a Market, 'sales'/'purchase' down with a
    Festival Grounds)."""

    kind: Literal["token"] = "token"
    row: str


class BankTrade(Model):
    """Round action: buy from or sell to the bank."""

    kind: Literal["bank"] = "bank"
    resource: str
    count: int = Field(ge=1, le=100)
    sell: bool


class RivalTrade(Model):
    """Round action: exchange lots with the rival city on row `row` ('sell-iron', 'buy-wheat', ...)."""

    kind: Literal["rival"] = "rival"
    row: str
    lots: int = Field(default=1, ge=1, le=20)


class InfluenceTrade(Model):
    """Round action: sell influence for 1 ducat each, or buy it for 2."""

    kind: Literal["influence"] = "influence"
    amount: int = Field(ge=1, le=1000)
    sell: bool


class Propose(Model):
    kind: Literal["propose"] = "propose"
    partner: Seat
    give: dict[str, int] = Field(default_factory=dict)
    get: dict[str, int] = Field(default_factory=dict)


class Pillage(Model):
    """Attack `tile` with weapons from your adjacent garrisons (tile id -> weapons committed)."""

    kind: Literal["pillage"] = "pillage"
    tile: int
    weapons: dict[int, int]


class Loot(Model):
    kind: Literal["loot"] = "loot"
    resource: str


class Casualty(Model):
    kind: Literal["casualty"] = "casualty"
    tile: int


Action = Annotated[
    Buy
    | Pass
    | EndAction
    | Garrison
    | Plant
    | BuildAction
    | Upgrade
    | Found
    | Stage
    | Craft
    | Produce
    | Token
    | BankTrade
    | RivalTrade
    | InfluenceTrade
    | Propose
    | Accept
    | Decline
    | Cancel
    | Pillage
    | Loot
    | Casualty,
    Field(discriminator="kind"),
]
