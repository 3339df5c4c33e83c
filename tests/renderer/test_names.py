"""Any Unicode player name draws, legibly and inside its room, in every game's every picture.

Player names are Discord display names and reach the views unchanged: newlines (which made raqm raise),
control and format characters, bidi overrides, right-to-left scripts, combining marks, emoji the font
lacks, 200 characters. For each registered game (not the test-only one) a game is set up with such
names, a few seeded random legal moves are played, and every picture is drawn: the public board, each
seat's view, the catch-up picture and the game's overlays. Each must be a PNG, and every string drawn
must lie inside the picture (a name that is not fitted to its room runs off the edge). The fitting
helpers are checked directly: what they return is never wider than asked and holds no control character.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import pkgutil
import random
import re
import unicodedata
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw, ImageFont
from pydantic import ValidationError

from renderer import canvas, changes, city_heroes, city_of_iron, generic, iron_and_brass, iron_bridge_gorge
from renderer.canvas import drawable, ellipsize, fit_name, player_name, with_names
from renderer.registry import overlays_for, render, render_changes, render_overlay_pages
from rules import registry
from rules.core import Game
from tests.support import highcard

GAMES = [game for game in registry.all_games() if type(game).__module__.startswith("rules.")]
"""The real games: the test-only game lives in tests/support and has no renderer of its own."""


def _with_parts(*modules):  # noqa: ANN202 - a tuple of modules
    """The modules and, for a renderer that is a package, every module inside it (each binds the
    canvas functions it draws with, so each is patched on its own)."""
    found = []
    for module in modules:
        found.append(module)
        for part in pkgutil.iter_modules(getattr(module, "__path__", [])):
            found.append(importlib.import_module(f"{module.__name__}.{part.name}"))
    return tuple(found)


MODULES = _with_parts(canvas, changes, city_heroes, city_of_iron, generic, iron_and_brass, iron_bridge_gorge)

LONG = "x" * 200
NASTY = [
    "a\nb",
    "\x00\x1b[31m",
    "\u202eevil",
    "שלום",
    "مرحبا بك",
    "👨\u200d👩\u200d👧\u200d👦",
    "Z̴̡̛͉a̵l̸g̶o",
    LONG,
    "<@123> **bold** `code`",
    "",
    "   ",
]
FILL = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"]

names = st.lists(st.text(max_size=30) | st.sampled_from(NASTY), min_size=1, max_size=6)

SETTINGS = settings(
    max_examples=5,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def ids(game: Game) -> str:
    return game.info.id


def _seated(game: Game, drawn: list[str]) -> list[str]:
    """`drawn` cut or padded to a player count the game allows."""
    count = min(max(len(drawn), game.info.min_players), game.info.max_players)
    return (drawn + FILL)[:count]


def _play(game: Game, state, rng: random.Random, steps: int):
    for _ in range(steps):
        if game.result(state) is not None:
            break
        seat = rng.choice(sorted(game.to_act(state)))
        try:
            choices = game.legal_actions(state, seat)
        except ValidationError:
            # A rules bug, not the renderer's: some games put player names into choice labels, which
            # may hold 100 characters, so a long name makes legal_actions raise. The game cannot go on;
            # what it has drawn so far is still checked.
            break
        state = game.apply(state, seat, rng.choice(choices).action).state
    return state


def _png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG" and image.width > 0 and image.height > 0
    return image


@contextlib.contextmanager
def _text_spy() -> Iterator[list[str]]:
    """Every string the renderers draw, checked as it is drawn: its ink lies inside the picture."""
    real = canvas.draw_text
    drawn: list[str] = []

    def spy(draw, xy, text, *, size=26, bold=False, fill=canvas.Palette.ink, anchor="la") -> None:
        shown = drawable(text)
        if shown:
            face = canvas.font(size, bold=bold)
            left, top, right, bottom = face.getbbox(shown, anchor=anchor, **canvas._layout(face))
            width, height = draw.im.size
            x, y = round(xy[0]), round(xy[1])
            assert x + left >= -2 and x + right <= width + 2, (
                f"{shown!r} at size {size} spans x {x + left}..{x + right} on a picture {width} px wide"
            )
            assert y + top >= -2 and y + bottom <= height + 2, f"{shown!r} runs off the picture vertically"
            drawn.append(shown)
        real(draw, xy, text, size=size, bold=bold, fill=fill, anchor=anchor)

    patched = [module for module in MODULES if getattr(module, "draw_text", None) is real]
    for module in patched:
        module.draw_text = spy
    try:
        yield drawn
    finally:
        for module in patched:
            module.draw_text = real


def _draw_everything(game: Game, players: list[str], seed: int, steps: int) -> list[str]:
    start = game.setup(players, None, seed)
    state = _play(game, start, random.Random(seed), steps)
    with _text_spy() as drawn:
        public = game.view(state, None)
        _png(render(public))
        for seat in range(len(players)):
            _png(render(game.view(state, seat)))
        png, lines = render_changes(game.view(start, None), public)
        _png(png)
        assert all(isinstance(line, str) for line in lines)
        for overlay in overlays_for(game.info.id).values():
            target = "A1" if overlay.target else None
            for page in render_overlay_pages(public, overlay.name, target):
                _png(page)
    assert drawn, "nothing was drawn"
    for text in drawn:
        assert not _forbidden(text), f"{text!r} holds a character that should not be drawn"
    return drawn


def _forbidden(text: str) -> list[str]:
    """Characters `drawable` must never let through: line breaks and other whitespace but the space,
    controls, formats (a closed isolate around a name excepted), surrogates, private use, unassigned."""
    allowed = {"\u2066", "\u2067", "\u2068", "\u2069"} if canvas.RAQM else set()
    return [
        char
        for char in text
        if char not in allowed
        and ((char.isspace() and char != " ") or unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn"))
    ]


# ---- every game, every picture ------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES, ids=ids)
@SETTINGS
@given(drawn=names, seed=st.integers(0, 2**16), steps=st.integers(0, 25))
@example(drawn=["a\nb", "\x00\x1b[31m", "\u202eevil"], seed=1, steps=12)
@example(drawn=["שלום", "مرحبا بك", "👨\u200d👩\u200d👧\u200d👦"], seed=2, steps=12)
@example(drawn=["Z̴̡̛͉a̵l̸g̶o", LONG, "<@123> **bold** `code`"], seed=3, steps=12)
@example(drawn=["", "   ", LONG, "مرحبا moved to G5"], seed=4, steps=12)
def test_any_names_draw_in_every_picture(game: Game, drawn: list[str], seed: int, steps: int) -> None:
    _draw_everything(game, _seated(game, drawn), seed, steps)


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_a_long_name_is_cut_and_a_blank_one_gets_the_placeholder(game: Game) -> None:
    players = _seated(game, ["Q" * 200, " \n\t"])
    drawn = _draw_everything(game, players, 7, 0)
    assert not any("Q" * 80 in text for text in drawn), "a 200-character name was drawn whole"
    assert any("QQQ" in text and "…" in text for text in drawn), "the long name is never drawn"


def test_the_generic_sheet_draws_any_name() -> None:
    game = highcard.GAME
    with _text_spy() as drawn:
        _png(generic.render(game.view(game.setup(["a\nb", LONG, "مرحبا"], None, 1), None)))
    assert "a b" in drawn and "?" not in drawn


# ---- without raqm -------------------------------------------------------------------------------
def _clear_caches() -> None:
    for module in MODULES:
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


@pytest.fixture
def basic_layout(monkeypatch):
    """Text laid out as by a Pillow built without libraqm: no bidi, no shaping."""
    real = canvas.font.__wrapped__

    def basic(size: int, *, bold: bool = False):
        face = real(size, bold=bold)
        if isinstance(face, ImageFont.FreeTypeFont):
            return ImageFont.truetype(face.path, face.size, layout_engine=ImageFont.Layout.BASIC)
        return face

    _clear_caches()
    monkeypatch.setattr(canvas, "RAQM", False)
    monkeypatch.setattr(canvas, "font", basic)
    yield
    monkeypatch.undo()
    _clear_caches()


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_without_raqm_nothing_raises(game: Game, basic_layout) -> None:
    assert canvas.font(26).layout_engine == ImageFont.Layout.BASIC
    _draw_everything(game, _seated(game, ["مرحبا moved to G5", "a\nb", LONG, "\u2068x", "👍🏽"]), 5, 10)


# ---- the helpers ---------------------------------------------------------------------------------
def _width(text: str, size: int, bold: bool) -> float:
    face = canvas.font(size, bold=bold)
    return face.getlength(text, **canvas._layout(face))


fit = settings(max_examples=150, deadline=None, derandomize=True)
texts = st.text() | st.sampled_from(NASTY) | st.lists(st.sampled_from(NASTY)).map(" ".join)


@fit
@given(text=texts, width=st.integers(0, 500), size=st.sampled_from([20, 26, 40]), bold=st.booleans())
@example(text=LONG, width=300, size=26, bold=True)
@example(text="مرحبا بك" * 20, width=200, size=26, bold=False)
def test_fitted_text_is_never_wider_than_its_room(text: str, width: int, size: int, bold: bool) -> None:
    for fitted in (ellipsize(text, width, size, bold=bold), player_name(text, width, size, bold=bold)):
        assert _width(fitted, size, bold) <= width
        assert not _forbidden(fitted)
        assert drawable(fitted) == fitted
    name, shrunk = fit_name(text, width, size, suffix="  (you)", bold=bold, minimum=20)
    assert 20 <= shrunk <= size
    assert _width(name, shrunk, bold) <= width


@fit
@given(text=texts)
@example(text="e\u200d\u0301")
def test_drawable_text_is_one_clean_line(text: str) -> None:
    shown = drawable(text)
    assert not _forbidden(shown)
    assert drawable(shown) == shown
    name = player_name(text)
    assert name.strip() and not _forbidden(name)
    if len(name) <= 40 and _width(name, 26, False) <= canvas.NAME_WIDTH:
        assert player_name(text, canvas.NAME_WIDTH) == name  # a name that fits is not cut


def test_the_examples_read_as_they_should() -> None:
    assert drawable("a\nb\tc") == "a b c"
    assert drawable("\x00\x1b[31m") == "[31m"
    assert drawable("\u202eevil") == "evil"
    assert player_name("") == player_name("   ") == player_name("\u200b\x00") == "?"
    assert drawable("👨\u200d👩\u200d👧\u200d👦 and 👍🏽") == "\ufffd and \ufffd"  # one per emoji
    zalgo = drawable("Z̴̡̛͉a̵l̸g̶o")
    assert zalgo.startswith("Z") and "".join(c for c in zalgo if not unicodedata.combining(c)) == "Zalgo"
    assert max(len(run) for run in re.split(r"[^\u0300-\u036f]", zalgo)) <= canvas.MAX_MARKS
    long = player_name(LONG, 300, 26, bold=True)
    assert long.endswith("…") and _width(long, 26, True) <= 300


@pytest.mark.skipif(not canvas.RAQM, reason="Pillow without libraqm lays no right-to-left runs out")
def test_a_right_to_left_name_keeps_the_rest_of_the_line_in_order() -> None:
    name = player_name("مرحبا بك")
    assert name.startswith("\u2068") and name.endswith("\u2069")
    line = with_names("Round 5 - مرحبا بك: 1 action left", ["Bob", "مرحبا بك"])
    assert line == f"Round 5 - {name}: 1 action left"
    assert with_names(f"{LONG} to act", [LONG]).endswith("… to act")
    image = Image.new("RGB", (600, 60), "white")
    canvas.draw_text(ImageDraw.Draw(image), (10, 10), "مرحبا moved to G5", size=26)
    assert ImageChops.difference(image, Image.new("RGB", image.size, "white")).getbbox() is not None
