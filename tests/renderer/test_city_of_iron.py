"""City of Iron pictures: real phone-sized PNGs from views, the public one drawn from public data alone."""

from __future__ import annotations

import io
import random

from PIL import Image

from renderer import city_of_iron, phone
from renderer.city_of_iron import KEY, OVERLAYS, changes, render
from renderer.registry import marks_between, overlays_for, renderer_for
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
    """A turn, final or hand picture: phone width, no taller than 4:5."""
    assert png.startswith(b"\x89PNG")
    assert len(png) < 300_000
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.width == phone.PHONE_WIDTH
    assert image.height <= phone.MAX_HEIGHT
    return image


def _texts(png_maker) -> list[str]:  # noqa: ANN001 - a function returning PNG bytes
    drawn = phone.measure(png_maker)
    assert drawn.smallest >= phone.MIN_TEXT, drawn.too_small()
    return [text for _, text in drawn.texts]


def _page_texts(overlay, view) -> list[str]:  # noqa: ANN001 - an Overlay and a view
    """The texts of every page of a section (a long one is cut into pages no taller than 4:5)."""
    return [
        text
        for number in range(overlay.page(view).count)
        for text in _texts(lambda n=number: overlay.page(view, None, n).png)
    ]


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
    other = GAME.copy_state(state)
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
    _image(render(view))
    seat_view = GAME.view(state, view.final.lines[0].seat)
    assert seat_view.final == view.final
    _image(render(seat_view))
    # the result comes first: every seat's name and VP, in place order, before anything else is drawn
    texts = _texts(lambda: render(view))
    vp_texts = [text for text in texts if text.endswith(" VP") and text[:-3].lstrip("-").isdigit()]
    assert vp_texts[: len(view.final.lines)] == [f"{line.vp} VP" for line in view.final.lines]
    assert texts.index(f"{view.final.lines[0].vp} VP") < len(texts) // 2


def _mid_game(players: int = 4, seed: int = 8) -> CityState:
    """A state in the actions of round 3 or later, with buildings built and goods on the board."""
    return _played(
        players,
        seed,
        {"abilities": True, "expansion": True},
        stop=lambda s: s.round >= 3 and s.phase == "actions",
    )


BOARD_TITLES = ("Buildings on offer", "Track", "In turn order", "Nations", "◀ right plays first")


def test_the_hand_picture_holds_no_board():
    """A seat's picture shows its cards and piles under one header line, not the public board."""
    state = _mid_game()
    seat = state.current
    public, mine = GAME.view(state, None), GAME.view(state, seat)
    board_texts = _texts(lambda: render(public))
    hand_texts = _texts(lambda: render(mine))
    assert "Buildings on offer" in board_texts
    assert not set(BOARD_TITLES) & set(hand_texts)
    assert any(text.startswith("Your hand (") for text in hand_texts)
    assert "Your piles" in hand_texts
    for card in mine.private.hand:
        assert any(card.name in text for text in hand_texts), card.name
    # nobody else's name is drawn: the header names only the seat
    others = [name for index, name in enumerate(NAMES[: len(state.players)]) if index != seat]
    assert not [text for text in hand_texts if any(name in text for name in others)]
    assert _image(render(mine)).height < _image(render(public)).height


def test_the_purchase_hand_shows_what_the_seat_can_buy():
    state = _played(3, 4, {}, stop=lambda s: s.phase == "purchase")
    seat = next(seat for seat in sorted(GAME.to_act(state)))
    view = GAME.view(state, seat)
    texts = _texts(lambda: render(view))
    _image(render(view))
    assert any(text.startswith("Buy cards in secret") for text in texts)
    affordable = [card for card in view.private.unpurchased if card.coins <= view.seats[seat].coins]
    assert affordable
    assert any(affordable[0].name in text for text in texts)


