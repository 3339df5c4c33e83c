"""Iron Bridge Gorge boards: real PNGs from views, phone-sized, and drawn from the view alone."""

from __future__ import annotations

import io
import random

from PIL import Image

from renderer.iron_bridge_gorge import render
from renderer.registry import renderer_for
from rules.iron_bridge_gorge import GAME

NAMES = ["Alice", "Bob", "Carol", "Dave"]


def _played(seed: int, players: int, rounds: int, *, stop_round: int | None = None):
    """A game played by a seeded random player (building often), to the end or into `stop_round`'s turns."""
    rng = random.Random(seed)
    state = GAME.setup(NAMES[:players], {"rounds": rounds}, seed)
    while GAME.result(state) is None:
        if (
            stop_round is not None
            and state.round >= stop_round
            and state.step == "turn"
            and state.phase != "decision"
        ):
            break
        seat = rng.choice(sorted(GAME.to_act(state)))
        choices = GAME.legal_actions(state, seat)
        builds = [choice for choice in choices if choice.key.startswith(("build", "take"))]
        ends = [
            choice
            for choice in choices
            if choice.key in ("end-turn", "bid:1") or choice.key.startswith("discard")
        ]
        choice = rng.choice(builds or ends or choices)
        state = GAME.apply(state, seat, choice.action).state
    return state


def _image(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG")
    assert len(png) < 1_000_000
    image = Image.open(io.BytesIO(png))
    assert 1000 <= image.width <= 1200
    return image


def test_the_registry_finds_this_renderer():
    assert renderer_for("iron-bridge-gorge") is render


def test_public_and_private_boards_are_phone_sized_pngs():
    state = _played(3, 4, 25, stop_round=6)
    public = _image(render(GAME.view(state, None)))
    seat = state.order[state.turn]
    private = _image(render(GAME.view(state, seat)))
    assert private.height > public.height, "the private board adds the hand"


def test_the_public_board_shows_nothing_hidden():
    """Swapping a card of a hand with a different card of the deck changes that seat's board, not the public one."""
    state = _played(4, 3, 25, stop_round=3)
    holder = next(seat for seat, player in enumerate(state.players) if player.hand)
    other = state.model_copy(deep=True)
    hand, deck = other.players[holder].hand, other.deck
    index = next(index for index, card in enumerate(deck) if card != hand[0])
    hand[0], deck[index] = deck[index], hand[0]
    assert render(GAME.view(state, None)) == render(GAME.view(other, None))
    assert render(GAME.view(state, holder)) != render(GAME.view(other, holder))


def test_a_trade_offer_is_drawn_for_the_parties():
    state = _played(5, 3, 25, stop_round=2)
    seat = state.order[state.turn]
    partner = (seat + 1) % 3
    state = GAME.apply(
        state,
        seat,
        {"kind": "propose", "partner": partner, "give": {"coins": 1}, "get": {"vp": 0, "coins": 1}},
    ).state
    assert GAME.view(state, partner).proposal.text
    _image(render(GAME.view(state, partner)))
    _image(render(GAME.view(state, None)))


def test_the_finished_game_shows_the_final_scoreboard():
    state = _played(6, 4, 3)
    view = GAME.view(state, None)
    assert view.finished and view.scoreboard
    _image(render(view))
