"""The Iron & Brass piece table, read once from `data/iron_and_brass/pieces.json` and validated.

The rule text's stat tokens were pictures; the project designed them (see the data README) and
writes each piece in the text's own token notation, which is the single source of its numbers:

    "7 C | F S | 4A / 2R 3M 5D"
     |   |      Attack modifier 4, attack Range 2, Movement 2, Defence 5
     |   +-- buildings required first: Foundry, Arsenal, Steam Works (or "-")
     +-- cost: 7 gold, "C" = plus one Crew (structures and vehicles)
"""

from __future__ import annotations

import functools
import re
from importlib.resources.abc import Traversable
from typing import Literal

from pydantic import Field, field_validator, model_validator

from rules import data as datafiles
from rules.core import Model
from rules.data import DataError, read_only

DATA_DIR = datafiles.game_folder("iron_and_brass")
PIECES_FILE = "pieces.json"

Category = Literal["infantry", "artillery", "vehicle", "structure"]
Token = Literal["spotter", "surge", "open_road", "heal"]
TOKENS: tuple[Token, ...] = ("spotter", "surge", "open_road", "heal")
"""The four advantages listed on every advantage token: 'Each of these tokens may be used once per game
... for any 1 of the actions listed on the token'."""
TOKEN_NAMES: dict[str, str] = {
    "spotter": "Spotter",
    "surge": "Surge",
    "open_road": "Open Road",
    "heal": "Heal",
}
PREREQUISITES = {"F": "foundry", "A": "arsenal", "S": "steam-works"}
"""The token's prerequisite letters: Foundry, Arsenal, Steam Works."""
FACTORY = {"infantry": "barracks", "artillery": "arsenal", "vehicle": "steam-works"}
"""Where new units are placed: 'adjacent (or as close as possible) to' this structure."""

TOKEN_PATTERN = re.compile(
    r"^(?P<gold>\d+)(?P<crew> C)? \| (?P<requires>-|[FAS]( [FAS])*) \| "
    r"(?P<attack>\d+)A / (?P<range>\d+)R (?P<move>\d+)M (?P<defence>\d+)D$"
)


class SetupSpec(Model):
    gold: int = Field(ge=0, le=100)
    crew: int = Field(ge=0, le=100)
    gold_mined: int = Field(ge=0, le=500)
    actions: int = Field(ge=1, le=10)
    advantage_tokens: int = Field(ge=0, le=16)
    """Advantage tokens per player (the text: 8). Each may be played once for any of the four
    advantages (`TOKENS`), so one count, not a mix of kinds."""


class PieceSpec(Model):
    id: str = Field(pattern=r"^[a-z]+(-[a-z]+)*$", max_length=30)
    name: str = Field(min_length=1, max_length=40)
    code: str = Field(pattern=r"^[A-Z]{2}$")
    category: Category
    count: int = Field(ge=1, le=8)
    token: str
    designed: bool = False
    buildable: bool = True
    upgrades: str | None = None
    """A structure built on the square of this one, replacing it (Fortress: the Headquarters)."""
    note: str = ""
    # Read from the token:
    gold: int = 0
    crew: int = 0
    requires: list[str] = Field(default_factory=list)
    attack: int = 0
    range: int = 0
    move: int = 0
    defence: int = 0

    @model_validator(mode="before")
    @classmethod
    def _read_token(cls, raw: object) -> object:
        if not isinstance(raw, dict):
            return raw
        for field in ("gold", "crew", "requires", "attack", "range", "move", "defence"):
            if field in raw:
                raise ValueError(f"{field} is written in the token, not as a field")
        token = raw.get("token")
        if not isinstance(token, str):
            return raw
        match = TOKEN_PATTERN.match(token)
        if match is None:
            return raw  # the token validator names the problem
        letters = [] if match["requires"] == "-" else match["requires"].split()
        return {
            **raw,
            "gold": int(match["gold"]),
            "crew": 1 if match["crew"] else 0,
            "requires": [PREREQUISITES[letter] for letter in letters],
            "attack": int(match["attack"]),
            "range": int(match["range"]),
            "move": int(match["move"]),
            "defence": int(match["defence"]),
        }

    @field_validator("token")
    @classmethod
    def _token_format(cls, token: str) -> str:
        if not TOKEN_PATTERN.match(token):
            raise ValueError(
                "write the token as in the text, e.g. '7 C | F S | 4A / 2R 3M 5D' "
                "(gold, ' C' for one crew, prerequisites F A S or '-', attack/range/move/defence)"
            )
        return token

    @model_validator(mode="after")
    def _consistent(self) -> PieceSpec:
        if self.category in ("structure", "vehicle") and self.crew != 1:
            raise ValueError("structures and vehicles cost gold plus one crew ('C' in the token)")
        if self.category in ("infantry", "artillery") and self.crew:
            raise ValueError("trained units cost gold only (no 'C' in the token)")
        if self.category == "structure" and self.move:
            raise ValueError("structures do not move (0M)")
        if self.category != "structure" and self.move < 1:
            raise ValueError("units move at least 1 square")
        if (self.attack == 0) != (self.range == 0):
            raise ValueError("a piece that attacks needs a range, and one with a range an attack")
        return self

    @property
    def military(self) -> bool:
        return self.category != "structure"


