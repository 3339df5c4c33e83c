"""Every lobby option reads in words (issue 36): its label and value, never its key; what 0 means where
0 is allowed; and no game summary names a number an option can change.

The lobby, `/game status` and the history file show options through `GameInfo.option_lines`, which reads
each game's own option declarations (`OptionSpec`), so these checks cover every place an option is shown.
"""

from __future__ import annotations

import re

import pytest

from rules import registry
from rules.core import Game, OptionSpec

GAMES = [game for game in registry.all_games() if type(game).__module__.startswith(registry.BUILTIN_MODULES)]
KEY = re.compile(r"\b[a-z]+_[a-z_]+\b")
"""A snake_case word: an internal key ('per_card', 'map_seed'), which no player should read."""


def _values(spec: OptionSpec) -> list[object]:
    if spec.kind == "bool":
        return [True, False]
    if spec.kind == "choice":
        return list(spec.choices)
    low = spec.min if spec.min is not None else 0
    high = spec.max if spec.max is not None else low + 10
    return sorted({low, high, int(spec.default)})


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.info.id)
def test_every_option_value_reads_as_words(game: Game) -> None:
    """'abilities=False, stored_penalty=per_card' was what `/game status` showed: each option is now its
    label and its value in words."""
    for spec in game.info.options:
        assert spec.description, f"{spec.name} has no description"
        for value in _values(spec):
            line = spec.line(value)
            assert line.startswith(spec.label + ": ")
            assert not KEY.search(line), f"{spec.name}={value!r} reads {line!r}"
        if spec.kind == "choice":
            assert set(spec.labels) == set(spec.choices), f"{spec.name}: every choice needs its words"
    lines = game.info.option_lines({})
    assert len(lines) == len(game.info.options), "a value left out reads as the default"


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.info.id)
def test_what_0_means_is_said_wherever_0_is_allowed(game: Game) -> None:
    """City Heroes' lobby showed 'Map seed: 0…999999999' and 'Turns: 0' without saying what 0 means: an
    option that takes 0 for something other than a count (random, the rules' length) says so in its
    description and in the value's words."""
    for spec in game.info.options:
        if spec.kind != "int" or (spec.min is not None and spec.min > 0):
            continue
        assert spec.zero, f"{spec.name} takes 0: say what 0 means"
        assert re.search(r"\b0\b", spec.description), f"{spec.name}'s description does not say what 0 means"
        assert spec.text(0) == spec.zero and spec.text(3) == "3"


def test_the_words_of_the_options_the_issue_named() -> None:
    """The lines issue 36 quoted, as they read now."""
    city = registry.get("city-of-iron").info
    assert city.option_lines({"abilities": False, "stored_penalty": "per_card"}) == [
        "Nations: dealt at random",
        "Nation abilities: off",
        "Town expansion: off",
        "Stored building penalty: 1 VP per stored building",
    ]
    heroes = registry.get("city-heroes").info
    assert heroes.option_lines({"map_seed": 0, "turns": 0}) == [
        "Map seed: random map",
        "Turns: the guide's length (12 solo, 10 for 2–3 players, 9 for 4, 8 for 5)",
        "Round actions: only alongside a phase action",
    ]
    assert heroes.option_lines({"map_seed": 42, "turns": 4, "round_actions": "alone_if_stuck"}) == [
        "Map seed: 42",
        "Turns: 4",
        "Round actions: also alone when no phase action is left",
    ]


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.info.id)
def test_no_summary_names_a_number_an_option_changes(game: Game) -> None:
    """The lobby shows the summary above the chosen options: Iron Bridge Gorge's said 'over 25 rounds'
    after 4 were chosen. A summary states no number; the options line says how long the game is."""
    assert not re.search(r"\d", game.info.summary), game.info.summary


def test_the_seats_a_game_takes_in_words() -> None:
    """'Iron & Brass (2-2 players)' in the game list: a fixed table says its one size."""
    assert registry.get("iron-and-brass").info.players_text() == "2 players"
    assert registry.get("iron-bridge-gorge").info.players_text() == "2–6 players"
    assert registry.get("city-heroes").info.players_text() == "1–5 players"
