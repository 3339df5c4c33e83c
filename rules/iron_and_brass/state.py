"""State and actions of Iron & Brass, JSON round-trippable: the state as `Record` pydantic dataclasses (the
rules read its fields tens of thousands of times a game; see `rules.core.Record`), the actions as
pydantic models.

Squares are written as on the map: a column letter then a row number, "A1" being the bottom-left
corner of the first seat's base row. In the state a square is `[column, row]`, both from 0.
"""

from __future__ import annotations

from dataclasses import field
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator
from pydantic.dataclasses import dataclass

from rules.core import FlatRecord, Model, Record, Rng, Seat
from rules.iron_and_brass.data import TOKENS

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


OLD_MIX = 2
"""Before issue 41 each side was dealt a designed mix of advantage tokens, 2 of each of the four
advantages, and stored what was left of each kind (`tokens`). The text says each token may be played
for any of them; snapshots and saved files written then are read with this (`from_per_kind`,
`per_kind_form`)."""


def from_per_kind(data: Any) -> Any:
    """A side's fields (a `PlayerState`, or a view's `SeatView`) stored before issue 41, `tokens` left of
    each kind of the 2-of-each mix, as today's: `advantage_tokens` their sum (every token left stays
    playable, now for any advantage) and `played` what is missing of each kind. Anything else is
    returned as it is."""
    if not isinstance(data, dict) or not isinstance(data.get("tokens"), dict) or "advantage_tokens" in data:
        return data
    tokens = data["tokens"]
    fields = {key: value for key, value in data.items() if key != "tokens"}
    played = {kind: OLD_MIX - tokens.get(kind, OLD_MIX) for kind in TOKENS}
    return {**fields, "advantage_tokens": sum(tokens.values()), "played": played}


@dataclass(kw_only=True)
class PlayerState(Record):
    name: str
    gold: int
    crew: int
    advantage_tokens: int
    """Advantage tokens left. 'Each of these tokens may be used once per game combined with a normal
    action ... for any 1 of the actions listed on the token': one count, whatever each is played for."""
    played: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TOKENS, 0))
    """Advantage tokens played so far, by the advantage they were played for, every advantage of `TOKENS`
    in its order ('surge': 3): public (the log tells each one); `per_kind_form` reads it to write a
    position as the rules did before issue 41."""
    trained: dict[str, int] = field(default_factory=dict)
    """Military units ever trained or commissioned, by kind: destroyed units are not rebuilt."""
    mined: int = 0
    """Gold gained by mining so far."""
    spent: int = 0
    """Gold paid for builds so far."""

    @model_validator(mode="before")
    @classmethod
    def _stored_per_kind(cls, data: Any) -> Any:
        """A snapshot stored before issue 41 (`tokens`: left of each kind) loads as the same position
        under today's rule: the tokens left counted together (`from_per_kind`)."""
        return from_per_kind(data)


def per_kind_form(data: dict[str, Any]) -> dict[str, Any] | None:
    """A state's JSON (`Game.dump_state`, parsed) as the rules wrote it before issue 41, each side's
    `tokens` left of each kind of the 2-of-each mix in place of `advantage_tokens` and `played`; None for
    a position that could not arise then (an advantage played more than twice). Files saved then carry
    the hash of that text (`Game.earlier_dumps`)."""
    players = []
    for player in data["players"]:
        played = player["played"]
        if any(count > OLD_MIX for count in played.values()):
            return None
        old: dict[str, Any] = {}
        for key, value in player.items():
            if key == "advantage_tokens":
                old["tokens"] = {kind: OLD_MIX - played[kind] for kind in TOKENS}
            elif key != "played":
                old[key] = value
        players.append(old)
    return {**data, "players": players}


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


Outcome = Literal["destroyed", "destroyed-two", "disabled", "no-damage"]
"""How a combat ended for its target (ATTACKING 3)."""


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
    outcome: Outcome


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
    """The defender's answer before the dice: play an advantage token for Surge or not."""

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
