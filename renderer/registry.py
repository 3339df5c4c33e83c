"""Which function draws a game's views: `renderer.<game_module>.render(view)`, else the generic sheet.

A game's module name is its id with dashes as underscores (city-of-iron -> renderer.city_of_iron).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from rules.core import View

Renderer = Callable[[View], bytes]
_cache: dict[str, Renderer] = {}


def renderer_for(game_id: str) -> Renderer:
    if game_id not in _cache:
        module_name = "renderer." + game_id.replace("-", "_")
        try:
            module = importlib.import_module(module_name)
            _cache[game_id] = module.render
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            from renderer import generic

            _cache[game_id] = generic.render
    return _cache[game_id]


def render(view: View) -> bytes:
    """PNG bytes of `view`; pure CPU work, so callers run it in a thread."""
    return renderer_for(view.game)(view)
