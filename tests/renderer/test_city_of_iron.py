"""City of Iron pictures: real phone-sized PNGs from views, the public one drawn from public data alone."""

from __future__ import annotations

import io
import random

from PIL import Image

from renderer.city_of_iron import render
from renderer.registry import renderer_for
from rules.city_of_iron import GAME
from rules.city_of_iron.state import CityState

NAMES = ["Alice", "Bob", "Carolina", "Dave"]
OPTIONS = [{}, {"abilities": True, "expansion": True}, {"expansion": True, "nations": "pick"}]


def _step(rng: random.Random, state: CityState) -> CityState:
    """One seeded random move, leaning to builds, attacks and card plays so the boards fill up."""
    seat = rng.choice(sorted(GAME.to_act(state)))
    choices = GAME.legal_actions(state, seat)
    if state.phase == "purchase" and rng.random() < 0.5:
        return GAME.apply(state, seat, {"kind": "done"}).state
    busy = [
        choice for choice in choices if choice.action.get("kind") in ("build", "attack", "play", "select")
    ]
    choice = rng.choice(busy if busy and rng.random() < 0.7 else choices)
    return GAME.apply(state, seat, choice.action).state


def _played(players: int, seed: int, options: dict, stop=None) -> CityState:
    rng = random.Random(seed)
    state = GAME.setup(NAMES[:players], options, seed)
    while GAME.result(state) is None and not (stop and stop(state)):
        state = _step(rng, state)
    return state


def _image(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG")
    assert len(png) < 1_000_000
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.width >= 1000
    return image


def test_the_registry_finds_this_renderer():
    assert renderer_for("city-of-iron") is render


def test_public_and_seat_pictures_through_whole_games():
    """2, 3 and 4 players: at the start, in the bidding, the actions, the secret purchases and the end."""
    for players, options in zip((2, 3, 4), OPTIONS, strict=True):
        rng = random.Random(players)
        state = GAME.setup(NAMES[:players], options, players)
        seen: set[tuple[str, bool]] = set()
        while True:
            moment = (state.phase, state.scorings >= 2)
            if moment not in seen and state.phase in ("arrange", "bid", "actions", "purchase", "over"):
                seen.add(moment)
                _image(render(GAME.view(state, None)))
                seat = min(GAME.to_act(state), default=players - 1)
                _image(render(GAME.view(state, seat)))
            if GAME.result(state) is not None:
                break
            state = _step(rng, state)
        assert {("actions", True), ("purchase", False), ("over", True)} <= seen


def test_the_public_picture_shows_nothing_hidden():
    """Two states differing only in one seat's secrets (hand, pile order, secret purchases) give the same
    public picture, byte for byte, while that seat's own picture changes."""
    state = _played(
        4,
        21,
        {"abilities": True},
        stop=lambda s: s.round >= 3 and s.phase == "purchase" and any(p.selected for p in s.players),
    )
    seat = next(index for index, player in enumerate(state.players) if player.selected)
    other = state.model_copy(deep=True)
    player = other.players[seat]
    # a different secret choice among the unpurchased cards, and the piles in another order
    player.selected = []
    player.unpurchased.reverse()
    player.citizen_draw.reverse()
    player.military_draw.reverse()
    if player.hand and player.unpurchased:
        player.hand[0], player.unpurchased[-1] = player.unpurchased[-1], player.hand[0]
    assert GAME.view(state, None) == GAME.view(other, None)
    assert render(GAME.view(state, None)) == render(GAME.view(other, None))
    assert render(GAME.view(state, seat)) != render(GAME.view(other, seat))


def test_the_finished_game_shows_the_scoreboard():
    state = _played(4, 5, {"expansion": True})
    view = GAME.view(state, None)
    assert view.finished and view.final is not None
    result = GAME.result(state)
    assert [line.seat for line in view.final.lines] == [seat for place in result.ranking for seat in place]
    for line in view.final.lines:
        assert line.scorings + sum(line.bonuses.values()) == line.vp == state.players[line.seat].vp
    public = _image(render(view))
    seat_view = GAME.view(state, view.final.lines[0].seat)
    assert seat_view.final == view.final
    _image(render(seat_view))
    assert public.height > 1500
