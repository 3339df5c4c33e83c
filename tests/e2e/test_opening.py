"""Issue 19: what a game's setup rolled is told in its first post, through the real bot and emulator.

`setup` returns only a state, so the dice it rolls (Iron Bridge Gorge's round 1 Development and Event
rolls, Iron & Brass's roll for Player 1, City of Iron's random bid order and nations) come from
`Game.opening_events`; the start of a game must announce them as every later roll is announced.
"""

from __future__ import annotations

import pytest

from bot.app.announcer import one_line
from rules import registry
from tests.e2e.harness import open_game, world


async def _first_post_and_opening(w, kind: str) -> tuple[str, list[str]]:
    """The game's first turn post and the opening lines the engine tells for the same seed and seats."""
    service = w.bot.service
    game = await service.store.latest_game_in(w.channels["table"])
    seats = await service.store.seats(game.id)
    rules = registry.get(kind)
    state = rules.setup([seat.name for seat in seats], game.options, game.seed)
    first = w.turn_messages("table")[0]
    return first.content, [one_line(event.text) for event in rules.opening_events(state)]


@pytest.mark.parametrize(
    ("kind", "options", "words"),
    [
        ("iron-bridge-gorge", "rounds=3", ("Round 1: development roll", "Event roll")),
        ("iron-and-brass", "board_size=10", ("Opening roll:", "is Player 1 and plays first")),
        ("city-of-iron", "nations=random", ("Bid order, drawn at random", "Nations dealt at random")),
    ],
)
async def test_the_first_post_tells_what_setup_rolled(tmp_path, kind, options, words):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await open_game(w, "table", alice, [bob], game=kind, seed=5, options=options)
        content, opening = await _first_post_and_opening(w, kind)
        assert "the game begins" in content
        assert opening and all(line in content for line in opening), (opening, content)
        assert all(word in content for word in words)
        (picture,) = w.turn_messages("table")[0].attachments
        assert (picture.description or "").count("At the start: ") == 1, "the alt text tells it as the start"
        assert "Last move" not in (picture.description or "")
        assert not w.server.errors, w.server.errors
