"""City Heroes pictures: real PNGs from views of random games, phone-sized, drawn from the view alone.

`tests/renderer/test_phone.py -k city-heroes` holds every picture of played games to the phone's sizes;
these tests check what the pictures show: nothing hidden in the public one, only the seat's own view in
a hand picture, the sections, the marks of what changed and the key."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageChops

from renderer import phone
from renderer.canvas import Palette
from renderer.city_heroes import (
    ACTING,
    BUY,
    CODES,
    KEY,
    OVERLAYS,
    PASSED,
    RESOURCES,
    SCORE_COLUMNS,
    STRIP,
    SWORD,
    buy_prices,
    changes,
    render,
    render_buyable,
)
from renderer.registry import overlays_for, renderer_for, symbol_key
from rules.city_heroes import GAME
from rules.city_heroes.state import CityHeroesState, Proposal

NAMES = ["Alice", "Bob", "Chiara", "Dario", "Elena"]
WEIGHTS = {
    "buy": 3.0,
    "pass": 2.0,
    "end": 2.0,
    "end-pass": 3.0,
    "garrison": 2.0,
    "plant": 0.6,
    "build": 10.0,
    "upgrade": 10.0,
    "stage": 10.0,
    "found": 8.0,
    "craft": 2.0,
    "produce": 0.3,
    "token": 1.0,
    "bank-buy": 0.5,
    "bank-sell": 0.1,
    "rival": 0.03,
    "influence-sell": 0.01,
    "influence-buy": 0.01,
    "gift": 0.02,
    "ask": 0.03,
    "accept": 1.0,
    "decline": 1.0,
    "cancel": 0.3,
    "pillage": 8.0,
    "loot": 1.0,
    "casualty": 1.0,
}
"""A random player that builds, raises public works and pillages, so the maps have something on them."""


def _play(seed: int, players: int, *, stop=None) -> CityHeroesState:
    """A seeded random game of legal moves, to the end or until `stop(state)` holds."""
    rng = random.Random(seed)
    state = GAME.setup(NAMES[:players], {}, seed)
    while GAME.result(state) is None and not (stop and stop(state)):
        seat = rng.choice(sorted(GAME.to_act(state)))
        choices = GAME.legal_actions(state, seat)
        weights = [WEIGHTS.get(choice.key.split(":")[0], 1.0) for choice in choices]
        state = GAME.apply(state, seat, rng.choices(choices, weights)[0].action).state
    return state


def _image(png: bytes, *, tallest: int = phone.MAX_HEIGHT) -> Image.Image:
    """The PNG as an image, checked to be phone-sized: 800 wide, no taller than `tallest`."""
    assert png.startswith(b"\x89PNG")
    assert len(png) < 400_000
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.width == phone.PHONE_WIDTH
    assert image.height <= tallest
    return image


SECTION_HEIGHT = phone.MAX_HEIGHT
"""The tallest a section's page may be: a phone screen (a longer section is cut into pages)."""


def _near(image: Image.Image, color: tuple[int, int, int], tolerance: int = 24) -> int:
    """How many pixels are within `tolerance` of `color` on every channel."""
    bands = [
        band.point([255 if abs(value - target) <= tolerance else 0 for value in range(256)])
        for band, target in zip(image.convert("RGB").split(), color, strict=True)
    ]
    mask = ImageChops.multiply(ImageChops.multiply(bands[0], bands[1]), bands[2])
    return mask.histogram()[255]


def test_the_registry_finds_this_renderer():
    assert renderer_for("city-heroes") is render


def test_views_through_random_games_of_one_three_and_five_players():
    for players, seed in ((1, 1), (3, 2), (5, 3)):
        for turn in (1, 4, 7):
            state = _play(
                seed, players, stop=lambda s, turn=turn: s.turn >= turn and s.phase == "construction"
            )
            public = _image(render(GAME.view(state, None)))
            private = _image(render(GAME.view(state, players - 1)))
            assert public.height > 900, "the map fills what the phone screen leaves"
            assert private.height < public.height / 1.5, "a hand picture holds no board"


