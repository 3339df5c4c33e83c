"""The Cleanup at the end of each turn, in the guide's order."""

from __future__ import annotations

from .helpers import at_phase, cleanup, own, texts


def test_cleanup_order_workers_gathering_tax_and_rotation():
    """'For each 2 tiles you bought this turn (rounded down), gain 1 Worker into the busy pool.' 'Players
    collect one resource of each type that is on a tile they own' 'collect 1 Ducat for each tile' 'all
    workers in the Idle pool are moved to the Ready pool, and all Busy pool workers are moved to the Idle
    pool' '2 Wheat tokens are used to move 1 Worker further'."""
    state = at_phase("interaction", players=1)
    own(state, 0, 5, 6)
    state.tiles[4].resource = "wheat"
    state.tiles[5].resource = "iron"  # no mine: iron is not gathered
    player = state.players[0]
    player.bought = 2
    player.ready, player.busy = 2, 3
    state, events = cleanup(state)
    player = state.players[0]
    assert player.workers == 6
    assert player.stock["iron"] == 0
    assert player.ducats == 5 + 2
    # busy 3 + 1 new -> idle 4, then 2 fed with 6 wheat: 5 + 1 gathered = 6 wheat, 3 workers fed.
    assert (player.ready, player.idle, player.stock["wheat"]) == (5, 1, 0)
    assert state.turn == 2 and state.phase == "expansion"


def test_school_and_rival_growth():
    """'Schools provide a constant growth of 2 prestige to the city, at the end of every turn.' The rival
    city gains its designed growth per turn."""
    state = at_phase("interaction", players=1)
    own(state, 0, 5)
    state.tiles[4].building = "school"
    rival = state.rival_prestige
    state, _ = cleanup(state)
    assert state.prestige == 2 and state.rival_prestige == rival + 2


def test_market_bonus():
    """'Each market provides 1 ducat for each adjacent resource owned by the player (including the market's
    tile) ... If the adjacent tile is owned by another player, the market owner gets 1 copy.'"""
    state = at_phase("interaction", players=2)
    own(state, 0, 18, 19)
    own(state, 1, 11)
    state.tiles[17].building = "market"
    state.tiles[17].resource = "timber"
    state.tiles[18].resource = "wheat"
    state.tiles[10].resource = "timber"
    state, events = cleanup(state)
    assert "Market T18: 2 ducats and 1 timber" in texts(events)  # the copy counted, as the ducats are
