"""City Heroes pictures: real PNGs from views of random games, phone-sized, drawn from the view alone."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageChops

from renderer.city_heroes import BUY, buy_prices, render, render_buyable
from renderer.registry import renderer_for
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


def _image(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG")
    assert len(png) < 1_000_000
    image = Image.open(io.BytesIO(png))
    image.load()
    assert 1000 <= image.width <= 1200
    assert image.height < 3000
    return image


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
            assert public.height > 1200
            assert private.size[0] == public.size[0]


def test_the_public_picture_depends_only_on_the_public_view():
    """Two states that differ only in a trade offer's terms (which only its two parties see)."""
    state = _play(4, 3, stop=lambda s: s.turn >= 3 and s.phase == "interaction")
    proposer, partner, outsider = state.current, (state.current + 1) % 3, (state.current + 2) % 3
    one, two = state.model_copy(deep=True), state.model_copy(deep=True)
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
            image = _image(render_buyable(view))
            if legal:
                assert _near(image, BUY) > 500 * len(legal), "the buyable tiles are outlined in yellow"
            checked += 1
    assert checked >= 5


def test_render_buyable_outside_the_expansion_and_for_a_seat_view():
    state = _play(8, 3, stop=lambda s: s.turn >= 2 and s.phase == "construction")
    _image(render_buyable(GAME.view(state, None)))
    _image(render_buyable(GAME.view(state, 1)))
    _image(render_buyable(GAME.view(state, None), seat=2))


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
    _image(render_buyable(won))
