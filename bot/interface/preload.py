"""Imported once by the worker pool's fork server, before it forks any worker (see `WorkerPool`): what
is loaded here every worker process starts with, for free. The import itself does the work, on
purpose: the rules' wording engine (inflect, 2-5 s to build) would otherwise be built again in each
worker before its first decision or caption, and in each test's bot.

It is also where the fork server asks to die with the bot (`bot.interface.orphans`); `SERVER_PID`
lets each worker, forked from here, check that the fork server is still its parent."""

from __future__ import annotations

import os

from bot.interface.orphans import die_with_parent, expected_parent_from_env

SERVER_PID = os.getpid()
die_with_parent(expected_parent_from_env())

import renderer  # noqa: E402, F401 - loaded for the workers, not used here
import rules.registry  # noqa: E402, F401
import rules.search  # noqa: E402, F401
from rules import words  # noqa: E402

words.engine()
