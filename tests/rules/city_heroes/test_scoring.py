"""The end of the game: the city against the rival, then the most influence."""

from __future__ import annotations

from rules.city_heroes import GAME

from .helpers import at_phase, cleanup, give, own, play


def test_everybody_loses_below_the_rival():
    """'At the end of the game, if your City has less Prestige than your rival, all players lose.'"""
    state = at_phase("interaction", players=2)
    state.turn = state.turns
    state, events = cleanup(state)
    result = GAME.result(state)
    assert "everybody loses" in result.reason and result.breakdown[0]["city_won"] == 0
    assert result.no_winner and result.winners == []
    # The guide's end count ('each Natural Resource is worth 1 influence point') is the score, the
    # pictures' Total; it read 'most influence: alice, 21' beside an Infl column of 0 (issue 36).
    names = " and ".join(state.players[seat].name for seat in result.ranking[0])
    line = result.breakdown[result.ranking[0][0]]
    assert f"(highest score: {names}, {line['score']})" in result.reason
    assert line["score"] != line["influence"] and "influence" not in result.reason


def test_most_influence_wins_counting_resources_goods_and_ducats():
    """'the player with the most Influence points wins' 'each Natural Resource is worth 1 influence point, and
    each Good is worth 2' '+1 influence for each 3 ducats'; ties go to more ducats (decision)."""
    state = at_phase("interaction", players=2)
    state.turn = state.turns
    state.prestige = 100
    give(state, 1, tools=1)
    state, _ = cleanup(state)
    result = GAME.result(state)
    assert result.ranking[0] == [1]
    assert result.breakdown[1]["goods"] == 1 and "wins" in result.reason
    score = result.breakdown[1]["score"]
    assert f"wins with the highest score, {score} to " in result.reason, result.reason


def _pass_to_the_end(state):
    while GAME.result(state) is None:
        seat = state.current
        action = {"kind": "end"} if state.acted else {"kind": "pass"}
        state, _ = play(state, seat, action)
    return state


def test_solo_is_winnable_but_not_trivial():
    """Solo 'with the rival city' (designed rival growth): doing nothing loses; two Schools from turn 1 tie
    the rival, and 'if your City has less Prestige than your rival, all players lose. Otherwise, the player
    with the most Influence points wins': a tie is not less, so they win, and the result says so (issue
    19); one School loses."""
    results = []
    for schools in (0, 1, 2):
        state = at_phase("expansion", players=1)
        own(state, 0, 18, 19)
        for tile in (18, 19)[:schools]:
            state.tiles[tile - 1].building = "school"
        results.append(GAME.result(_pass_to_the_end(state)))
    assert "everybody loses" in results[0].reason and "everybody loses" in results[1].reason
    assert results[2].reason.startswith(
        "The city's prestige 48 ties the rival's 48, and a tie is not less prestige, so nobody loses to the "
        "rival; Teal wins with "
    )
    assert results[2].winners == [0] and results[2].breakdown[0]["city_won"] == 1
