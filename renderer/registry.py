"""Which function draws a game's views: `renderer.<game_module>.render(view, marks=...)`, else the
generic sheet.

A game's module name is its id with dashes as underscores (city-of-iron -> renderer.city_of_iron).
Every renderer module offers the same things:
- `render(view, *, marks=frozenset())`: the turn picture (public view) or a seat's hand picture (the
  seat's view: only what that seat sees beyond the board, under a one-line header); both sized for a
  phone (`renderer.phone`). `marks` are the renderer's keys of what changed, framed in magenta.
- `changes(old, new) -> Changes` (optional): those keys, and the changes in words.
- `OVERLAYS`: the sections and overlays shown on demand with `/board section:...`, drawn from the
  public view: the detail a phone-sized turn picture leaves out.
- `KEY`: what every symbol on its pictures means, in one or two sentences, for the alt text.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass

from renderer.canvas import Sheet, to_png
from renderer.changes import Changes, field_changes
from renderer.phone import MAX_ASPECT
from rules.core import View

Renderer = Callable[..., bytes]
_cache: dict[str, Renderer] = {}


@dataclass(frozen=True)
class Page:
    """One page of a section: its PNG, which page it is (from 0) and how many there are."""

    png: bytes
    number: int = 0
    count: int = 1


@dataclass(frozen=True)
class Overlay:
    """An extra picture a game offers on request (`/board section:...`), drawn from the public view.

    A renderer module lists its overlays in `OVERLAYS`; `target` says what to ask the player for
    (e.g. "a square such as C5"), empty when nothing is needed. `paint` gives the picture's PNG, or
    its `Sheet` when it may be too tall for a phone: such a sheet is cut into pages no taller than 4:5
    (`renderer.phone.MAX_ASPECT`), which the bot shows one at a time with buttons to turn them.
    """

    name: str
    description: str
    paint: Callable[[View, str | None], bytes | Sheet]
    target: str = ""
    refuse: Callable[[View, str], str | None] | None = None
    """Why a target cannot be drawn, as a sentence naming what is wrong (a square off the map), or None;
    asked before drawing, so a bad target is refused rather than drawn as an empty answer."""

    def _sheets(self, view: View, target: str | None) -> list[Sheet] | bytes:
        drawn = self.paint(view, target)
        if isinstance(drawn, bytes | bytearray):
            return bytes(drawn)
        return drawn.pages(math.floor(drawn.width * MAX_ASPECT))

    def page(self, view: View, target: str | None = None, number: int = 0) -> Page:
        """Page `number` (kept within the pages there are) of the overlay drawn for `view`."""
        sheets = self._sheets(view, target)
        if isinstance(sheets, bytes):
            return Page(sheets)
        number = min(max(number, 0), len(sheets) - 1)
        return Page(to_png(sheets[number].image()), number, len(sheets))

    def pages(self, view: View, target: str | None = None) -> list[bytes]:
        """Every page's PNG."""
        sheets = self._sheets(view, target)
        if isinstance(sheets, bytes):
            return [sheets]
        return [to_png(sheet.image()) for sheet in sheets]

    def draw(self, view: View, target: str | None = None) -> bytes:
        """The first page's PNG."""
        return self.page(view, target).png


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


def render_overlay(view: View, name: str, target: str | None, page: int = 0) -> Page:
    """One page of one of the game's overlays; KeyError if the game has no such overlay."""
    return overlays_for(view.game)[name].page(view, target, page)


def render_overlay_pages(view: View, name: str, target: str | None) -> list[bytes]:
    """Every page of one of the game's overlays, for a post everybody sees (it has no buttons)."""
    return overlays_for(view.game)[name].pages(view, target)


def renderer_for(game_id: str) -> Renderer:
    if game_id not in _cache:
        module = _module(game_id)
        if module is None:
            from renderer import generic

            module = generic
        _cache[game_id] = module.render
    return _cache[game_id]


def render(view: View, marks: frozenset[str] = frozenset()) -> bytes:
    """PNG bytes of `view` with the parts called `marks` framed as changed; pure CPU work, so callers
    run it in a worker."""
    draw = renderer_for(view.game)
    return draw(view, marks=frozenset(marks)) if marks else draw(view)


def marks_between(old: View, new: View) -> frozenset[str]:
    """The renderer's keys of what changed from `old` to `new` (two views of the same viewer)."""
    return changes_between(old, new).marks


def symbol_key(game_id: str) -> str:
    """The game's key to the symbols on its pictures, for the alt text ("" when it has none), without a
    "Key:" of its own: the alt text names it once."""
    return str(getattr(_module(game_id), "KEY", "")).removeprefix("Key:").strip()


def changes_between(old: View, new: View) -> Changes:
    """What differs from `old` to `new`: the game's own `changes` hook, else the view's fields."""
    if old.game != new.game or old.seat != new.seat:
        raise ValueError("changes are only drawn between two views of the same game for the same viewer")
    describe = getattr(_module(new.game), "changes", None)
    return describe(old, new) if describe is not None else field_changes(old, new)


def render_changes(old: View, new: View) -> tuple[bytes, list[str]]:
    """`new` drawn with what changed since `old` framed (for games whose renderer names the parts it
    draws), and the changes in words for the message: the picture keeps its phone size."""
    changes = changes_between(old, new)
    return render(new, changes.marks), list(changes.lines)