def test_the_public_picture_depends_only_on_the_public_view():
    """Two states that differ only in a trade offer's terms (which only its two parties see)."""
    state = _play(4, 3, stop=lambda s: s.turn >= 3 and s.phase == "interaction")
    proposer, partner, outsider = state.current, (state.current + 1) % 3, (state.current + 2) % 3
    one, two = GAME.copy_state(state), GAME.copy_state(state)
    one.proposal = Proposal(proposer=proposer, partner=partner, give={"wheat": 2}, get={"stone": 1})
    two.proposal = Proposal(proposer=proposer, partner=partner, give={"timber": 1}, get={"ducats": 3})
    assert GAME.view(one, None) == GAME.view(two, None)
    assert GAME.view(one, partner) != GAME.view(two, partner)
    assert render(GAME.view(one, None)) == render(GAME.view(two, None))
    assert render(GAME.view(one, outsider)) == render(GAME.view(two, outsider))
    assert render(GAME.view(one, partner)) != render(GAME.view(two, partner)), "the partner sees the terms"
    _image(render(GAME.view(one, partner)))


def test_render_buyable_marks_exactly_the_tiles_the_rules_let_the_player_buy():
    checked = 0
    for seed, players in ((5, 3), (6, 5), (7, 1)):
        rng = random.Random(seed)
        for _ in range(3):
            goal = rng.randint(1, 5)
            state = _play(seed, players, stop=lambda s, goal=goal: s.turn >= goal and s.phase == "expansion")
            if GAME.result(state) is not None:
                continue
            seat = state.current
            view = GAME.view(state, None)
            legal = {
                int(choice.key.split(":")[1])
                for choice in GAME.legal_actions(state, seat)
                if choice.key.startswith("buy:")
            }
            affordable = {
                tile for tile, price in buy_prices(view, seat).items() if price <= view.seats[seat].ducats
            }
            assert affordable == legal
            for tile in legal:
                assert buy_prices(view, seat)[tile] == GAME.price(state, seat, tile)
            image = _image(render_buyable(view), tallest=SECTION_HEIGHT)
            if legal:
                assert _near(image, BUY) > 500 * len(legal), "the buyable tiles are outlined in yellow"
            checked += 1
    assert checked >= 5


def test_render_buyable_outside_the_expansion_and_for_a_seat_view():
    state = _play(8, 3, stop=lambda s: s.turn >= 2 and s.phase == "construction")
    for png in (
        render_buyable(GAME.view(state, None)),
        render_buyable(GAME.view(state, 1)),
        render_buyable(GAME.view(state, None), seat=2),
    ):
        _image(png, tallest=SECTION_HEIGHT)


def test_marks_on_the_map_pillage_garrison_and_public_works():
    state = _play(9, 3, stop=lambda s: s.turn >= 4)
    plain = render(GAME.view(state, None))
    owned = [tile for tile in state.tiles if tile.owner is not None]
    owned[0].pillaged = True
    owned[1].garrison, owned[1].spent = 3, 2
    owned[2].building, owned[2].work, owned[2].stages = None, "kronborg", 2
    neutral = next(tile for tile in state.tiles if tile.owner is None)
    neutral.work, neutral.stages = "la-rotonda", 3
    marked = _image(render(GAME.view(state, None)))
    assert render(GAME.view(state, None)) != plain
    assert _near(marked, (200, 20, 20), 30) > 300, "red stripes on the pillaged tile"


def _exactly(image: Image.Image, color: tuple[int, int, int]) -> int:
    return _near(image, color, 0)


