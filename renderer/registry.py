"""Which function draws a game's views: `renderer.<game_module>.render(view)`, else the generic sheet.

A game's module name is its id with dashes as underscores (city-of-iron -> renderer.city_of_iron).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from renderer.changes import Changes, field_changes, with_banner
from rules.core import View

Renderer = Callable[[View], bytes]
_cache: dict[str, Renderer] = {}


@dataclass(frozen=True)
class Overlay:
    """An extra picture a game offers on request (`/board overlay:...`), drawn from the public view.

    A renderer module lists its overlays in `OVERLAYS`; `target` says what to ask the player for
    (e.g. "a square such as C5"), empty when nothing is needed.
    """

    name: str
    description: str
    draw: Callable[[View, str | None], bytes]
    target: str = ""


def _module(game_id: str):  # noqa: ANN202 - a renderer module or None
    module_name = "renderer." + game_id.replace("-", "_")
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        return None


def overlays_for(game_id: str) -> dict[str, Overlay]:
    module = _module(game_id)
    return {overlay.name: overlay for overlay in getattr(module, "OVERLAYS", ())}


def render_overlay(view: View, name: str, target: str | None) -> bytes:
    """PNG of one of the game's overlays; KeyError if the game has no such overlay."""
    return overlays_for(view.game)[name].draw(view, target)


def renderer_for(game_id: str) -> Renderer:
    if game_id not in _cache:
        module = _module(game_id)
        if module is None:
            from renderer import generic

            module = generic
        _cache[game_id] = module.render
    return _cache[game_id]


def render(view: View) -> bytes:
    """PNG bytes of `view`; pure CPU work, so callers run it in a thread."""
    return renderer_for(view.game)(view)


def changes_between(old: View, new: View) -> Changes:
    """What differs from `old` to `new`: the game's own `changes` hook, else the view's fields."""
    if old.game != new.game or old.seat != new.seat:
        raise ValueError("changes are only drawn between two views of the same game for the same viewer")
    describe = getattr(_module(new.game), "changes", None)
    return describe(old, new) if describe is not None else field_changes(old, new)


def render_changes(old: View, new: View) -> tuple[bytes, list[str]]:
    """`new` drawn with what changed since `old` framed (games with a `changes` hook draw the frames
    through `render(view, marks=...)`), under a banner of the changes in words; and those words."""
    changes = changes_between(old, new)
    module = _module(new.game)
    if changes.marks and module is not None:
        png = module.render(new, marks=changes.marks)
    else:
        png = renderer_for(new.game)(new)
    return with_banner(png, changes), list(changes.lines)
