"""CPU work off the event loop: pictures (50-250 ms each, seconds for a replay) and computer players'
decisions (up to a second of tree search).

In a thread such work still competes with the event loop for the GIL, which delays every other
interaction's first response; in a worker process it does not. Processes are the default;
`RENDER_PROCESSES=0` uses threads (simpler to debug, and enough for a small table).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.forkserver
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

from bot.interface.orphans import PARENT_ENV, die_with_parent

T = TypeVar("T")


def warm() -> None:
    """What every worker process loads before its first task: the rules' wording engine (inflect, 2-5 s
    to build), which the first move line of any decision or picture caption needs; loaded lazily it
    would hold a table's first computer move or picture that long. Instant when the fork server
    preloaded it (`bot.interface.preload`), as it does unless that import failed."""
    from rules import words

    preload = sys.modules.get("bot.interface.preload")
    die_with_parent(getattr(preload, "SERVER_PID", None))
    words.engine()


def _ready() -> bool:
    return True


class WorkerPool:
    """One pool for all CPU work, started on first use; what runs in it must be picklable (module-level
    functions and pydantic models)."""

    def __init__(self, processes: int = 1) -> None:
        self._processes = processes
        self._executor: Executor | None = None
        self._started = threading.Event()

    def _pool(self) -> Executor:
        if self._executor is None:
            if self._processes > 0:
                # forkserver: workers start from a clean process, not a fork of one with running threads.
                context = multiprocessing.get_context("forkserver")
                # The fork server imports this once, so each worker forks from a warm process.
                context.set_forkserver_preload(["bot.interface.preload"])
                # Started here, from the thread that called (the event loop's, which lives as long as the
                # process), so that the fork server's request to die with its parent watches the bot
                # itself, not a short-lived thread (`bot.interface.orphans`).
                os.environ[PARENT_ENV] = str(os.getpid())
                multiprocessing.forkserver.ensure_running()
                self._executor = ProcessPoolExecutor(
                    max_workers=self._processes, mp_context=context, initializer=warm
                )
            else:
                self._executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="worker")
        return self._executor

    def start(self) -> None:
        """Start the worker processes now, in the background, while the bot connects: the first one
        waits for the fork server's preload (seconds), and a submit blocks its caller until its worker
        is forked, so left to the first picture it would hold the event loop. Threads share the bot's
        process, which loads the same at start."""
        if self._processes <= 0:
            return
        pool = self._pool()

        def spawn() -> None:
            try:
                for _ in range(self._processes):
                    pool.submit(_ready)
            except RuntimeError:  # closed before it started: nothing to warm
                pass
            finally:
                self._started.set()

        threading.Thread(target=spawn, name="worker-start", daemon=True).start()

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        pool = self._pool()
        if self._processes > 0 and not self._started.is_set():
            # While the workers are still being forked, a submit waits for them (the fork server's
            # preload takes seconds): from the event loop it would leave every interaction unanswered
            # past Discord's 3 s, so the first tasks after a start are handed over from a thread.
            future = await asyncio.to_thread(pool.submit, function, *args)
            return await asyncio.wrap_future(future)
        return await asyncio.get_running_loop().run_in_executor(pool, function, *args)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