def test_a_changed_tile_keeps_its_owners_band():
    """Issue 36: the magenta frame of a tile bought this turn covered its ownership band, so the picture
    could not say who bought it. Framed, a tile keeps most of its band: the owner's colour lost to the
    frames is under a third of one tile's band."""
    state = _play(14, 3, stop=lambda s: s.turn >= 3)
    view = GAME.view(state, None)
    owners = [tile.owner for tile in view.tiles if tile.owner is not None]
    assert owners, "the game has owned tiles"
    owner = max(set(owners), key=owners.count)
    mine = [tile.id for tile in view.tiles if tile.owner == owner]
    color = Palette.seat(owner)
    plain = _exactly(_image(render(view)), color)
    per_tile = plain / len(mine)
    framed = _exactly(_image(render(view, marks=frozenset(f"tile:{tile}" for tile in mine))), color)
    assert _near(_image(render(view, marks=frozenset({f"tile:{mine[0]}"}))), Palette.changed, 0) > 0
    assert plain - framed < len(mine) * per_tile / 3, (plain, framed, len(mine))


def test_a_finished_game_shows_the_result_either_way():
    state = _play(10, 3)
    view = GAME.view(state, None)
    assert view.finished and view.scoreboard
    lost = render(view)
    _image(lost)
    state.prestige = state.rival_prestige + 3
    won = GAME.view(state, None)
    assert won.city_wins
    assert render(won) != lost
    _image(render(won))
    _image(render(GAME.view(state, 0)))
    _image(render_buyable(won), tallest=SECTION_HEIGHT)


def _texts(draw) -> set[str]:  # noqa: ANN001 - a function returning PNG bytes
    return {text for _, text in phone.measure(draw).texts}


def _page_texts(overlay, view) -> set[str]:  # noqa: ANN001 - an Overlay and a view
    """The texts of every page of a section (a long one is cut into pages no taller than 4:5)."""
    count = overlay.page(view).count
    return {text for n in range(count) for text in _texts(lambda n=n: overlay.page(view, None, n).png)}


def _with_offer(players: int = 3) -> tuple[CityHeroesState, int, int, int]:
    state = _play(4, players, stop=lambda s: s.turn >= 3 and s.phase == "interaction")
    proposer, partner, outsider = state.current, (state.current + 1) % 3, (state.current + 2) % 3
    state.proposal = Proposal(proposer=proposer, partner=partner, give={"wheat": 2}, get={"gold": 1})
    return state, proposer, partner, outsider


def test_a_hand_picture_holds_the_offer_and_no_board():
    state, proposer, partner, _ = _with_offer()
    public = GAME.view(state, None)
    hand = GAME.view(state, partner)
    board_texts = _texts(lambda: render(public))
    hand_texts = _texts(lambda: render(hand))
    strip_labels = {label for label, _ in STRIP}
    assert strip_labels <= board_texts
    assert not strip_labels & hand_texts, "no score strip in the hand"
    assert not {str(tile.id) for tile in public.tiles} & hand_texts, "no map in the hand"
    assert "Trade offer" in hand_texts
    assert "Wheat 2" in hand_texts and "Gold 1" in hand_texts, "the terms, which only the parties see"
    assert "Wheat 2" not in board_texts
    assert "You may accept or decline it." in hand_texts
    assert any(state.players[partner].name in text and "Turn 3/" in text for text in hand_texts)
    assert _image(render(hand)).height < _image(render(public)).height / 1.5
    proposer_texts = _texts(lambda: render(GAME.view(state, proposer)))
    assert "Waiting for the answer; you may cancel it." in proposer_texts


