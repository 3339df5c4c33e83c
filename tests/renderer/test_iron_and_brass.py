"""Iron & Brass pictures: phone-sized PNGs from views, the hand picture, the sections and the range
overlay, and the marks of what changed."""

from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image

from renderer import iron_and_brass as ib
from renderer import phone
from renderer.canvas import Palette, text_width
from renderer.iron_and_brass import KEY, OVERLAYS, changes, render, render_range, sections
from renderer.registry import overlays_for, renderer_for
from rules.iron_and_brass import GAME
from rules.iron_and_brass.state import Build, Piece, parse_square
from tests.support.playouts import positions

NAMES = ["Alice", "Bob"]
SECTIONS = ("players", "game", "key")


def _played(seed: int, size: int, steps: int, names: list[str] = NAMES):
    """A game played by a seeded random player that prefers building and attacking."""
    rng = random.Random(seed)
    state = GAME.setup(names, {"board_size": size}, seed)
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
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.width == phone.PHONE_WIDTH
    return image


def _near(found: tuple[int, int, int], color: tuple[int, int, int], within: int = 12) -> bool:
    return max(abs(a - b) for a, b in zip(found, color, strict=True)) <= within


def _count(image: Image.Image, color: tuple[int, int, int], within: int = 12) -> int:
    """Pixels of about `color` (the PNG's 128-colour palette moves a colour by a few steps)."""
    return sum(n for n, found in image.getcolors(1 << 20) if _near(found, color, within))


def _square_pixel(image: Image.Image, square: str, size: int) -> tuple[int, int, int]:
    """The colour near the top-left corner inside `square`, the board found by Iron's tinted base row
    (row 1), which none of these tests colours or fills with pieces end to end."""
    xs, ys = [], []
    pixels = image.load()
    for y in range(image.height):
        for x in range(0, image.width, 2):
            if _near(pixels[x, y], ib.BASE_ROWS[0], 4):
                xs.append(x)
                ys.append(y)
    left, right, bottom = min(xs) - 1, max(xs) + 2, max(ys) + 1
    cell = (right - left) / size
    col, row = parse_square(square, size)
    x = left + col * cell + 4
    y = bottom - (row + 1) * cell + 4
    return pixels[int(x), int(y)]


def _measured(draw) -> phone.Measured:  # noqa: ANN001 - a callable returning PNG bytes
    return phone.measure(draw)


def test_the_registry_finds_this_renderer():
    assert renderer_for("iron-and-brass") is render


@pytest.mark.parametrize("size", [10, 13, 16])
def test_turn_pictures_fit_a_phone_at_every_board_size(size):
    """800 px wide, at most 4:5, no text under 22 px: at the start (opening roll shown), mid-game and
    the end, with the last move's marks."""
    for position in positions(GAME, 2, size, every=40, options={"board_size": size}):
        view = GAME.view(position.state, None)
        marks = changes(GAME.view(position.before, None), view).marks
        drawn = _measured(lambda v=view, m=marks: render(v, marks=m))
        assert drawn.width == phone.PHONE_WIDTH
        assert drawn.height <= phone.MAX_HEIGHT, (size, position.move, drawn.height)
        assert drawn.smallest >= phone.MIN_TEXT, drawn.too_small()


def test_round_one_shows_the_opening_roll_that_made_player_one():
    view = GAME.view(_played(4, 12, 0), None)
    assert view.round == 1
    texts = " ".join(text for _, text in _measured(lambda: render(view)).texts)
    assert "Opening roll" in texts and "is P1." in texts
    later = GAME.view(_played(4, 12, 40), None)
    assert later.round > 1
    game_section = " ".join(text for _, text in _measured(lambda: sections.game_section(later)).texts)
    assert "Opening roll" in game_section


def test_brass_is_crimson_on_the_map():
    """The rules name the sides Iron (blue) and Brass (crimson): Brass's pieces are not vermillion."""
    image = _image(render(GAME.view(_played(3, 10, 0), None)))
    assert _count(image, ib.CRIMSON) > 500
    assert _count(image, Palette.seat(0)) > 500
    assert _count(image, Palette.seats[1], within=30) == 0
    assert ib.side_color(1) == ib.CRIMSON and "crimson" in KEY


def test_the_final_picture_puts_the_result_first():
    state = _played(7, 10, 5000)
    view = GAME.view(state, None)
    assert view.finished
    drawn = _measured(lambda: render(view))
    assert drawn.height <= phone.MAX_HEIGHT
    texts = [text for _, text in drawn.texts]
    assert texts[0].startswith("Iron & Brass · game over")
    assert "wins" in texts[1] or "draw" in texts[1]


