"""Render time per picture kind, per game: the p50 and p95 of drawing each kind of picture the bot
sends (turn board, final board, hand, each on-demand section), and how big it is (the goal is
≤ 60 ms at p95 for every kind on this machine, and phone-sized pictures: 4:5 at most).

Each checkout is timed in its own child process (`bench/render_probe.py`, run by path with the
checkout first on `sys.path`), one after the other so they do not share the two cores.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

from bench import baseline
from bench.machine import percentile

PROBE = Path(__file__).with_name("render_probe.py")
GOAL_MS = 60.0


def measure(checkout: baseline.Checkout, every: int) -> dict:
    done = subprocess.run(
        [sys.executable, str(PROBE), str(checkout.source), str(every)],
        cwd=checkout.source,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"render probe failed in {checkout.source}:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _row(entry: dict | None) -> str:
    if not entry:
        return f"{'—':>5} {'':>10} {'':>7} {'':>7}"
    widths = [w for w, _ in entry["sizes"]]
    heights = [h for _, h in entry["sizes"]]
    size = f"{int(statistics.median(widths))}×{max(heights)}"
    ms = entry["ms"]
    return f"{len(ms):>5} {size:>10} {percentile(ms, 0.5):>7.1f} {percentile(ms, 0.95):>7.1f}"


def run(checkouts: list[baseline.Checkout], every: int = 15) -> None:
    print(f"\n== render: ms per picture by kind (n, width×tallest, p50, p95); goal p95 ≤ {GOAL_MS:.0f} ms ==")
    figures = {baseline.short(checkout): measure(checkout, every) for checkout in checkouts}
    labels = list(figures)
    head = f"{'game':<18} {'kind':<18}" + "".join(f" | {label:^33}" for label in labels)
    print(head)
    print(f"{'':<18} {'':<18}" + "".join(f" | {'n':>5} {'size':>10} {'p50':>7} {'p95':>7}" for _ in labels))
    games = sorted({game for by_game in figures.values() for game in by_game})
    worst: dict[str, float] = {}
    for game in games:
        kinds = sorted({kind for by_game in figures.values() for kind in by_game.get(game, {})})
        for kind in kinds:
            cells = [figures[label].get(game, {}).get(kind) for label in labels]
            print(f"{game:<18} {kind:<18}" + "".join(f" | {_row(cell)}" for cell in cells))
            for label, cell in zip(labels, cells, strict=True):
                if cell:
                    worst[label] = max(worst.get(label, 0.0), percentile(cell["ms"], 0.95))
    print("worst p95: " + ", ".join(f"{label} {value:.1f} ms" for label, value in worst.items()))
