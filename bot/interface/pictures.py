"""Drawing views in the worker pool (`bot.interface.workers`), never on the event loop.

A picture is a function of what it is drawn from (a view is all a picture shows), so the same request
twice is drawn once: the latest pictures are kept by a digest of their views, within a memory budget.
Ten people pressing **Board** on one turn post, or one person pressing it ten times, cost one render.
`renders` counts the pictures actually drawn.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from bot.app.metrics import Metrics
from bot.interface.workers import WorkerPool
from renderer.animation import replay
from renderer.registry import Page, render, render_changes, render_overlay, render_overlay_pages
from rules.core import View

CACHE_BYTES = 48_000_000
"""A few replays (under 8 MB each) and a hundred boards."""


def _digest(*parts: Any) -> str:
    hasher = hashlib.blake2b(digest_size=16)
    for part in parts:
        text = part.model_dump_json() if isinstance(part, View) else repr(part)
        hasher.update(text.encode("utf-8", "surrogatepass"))
        hasher.update(b"\x00")
    return hasher.hexdigest()


class Painter:
    def __init__(
        self, workers: WorkerPool, metrics: Metrics | None = None, *, cache_bytes: int = CACHE_BYTES
    ) -> None:
        self.workers = workers
        self.metrics = metrics
        self.renders = 0
        """Pictures drawn since the start (a picture served from the cache is not drawn again)."""
        self._cache: OrderedDict[str, Any] = OrderedDict()
        self._sizes: dict[str, int] = {}
        self._kept = 0
        self._budget = cache_bytes
        self._drawing: dict[str, asyncio.Future[Any]] = {}

    async def png(self, view: View, marks: frozenset[str] = frozenset()) -> bytes:
        """`view` drawn with the parts called `marks` framed as changed."""
        kind = "board" if view.seat is None else "hand"
        return await self._drawn(_digest("png", view, sorted(marks)), kind, render, view, marks)

    async def overlay(self, view: View, name: str, target: str | None, page: int = 0) -> Page:
        """One page of a section (a long one is cut into phone-sized pages)."""
        key = _digest("overlay", view, name, target, page)
        return await self._drawn(key, "section", render_overlay, view, name, target, page)

    async def overlay_pages(self, view: View, name: str, target: str | None) -> list[bytes]:
        """Every page of a section, for a post everybody sees."""
        key = _digest("pages", view, name, target)
        return await self._drawn(key, "section", render_overlay_pages, view, name, target)

    async def changes(self, old: View, new: View) -> tuple[bytes, list[str]]:
        """`new` with what changed since `old` marked, and the changes in words."""
        return await self._drawn(_digest("changes", old, new), "changes", render_changes, old, new)

    async def replay(self, views: list[View], captions: list[str]) -> bytes:
        """A whole game as one animated WebP (seconds of drawing: never on the event loop)."""
        return await self._drawn(_digest("replay", *views, captions), "replay", replay, views, captions)

    async def _drawn(self, key: str, kind: str, work: Callable[..., Any], *args: Any) -> Any:
        """The picture `key` names: kept, being drawn for someone else already, or drawn now."""
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        if key in self._drawing:
            return await asyncio.shield(self._drawing[key])
        self.renders += 1
        drawing = self._drawing[key] = asyncio.get_running_loop().create_future()
        try:
            picture = await self._timed(kind, work, *args)
        except asyncio.CancelledError:
            drawing.cancel()
            raise
        except Exception as error:
            drawing.set_exception(error)
            drawing.exception()  # marked as retrieved: nobody else may be waiting for it
            raise
        finally:
            del self._drawing[key]
        drawing.set_result(picture)
        self._keep(key, picture)
        return picture

    async def _timed(self, kind: str, function: Callable[..., Any], *args: Any) -> Any:
        started = time.perf_counter()
        try:
            return await self.workers.run(function, *args)
        finally:
            if self.metrics is not None:
                self.metrics.render_seconds.labels(kind).observe(time.perf_counter() - started)

    def _keep(self, key: str, picture: Any) -> None:
        self._cache[key], self._sizes[key] = picture, _size(picture)
        self._kept += self._sizes[key]
        while self._kept > self._budget and len(self._cache) > 1:
            oldest, _ = self._cache.popitem(last=False)
            self._kept -= self._sizes.pop(oldest)


def _size(picture: Any) -> int:
    """The bytes a kept picture holds: a PNG, a page of one, every page, or a PNG with its words."""
    if isinstance(picture, bytes):
        return len(picture)
    if isinstance(picture, Page):
        return len(picture.png)
    if isinstance(picture, list):
        return sum(len(part) for part in picture)
    return len(picture[0])
