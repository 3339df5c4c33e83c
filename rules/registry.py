"""Game id -> Game. The bot offers exactly the games registered here.

Built-in games are imported lazily by module path, so a broken or slow game module never stops the
bot from starting with the others, and tests can register a game of their own.
"""

from __future__ import annotations

import importlib
import logging

from rules.core import Game

log = logging.getLogger(__name__)

BUILTIN_MODULES: tuple[str, ...] = (
    "rules.city_of_iron",
    "rules.iron_bridge_gorge",
    "rules.iron_and_brass",
    "rules.city_heroes",
)
"""Each module exposes `GAME`, an instance of its Game subclass. Missing modules are skipped."""

_games: dict[str, Game] = {}
_loaded = False


def register(game: Game) -> Game:
    _games[game.info.id] = game
    return game


def unregister(game_id: str) -> None:
    _games.pop(game_id, None)


def _load_builtins() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module_name in BUILTIN_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name and module_name.startswith(error.name):
                continue  # that game has not been written yet
            log.exception("%s could not be imported; the other games are still offered", module_name)
            continue
        except Exception:
            log.exception("%s could not be imported; the other games are still offered", module_name)
            continue
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            _games.setdefault(game.info.id, game)
        else:
            log.error("%s has no GAME instance; skipped", module_name)


def get(game_id: str) -> Game:
    _load_builtins()
    try:
        return _games[game_id]
    except KeyError:
        raise KeyError(game_id) from None


def all_games() -> list[Game]:
    _load_builtins()
    return sorted(_games.values(), key=lambda game: game.info.name)
