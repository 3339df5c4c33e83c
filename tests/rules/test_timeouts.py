"""The clock's move for a seat out of time is declared by each game, never guessed (issue 39).

Every waiting situation of every game declares exactly one timeout choice: 'pass' where the rules give
the seat a way out (the choice the game marks `ends`: "End turn", "Done choosing", "Pass"), else
'safe', the game's designed default. The one exception: an open trade proposal, where the table waits
for its answer. Each game's table of what the clock plays is in `data/<game>/README.md`; `SITUATIONS`
below is that table, and the random games must meet it and nothing else.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar

import pytest

from rules.core import Choice, GameInfo
from tests.support.highcard import HighCard
from tests.support.playouts import Weight, key_weights, offered_games, random_game

TRADE_ANSWERS = {"accept", "decline", "cancel"}
"""An open trade proposal's choices: no timeout is declared there (the clock never answers or
withdraws a trade for a player)."""

SITUATIONS: dict[str, set[tuple[str, str]]] = {
    "city-of-iron": {
        ("safe", "nation"),
        ("safe", "arrange"),
        ("safe", "bid"),
        ("safe", "rebid"),
        ("safe", "build"),
        ("safe", "play"),
        ("safe", "attack"),
        ("safe", "store"),
        ("safe", "snyle"),
        ("pass", "purchase"),
    },
    "iron-bridge-gorge": {
        ("safe", "bid"),
        ("safe", "take"),
        ("safe", "discard"),
        ("pass", "end-turn"),
    },
    "iron-and-brass": {
        ("pass", "end"),
        ("safe", "build"),
        ("safe", "cf"),
        ("safe", "def"),
    },
    "city-heroes": {
        ("pass", "end"),
        ("pass", "pass"),
        ("safe", "buy"),
        ("safe", "plant"),
        ("safe", "garrison"),
        ("safe", "build"),
        ("safe", "craft"),
        ("safe", "pillage"),
        ("safe", "bank-buy"),
        ("safe", "bank-sell"),
        ("safe", "influence-buy"),
        ("safe", "influence-sell"),
        ("safe", "loot"),
        ("safe", "casualty"),
    },
}
"""(kind, the declared choice's key family) per game, as its README's table says."""

RARE = {
    ("city-of-iron", ("safe", "nation")),  # only with the 'nations: pick' option
    ("city-of-iron", ("safe", "attack")),  # first only when nothing can be built nor played
    ("city-of-iron", ("safe", "snyle")),  # only for the owner of Snyle (expansion towns)
    ("city-heroes", ("safe", "build")),
    ("city-heroes", ("safe", "craft")),
    ("city-heroes", ("safe", "influence-buy")),
    ("city-heroes", ("safe", "influence-sell")),
    ("city-heroes", ("safe", "casualty")),
    ("iron-and-brass", ("safe", "cf")),
}
"""Rows a few short random games may miss (a casualty to choose needs a pillage
with weapons from two tiles against a defence); the trace
of issue 39 met them all but the casualty."""

PLAYOUTS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "city-of-iron": [(2, {}), (3, {"nations": "pick", "abilities": True, "expansion": True}), (4, {})],
    "iron-bridge-gorge": [(2, {"rounds": 6}), (3, {"rounds": 10}), (6, {"rounds": 2})],
    "iron-and-brass": [(2, {"max_rounds": 6, "board_size": 10}), (2, {"max_rounds": 30, "board_size": 12})],
    "city-heroes": [(1, {"turns": 1}), (3, {"turns": 0}), (5, {"turns": 1})],
}


def _weights() -> dict[str, Weight]:
    """Each game's random player from its own playout tests, so the games look like games."""
    from tests.rules.city_heroes.test_playouts import WEIGHTS as CITY_HEROES
    from tests.rules.city_of_iron.test_playouts import weight as city_of_iron
    from tests.rules.iron_and_brass.test_playouts import _weight as iron_and_brass
    from tests.rules.iron_bridge_gorge.test_playouts import WEIGHTS as IRON_BRIDGE_GORGE

    return {
        "city-of-iron": city_of_iron,
        "iron-bridge-gorge": IRON_BRIDGE_GORGE,
        "iron-and-brass": iron_and_brass,
        "city-heroes": key_weights(CITY_HEROES),
    }


def declared_timeout(menu: list[Choice]) -> tuple[str, str] | None:
    """Check one seat's menu; (kind, key family) of its one declared timeout choice, or None for a
    trade proposal's answers."""
    declared = [choice for choice in menu if choice.timeout is not None]
    if {choice.key for choice in menu} <= TRADE_ANSWERS:
        assert declared == [], "a trade answer must be the player's"
        return None
    assert len(declared) == 1, [(c.key, c.timeout) for c in declared] or [c.key for c in menu]
    (choice,) = declared
    way_out = [c for c in menu if c.ends]
    if way_out:
        assert choice.timeout == "pass" and choice.ends, "where the rules allow passing, the clock passes"
    else:
        assert choice.timeout == "safe", "a 'pass' needs a way out of the decision"
    return choice.timeout, choice.key.split(":")[0]


@pytest.mark.parametrize("game", offered_games(), ids=lambda game: game.info.id)
def test_every_seat_that_must_act_has_one_declared_timeout_choice(game):
    """Random games of every game, several table sizes: at every state, each seat in `to_act` has
    exactly one choice marked for the clock, 'pass' when its menu has the rules' way out (City of Iron:
    "Done choosing"; Iron Bridge Gorge: '"End turn" skips what is left'; Iron & Brass: '"End turn" is
    always offered'; City Heroes: "End this action", "Pass"), else 'safe'; `timeout_choice` plays it
    ('skip' plays only a pass). The situations met are the game's README table."""
    met: Counter[tuple[str, str]] = Counter()
    states = 0

    def check(state: Any, _events: Any, _action: Any) -> None:
        nonlocal states
        states += 1
        for seat in sorted(game.to_act(state)):
            menu = game.legal_actions(state, seat)
            found = declared_timeout(menu)
            skip = game.timeout_choice(state, seat, "skip")
            default = game.timeout_choice(state, seat, "default")
            if found is None:
                assert skip is None and default is None
                continue
            met[found] += 1
            assert default is not None and (default.timeout, default.key.split(":")[0]) == found
            assert skip == (default if found[0] == "pass" else None)

    for number, (players, options) in enumerate(PLAYOUTS[game.info.id]):
        names = [f"P{index}" for index in range(players)]
        weight = _weights()[game.info.id]
        random_game(game, names, 100 + number, options=options, weight=weight, check=check)
    expected = SITUATIONS[game.info.id]
    assert set(met) <= expected, set(met) - expected
    missed = {row for row in expected - set(met) if (game.info.id, row) not in RARE}
    assert not missed, f"the random games never met {missed}"
    assert states > 100, states


class Unmarked(HighCard):
    """High Card whose choices say "Pass" and "Draw a card" but declare nothing."""

    info: ClassVar[GameInfo] = HighCard.info.model_copy(update={"id": "test-unmarked"})

    def _legal_actions(self, state: Any, seat: int) -> list[Choice]:
        return [choice.model_copy(update={"timeout": None}) for choice in super()._legal_actions(state, seat)]


class DrawMarked(HighCard):
    """High Card declaring "Draw a card" its pass, beside an unmarked "Pass"."""

    info: ClassVar[GameInfo] = HighCard.info.model_copy(update={"id": "test-draw-marked"})

    def _legal_actions(self, state: Any, seat: int) -> list[Choice]:
        return [
            choice.model_copy(update={"timeout": "pass" if choice.key == "draw" else None})
            for choice in super()._legal_actions(state, seat)
        ]


def _draw_phase(game: HighCard) -> tuple[Any, int]:
    state = game.setup(["Ann", "Ben"], {}, 4)
    rng = random.Random(0)
    while state.phase == "pledge":
        seat = min(game.to_act(state))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)).action).state
    return state, state.drawer


