"""The computer player of Iron & Brass (`rules/iron_and_brass/policy.py`: `POLICY`, issue 21): at the
top strength it plays the MILITARY plan, which spends its gold on an army; below it, and as the
benchmark's yardstick (`REFERENCE_POLICY`), the greedy heuristic as the issue found it, which hoards.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from bench.search import OPTIONS, reference_policy
from rules.iron_and_brass import GAME
from rules.iron_and_brass.policy import (
    GREEDY,
    MILITARY,
    POLICY,
    REFERENCE,
    REFERENCE_POLICY,
    evaluate,
    prior,
    token_cost,
)
from rules.policy import GreedyPolicy, play, policy_for
from rules.search import SearchPolicy, search_tables_for
from tests.rules.iron_and_brass.helpers import position


def _stuck() -> object:
    """Seat 0 after a first turn like the reference's on seed 9: Headquarters, Barracks and a Steam
    Works, 20 gold and no crew left; the enemy's Gunner stands at its own Barracks."""
    return position(
        [
            ("headquarters", 0, "E1"),
            ("barracks", 0, "F1"),
            ("steam-works", 0, "D1"),
            ("headquarters", 1, "F10"),
            ("barracks", 1, "E10"),
            ("gunner", 1, "E9"),
        ],
        gold=20,
        crew=0,
    )


def test_the_top_strength_hires_the_crew_the_next_factory_needs_where_the_reference_mines():
    """Rules text, City building actions: "Hire a Crew. Move your Crew marker up 1 square", and a
    structure "requires a certain amount of Gold, plus one Crew"; Winning: the enemy Headquarters or
    all its military units, so gold in hand wins nothing. With a Steam Works alone no unit but the
    Skirmisher can be trained (data: Gunners need the Arsenal), and the Arsenal needs a crew. The
    reference values a crew at 0.6 and a mine at 1.6 (its expected 2 gold at 0.8), so it mines on,
    20 gold in hand, and never builds again (seat 1 of seed 9 mined 56 times and lost holding 60
    gold); the top strength hires the crew for the Arsenal."""
    state = _stuck()
    for seed in range(5):
        assert POLICY.choose(GAME, state, 0, random.Random(seed), 3).key == "hire"
        assert REFERENCE_POLICY.choose(GAME, state, 0, random.Random(seed), 3).key == "mine"


def test_in_the_benchmark_game_of_seed_9_the_top_strength_spends_and_wins_where_the_reference_hoarded():
    """Rules text, Winning: "The player destroying their opponent's Headquarters/Fortress or all military
    units is declared the winner"; gold in hand counts for nothing (nor at the turn limit, which
    counts gold worth of pieces on the map). In the benchmark's game of seed 9 (`bench.search._one`'s
    seating: the seat under test is seat 1) the reference in seat 1 mined 56 times and lost its
    Headquarters in round 7 holding 60 gold and no unit; the top strength spends its gold (2 left at
    the end) and destroys seat 0's Headquarters in round 4."""
    options = OPTIONS["iron-and-brass"]
    before = play(GAME, [REFERENCE_POLICY, REFERENCE_POLICY], [3, 3], seed=9, rng_seed=9, options=options)
    assert before.result is not None and before.result.winners == [0]
    assert before.result.breakdown[1]["gold"] == 60 and before.result.breakdown[1]["units"] == 0
    after = play(GAME, [REFERENCE_POLICY, POLICY], [3, 3], seed=9, rng_seed=9, options=options)
    assert after.result is not None and after.result.winners == [1]
    assert after.result.breakdown[1]["gold"] <= 2
    assert "Headquarters in round 4" in after.result.reason


def test_the_top_strength_is_the_military_plan_and_the_lower_ones_the_greedy_heuristic():
    """`ai_strength` 3 plays MILITARY's choice; 1 and 2 play exactly the greedy heuristic's (same rng,
    same choice): `evaluate` and `prior`, advantage tokens priced by `token_cost` (issue 41)."""
    state = _stuck()
    assert policy_for("iron-and-brass") is POLICY
    assert (GREEDY.evaluate, GREEDY.prior, GREEDY.sample) == (evaluate, prior, None)
    for seed in range(5):
        plan = MILITARY.choose(GAME, state, 0, random.Random(seed), 3)
        assert POLICY.choose(GAME, state, 0, random.Random(seed), 3).key == plan.key
        for strength in (1, 2):
            greedy = GREEDY.choose(GAME, state, 0, random.Random(seed), strength)
            assert POLICY.choose(GAME, state, 0, random.Random(seed), strength).key == greedy.key


