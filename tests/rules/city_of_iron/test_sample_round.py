"""The rulebook's "Sample Round of Play" (pages 13-14), replayed action by action."""

from __future__ import annotations

from rules.city_of_iron import GAME

from .helpers import act, bid_all, sample_setup

SAM, JULIA, MARK, MARY = 0, 1, 2, 3


def test_sample_round_of_play() -> None:
    state = sample_setup()
    assert state.phase == "bid"
    assert [len(player.hand) for player in state.players] == [1, 1, 1, 1]
    assert all(player.coins == 7 for player in state.players)

    # "Sam is first, and bids on the zero the furthest to the right ... Julia bids 0 ... just left of
    # him. Mark bids 0 ... Mary bids 1, placing her cube on the '1' square and pays a coin."
    state = bid_all(state, {SAM: 2, JULIA: 1, MARK: 0, MARY: 3})
    assert state.turn_order == [MARY, SAM, JULIA, MARK]
    assert state.players[MARY].coins == 6

    def build(state, seat, uid):  # noqa: ANN001, ANN202
        return act(state, seat, {"kind": "build", "card": uid, "site": f"{seat}-1"})

    state = build(state, MARY, "academy.1")
    state = act(state, SAM, {"kind": "draw", "deck": "citizen"})
    assert [uid.split(".")[0] for uid in state.players[SAM].hand] == ["scholar", "cartographer"]
    state = build(state, JULIA, "srika-pasture.1")
    state = build(state, MARK, "turnip-farm.1")
    state = build(state, MARY, "srika-pasture-mixed.1")
    assert state.players[MARY].coins == 0
    state = act(state, SAM, {"kind": "play", "card": "scholar.0a", "payers": ["cartographer.0a"]})
    assert (state.players[SAM].coins, state.players[SAM].science) == (6, 1)
    state = build(state, JULIA, "academy.2")
    state = build(state, MARK, "turnip-farm.2")
    state = act(state, MARY, {"kind": "tax"})
    state = build(state, SAM, "moss-garden.1")
    assert state.players[SAM].science == 0
    state = act(state, JULIA, {"kind": "draw", "deck": "military"})
    # "Mark decides to store a Mine card. He can't afford it now."
    assert not any(choice.key.startswith("build:mine.1") for choice in GAME.legal_actions(state, MARK))
    coins_before = [player.coins for player in state.players]
    state = act(state, MARK, {"kind": "store", "card": "mine.1"})

    # End Round: incomes Mary 3, Sam 5, Julia 4, Mark 5; Academies give Mary and Julia 1 science.
    gained = [player.coins - before for player, before in zip(state.players, coins_before, strict=True)]
    assert gained == [5, 4, 5, 3]
    assert [player.science for player in state.players] == [0, 1, 0, 1]
    # Everyone draws one citizen card (the starting city's citizen draw); Julia also drew a military card.
    assert [len(player.hand) for player in state.players] == [1, 3, 2, 2]
    assert state.players[SAM].hand == ["scholar.0a"]  # the discard pile flipped, order kept
    # The four left-most buildings went to the discard pile and the row was refilled.
    assert len(state.discard) == 4 and None not in state.row
    assert state.scorings == 0 and all(player.vp == 0 for player in state.players)

    # Secret purchases: Sam chooses one military card; nobody else buys.
    assert state.phase == "purchase"
    state = act(state, SAM, {"kind": "select", "card": "sharp-shooter.0a"})
    assert "sharp-shooter.0a" not in str(GAME.view(state, None).model_dump())
    for seat in (JULIA, MARK, MARY):
        if seat in GAME.to_act(state):
            state = act(state, seat, {"kind": "done"})
    state = act(state, SAM, {"kind": "done"})
    assert "sharp-shooter.0a" in state.players[SAM].hand
    assert state.players[SAM].coins == 8 - 4
    # Next round: cubes slide down in the same order; bidding restarts left to right.
    assert state.phase == "bid" and state.round == 2
    assert state.bid_order == [MARK, JULIA, SAM, MARY]
    assert all(player.actions_left == 3 for player in state.players)
