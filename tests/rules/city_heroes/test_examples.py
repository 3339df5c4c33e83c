"""The guide's worked examples, replayed on the engine."""

from __future__ import annotations

from rules.city_heroes import GAME, board

from .helpers import at_phase, give, keys, own, play, rejected, texts


def test_the_map_is_a_hexagon_that_keeps_the_guide_adjacencies():
    """'T22 ... is adjacent to their tile (T15)'; 'T28 is 1 tile away'; 'the teal player can pillage tiles
    T19 and T18, because of adjacent garrisons on T12 and T11'."""
    near = board.neighbours(3)
    assert len(near) == 37
    assert 22 in near[15] and 28 not in near[15] and board.distance(3, 15, 28) == 2
    assert 18 in near[11] and 18 in near[12] and 19 in near[12]


def test_tile_prices_from_t15():
    """'Because it is adjacent to their tile (T15), the price is 1 Ducat, and because T22 is a hill, the price
    is increased to 2 Ducats. T28 is 1 tile away, so is 1+1=2 Ducats.'"""
    state = at_phase("expansion")
    own(state, 0, 15)
    state.tiles[22 - 1].terrain = "hill"
    state.tiles[28 - 1].terrain = "plain"
    assert GAME.price(state, 0, 22) == 2
    assert GAME.price(state, 0, 28) == 2
    give(state, 0, ducats=5)
    state, events = play(state, 0, {"kind": "buy", "tile": 22})
    assert state.players[0].ducats == 3 and state.tiles[21].owner == 0 and state.tiles[21].house == "house"
    assert "bought T22" in texts(events)


def test_red_player_refused_a_sixth_tile_with_five_workers():
    """'because this would be the players' 6th tile and they only have 5 workers in all pools, they may not
    buy the tile and must pass.'"""
    state = at_phase("expansion", seat=1)
    own(state, 1, 26, 27, 32, 34, 31)
    assert state.players[1].workers == 5
    rejected(state, 1, {"kind": "buy", "tile": 33}, "only 5 workers")
    assert not any(key.startswith("buy:") for key in keys(state, 1))
    assert "pass" in keys(state, 1)


def test_garrison_move_of_t18_t19_t12():
    """'The teal player starts their action with 2 weapons garrisoned on T18, and 8 in their supply. As part
    of 1 garrison action, they may remove both weapons from T18 and add 3 weapons to T19 and 2 weapons to T12.'"""
    state = at_phase("construction")
    own(state, 0, 18, 19, 12)
    state.tiles[17].garrison = 2
    give(state, 0, weapons=8)
    state.bank["weapons"] -= 2  # the two garrisoned weapons came from somewhere
    ready = state.players[0].ready
    state, _ = play(state, 0, {"kind": "garrison", "layout": {"19": 3, "12": 2}})
    assert [state.tiles[t - 1].garrison for t in (18, 19, 12)] == [0, 3, 2]
    assert state.players[0].stock["weapons"] == 5
    assert state.players[0].ready == ready - 1  # one worker for the whole action


def test_pillage_of_t18():
    """'The attack score is 5. The magenta player is defending with 3 weapons on T18, and has a barracks on
    T18, for a 3+1=4 defense score. The attacker will lose 4 weapons ... They will gain 5-4=1 resource and 1
    raid token ... The defender will lose 2 weapons ... Since no weapons were used from T12, all 4 casualties
    must go to T11.' Then T18 is pillaged and may not be selected again."""
    state = at_phase("interaction", players=3, seat=0)
    own(state, 0, 11, 12)
    own(state, 2, 18, 19)
    state.tiles[10].garrison = 5
    state.tiles[17].garrison = 3
    state.tiles[17].building = "barracks"
    state.bank["weapons"] -= 8
    state.players[2].influence = 3
    assert "pillage:18:all" in keys(state, 0)
    state, events = play(state, 0, {"kind": "pillage", "tile": 18, "weapons": {"11": 5}})
    assert "attack 5 vs defence 4, pillage score 1" in texts(events)
    assert state.tiles[17].garrison == 1  # lost 5 // 2 = 2
    assert state.players[0].pillage_tokens == 1 and state.players[0].influence == 1
    assert state.players[2].influence == 2
    assert state.raid is not None and state.raid.loot == 1
    stone = state.players[2].stock["stone"]
    state, events = play(state, 0, {"kind": "loot", "resource": "stone"})
    assert state.players[2].stock["stone"] == stone - 1 and state.players[0].stock["stone"] == 6
    # All 4 casualties from T11 (the only committed tile), the last one spent for the turn.
    assert "lost 4 weapons from T11" in texts(events)
    assert (state.tiles[10].garrison, state.tiles[10].spent) == (0, 1)
    assert state.raid is None and state.tiles[17].pillaged
    # 'NOTE: In a network game, the player whose tile is pillaged will receive a summary of what was
    # looted and how many defenders were lost.' Only the defender's line says it.
    summary = next(event for event in events if event.private)
    assert summary.private == {
        2: "Your T18 was pillaged by "
        + state.players[0].name
        + ". They took 1 stone. You lost 2 defending weapons, 1 influence and 0 pillage tokens."
    }
    assert "Your T18" not in summary.text
    state.acted = None
    rejected(state, 0, {"kind": "pillage", "tile": 18, "weapons": {"12": 1}}, "already pillaged")
