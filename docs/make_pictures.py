"""Draw the README's four pictures: each game's turn post as the bot sends it, in a game under way.

    .venv/bin/python docs/make_pictures.py

Each game is played from a fixed seed by its own computer player for a set number of moves, and the
public turn picture is drawn with what the last move changed framed, exactly as the bot posts it, then
saved 540 px wide (the width the README's table shows) next to this file. Deterministic: the same code
draws the same pictures, so a change to a renderer shows in `git diff --stat docs/`.
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from PIL import Image  # noqa: E402

from renderer.registry import marks_between, render  # noqa: E402
from rules import registry  # noqa: E402
from rules.policy import policy_for  # noqa: E402

PICTURES = (
    # (file, game, players, moves played)
    ("city-of-iron-board.png", "city-of-iron", 3, 70),
    ("iron-bridge-gorge-board.png", "iron-bridge-gorge", 3, 150),
    ("iron-and-brass-map.png", "iron-and-brass", 2, 60),
    ("city-heroes-map.png", "city-heroes", 3, 260),
)
NAMES = ["Alice", "Bob", "Carol", "Dave"]
SEED = 7
WIDTH = 540


def turn_picture(game_id: str, players: int, moves: int) -> bytes:
    game = registry.get(game_id)
    policy = policy_for(game_id)
    rng = random.Random(SEED)
    state = game.setup(NAMES[:players], {}, SEED)
    before = state
    for _ in range(moves):
        if game.result(state) is not None:
            break
        seat = min(game.to_act(state))
        before, state = state, game.apply(state, seat, policy.choose(game, state, seat, rng, 1).action).state
    now = game.view(state, None)
    return render(now, marks_between(game.view(before, None), now))


def main() -> None:
    for name, game_id, players, moves in PICTURES:
        with Image.open(io.BytesIO(turn_picture(game_id, players, moves))) as image:
            small = image.convert("RGB").resize(
                (WIDTH, round(image.height * WIDTH / image.width)), Image.Resampling.LANCZOS
            )
        small.save(HERE / name, optimize=True)
        print(f"docs/{name}: {small.width}×{small.height}")


if __name__ == "__main__":
    main()
