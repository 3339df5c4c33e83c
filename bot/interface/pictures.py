"""Drawing views in the worker pool (`bot.interface.workers`), never on the event loop."""

from __future__ import annotations

from bot.interface.workers import WorkerPool
from renderer.animation import replay
from renderer.registry import Page, render, render_changes, render_overlay, render_overlay_pages
from rules.core import View


class Painter:
    def __init__(self, workers: WorkerPool) -> None:
        self.workers = workers

    async def png(self, view: View, marks: frozenset[str] = frozenset()) -> bytes:
        """`view` drawn with the parts called `marks` framed as changed."""
        return await self.workers.run(render, view, marks)

    async def overlay(self, view: View, name: str, target: str | None, page: int = 0) -> Page:
        """One page of a section (a long one is cut into phone-sized pages)."""
        return await self.workers.run(render_overlay, view, name, target, page)

    async def overlay_pages(self, view: View, name: str, target: str | None) -> list[bytes]:
        """Every page of a section, for a post everybody sees."""
        return await self.workers.run(render_overlay_pages, view, name, target)

    async def changes(self, old: View, new: View) -> tuple[bytes, list[str]]:
        """`new` with what changed since `old` marked, and the changes in words."""
        return await self.workers.run(render_changes, old, new)

    async def replay(self, views: list[View], captions: list[str]) -> bytes:
        """A whole game as one animated WebP (seconds of drawing: never on the event loop)."""
        return await self.workers.run(replay, views, captions)
