"""Every game's data files: where they are, however Ironhost is installed, and one way to read and
check them, with one `DataError` that names the file, the entry and the field.

The data lives in the checkout's top-level `data/` folder (the customer's layout). A wheel cannot install
it as a top-level `data` package (any other distribution may ship one), so pyproject.toml maps the folder
into the `rules` package as `rules/_data/`. Loaders take a game's folder from here and read it through
`importlib.resources`' Traversable API (`/`, `read_text`, `is_file`), which works alike for a checkout,
an editable install, an installed wheel and a zip on sys.path.
"""

from __future__ import annotations

import dataclasses
import json
import operator
from collections.abc import Callable, Iterable
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)

INSTALLED = "_data"
"""The folder inside the installed `rules` package that holds a copy of `data/` (see pyproject.toml)."""
CHECKOUT = "data"


class DataFolderMissing(FileNotFoundError):
    """Neither an installed copy nor a checkout's `data/` folder was found: a broken install."""


@cache
def root() -> Traversable:
    """The folder holding one subfolder per game.

    The installed copy wins when present: it exists only in a built package, so its presence says this
    `rules` came from one. Otherwise `rules` is imported from a checkout (plain or editable), whose
    `data/` folder stands beside it; a `pyproject.toml` there too tells it apart from a stray top-level
    `data` folder in site-packages."""
    package = resources.files("rules")
    installed = package / INSTALLED
    if installed.is_dir():
        return installed
    if isinstance(package, Path):
        checkout = package.parent / CHECKOUT
        if checkout.is_dir() and (package.parent / "pyproject.toml").is_file():
            return checkout
    raise DataFolderMissing(
        f"the games' data is not installed: neither {installed} nor a checkout's {CHECKOUT}/ folder exists"
    )


def folder_name(game: str) -> str:
    """Game ids use hyphens ('city-of-iron'), data folders underscores ('city_of_iron')."""
    return game.replace("-", "_")


def game_folder(game: str) -> Traversable:
    """One game's data folder, by registry id or folder name."""
    return root() / folder_name(game)


class DataError(ValueError):
    """A data file is wrong. The message names the file, the entry and the field, in the same words
    for every game ("pieces.json: piece 6 (Steam Tank): field token: ..."), so whoever edits a card
    in a group that owns the physical game can find the line without reading code."""


def problem(where: object, who: str | None, field: str, why: str) -> DataError:
    """The one message shape: `<file>: [<entry>: ]field <field>: <why>`."""
    entry = f"{who}: " if who else ""
    return DataError(f"{where}: {entry}field {field}: {why}")


def first_error(error: ValidationError, whole: str = "entry") -> tuple[str, str]:
    """pydantic's first complaint as (dotted field, message); `whole` names a model-level error."""
    first = error.errors()[0]
    field = ".".join(str(part) for part in first.get("loc", ())) or whole
    return field, str(first.get("msg", "invalid")).removeprefix("Value error, ")


def read_json(path: Traversable) -> Any:
    """A file's JSON; DataError when it is missing or not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise DataError(f"{path}: cannot be read as JSON ({error})") from None


def document(path: Traversable, model: type[M], raw: Any = None) -> M:
    """A whole file validated as `model` (read from `path` unless `raw` is given)."""
    try:
        return model.model_validate(read_json(path) if raw is None else raw)
    except ValidationError as error:
        field, why = first_error(error, "file")
        raise problem(path, None, field, why) from None


def label(kind: str, index: int, entry: Any) -> str:
    """How an entry is named in a message: its kind, its 1-based place in the file and its name."""
    name = None
    if isinstance(entry, dict):
        name = entry.get("name") or entry.get("id")
    else:
        name = getattr(entry, "name", None) or getattr(entry, "id", None)
    return f"{kind} {index + 1} ({name or 'unnamed'})"


def entries(
    path: Traversable,
    raw: Iterable[Any],
    model: type[M],
    kind: str,
    *,
    whole: str = "entry",
    unique: Callable[[M], str] | None = operator.attrgetter("id"),
) -> list[M]:
    """Each entry of a list validated as `model`, named by `label` in any error; `unique` gives the key
    that may not repeat (by default the `id` field; None for lists without one)."""
    out: list[M] = []
    seen: set[str] = set()
    for index, entry in enumerate(raw):
        try:
            item = model.model_validate(entry)
        except ValidationError as error:
            field, why = first_error(error, whole)
            raise problem(path, label(kind, index, entry), field, why) from None
        if unique is not None:
            key = unique(item)
            if key in seen:
                raise problem(path, label(kind, index, item), "id", f"{key!r} is used twice")
            seen.add(key)
        out.append(item)
    return out


def require(ok: bool, path: Traversable | str, who: str | None, field: str, why: str) -> None:
    """A cross-reference check: DataError naming file, entry and field unless `ok`."""
    if not ok:
        raise problem(path, who, field, why)


def read_only(value: Any) -> Any:
    """Validated data as read-only plain records: each pydantic model becomes a frozen slotted
    dataclass with the same fields and properties (the models inside it too; lists and dicts keep
    their type and hold the converted items), so reads look exactly like the model's.

    Why: on CPython 3.11 every attribute read of a pydantic model passes through the slot hook that
    `BaseModel.__getattr__` installs, which the interpreter cannot specialize, while a slot read is a
    specialized instruction; City of Iron's menus read card, building and town data thousands of times
    a game. The records carry no pydantic methods: code that dumps or copies data keeps the models."""
    if isinstance(value, BaseModel):
        record = _record_class(type(value))
        return record(**{name: read_only(getattr(value, name)) for name in type(value).model_fields})
    if isinstance(value, list):
        return [read_only(item) for item in value]
    if isinstance(value, dict):
        return {key: read_only(item) for key, item in value.items()}
    return value


@cache
def _record_class(model: type[BaseModel]) -> type:
    """The frozen dataclass standing for `model`, with the model's properties (`produces_goods`...)."""
    properties = {
        name: member
        for klass in reversed(model.__mro__)
        if klass not in (BaseModel, object)
        for name, member in vars(klass).items()
        if isinstance(member, property)
    }
    return dataclasses.make_dataclass(
        model.__name__,
        [(name, Any) for name in model.model_fields],
        namespace={**properties, "__doc__": f"A read-only record of {model.__name__} (`read_only`)."},
        frozen=True,
        slots=True,
    )
