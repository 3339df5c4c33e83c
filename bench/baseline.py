"""Before and after in one run: a `git worktree` of a baseline ref, next to the working tree.

A benchmark that takes `--baseline REF` runs the same load twice: against the bot of the baseline
checkout, then against the bot of the working tree (uncommitted changes included). Only the bot
process (and anything run with `BotProcess(source=...)` or `run_in_tree`) comes from the baseline
tree; the emulator, the simulated users and the bench itself are always the working tree's, so both
checkouts face exactly the same harness.

The baseline tree is made once under `.bench-baseline/<ref>` (ignored by git) and reused while it is
at the ref's commit; `git worktree remove .bench-baseline/<ref>` deletes it.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".bench-baseline"
DEFAULT_REF = "a52a295"


@dataclass(frozen=True)
class Checkout:
    """One side of a before/after comparison: a label to print and the source tree to run the bot from."""

    label: str
    source: Path
    baseline: bool = False

    @property
    def current(self) -> bool:
        return not self.baseline


CURRENT = Checkout("current (working tree)", ROOT)


def _git(*args: str, cwd: Path = ROOT) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout.strip()


def tree(ref: str) -> Path:
    """A worktree of `ref` (a commit, branch or tag) under .bench-baseline/, made or reused."""
    commit = _git("rev-parse", "--verify", f"{ref}^{{commit}}")
    folder = CACHE / (re.sub(r"[^A-Za-z0-9._-]+", "_", ref) or "ref")
    if folder.exists() and (folder / ".git").exists():
        if _git("rev-parse", "HEAD", cwd=folder) != commit:
            _git("checkout", "--quiet", "--detach", commit, cwd=folder)
        return folder
    CACHE.mkdir(exist_ok=True)
    _git("worktree", "prune")  # a folder deleted by hand is still registered until pruned
    _git("worktree", "add", "--quiet", "--detach", str(folder), commit)
    return folder


def checkouts(ref: str | None) -> list[Checkout]:
    """[baseline, current], or only [current] when `ref` is None or "none"."""
    if ref is None or ref.lower() == "none":
        return [CURRENT]
    commit = _git("rev-parse", "--short", f"{ref}^{{commit}}")
    label = f"baseline {ref}" if commit.startswith(ref) else f"baseline {ref} ({commit})"
    return [Checkout(label, tree(ref), baseline=True), CURRENT]


def short(checkout: Checkout) -> str:
    """A column heading: "baseline" or "current"."""
    return "baseline" if checkout.baseline else "current"
