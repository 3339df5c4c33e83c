"""Iron Bridge Gorge pictures: real PNGs from views, phone-sized, drawn from the view alone."""

from __future__ import annotations

import io
import random
import re

from PIL import Image

from renderer import iron_bridge_gorge as ibg
from renderer import phone
from renderer.canvas import Palette
from renderer.iron_bridge_gorge import KEY, OVERLAYS, changes, render
from renderer.registry import overlays_for, renderer_for
from rules.iron_bridge_gorge import GAME

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"]
BOARD_TITLES = ("On offer", "VP", "Coins", "Rev", "Bid", "Event", "Innovation")
"""Texts only the turn picture draws: a hand picture holding any of them repeats the board."""


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


def _image(png: bytes, *, sized: bool = True) -> Image.Image:
    assert png.startswith(b"\x89PNG")
    assert len(png) < 1_000_000
    image = Image.open(io.BytesIO(png))
    assert image.width == phone.PHONE_WIDTH
    if sized:
        assert image.height <= phone.MAX_HEIGHT
    return image


def _texts(draw) -> str:  # noqa: ANN001 - a callable returning PNG bytes
    drawn = phone.measure(draw)
    assert drawn.smallest >= phone.MIN_TEXT, drawn.too_small()
    return "\n".join(text for _, text in drawn.texts)


def _page_texts(overlay, view) -> str:  # noqa: ANN001 - an Overlay and a view
    """The texts of every page of a section, one a line."""
    return "\n".join(
        _texts(lambda n=number: overlay.page(view, None, n).png) for number in range(overlay.page(view).count)
    )


def _magenta(png: bytes) -> int:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return sum(count for count, color in image.getcolors(1 << 16) or [] if color == Palette.changed)


def test_the_registry_finds_this_renderer():
    assert renderer_for("iron-bridge-gorge") is render


def test_the_turn_picture_fits_a_phone_at_six_seats():
    state = _played(3, 6, 25, stop_round=6)
    view = GAME.view(state, None)
    _image(render(view))
    texts = _texts(lambda: render(view))
    assert "On offer" in texts and "Coins" in texts
    for name in NAMES:
        assert name in texts


def test_the_hand_picture_holds_only_the_seats_own_view():
    state = _played(3, 4, 25, stop_round=6)
    public = _image(render(GAME.view(state, None)))
    seat = state.order[state.turn]
    mine = GAME.view(state, seat)
    private = _image(render(mine))
    assert private.height < public.height * 0.7, "a hand picture is no copy of the board"
    texts = _texts(lambda: render(mine))
    assert "Your hand" in texts
    assert not [title for title in BOARD_TITLES if title in texts]
    for card in mine.hand:
        assert card.name in texts


def test_the_public_board_shows_nothing_hidden():
    """Swapping a card of a hand with a different card of the deck changes that seat's board, not the public one."""
    state = _played(4, 3, 25, stop_round=3)
    holder = next(seat for seat, player in enumerate(state.players) if player.hand)
    other = GAME.copy_state(state)
    hand, deck = other.players[holder].hand, other.deck
    index = next(index for index, card in enumerate(deck) if card != hand[0])
    hand[0], deck[index] = deck[index], hand[0]
    assert render(GAME.view(state, None)) == render(GAME.view(other, None))
    assert render(GAME.view(state, holder)) != render(GAME.view(other, holder))
    for overlay in OVERLAYS:
        assert overlay.draw(GAME.view(state, None), None) == overlay.draw(GAME.view(other, None), None)


def test_a_secret_bid_shows_only_in_its_seats_hand_picture():
    start = GAME.setup(NAMES[:3], {}, 5)
    old = GAME.view(start, None)
    state = GAME.apply(start, 0, {"kind": "bid", "amount": 7}).state
    other = GAME.apply(start, 0, {"kind": "bid", "amount": 3}).state
    public = GAME.view(state, None)
    assert render(public) == render(GAME.view(other, None))
    assert render(public) != render(old), "the public picture says the bid is placed"
    assert "Your secret bid: 7" in _texts(lambda: render(GAME.view(state, 0)))
    found = changes(old, public)
    assert "bid:0" in found.marks
    assert any("placed a bid" in line for line in found.lines)
    assert not any("7" in line for line in found.lines)
    mine = changes(GAME.view(start, 0), GAME.view(state, 0))
    assert "mybid" in mine.marks


def test_a_trade_offer_is_drawn_for_the_parties_and_only_named_for_the_rest():
    state = _played(5, 3, 25, stop_round=2)
    seat = state.order[state.turn]
    partner = (seat + 1) % 3
    before = GAME.view(state, None)
    state = GAME.apply(
        state,
        seat,
        {"kind": "propose", "partner": partner, "give": {"coins": 1}, "get": {"vp": 0, "coins": 1}},
    ).state
    assert GAME.view(state, partner).proposal.text
    _image(render(GAME.view(state, partner)))
    partner_texts = _texts(lambda: render(GAME.view(state, partner)))
    assert "Trade offer" in partner_texts and "1 coin" in partner_texts
    public = GAME.view(state, None)
    public_texts = _texts(lambda: render(public))
    assert "offered" in public_texts and "1 coin" not in public_texts
    assert "trade" in changes(before, public).marks


