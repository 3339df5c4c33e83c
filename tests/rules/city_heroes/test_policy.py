"""How City Heroes' heuristic spends its materials (`rules/city_heroes/policy.py`): the Colleges it
builds, and the reference heuristic (the benchmark's yardstick) that still plays as issue 21 found it."""

from __future__ import annotations

import hashlib
import json
import random

from bench.search import reference_policy
from rules.city_heroes import GAME, policy
from rules.city_heroes.policy import _cleanups_left, _tally, rival_end
from rules.city_heroes.state import CityHeroesState
from rules.policy import play, policy_for
from rules.search import search_tables_for
from tests.rules.city_heroes.helpers import at_phase, give, own


def _college_position(planks: int = 2, timber: int = 0) -> CityHeroesState:
    """Turn 7 of 10, Construction, Teal (seat 0) to act with a School on T1, the Stone, ducats and
    workers for a College, and the city safely ahead of the rival; Red holds a School too."""
    state = at_phase("construction", players=2, seat=0)
    state.turn, state.turns = 7, 10
    state.prestige, state.rival_prestige = 100, 40
    own(state, 0, 1)
    own(state, 1, 30)
    state.tiles[0].building = "school"
    state.tiles[29].building = "school"
    give(state, 0, stone=4, planks=planks, timber=timber, wheat=0, ducats=5)
    give(state, 1, stone=4, planks=2, timber=0, wheat=0, ducats=5)
    me = state.players[0]
    me.ready, me.busy, me.idle = 3, 0, 2
    me.workers = 5
    return state


def _choice(chooser, state: CityHeroesState) -> str:
    return chooser.choose(GAME, state, 0, random.Random(1), 3).key


def test_the_heuristic_upgrades_a_school_to_a_college():
    """Rules, Building List, Level 2: a College (upgrades a School; 5 Ducats + 4 Stone + 2 Planks +
    2 Workers) "increases the amount of prestige by 4 each turn. They also increase a player's influence
    by 4 each turn"; "the player with the most Influence points wins". With four turns left it brings
    16 influence for materials worth about 10 at the end, and the shipped heuristic builds it. The
    reference counted those materials as a College "built next turn" (`POTENTIAL`) and kept them, turn
    after turn."""
    state = _college_position()
    assert _choice(policy_for("city-heroes"), state) == "upgrade:1:college"
    assert _choice(reference_policy("city-heroes"), state) != "upgrade:1:college"


def test_the_heuristic_crafts_the_planks_a_college_lacks():
    """Rules, Construction: a College costs 2 Planks, and Planks are crafted from Timber in a
    Construction action of their own (data/city_heroes/README.md, Crafting), so the upgrade is a
    second action. The shipped heuristic crafts exactly the Planks it lacks (`CRAFT_FOR_COLLEGE`); the
    reference, looking one move ahead, saw only a spent worker and ended the action."""
    state = _college_position(planks=0, timber=4)
    assert _choice(policy_for("city-heroes"), state) == "craft:planks:2"
    assert _choice(reference_policy("city-heroes"), state) != "craft:planks:2"


REFERENCE_GAME = "d6397d467517ef99c834ae77787d4bad913fb015df2c80e79c88c3361e1074c9"
"""The moves of a two-player game (seed 1000, rng seed 1000, the guide's ten turns) played by the
heuristic as issue 21 found it (commit 532ecf0, before `COLLEGES_AT` and `CRAFT_FOR_COLLEGE`), under
the round-action rule of its time (`RECORDED_UNDER`)."""
RECORDED_UNDER = {"round_actions": "alone_if_stuck"}
"""The game was recorded before round actions were refused with no phase action left (issue 41). Under
today's rule the menus of those positions are shorter, so the policy draws fewer tie-break numbers and
the same heuristic plays another game from there on."""


def _moves_digest(chooser) -> str:
    played = play(GAME, [chooser, chooser], [3, 3], seed=1000, rng_seed=1000, options=RECORDED_UNDER)
    return hashlib.sha256(json.dumps(played.moves).encode()).hexdigest()


def test_the_reference_heuristic_plays_as_the_issue_found_it():
    """The benchmark's yardstick (`bench/search.py reference_policy`, with `REFERENCE` and
    `REFERENCE_PRIOR`) plays the same game, move for move, as the heuristic did when issue 21 was
    filed; the shipped heuristic plays it differently."""
    assert _moves_digest(reference_policy("city-heroes")) == REFERENCE_GAME
    assert _moves_digest(policy_for("city-heroes")) != REFERENCE_GAME


def test_a_computer_seat_plays_the_measured_heuristic_at_every_table():
    """The heuristic with its Colleges is what was measured against the reference (`COLLEGES_AT`); the
    search starting from it was not, so City Heroes searches at no table size unless asked
    (`SEARCH_TABLES`)."""
    assert search_tables_for(GAME) == frozenset()


def test_at_two_players_a_smaller_city_lead_is_safe():
    """Rules, Winning: "if your City has less Prestige than your rival, all players lose. Otherwise,
    the player with the most Influence points wins." With one partner, the city's safety margin is
    `MARGIN[2]` prestige a turn left, not `MARGIN_PER_TURN`: a lead between the two already counts as
    safe, so a further point of city prestige is worth `CITY_AHEAD` to the heuristic (its materials
    go to influence) where the reference still pays `CITY_BEHIND` for it."""
    state = _college_position()
    view = GAME.view(state, 0)
    left = _cleanups_left(view)
    gap = _tally(view, left).city - rival_end(view)
    state.prestige += (policy.MARGIN[2] + policy.MARGIN_PER_TURN) * left // 2 - gap
    reference = reference_policy("city-heroes").evaluate

    def point(evaluate) -> float:
        plus = GAME.copy_state(state)
        plus.prestige += 1
        return evaluate(GAME.view(plus, 0), 0) - evaluate(GAME.view(state, 0), 0)

    assert left > 0 and policy.MARGIN[2] < policy.MARGIN_PER_TURN
    assert point(policy.evaluate) == policy.CITY_AHEAD
    assert point(reference) == policy.CITY_BEHIND