def test_pending_builds_disabled_pieces_and_a_surge_question_are_drawn():
    state = _played(3, 10, 0)
    state.builds.append(Build(kind="turret", owner=0, col=2, row=1))
    state.pieces.append(Piece(id=90, kind="gunner", owner=0, col=4, row=4, disabled=True))
    state.pieces.append(Piece(id=91, kind="steam-tank", owner=1, col=4, row=5))
    state.current, state.actions_left = 1, 4
    state = GAME.apply(state, 1, {"kind": "attack", "unit": "E6", "target": "E5"}).state
    view = GAME.view(state, None)
    assert view.combat is not None and view.builds
    image = _image(render(view))
    assert image.height <= phone.MAX_HEIGHT
    assert _count(image, ib.DISABLED) > 30  # the disabled gunner's ring and corner
    texts = " ".join(text for _, text in _measured(lambda: render(view)).texts)
    assert "decides on Surge" in texts and "Surge or not?" in texts


def test_each_strip_counts_the_advantage_tokens_left_in_words():
    """'Each player begins the game with 8 Advantage tokens ... for any 1 of the actions listed on the
    token' (issue 41): one count per side, its plural right ('1 advantage token'), on the turn picture
    beside the army, at every board size; the players section adds what they were played for."""
    for size in (10, 16):
        state = _played(3, size, 0, names=["Wilhelmina Longname the Third", "Bartholomew Q. Brassworth"])
        state.players[1].advantage_tokens = 1
        state.players[1].played = {"spotter": 2, "surge": 3, "open_road": 1, "heal": 1}
        view = GAME.view(state, None)
        drawn = _measured(lambda v=view: render(v))
        texts = [text for _, text in drawn.texts]
        assert "8 advantage tokens left" in texts and "1 advantage token left" in texts
        assert drawn.smallest >= phone.MIN_TEXT
    drawn = _measured(lambda: sections.players_section(view))
    words = " ".join(text for _, text in drawn.texts)
    assert "8 advantage tokens left (played: none)" in words
    assert "1 advantage token left (played: Spotter 2, Surge 3, Open Road 1, Heal 1)" in words
    assert drawn.smallest >= phone.MIN_TEXT


def _picking_state():
    """Alice has picked a Barracks to build and is choosing its square."""
    state = _played(3, 10, 0)
    state.current, state.step, state.picking = 0, "play", "build:barracks"
    return state


def test_the_hand_picture_is_the_seats_choice_without_the_board():
    state = _picking_state()
    public, mine = GAME.view(state, None), GAME.view(state, 0)
    assert mine.picking == "build:barracks" and public.picking is None
    hand = _measured(lambda: render(mine))
    board = _measured(lambda: render(public))
    assert hand.width == phone.PHONE_WIDTH and hand.height < board.height / 2
    assert hand.smallest >= phone.MIN_TEXT
    hand_texts = [text for _, text in hand.texts]
    assert any("Barracks" in text for text in hand_texts)
    assert hand_texts[0].startswith("Iron & Brass · Alice (Iron)")
    assert not {"A", "J", "10", "SK", "HQ"} & set(hand_texts)  # no column letters, rows or pieces
    assert not any("Gold Mined" in text or "Opening roll" in text for text in hand_texts)
    board_texts = " ".join(text for _, text in board.texts)
    assert "You are placing" not in board_texts  # the public picture shows nothing of the choice


def test_a_hand_picture_with_nothing_private_says_so():
    view = GAME.view(_played(3, 10, 0), 1)
    texts = " ".join(text for _, text in _measured(lambda: render(view)).texts)
    assert "Nothing private" in texts


def test_long_names_are_fitted():
    name = "W" * 200
    state = _played(5, 16, 30, names=[name, "مرحبا " * 30])
    view = GAME.view(state, None)
    drawn = _measured(lambda: render(view))
    assert drawn.height <= phone.MAX_HEIGHT
    for size, text in drawn.texts:
        assert text_width(text, int(size), bold=True) <= phone.PHONE_WIDTH, text[:40]
    assert not any(name in text for _, text in drawn.texts)


@pytest.mark.parametrize("section", SECTIONS)
def test_each_section_renders_readably(section):
    overlay = overlays_for("iron-and-brass")[section]
    assert not overlay.target and overlay.description
    for size in (10, 16):
        view = GAME.view(_played(size, size, 150), None)
        drawn = _measured(lambda v=view: overlay.draw(v, None))
        assert drawn.width == phone.PHONE_WIDTH
        assert drawn.height <= 1600
        assert drawn.smallest >= phone.MIN_TEXT, drawn.too_small()


