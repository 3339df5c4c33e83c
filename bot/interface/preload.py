"""Imported once by the worker pool's fork server, before it forks any worker (see `WorkerPool`): what
is loaded here every worker process starts with, for free. The import itself does the work, on
purpose: the rules' wording engine (inflect, 2-5 s to build) would otherwise be built again in each
worker before its first decision or caption, and in each test's bot."""

from __future__ import annotations

import renderer  # noqa: F401 - loaded for the workers, not used here
import rules.registry  # noqa: F401
import rules.search  # noqa: F401
from rules import words

words.engine()