def test_core_reads_no_words():
    """A game whose menu says "Pass" but declares nothing gets no move from the clock, under either
    policy: the core matches no label or key. Declared, a choice is played whatever its words say."""
    unmarked = Unmarked()
    state, seat = _draw_phase(unmarked)
    assert {choice.label for choice in unmarked.legal_actions(state, seat)} >= {"Pass"}
    assert unmarked.timeout_choice(state, seat, "skip") is None
    assert unmarked.timeout_choice(state, seat, "default") is None
    pledging = unmarked.setup(["Ann", "Ben"], {}, 4)
    assert unmarked.timeout_choice(pledging, 0, "default") is None

    marked = DrawMarked()
    state, seat = _draw_phase(marked)
    assert marked.timeout_choice(state, seat, "skip").key == "draw"
    assert marked.timeout_choice(state, seat, "default").key == "draw"
    # the tests' High Card declares its own: the pass, and the first pledge
    plain = HighCard()
    state, seat = _draw_phase(plain)
    assert plain.timeout_choice(state, seat, "skip").key == "pass"
    pledging = plain.setup(["Ann", "Ben"], {}, 4)
    first = plain.legal_actions(pledging, 0)[0]
    assert plain.timeout_choice(pledging, 0, "skip") is None
    assert plain.timeout_choice(pledging, 0, "default") == first and first.timeout == "safe"


def test_city_heroes_casualties_have_a_safe_choice():
    """'After looting, the attacker selects casualties.' No pass: the clock loses a weapon from the first
    committed tile (the random games rarely choose casualties; the setting of test_pillage)."""
    from rules.city_heroes import GAME
    from tests.rules.city_heroes.helpers import at_phase, own, play

    state = at_phase("interaction", players=2)
    own(state, 0, 11, 12)
    own(state, 1, 18)
    state.tiles[10].garrison = 4
    state.tiles[11].garrison = 4
    state.tiles[17].garrison = 1
    state.bank["weapons"] -= 9
    state, _ = play(state, 0, {"kind": "pillage", "tile": 18, "weapons": {"11": 4, "12": 4}})
    while state.raid and state.raid.loot:
        assert GAME.timeout_choice(state, 0, "default").key.startswith("loot:")
        state, _ = play(state, 0, GAME.legal_actions(state, 0)[0].action)
    assert declared_timeout(GAME.legal_actions(state, 0)) == ("safe", "casualty")
    assert GAME.timeout_choice(state, 0, "default").key == "casualty:11"
    assert GAME.timeout_choice(state, 0, "skip") is None
