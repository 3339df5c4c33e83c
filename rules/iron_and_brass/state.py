"""State and actions of Iron & Brass, JSON round-trippable: the state as `Record` pydantic dataclasses (the
rules read its fields tens of thousands of times a game; see `rules.core.Record`), the actions as
pydantic models.

Squares are written as on the map: a column letter then a row number, "A1" being the bottom-left
corner of the first seat's base row. In the state a square is `[column, row]`, both from 0.
"""

from __future__ import annotations

from dataclasses import field
from typing import Annotated, Literal

from pydantic import Field
from pydantic.dataclasses import dataclass

from rules.core import FlatRecord, Model, Record, Rng, Seat

Step = Literal["play", "defend", "over"]
"""'play': the current player's actions; 'defend': the defender decides on Surge before the dice;
'over': the game has ended."""

COLUMNS = "ABCDEFGHIJKLMNOP"


def square_name(col: int, row: int) -> str:
    return f"{COLUMNS[col]}{row + 1}"


def parse_square(name: str, size: int) -> tuple[int, int] | None:
    """(column, row) of 'C5' on a board of `size`, or None when it is not a square of that board."""
    text = name.strip().upper()
    if len(text) < 2 or text[0] not in COLUMNS[:size] or not text[1:].isdigit():
        return None
    row = int(text[1:]) - 1
    if not 0 <= row < size:
        return None
    return COLUMNS.index(text[0]), row


@dataclass(kw_only=True)
class Piece(FlatRecord):
    """A structure or military unit standing on the map."""

    id: int
    kind: str
    owner: Seat
    col: int
    row: int
    disabled: bool = False
    moved: bool = False
    """Moved this turn (reset at the start of the owner's turn)."""
    attacked: bool = False
    """Attacked this turn (reset at the start of the owner's turn)."""


@dataclass(kw_only=True)
class Build(FlatRecord):
    """A commissioned structure or vehicle, or a unit in training: ready at its owner's next turn."""

    kind: str
    owner: Seat
    col: int
    row: int


@dataclass(kw_only=True)
class PlayerState(Record):
    name: str
    gold: int
    crew: int
    tokens: dict[str, int]
    """Advantage tokens left: spotter, surge, open_road, heal."""
    trained: dict[str, int] = field(default_factory=dict)
    """Military units ever trained or commissioned, by kind: destroyed units are not rebuilt."""
    mined: int = 0
    """Gold gained by mining so far."""
    spent: int = 0
    """Gold paid for builds so far."""


@dataclass(kw_only=True)
class Combat(Record):
    """An attack declared and waiting for the defender's Surge decision (or just resolved)."""

    attacker: Seat
    units: list[int]
    """Piece ids of the attacking unit (two for concentrated fire)."""
    target: int
    """Piece id of the defending piece."""
    attacker_surge: bool = False
    spotter: bool = False


@dataclass(kw_only=True)
class CombatRecord(Record):
    """The last combat, for the map's caption."""

    text: str
    attacker: Seat
    squares: list[str]
    target: str
    attack_dice: list[int]
    defence_dice: list[int]
    attack_sum: int
    defence_sum: int
    outcome: Literal["destroyed", "destroyed-two", "disabled", "no-damage"]


@dataclass(kw_only=True)
class IronAndBrassState(Record):
    size: int
    max_rounds: int
    players: list[PlayerState]
    rng: Rng
    first: Seat
    opening: str
    """The opening roll, as a sentence (setup has no events)."""
    pieces: list[Piece] = field(default_factory=list)
    builds: list[Build] = field(default_factory=list)
    next_id: int = 1
    gold_left: int
    """The shared Gold Mined marker: how many times gold may still be mined."""
    round: int = 1
    current: Seat
    actions_left: int
    concentrated: bool = False
    """Concentrated fire already used this turn."""
    step: Step = "play"
    picking: str | None = None
    """A choice in two steps held by the current player: 'build:<kind>' or 'aim:<piece id>'."""
    combat: Combat | None = None
    last_combat: CombatRecord | None = None
    winner: Seat | None = None
    reason: str = ""


# ---- actions ---------------------------------------------------------------------------------
class Mine(Model):
    kind: Literal["mine"] = "mine"


class Hire(Model):
    kind: Literal["hire"] = "hire"


class Pick(Model):
    """First step of a build: the item; the choice list then offers its squares."""

    kind: Literal["pick"] = "pick"
    item: str


class BuildAction(Model):
    """Commission a structure or vehicle, or train an infantry or artillery unit, on `square`."""

    kind: Literal["build"] = "build"
    item: str
    square: str = Field(max_length=4)


class Move(Model):
    kind: Literal["move"] = "move"
    unit: str = Field(max_length=4)
    to: str = Field(max_length=4)
    open_road: bool = False


class Attack(Model):
    kind: Literal["attack"] = "attack"
    unit: str = Field(max_length=4)
    target: str = Field(max_length=4)
    token: Literal["surge", "spotter"] | None = None


class Aim(Model):
    """First step of concentrated fire: the target; the choice list then offers the pairs of units."""

    kind: Literal["aim"] = "aim"
    target: str = Field(max_length=4)


class Concentrate(Model):
    kind: Literal["concentrate"] = "concentrate"
    units: list[str] = Field(min_length=2, max_length=2)
    target: str = Field(max_length=4)
    surge: bool = False


class Repair(Model):
    kind: Literal["repair"] = "repair"
    square: str = Field(max_length=4)


class Heal(Model):
    kind: Literal["heal"] = "heal"
    square: str = Field(max_length=4)


class Defend(Model):
    """The defender's answer before the dice: play a Surge token or not."""

    kind: Literal["defend"] = "defend"
    surge: bool


class Back(Model):
    kind: Literal["back"] = "back"


class EndTurn(Model):
    kind: Literal["end_turn"] = "end_turn"


Action = Annotated[
    Mine
    | Hire
    | Pick
    | BuildAction
    | Move
    | Attack
    | Aim
    | Concentrate
    | Repair
    | Heal
    | Defend
    | Back
    | EndTurn,
    Field(discriminator="kind"),
]
