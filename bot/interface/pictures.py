"""Drawing views in the worker pool (`bot.interface.workers`), never on the event loop."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from bot.app.metrics import Metrics
from bot.interface.workers import WorkerPool
from renderer.animation import replay
from renderer.registry import render, render_changes, render_overlay
from rules.core import View

T = TypeVar("T")


class Painter:
    def __init__(self, workers: WorkerPool, metrics: Metrics | None = None) -> None:
        self.workers = workers
        self.metrics = metrics

    async def _timed(self, kind: str, function: Callable[..., T], *args: Any) -> T:
        started = time.perf_counter()
        try:
            return await self.workers.run(function, *args)
        finally:
            if self.metrics is not None:
                self.metrics.render_seconds.labels(kind).observe(time.perf_counter() - started)

    async def png(self, view: View, marks: frozenset[str] = frozenset()) -> bytes:
        """`view` drawn with the parts called `marks` framed as changed."""
        return await self._timed("board" if view.seat is None else "hand", render, view, marks)

    async def overlay(self, view: View, name: str, target: str | None) -> bytes:
        return await self._timed("section", render_overlay, view, name, target)

    async def changes(self, old: View, new: View) -> tuple[bytes, list[str]]:
        """`new` with what changed since `old` marked, and the changes in words."""
        return await self._timed("changes", render_changes, old, new)

    async def replay(self, views: list[View], captions: list[str]) -> bytes:
        """A whole game as one animated WebP (seconds of drawing: never on the event loop)."""
        return await self._timed("replay", replay, views, captions)