FIRST_60_MOVES_OF_SEED_9 = "b0d72fb4b4750ccf"
"""sha256 (first 16 hex digits) of the first 60 of the 62 moves of the benchmark's game of seed 9 with
the reference in both seats (`bench.search._one('iron-and-brass', 2, 9, 0)`), as played before the
computer player changed (commit 532ecf0; all 62 hashed to 749e11c0d045f0cc until issue 41)."""


def test_the_benchmark_reference_is_the_heuristic_as_the_issue_found_it():
    """Issue 21's yardstick is "today's heuristic policy": `bench.search.reference_policy` returns the
    greedy policy on this module's `evaluate` and `prior` with the advantage-token prices of before
    issue 41 (`REFERENCE`), and it plays the seed-9 benchmark game move for move as it did before the
    change, until the rules themselves changed under it: "Each of these tokens may be used once per
    game ... for any 1 of the actions listed on the token". Move 61 was a plain move by a seat whose two
    Open Road tokens were spent; with any token now playable for any advantage (5 left) it marches to
    G9 and strikes the Headquarters with a third Surge (it won in that round either way)."""
    reference = reference_policy("iron-and-brass")
    assert isinstance(reference, GreedyPolicy) and reference is REFERENCE_POLICY
    assert (reference.evaluate.func, reference.prior.func, reference.sample) == (evaluate, prior, None)
    assert reference.evaluate.keywords == reference.prior.keywords == REFERENCE == {"priced_tokens": False}
    played = play(GAME, [reference, reference], [3, 3], seed=9, rng_seed=9, options=OPTIONS["iron-and-brass"])
    keys = [f"{seat}:{key}" for seat, key in played.moves]
    assert hashlib.sha256("\n".join(keys[:60]).encode()).hexdigest()[:16] == FIRST_60_MOVES_OF_SEED_9
    assert keys[60:] == ["0:mv:F7:G9", "0:at:G9:F10:su"]
    assert played.result is not None and "Headquarters in round 7" in played.result.reason


def test_iron_and_brass_plays_its_computer_player_without_searching(monkeypatch):
    """At two players the search, starting from the MILITARY plan's move, won 23 of 40 benchmark games
    against the reference where the plan alone won 35 on the same seeds (`SEARCH_TABLES`): a computer
    seat at the top strength plays `POLICY`'s move without searching, and only an explicit table list
    searches."""
    game = GAME
    assert search_tables_for(game) == frozenset()

    def searched(*args, **kwargs):
        raise AssertionError("searched")

    monkeypatch.setattr(SearchPolicy, "_search", searched)
    state = _stuck()
    for seed in range(3):
        played = SearchPolicy().choose(game, state, 0, random.Random(seed), 3)
        assert played.key == "hire"  # the plan's move (see the first test)
    with pytest.raises(AssertionError, match="searched"):
        SearchPolicy(tables=frozenset({2})).choose(game, state, 0, random.Random(1), 3)


def test_computer_players_keep_the_last_advantage_tokens_for_what_matters():
    """'Each of these tokens may be used once per game ... for any 1 of the actions listed on the token'
    (issue 41): a token played for Open Road is a Surge missing later, so its price rises as they run out
    (`token_cost`: 1 with all 8 in hand, 2 with 4, 8 for the last). A Gunner (move 3, range 2) six squares
    from the enemy Headquarters reaches range only with Open Road: with 8 tokens in hand the MILITARY plan
    and the greedy heuristic play one for it; holding the last one, they walk the plain 3 squares."""
    assert [token_cost(left) for left in (8, 4, 1)] == [1.0, 2.0, 8.0]
    for left, wanted in ((8, "mv:J4:J8:r"), (1, "mv:J4:J7")):
        state = position([("gunner", 0, "J4")], gold=0, crew=0)
        state.players[0].advantage_tokens = left
        assert MILITARY.choose(GAME, state, 0, random.Random(1), 3).key == wanted, left
        choices = {choice.key: choice for choice in GAME.legal_actions(state, 0)}
        view = GAME.view(state, 0)
        road, walk = (prior(view, 0, choices[key]) for key in ("mv:J4:J8:r", "mv:J4:J7"))
        assert (road > walk) == (left == 8), (left, road, walk)
