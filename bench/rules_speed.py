"""Per registered game: apply / legal_actions times (p50 is the median), random full games per second,
and the render time and PNG size of the public board late in a 4-player game (or the game's maximum)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

from bench.baseline import CURRENT, Checkout, short
from bench.machine import summary
from renderer.registry import render
from rules import registry
from rules.core import Game


def random_game(
    game: Game,
    players: int,
    seed: int,
    *,
    timings: dict[str, list[float]] | None = None,
    max_moves: int = 20_000,
):
    rng = random.Random(seed)
    state = game.setup([f"p{i}" for i in range(players)], {}, seed)
    states = [state]
    for _ in range(max_moves):
        if game.result(state) is not None:
            break
        seat = rng.choice(sorted(game.to_act(state)))
        start = time.perf_counter()
        choices = game.legal_actions(state, seat)
        middle = time.perf_counter()
        state = game.apply(state, seat, rng.choice(choices).action).state
        end = time.perf_counter()
        if timings is not None:
            timings["legal_actions"].append((middle - start) * 1000)
            timings["apply"].append((end - middle) * 1000)
        states.append(state)
    return states


def run(games_per_kind: int = 20, checkouts: list[Checkout] | None = None) -> None:
    warm_playouts(checkouts or [CURRENT])
    for game in registry.all_games():
        if game.info.id.startswith("test-"):
            continue
        players = game.info.max_players if game.info.max_players <= 4 else 4
        players = max(players, game.info.min_players)
        timings: dict[str, list[float]] = {"legal_actions": [], "apply": []}
        start = time.perf_counter()
        last_states = []
        for seed in range(games_per_kind):
            last_states = random_game(game, players, seed, timings=timings)
        elapsed = time.perf_counter() - start
        print(f"\n{game.info.name} ({players} players, {games_per_kind} random games)")
        print(f"  apply          {summary(timings['apply'])}")
        print(f"  legal_actions  {summary(timings['legal_actions'])}")
        print(
            f"  random games   {games_per_kind / elapsed:8.1f} games/s ({elapsed / games_per_kind * 1000:.0f} ms each)"
        )
        late_index = max(0, int(len(last_states) * 0.85))
        late = last_states[late_index]
        view = game.view(late, None)
        render_ms: list[float] = []
        size = 0
        for _ in range(15):
            start = time.perf_counter()
            png = render(view)
            render_ms.append((time.perf_counter() - start) * 1000)
            size = len(png)
        print(
            f"  board render   {summary(render_ms)}   PNG {size / 1024:.0f} KB"
            f" (public view, move {late_index} of {len(last_states) - 1} of a {players}-player game)"
        )


# ---- warm playouts: the figure the computer player's search lives on ------------------------------
def warm_playouts(checkouts: list[Checkout]) -> None:
    """The issue's target figure, "a warm 4-player City of Iron random playout <= 10 ms", before and after
    in one run: `bench/warm_playouts.py` is run by path once per checkout with that checkout's `rules`
    first on the path (the script imports nothing from `bench`, so both sides run the same code)."""
    print("\nwarm random playouts (median per game, setup to the end; warmed by 3 games first)")
    for checkout in checkouts:
        print(f"  {short(checkout)}: {checkout.label}")
        _run_by_path("warm_playouts.py", checkout)
    print("\nwhere a fresh City of Iron playout's time goes, and its menus' floor (bench/playout_floor.py)")
    for checkout in checkouts:
        print(f"  {short(checkout)}: {checkout.label}")
        _run_by_path("playout_floor.py", checkout)


def _run_by_path(name: str, checkout: Checkout) -> None:
    """Run a script of this folder with the checkout's `rules` first on the path; print its output."""
    environment = {**os.environ, "PYTHONPATH": str(checkout.source)}
    done = subprocess.run(
        [sys.executable, str(Path(__file__).with_name(name))],
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = done.stdout if done.returncode == 0 else f"failed: {done.stderr.strip().splitlines()[-1:]}"
    print("\n".join(f"    {line}" for line in output.strip().splitlines()))