def test_the_key_section_and_key_explain_every_code():
    view = GAME.view(_played(3, 10, 0), None)
    texts = [text for _, text in _measured(lambda: sections.key_section(view)).texts]
    for item in view.items:
        assert item.code in texts and item.token in texts
        assert re.search(rf"\b{item.code} [A-Z]", KEY), item.code
    assert len(KEY) < 600  # it joins the alt text only while that stays under 1,000 characters
    for word in (
        "blue",
        "crimson",
        "disc",
        "Dashed",
        "yellow",
        "magenta",
        "Spot",
        "Surge",
        "Road",
        "Heal",
        "P1",
    ):
        assert word in KEY, word


def test_the_players_section_lists_each_sides_pieces():
    view = GAME.view(_played(3, 10, 60), None)
    texts = " ".join(text for _, text in _measured(lambda: sections.players_section(view)).texts)
    for piece in view.pieces:
        assert piece.square in texts


def test_overlay_names_keep_range_first():
    assert [overlay.name for overlay in OVERLAYS] == ["range", *SECTIONS]


def test_the_range_overlay_colours_moves_and_attacks():
    """render_range: green where the unit may move, red within its attack range."""
    state = _played(3, 10, 0)
    state.pieces = [p for p in state.pieces if p.kind == "headquarters"]
    state.pieces.append(Piece(id=90, kind="gunner", owner=0, col=4, row=4))  # E5
    view = GAME.view(state, None)
    png = render_range(view, "E5")
    image = _image(png)
    assert png != render(view)
    green = _square_pixel(image, "E8", 10)  # 3 steps up: a move
    assert _near(green, ib.MOVE), green
    plain = _square_pixel(image, "E9", 10)  # 4 steps: out of move 3, out of range 2
    assert _near(plain, ib.LIGHT) or _near(plain, ib.DARK), plain
    both = _square_pixel(image, "G5", 10)  # 2 orthogonal steps right: a move, in range (framed)
    assert _near(both, ib.MOVE)
    assert _count(image, Palette.bad) > 200
    drawn = _measured(lambda: render_range(view, "E5"))
    assert drawn.smallest >= phone.MIN_TEXT


def test_range_of_an_empty_square_and_a_structure():
    view = GAME.view(_played(3, 10, 0), None)
    for square in ("C5", "Z1", next(p.square for p in view.pieces if p.kind == "headquarters")):
        drawn = _measured(lambda s=square: render_range(view, s))
        assert drawn.width == phone.PHONE_WIDTH and drawn.smallest >= phone.MIN_TEXT


def test_changes_mark_the_strips_the_marker_and_the_battle():
    old_state = _played(3, 10, 0)
    new_state = GAME.copy_state(old_state)
    new_state.players[0].gold += 3
    new_state.players[1].crew += 1
    new_state.players[1].advantage_tokens -= 1
    new_state.players[1].played["surge"] += 1
    new_state.gold_left -= 1
    new_state.pieces.append(Piece(id=90, kind="gunner", owner=0, col=4, row=4))
    old, new = GAME.view(old_state, None), GAME.view(new_state, None)
    found = changes(old, new)
    assert {"gold:0", "crew:1", "tokens:1", "army:0", "gold-left", "E5"} <= found.marks
    words = " ".join(found.lines)
    assert "Alice: gold 8 → 11" in words and "Bob: advantage tokens 8 → 7 (Surge)" in words
    assert "Gold Mined marker 48 → 47" in words and "E5: Alice's Mechanized Gunner Patrol now here" in words
    assert "gold:1" not in found.marks and "battle" not in found.marks


def test_a_battle_is_marked_and_told():
    state = _played(3, 10, 0)
    state.pieces.append(Piece(id=90, kind="gunner", owner=0, col=4, row=4))
    state.pieces.append(Piece(id=91, kind="steam-tank", owner=1, col=4, row=5))
    state.current, state.actions_left = 1, 4
    after = GAME.apply(state, 1, {"kind": "attack", "unit": "E6", "target": "E5"}).state
    found = changes(GAME.view(state, None), GAME.view(after, None))
    assert "battle" in found.marks and any("E6" in line and "E5" in line for line in found.lines)


def test_marks_frame_what_changed():
    view = GAME.view(_played(3, 10, 0), None)
    plain = _count(_image(render(view)), Palette.changed)
    for marks in ({"gold:0"}, {"tokens:1"}, {"army:1"}, {"gold-left"}, {"E5"}):
        framed = _count(_image(render(view, marks=frozenset(marks))), Palette.changed)
        assert framed > plain + 150, marks
