"""Iron & Brass maps: real PNGs from views, phone-sized, with the range overlay."""

from __future__ import annotations

import io
import random

from PIL import Image

from renderer.iron_and_brass import render, render_range
from renderer.registry import renderer_for
from rules.iron_and_brass import GAME
from rules.iron_and_brass.state import Build, Piece, parse_square

NAMES = ["Alice", "Bob"]


def _played(seed: int, size: int, steps: int):
    """A game played by a seeded random player that prefers building and attacking."""
    rng = random.Random(seed)
    state = GAME.setup(NAMES, {"board_size": size}, seed)
    for _ in range(steps):
        if GAME.result(state) is not None:
            break
        seat = next(iter(GAME.to_act(state)))
        choices = GAME.legal_actions(state, seat)
        weights = [
            5 if c.key.startswith(("at:", "pick:", "build:", "mine")) else 0.2 if c.key == "end" else 1
            for c in choices
        ]
        state = GAME.apply(state, seat, rng.choices(choices, weights)[0].action).state
    return state


def _image(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG")
    assert len(png) < 1_000_000
    image = Image.open(io.BytesIO(png))
    assert 1000 <= image.width <= 1200
    return image


def _pixel(png: bytes, square: str, size: int) -> tuple[int, int, int]:
    """The colour near the top-left corner inside `square` on a map without the key below it."""
    image = _image(png).convert("RGB")
    col, row = parse_square(square, size)
    cell = (1080 - 2 * 28 - 34) // size
    # The map starts below the title (with subtitle) block.
    top = 28 + 40 * 13 // 10 + 24 * 13 // 10 + 12
    return image.getpixel((28 + 34 + col * cell + 2, top + (size - 1 - row) * cell + cell // 2))


def test_the_registry_finds_this_renderer():
    assert renderer_for("iron-and-brass") is render


def test_maps_of_every_size_are_phone_sized_pngs():
    for size in (10, 13, 16):
        state = _played(size, size, 120)
        _image(render(GAME.view(state, None)))  # render times are in bench/ (python -m bench)


def test_pending_builds_disabled_pieces_and_a_surge_question_are_drawn():
    state = _played(3, 10, 0)
    state.builds.append(Build(kind="turret", owner=0, col=2, row=1))
    state.pieces.append(Piece(id=90, kind="gunner", owner=0, col=4, row=4, disabled=True))
    state.pieces.append(Piece(id=91, kind="steam-tank", owner=1, col=4, row=5))
    state.current, state.actions_left = 1, 4
    state = GAME.apply(state, 1, {"kind": "attack", "unit": "E6", "target": "E5"}).state
    view = GAME.view(state, None)
    assert view.combat is not None and view.builds
    _image(render(view))


def test_the_range_overlay_colours_moves_and_attacks():
    """render_range: green where the unit may move, red within its attack range."""
    state = _played(3, 10, 0)
    state.pieces = [p for p in state.pieces if p.kind == "headquarters"]
    state.pieces.append(Piece(id=90, kind="gunner", owner=0, col=4, row=4))  # E5
    view = GAME.view(state, None)
    png = render_range(view, "E5")
    plain = render(view)
    assert png != plain
    green = _pixel(png, "E8", 10)  # 3 steps up: a move
    assert green[1] > green[0] + 40, green
    red = _pixel(png, "E9", 10)  # 4 steps: out of move 3, out of range 2 -> plain square
    assert abs(red[0] - red[1]) < 40, red
    far = _pixel(png, "G5", 10)  # 2 orthogonal steps right: both a move and in range (framed)
    assert far[1] > far[0]


def test_range_of_an_empty_square_and_a_structure():
    state = _played(3, 10, 0)
    view = GAME.view(state, None)
    _image(render_range(view, "C5"))
    _image(render_range(view, "Z1"))
    hq = next(p.square for p in view.pieces if p.kind == "headquarters")
    _image(render_range(view, hq))


def test_the_finished_game_says_who_won():
    state = _played(7, 10, 5000)
    view = GAME.view(state, None)
    assert view.finished
    _image(render(view))
