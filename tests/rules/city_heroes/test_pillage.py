"""Pillage: attack against defence, the pillage score, tokens and prestige."""

from __future__ import annotations

from rules.city_heroes import GAME

from .helpers import at_phase, finish_work, keys, own, play, rejected, texts


def test_pillage_needs_more_attack_than_defence():
    """'If this difference is 0 or less, this tile can't be pillaged.' 'Weapons in the supply cannot be used'."""
    state = at_phase("interaction", players=2)
    own(state, 0, 11)
    own(state, 1, 18)
    state.tiles[10].garrison = 2
    state.tiles[17].garrison = 2
    state.bank["weapons"] -= 4
    rejected(state, 0, {"kind": "pillage", "tile": 18, "weapons": {"11": 2}}, "cannot be pillaged")
    rejected(state, 0, {"kind": "pillage", "tile": 18, "weapons": {"11": 3}}, "not 3")


def test_pillage_score_tokens_and_prestige():
    """'The city loses prestige equal to half the pillage score' '2 pillage tokens for a score less than or
    equal to 10' 'For each pillage token, a player gains +1 influence during the Cleanup phase.' Casualties
    from two committed tiles are chosen by the attacker."""
    state = at_phase("interaction", players=2)
    own(state, 0, 11, 12)
    own(state, 1, 18)
    state.tiles[10].garrison = 4
    state.tiles[11].garrison = 4
    state.tiles[17].garrison = 1
    state.bank["weapons"] -= 9
    state, _ = play(state, 0, {"kind": "pillage", "tile": 18, "weapons": {"11": 4, "12": 4}})
    assert state.prestige == -3 and state.players[0].pillage_tokens == 2
    while state.raid and state.raid.loot:
        state, _ = play(state, 0, GAME.legal_actions(state, 0)[0].action)
    assert "casualty:11" in keys(state, 0) and "casualty:12" in keys(state, 0)
    state, events = play(state, 0, {"kind": "casualty", "tile": 12})
    assert "lost 1 weapon from T12" in texts(events)
    assert state.raid is None and state.tiles[11].spent == 3 and state.tiles[10].spent == 4


def test_kronborg_defends_itself_and_every_adjacent_tile():
    """Kronborg: 'Gives a +3 defense bonus to all adjacent tiles, including itself.'"""
    state = at_phase("interaction", players=2)
    own(state, 1, 18, 19)
    state.tiles[18].garrison = 1  # T19
    before = GAME.defence(state, state.tiles[18])
    finish_work(state, 18, "kronborg")
    assert GAME.defence(state, state.tiles[18]) == before + 3  # T19 is next to Kronborg on T18
    assert GAME.defence(state, state.tiles[17]) >= 3  # Kronborg's own tile