class PieceFile(Model):
    source: str = ""
    setup: SetupSpec
    pieces: list[dict[str, object]]


class Catalogue:
    """The validated pieces by id, in file order, and the setup numbers."""

    def __init__(self, setup: SetupSpec, pieces: list[PieceSpec]) -> None:
        self.setup = setup
        self.pieces: dict[str, PieceSpec] = {piece.id: piece for piece in pieces}
        self.order: list[str] = [piece.id for piece in pieces]

    def __getitem__(self, piece_id: str) -> PieceSpec:
        return self.pieces[piece_id]

    def __contains__(self, piece_id: object) -> bool:
        return piece_id in self.pieces


REQUIRED = ("headquarters", "barracks", "foundry", "arsenal", "steam-works")
"""Pieces the engine names directly: the file must have them."""


def load_catalogue(directory: Traversable = DATA_DIR) -> Catalogue:
    """Read and check `pieces.json` in `directory`; raise DataError naming file, entry and field."""
    path = directory / PIECES_FILE
    document = datafiles.document(path, PieceFile)
    pieces = datafiles.entries(path, document.pieces, PieceSpec, "piece", whole="token")
    ids = [piece.id for piece in pieces]
    codes = [piece.code for piece in pieces]
    for index, piece in enumerate(pieces):
        who = datafiles.label("piece", index, piece)
        datafiles.require(
            codes.index(piece.code) == index, path, who, "code", f"{piece.code!r} is used twice"
        )
        datafiles.require(
            piece.upgrades is None or piece.upgrades in ids,
            path,
            who,
            "upgrades",
            f"unknown piece id {piece.upgrades!r}",
        )
    for needed in REQUIRED:
        datafiles.require(needed in ids, path, None, "pieces", f"the piece {needed!r} is missing")
    return Catalogue(document.setup, pieces)


@functools.cache
def catalogue() -> Catalogue:
    """The project's piece table, loaded once per process."""
    return load_catalogue()


@functools.cache
def rules_catalogue() -> Catalogue:
    """The shipped pieces as read-only records (`rules.data.read_only`) for the rules' moves, menus and
    computer players, which read a piece's stats thousands of times a game: the same fields, values
    and properties (`military`) as `catalogue()`'s models, read several times faster. The setup
    numbers stay the model (read once a game). The catalogue entries, the
    data checks and the renderer keep the models."""
    models = catalogue()
    return Catalogue(models.setup, [read_only(models.pieces[name]) for name in models.order])


__all__ = [
    "DATA_DIR",
    "FACTORY",
    "PIECES_FILE",
    "TOKENS",
    "TOKEN_NAMES",
    "Catalogue",
    "DataError",
    "PieceSpec",
    "SetupSpec",
    "catalogue",
    "load_catalogue",
    "rules_catalogue",
]
