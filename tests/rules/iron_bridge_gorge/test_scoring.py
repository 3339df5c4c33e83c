"""SCORING STEP and VICTORY: majorities each round, the winner and its tie-breaks."""

from __future__ import annotations

from rules.iron_bridge_gorge import GAME

from .helpers import at_turn, texts


def test_scoring_step_majorities_and_ties():
    """SCORING STEP: most Fuel, Iron, Transportation 2 VP; most Clay, Limestone 1 VP. Decision: a tie for
    most scores nothing, and nobody scores a type no one has."""
    state = at_turn(
        3,
        in_play={
            0: ["coal-mine", "timber-yard", "iron-ore-mine", "clay-mine"],
            1: ["coal-mine", "iron-ore-mine", "canals", "limestone-quarry"],
            2: ["iron-ore-mine"],
        },
    )
    events: list = []
    GAME._score(state, events)
    assert [player.vp for player in state.players] == [2 + 1, 2 + 1, 0]
    assert "Iron tied, no one scores" in texts(events)


def test_result_ties_are_broken_by_coins_after_loans_then_resources():
    """Decision: equal VP are ordered by coins minus an unpaid loan, then by resources in play."""
    state = at_turn(3)
    state.step = "over"
    for player, (vp, coins, loan, cards) in zip(
        state.players, [(5, 12, True, []), (5, 3, False, []), (2, 40, False, [])], strict=True
    ):
        player.vp, player.coins, player.loan, player.in_play = vp, coins, loan, cards
    result = GAME.result(state)
    assert result.ranking == [[1], [0], [2]]
    assert result.reason == "Bob and Alice tie on 5 VP; Bob wins on coins after any loan, 3 to 2."
    state.players[0].loan = False
    state.players[0].coins = 3
    assert GAME.result(state).ranking == [[0, 1], [2]]
    assert GAME.result(state).reason == (
        "Alice and Bob share the win with 5 VP, 3 coins after any loan and 0 resources in play each."
    )
    state.players[1].in_play = ["coal-mine"]
    assert GAME.result(state).reason == (
        "Bob and Alice tie on 5 VP and 3 coins after any loan; Bob wins with more resources in play, 1 to 0."
    )
    state.players[1].vp = 6
    assert GAME.result(state).reason == "Bob wins with the most VP, 6 to Alice's 5."