def test_every_section_renders_readably():
    state = _mid_game()
    view = GAME.view(state, None)
    assert [overlay.name for overlay in OVERLAYS] == [
        "goods",
        "nations",
        "buildings",
        "towns",
        "lands",
        "key",
    ]
    assert set(overlays_for("city-of-iron")) == {overlay.name for overlay in OVERLAYS}
    for overlay in OVERLAYS:
        assert not overlay.target and overlay.description
        for number in range(overlay.page(view).count):
            drawn = phone.measure(lambda o=overlay, n=number: o.page(view, None, n).png)
            assert drawn.width == phone.PHONE_WIDTH and drawn.smallest >= phone.MIN_TEXT, overlay.name
            texts = [text for _, text in drawn.texts]
            assert texts[0].startswith("City of Iron — "), texts[:2]
            assert drawn.height <= phone.MAX_HEIGHT, (overlay.name, number, drawn.height)
    goods = _page_texts(OVERLAYS[0], view)
    for label, _, _ in city_of_iron.GOODS.values():
        assert label in goods
    nations = _page_texts(OVERLAYS[1], view)
    for info in view.seats:
        assert any(text.startswith(info.name) for text in nations), info.name


def test_changes_mark_what_the_turn_picture_draws():
    """Every mark `changes` gives for the turn picture's parts frames something on it (the picture
    changes), and goods changes are told in words, since the goods table is a section."""
    state = _played(4, 3, {}, stop=lambda s: s.round >= 2 and s.phase == "actions")
    before = GAME.view(state, None)
    seen: set[str] = set()
    rng = random.Random(1)
    for _ in range(40):
        state = _step(rng, state)
        after = GAME.view(state, None)
        found = changes(before, after)
        assert marks_between(before, after) == found.marks
        for key in found.marks:
            seen.add(key.split(":")[0])
            if key.split(":")[0] not in city_of_iron.FRAMED:
                assert key.startswith("good:"), key
                continue
            assert render(after, marks=frozenset({key})) != render(after), key
        goods = [key for key in found.marks if key.startswith("good:")]
        assert len([line for line in found.lines if line.startswith("Goods section:")]) == len(goods)
        before = after
    assert {"round", "track", "row", "deck", "coins", "acts"} <= seen, seen


def test_a_bid_marks_its_track_space():
    state = _played(3, 2, {}, stop=lambda s: s.phase == "bid")
    before = GAME.view(state, None)
    seat = state.current
    choice = next(choice for choice in GAME.legal_actions(state, seat) if choice.action.get("kind") == "bid")
    after = GAME.view(GAME.apply(state, seat, choice.action).state, None)
    found = changes(before, after)
    space = next(index for index, who in enumerate(after.track) if who == seat)
    assert f"track:{space}" in found.marks
    assert any(line.startswith("Track: ") for line in found.lines)


def test_the_key_explains_every_symbol_drawn():
    """Each symbol and abbreviation drawn on the turn, hand and section pictures is in KEY."""
    state = _mid_game()
    view = GAME.view(state, None)
    drawn: list[str] = _texts(lambda: render(view)) + _texts(lambda: render(GAME.view(state, state.current)))
    for overlay in OVERLAYS:
        drawn += _page_texts(overlay, view)
    symbols = {char for text in drawn for char in text if not char.isalnum() and not char.isspace()}
    plain = set(".,:;·/-–—+…()'≥%?!\"")
    missing = sorted(symbols - plain - set(KEY))
    assert not missing, missing
    for abbreviation in (
        "VP",
        "Income 3+1",
        "Acts",
        "+inc",
        "+cit",
        "+mil",
        "+sp",
        "⚗/rd",
        "FREE",
        "citizen 1·4",
    ):
        assert abbreviation in KEY, abbreviation
    assert len(KEY) <= 700, "the bot cuts the alt text at 1000 characters, the key shares it"


def test_the_nations_section_counts_city_tokens_in_words():
    """Issue 36: the nations picture read '1 city tokens'; its counts go through the words helper."""
    state = _mid_game()
    view = GAME.view(state, None)
    seats = [
        seat.model_copy(update={"tokens_left": left})
        for seat, left in zip(view.seats, (1, 0, 2, 1), strict=True)
    ]
    nations = next(overlay for overlay in OVERLAYS if overlay.name == "nations")
    drawn = _page_texts(nations, view.model_copy(update={"seats": seats}))  # four nations: two pages
    assert "1 city token" in drawn and "2 city tokens" in drawn and "0 city tokens" in drawn, drawn
    assert "1 city tokens" not in drawn
