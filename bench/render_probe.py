"""`python bench/render_probe.py TREE`: time every kind of picture of every game drawn by TREE's renderer.

Run by path in a child process with TREE (a checkout: the working tree or a baseline worktree) first
on `sys.path`, so the same probe times the renderers before and after a change. It prints one JSON
object: {game: {kind: {"ms": [...], "sizes": [[w, h], ...]}}}.

Positions come from each game's own computer player (the same seeds in both trees), at the smallest
and the largest table. Kinds: `turn` (the public board, with what the last move changed framed where
the renderer supports marks), `final` (the finished board), `hand` (a seat's view where it differs from
the public one) and `section:<name>` (each picture shown on demand that needs no target).
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from pathlib import Path


def _playouts():  # noqa: ANN202 - the module
    """The tests' playouts (`tests/support/playouts.py`) of the working tree, loaded by path: a baseline
    checkout may predate them, and both trees must time the same positions."""
    path = Path(__file__).resolve().parents[1] / "tests" / "support" / "playouts.py"
    spec = importlib.util.spec_from_file_location("render_probe_playouts", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def _timed(draw) -> tuple[float, tuple[int, int]]:  # noqa: ANN001
    import io

    from PIL import Image

    start = time.perf_counter()
    png = draw()
    elapsed = (time.perf_counter() - start) * 1000
    with Image.open(io.BytesIO(png)) as image:
        return elapsed, image.size


def probe(every: int) -> dict[str, dict[str, dict[str, list]]]:
    from renderer import registry

    playouts = _playouts()
    marks_between = getattr(registry, "marks_between", None)
    figures: dict[str, dict[str, dict[str, list]]] = {}
    for game in playouts.offered_games():
        kinds: dict[str, dict[str, list]] = {}

        def add(kind: str, draw, kinds=kinds) -> None:  # noqa: ANN001
            ms, size = _timed(draw)
            entry = kinds.setdefault(kind, {"ms": [], "sizes": []})
            entry["ms"].append(ms)
            entry["sizes"].append(list(size))

        sections = {name: o for name, o in registry.overlays_for(game.info.id).items() if not o.target}
        for players in sorted({game.info.min_players, game.info.max_players}):
            for position in playouts.positions(game, players, 7, every=every):
                state, kind = position.state, "final" if position.finished else "turn"
                public = game.view(state, None)
                if marks_between is not None:
                    marks = marks_between(game.view(position.before, None), public)
                    add(kind, lambda v=public, m=marks: registry.render(v, m))
                else:
                    add(kind, lambda v=public: registry.render(v))
                shown = public.model_dump(exclude={"seat"})
                for seat in range(players):
                    mine = game.view(state, seat)
                    if mine.model_dump(exclude={"seat"}) != shown:
                        add("hand", lambda v=mine: registry.render(v))
                for name, section in sections.items():
                    add(f"section:{name}", lambda v=public, s=section: s.draw(v, None))
        figures[game.info.id] = kinds
    return figures


if __name__ == "__main__":
    tree = Path(sys.argv[1]).resolve()
    sys.path.insert(0, str(tree))
    every = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    print(json.dumps(probe(every)))
