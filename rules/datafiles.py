"""Where the games' data files are, however Ironhost is installed: one lookup for every loader.

The data lives in the checkout's top-level `data/` folder (the customer's layout). A wheel cannot install
it as a top-level `data` package (any other distribution may ship one), so pyproject.toml maps the folder
into the `rules` package as `rules/_data/`. Loaders take a game's folder from here and read it through
`importlib.resources`' Traversable API (`/`, `read_text`, `is_file`), which works alike for a checkout,
an editable install, an installed wheel and a zip on sys.path.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

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
