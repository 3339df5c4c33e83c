"""Every game's pictures come with a key to their symbols, told once in the alt text (issue 19's keys;
a doubled "Key: Key:" was found playing Iron Bridge Gorge through --local)."""

from __future__ import annotations

import pytest

from bot.app.announcer import picture_alt
from renderer.registry import symbol_key
from tests.support.playouts import offered_games


@pytest.mark.parametrize("game", offered_games(), ids=lambda g: g.info.id)
def test_the_alt_text_names_the_key_once(game):
    key = symbol_key(game.info.id)
    assert key and not key.lower().startswith("key")
    view = game.view(game.setup(["Alice", "Bob"] if game.info.max_players > 1 else ["Alice"], {}, 1), None)
    alt = picture_alt(view)
    assert alt.count("Key:") == 1, alt
