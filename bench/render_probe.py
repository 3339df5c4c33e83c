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

import json
import random
import sys
import time
from pathlib import Path


def _positions(game, players: int, seed: int, every: int):  # noqa: ANN001, ANN202
    """Every `every`-th position of a game played by its computer player, then its end."""
    from rules.policy import policy_for

    rng = random.Random(seed)
    policy = policy_for(game.info.id)
    state = game.setup(["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"][:players], {}, seed)
    before = state
    for move in range(3000):
        finished = game.result(state) is not None
        if finished or move % every == 0:
            yield before, state, finished
        if finished:
            return
        seat = min(game.to_act(state))
        choice = rng.choice(game.legal_actions(state, seat)) if rng.random() < 0.15 else None
        choice = choice or policy.choose(game, state, seat, rng, 1)
        before, state = state, game.apply(state, seat, choice.action).state


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
    from rules import registry as games

    marks_between = getattr(registry, "marks_between", None)
    figures: dict[str, dict[str, dict[str, list]]] = {}
    for game in games.all_games():
        if not type(game).__module__.startswith(games.BUILTIN_MODULES):
            continue
        kinds: dict[str, dict[str, list]] = {}

        def add(kind: str, draw, kinds=kinds) -> None:  # noqa: ANN001
            ms, size = _timed(draw)
            entry = kinds.setdefault(kind, {"ms": [], "sizes": []})
            entry["ms"].append(ms)
            entry["sizes"].append(list(size))

        sections = {name: o for name, o in registry.overlays_for(game.info.id).items() if not o.target}
        for players in sorted({game.info.min_players, game.info.max_players}):
            for before, state, finished in _positions(game, players, 7, every):
                public = game.view(state, None)
                if marks_between is not None:
                    marks = marks_between(game.view(before, None), public)
                    add("final" if finished else "turn", lambda v=public, m=marks: registry.render(v, m))
                else:
                    add("final" if finished else "turn", lambda v=public: registry.render(v))
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
