"""Drawing views off the event loop.

Rendering is CPU work of 50-250 ms. In a thread it still competes with the event loop for the GIL,
which delays every other interaction's first response; in a worker process it does not. Processes are
the default; `RENDER_PROCESSES=0` uses threads (simpler to debug, and enough for a small table).
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from renderer.animation import replay
from renderer.registry import render, render_changes, render_overlay
from rules.core import View


class Painter:
    def __init__(self, processes: int = 1) -> None:
        self._processes = processes
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            if self._processes > 0:
                # forkserver: workers start from a clean process, not a fork of one with running threads.
                context = multiprocessing.get_context("forkserver")
                self._executor = ProcessPoolExecutor(max_workers=self._processes, mp_context=context)
            else:
                self._executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="render")
        return self._executor

    async def png(self, view: View, marks: frozenset[str] = frozenset()) -> bytes:
        """`view` drawn with the parts called `marks` framed as changed."""
        return await asyncio.get_running_loop().run_in_executor(self._pool(), render, view, marks)

    async def overlay(self, view: View, name: str, target: str | None) -> bytes:
        return await asyncio.get_running_loop().run_in_executor(
            self._pool(), render_overlay, view, name, target
        )

    async def changes(self, old: View, new: View) -> tuple[bytes, list[str]]:
        """`new` with what changed since `old` marked, and the changes in words."""
        return await asyncio.get_running_loop().run_in_executor(self._pool(), render_changes, old, new)

    async def replay(self, views: list[View], captions: list[str]) -> bytes:
        """A whole game as one animated WebP (seconds of drawing: never on the event loop)."""
        return await asyncio.get_running_loop().run_in_executor(self._pool(), replay, views, captions)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
