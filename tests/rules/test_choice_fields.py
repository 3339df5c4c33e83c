"""Every game's choices are whole `Choice` objects, however fast they are built (`rules.core.assembled`
skips validation): each declared field has a value, so code reading `choice.path` or `choice.timeout`
works for every game, and a choice equals the one pydantic would build from the same values."""

from __future__ import annotations

import pytest

from rules.core import Choice
from tests.support.playouts import offered_games, positions


@pytest.mark.parametrize("game", offered_games(), ids=lambda g: g.info.id)
def test_every_choice_has_every_field(game):
    seen = 0
    for position in positions(game, max(2, game.info.min_players), 5, every=40):
        for seat in sorted(game.to_act(position.state)):
            for choice in game.legal_actions(position.state, seat):
                assert set(vars(choice)) == set(Choice.model_fields), (game.info.id, choice.key)
                assert choice == Choice.model_validate(choice.model_dump()), choice.key
                seen += 1
    assert seen > 20, seen
