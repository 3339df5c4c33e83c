"""The same view with the same marks gives the same bytes in every process: Python's set and frozenset
order changes with the hash seed, and a renderer that draws in that order (overlapping frames) gives
pixels that differ between the bot's render worker and any other process. The secrets audit and the
courier's picture cache both rely on same view, same bytes."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import hashlib, json, sys
from renderer import registry
from tests.support.playouts import offered_games, positions
digests = {}
for game in offered_games():
    played = list(positions(game, game.info.max_players, 3, every=1, max_moves=300))
    views = [game.view(p.state, None) for p in played]
    for end in range(8, len(played), 10):  # a post frames the moves since the last one: several at once
        marks = frozenset()
        for step in range(end - 7, end + 1):
            marks |= registry.marks_between(views[step - 1], views[step])
        png = registry.render(views[end], marks)
        digests[f"{game.info.id}@{end}"] = hashlib.sha256(png).hexdigest()
print(json.dumps(digests))
"""


def _digests(hash_seed: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_pictures_do_not_depend_on_the_hash_seed():
    first, second = _digests("1"), _digests("2")
    assert first.keys() == second.keys() and len(first) >= 20
    differ = sorted(key for key in first if first[key] != second[key])
    assert not differ, f"drawn differently under another hash seed: {differ}"
    assert hashlib.sha256(json.dumps(first).encode()).hexdigest()  # the digests were made
