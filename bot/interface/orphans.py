"""No process outlives the bot, however the bot dies.

The worker pool (`bot.interface.workers`) runs in processes the bot does not wait for when it is
killed: the fork server, the workers it forks, and multiprocessing's resource tracker. A worker holds
both ends of its task queue, so it never sees the bot go; the tracker lives until the last of them
goes. Left alone, every SIGKILL (or a supervisor that kills only the main process) leaves them behind.

Linux offers the one reliable answer: `prctl(PR_SET_PDEATHSIG)`, a signal the kernel sends a process
when its parent dies. The fork server asks for SIGTERM when the bot dies, each worker when the fork
server dies; then the tracker reads end-of-file and exits too. The setting follows the *thread* that
started the child, so the bot starts the fork server from its main thread (`WorkerPool`). Elsewhere
(macOS, Windows) prctl does not exist and this does nothing; there the fork server's own check of its
parent's pipe is what remains.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys

PR_SET_PDEATHSIG = 1
PARENT_ENV = "IRONHOST_PARENT_PID"
"""The bot's pid, read by the fork server: if the bot died before the fork server asked for its signal,
there is no parent left to watch, and the fork server leaves at once."""


def die_with_parent(expected_parent: int | None) -> bool:
    """Ask the kernel for SIGTERM when this process's parent dies; exit now if it already has.

    `expected_parent` is the pid the parent had (None: unknown, no check). Returns whether the kernel
    took the request."""
    if not sys.platform.startswith("linux"):
        return False
    library = ctypes.util.find_library("c")
    if library is None:
        return False
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(library, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0) != 0:
            return False
        if expected_parent is not None and os.getppid() != expected_parent:
            os._exit(0)  # the parent died before the request: nobody is left to serve
        return True
    return False


def expected_parent_from_env() -> int | None:
    value = os.environ.get(PARENT_ENV, "")
    return int(value) if value.isdigit() else None