def test_every_section_renders_readably():
    assert {overlay.name for overlay in OVERLAYS} == {"buyable", "cities", "key"}
    assert set(overlays_for("city-heroes")) == {"buyable", "cities", "key"}
    for players, seed in ((1, 11), (5, 12)):
        state = _play(seed, players, stop=lambda s: s.turn >= 3)
        view = GAME.view(state, None)
        for overlay in OVERLAYS:
            assert not overlay.target
            for number in range(overlay.page(view).count):
                drawn = phone.measure(lambda o=overlay, v=view, n=number: o.page(v, None, n).png)
                assert drawn.width == phone.PHONE_WIDTH
                assert drawn.height <= phone.MAX_HEIGHT, (overlay.name, number)
                assert drawn.too_small() == [], overlay.name
        cities = _page_texts(OVERLAYS[1], view)
        for seat in view.seats:
            assert seat.name in cities
            assert f"Weapons {seat.stock.get('weapons', 0)}" in cities


def test_the_key_section_names_every_code_and_symbol():
    view = GAME.view(_play(13, 2, stop=lambda s: s.turn >= 2), None)
    drawn = _page_texts(OVERLAYS[2], view)
    for key, code in CODES.items():
        assert code in drawn, key
    assert {"Barracks", "Kronborg", "Apartment", "Apothecary"} <= drawn
    for name, letter, _, _ in RESOURCES.values():
        assert letter in drawn and any(text.startswith(name) for text in drawn)
    assert {ACTING, PASSED, f"{SWORD}3", "2/6", "✓"} <= drawn
    assert len(set(CODES.values())) == len(CODES), "every code names one building"
    assert all(len(code) <= 2 for code in CODES.values()), "two letters fit a tile of the phone map"


def test_the_alt_text_key_explains_every_symbol_on_the_turn_picture():
    assert symbol_key("city-heroes") == KEY
    for name, letter, _, _ in RESOURCES.values():
        assert f"{letter} {name.lower()}" in KEY
    for symbol in (
        ACTING,
        PASSED,
        SWORD,
        "n/m",
        "Hill",
        "Plain",
        "white",
        "blue",
        "gold",
        "purple",
        "red stripes",
    ):
        assert symbol in KEY, symbol
    for label, _ in (*STRIP, *SCORE_COLUMNS):
        assert label in KEY, label
    assert "section:key" in KEY


def _magenta(png: bytes) -> int:
    return _near(_image(png), Palette.changed, 10)


def test_changes_mark_the_tiles_and_the_strip_cells_that_changed():
    state = _play(14, 3, stop=lambda s: s.turn >= 2 and s.phase == "construction")
    old = GAME.view(state, None)
    after = GAME.copy_state(state)
    neutral = next(tile for tile in after.tiles if tile.owner is None)
    neutral.owner, neutral.house = 1, "house"
    owned = next(tile for tile in after.tiles if tile.owner == 2)
    owned.garrison += 2
    after.players[1].ducats += 3
    after.players[1].passed = True
    after.prestige += 4
    new = GAME.view(after, None)
    found = changes(old, new)
    assert {
        f"tile:{neutral.id}",
        f"tile:{owned.id}",
        "tiles:1",
        "ducats:1",
        "state:1",
        "prestige",
    } <= found.marks
    assert "ducats:0" not in found.marks and "tiles:2" not in found.marks
    text = " ".join(found.lines)
    assert f"T{neutral.id} now belongs to {state.players[1].name}" in text
    assert f"T{owned.id} garrison" in text
    assert "City prestige" in text and "passed" in text
    assert changes(new, new).marks == frozenset()
    plain, framed = render(new), render(new, marks=found.marks)
    assert _magenta(plain) == 0
    assert _magenta(framed) > 2000
    one_tile = _magenta(render(new, marks=frozenset({f"tile:{neutral.id}"})))
    one_cell = _magenta(render(new, marks=frozenset({"ducats:1"})))
    assert 300 < one_tile < _magenta(framed) and 100 < one_cell < one_tile


def test_changes_name_a_long_name_fitted():
    state = _play(15, 2, stop=lambda s: s.turn >= 2)
    state.players[0].name = "Z" * 200
    old = GAME.view(state, None)
    state.players[0].ducats += 1
    lines = changes(old, GAME.view(state, None)).lines
    assert lines and all(len(line) < 120 for line in lines)
