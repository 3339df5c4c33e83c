"""What changed since a player's last move, drawn from two views: frames for City of Iron and Iron &
Brass, the changed fields in words for any other game, and never a mix of viewers."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from renderer import city_of_iron, iron_and_brass
from renderer.canvas import Palette
from renderer.changes import field_changes
from renderer.registry import changes_between, render_changes
from rules import registry
from rules.city_of_iron import GAME as CITY
from rules.iron_and_brass import GAME as BRASS

OUT = None  # set to a folder path to look at the pictures


def _image(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def _magenta(image: Image.Image) -> int:
    """How many pixels have the "changed" frame colour."""
    target = Palette.changed
    return sum(
        count
        for count, color in image.getcolors(maxcolors=1 << 20)
        if all(abs(a - b) <= 12 for a, b in zip(color, target, strict=True))
    )


def _random_moves(game, state, rng: random.Random, count: int):
    for _ in range(count):
        if game.result(state) is not None:
            break
        seat = rng.choice(sorted(game.to_act(state)))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)).action).state
    return state


def _save(name: str, png: bytes) -> None:
    if OUT:
        image = _image(png)
        image.save(f"{OUT}/{name}.png")
        small = image.resize((480, round(image.height * 480 / image.width)))
        small.save(f"{OUT}/{name}-480.png")


def test_iron_and_brass_frames_the_squares_that_changed():
    rng = random.Random(3)
    old = BRASS.setup(["Alice", "Bob"], {"board_size": 10}, 3)
    new = _random_moves(BRASS, old, rng, 12)
    before, after = BRASS.view(old, None), BRASS.view(new, None)
    changes = changes_between(before, after)
    squares = {mark for mark in changes.marks if ":" not in mark and mark[:1].isupper()}
    assert squares and all(len(square) <= 3 for square in squares)
    assert changes.marks - squares  # and the numbers beside the map: gold, crew, army, the marker
    assert any(line.startswith(tuple(changes.marks)) for line in changes.lines)
    plain = _image(iron_and_brass.render(after))
    marked = _image(iron_and_brass.render(after, marks=changes.marks))
    assert ImageChops.difference(plain, marked).getbbox() is not None
    assert _magenta(plain) == 0 and _magenta(marked) > 200 * len(changes.marks)
    png, lines = render_changes(before, after)
    assert lines == list(changes.lines) and png == iron_and_brass.render(after, marks=changes.marks)
    _save("brass-changes", png)


def test_city_of_iron_frames_the_cells_that_changed():
    rng = random.Random(5)
    old = _random_moves(CITY, CITY.setup(["Alice", "Bob", "Carolina"], {}, 5), rng, 6)
    new = _random_moves(CITY, old, rng, 10)
    before, after = CITY.view(old, None), CITY.view(new, None)
    changes = changes_between(before, after)
    assert changes.marks and changes.lines
    assert all(key.split(":")[0] in {*city_of_iron.FRAMED, "good"} for key in changes.marks)
    framed = [key for key in changes.marks if key.split(":")[0] in city_of_iron.FRAMED]
    assert framed
    plain = _image(city_of_iron.render(after))
    marked = _image(city_of_iron.render(after, marks=changes.marks))
    assert ImageChops.difference(plain, marked).getbbox() is not None
    assert _magenta(plain) == 0 and _magenta(marked) > 150 * len(framed)
    png, _ = render_changes(before, after)
    _save("city-changes", png)


def test_nothing_changed_says_so_and_frames_nothing():
    state = BRASS.setup(["Alice", "Bob"], {"board_size": 10}, 1)
    view = BRASS.view(state, None)
    assert changes_between(view, view).marks == frozenset()
    png, lines = render_changes(view, view)
    assert lines == [] and _magenta(_image(png)) == 0


def test_a_game_without_a_hook_says_which_fields_changed():
    game = registry.get("test-highcard")
    rng = random.Random(2)
    old = game.setup(["Alice", "Bob"], {}, 2)
    new = _random_moves(game, old, rng, 2)
    changes = field_changes(game.view(old, None), game.view(new, None))
    assert not changes.marks and changes.lines and changes.lines[0].startswith("Changed: ")
    png, lines = render_changes(game.view(old, None), game.view(new, None))
    assert lines == list(changes.lines)
    _save("generic-changes", png)


def test_views_of_different_viewers_are_never_compared():
    state = CITY.setup(["Alice", "Bob"], {}, 1)
    with pytest.raises(ValueError, match="same viewer"):
        render_changes(CITY.view(state, 0), CITY.view(state, None))