def test_the_finished_game_shows_the_result_first():
    state = _played(6, 4, 3)
    view = GAME.view(state, None)
    assert view.finished and view.scoreboard
    _image(render(view))
    texts = _texts(lambda: render(view)).split("\n")
    winner = view.scoreboard[0]
    assert any(f"wins with {winner.vp} VP" in text for text in texts[:3])


def test_every_section_renders_readably_and_keeps_to_its_topic():
    state = _played(7, 6, 25, stop_round=8)
    view = GAME.view(state, None)
    assert set(overlays_for("iron-bridge-gorge")) == {"cards", "players", "events", "key"}
    for overlay in OVERLAYS:
        assert overlay.target == "" and overlay.description
        for number in range(overlay.page(view).count):  # a long section is cut into 4:5 pages
            _image(overlay.page(view, None, number).png, sized=True)
            texts = _texts(lambda o=overlay, n=number: o.page(view, None, n).png)
            assert "Iron Bridge Gorge" in texts
    cards = _page_texts(OVERLAYS[0], view)
    assert all(card.name in cards for card in view.row)
    players = _page_texts(OVERLAYS[1], view).replace("\n", " ")  # names wrap between words
    assert all(card.name in players for seat in view.seats for card in seat.resources)
    events = _page_texts(OVERLAYS[2], view)
    assert all(entry.name in events for entry in view.innovations)


def test_changes_mark_the_cells_that_moved_and_the_frames_are_drawn():
    state = _played(8, 3, 25, stop_round=4)
    for _ in range(200):
        seat = min(GAME.to_act(state))
        builds = [choice for choice in GAME.legal_actions(state, seat) if choice.key.startswith("build")]
        if builds:
            break
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1].action).state
    assert builds, "the playout reaches a build"
    before = GAME.view(state, None)
    after_state = GAME.apply(state, seat, builds[0].action).state
    after = GAME.view(after_state, None)
    found = changes(before, after)
    built = GAME.cards[builds[0].action["card"]]
    assert {f"coins:{seat}", f"hand:{seat}", f"{built.type}:{seat}"} <= found.marks
    assert any(built.name in line for line in found.lines)
    assert _magenta(render(after, marks=found.marks)) > 0
    assert _magenta(render(after)) == 0
    mine = changes(GAME.view(state, seat), GAME.view(after_state, seat))
    assert f"coins:{seat}" in mine.marks


def test_a_new_round_marks_the_row_and_the_event():
    state = _played(9, 2, 25, stop_round=3)
    before = GAME.view(state, None)
    while GAME.view(state, None).round == before.round:
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1].action).state
    found = changes(before, GAME.view(state, None))
    assert "row" in found.marks
    assert any(line.startswith("Round") for line in found.lines)


def test_the_key_explains_every_symbol_drawn():
    state = _played(3, 6, 25, stop_round=6)
    view = GAME.view(state, None)
    texts = _texts(lambda: render(view)).split("\n")
    words = {*NAMES, *(word for card in view.row for word in card.name.split())}
    symbols = {
        text for text in texts if len(text) <= 5 and text.strip("+-0123456789 Lc·") and text not in words
    }
    assert {"VP", "Coins", "F", "O"} <= symbols, "the table's titles are among the symbols checked"
    symbols |= {"✓", "–", "▶", "L", "loan", "5c", "+2", "magenta", "yellow", "filled"}
    for symbol in symbols:
        assert symbol in KEY, symbol
    for letter, (label, _, _) in ibg.TYPES.items():
        assert f"{letter} {label}" in KEY


def test_each_letter_of_the_key_means_one_thing():
    """Issue 36: the legend under the turn picture read "L Limestone" and "L loan" — one letter, two
    meanings. Every single-letter symbol the key and the short key explain names one thing only, and a
    seat's loan is marked with a word no type uses."""
    from renderer.iron_bridge_gorge.key import SHORT_KEY
    from renderer.iron_bridge_gorge.layout import LOAN

    meanings: dict[str, set[str]] = {}
    for text in (*SHORT_KEY, KEY.removeprefix("Key: ")):
        for item in re.split(r" · |, |; ", text):
            found = re.match(r"([A-Z]) (\w+)", item.strip())
            if found and found[2] not in ("or", "and", "for", "to"):
                meanings.setdefault(found[1], set()).add(found[2].lower())
    doubled = {letter: found for letter, found in meanings.items() if len(found) > 1}
    assert not doubled, doubled
    assert set(ibg.TYPES) <= set(meanings)
    assert LOAN not in ibg.TYPES and len(LOAN) > 1
