"""Setup and turn order: one test per rule of the guide (quoted in each docstring); illegal moves raise RuleError and change nothing."""

from __future__ import annotations

import pytest

from rules.city_heroes import GAME
from rules.core import Rejection, RuleError

from .helpers import at_phase, keys, new_game, own, play, rejected


def test_game_info_and_solo():
    """'1 to 5 players'; solo with the rival city; 'a competitively cooperative game'."""
    info = GAME.info
    assert (info.id, info.min_players, info.max_players) == ("city-heroes", 1, 5)
    with pytest.raises(RuleError) as raised:
        GAME.setup(["a"] * 6, {}, 1)
    assert raised.value.reason == Rejection.BAD_OPTIONS


@pytest.mark.parametrize(("players", "turns"), [(1, 12), (2, 10), (3, 10), (4, 9), (5, 8)])
def test_game_length(players, turns):
    """'The game ends after 8 turns for a 5-player game, 9 turns for a 4-player game, and 10 turns for a 2-3
    player game and 12 turns for a solo game.'"""
    assert new_game(players).turns == turns


def test_starting_stock_and_bank():
    """'Players start with 5 Wheat, Timber, Stone, Ducats and Workers in the Ready pool.' 'The bank starts
    with 50 copies of each resource and 150 ducats.'"""
    state = new_game(3)
    for player in state.players:
        assert (player.stock["wheat"], player.stock["timber"], player.stock["stone"]) == (5, 5, 5)
        assert (player.ducats, player.ready, player.busy, player.idle) == (5, 5, 0, 0)
    assert set(state.bank.values()) == {50} and state.bank_ducats == 150


@pytest.mark.parametrize("seed", range(30))
def test_maps(seed):
    """'Every map will have at least 1 Iron, Stone and Timber.' 'Wheat can only appear on Plains, while Iron,
    Gold and Stone may only appear on Hill tiles. Timber may appear on any tile.'"""
    tiles = new_game(1, seed).tiles
    assert {"iron", "stone", "timber"} <= {tile.resource for tile in tiles}
    for tile in tiles:
        if tile.resource == "wheat":
            assert tile.terrain == "plain"
        if tile.resource in ("iron", "gold", "stone"):
            assert tile.terrain == "hill"


def test_map_seed_option_gives_the_same_map():
    """The seed is a lobby option: 'use a specific seed for the board'."""
    a = GAME.setup(["a"], {"map_seed": 42}, 1).tiles
    b = GAME.setup(["a", "b"], {"map_seed": 42}, 99).tiles
    assert a == b


def test_first_tile_is_free_and_compulsory():
    """'If a player has no tiles, they must select a tile (this tile is free).'"""
    state = new_game(2)
    assert "pass" not in keys(state, 0)
    rejected(state, 0, {"kind": "pass"}, "must select one")
    state, _ = play(state, 0, {"kind": "buy", "tile": 5})
    assert state.players[0].ducats == 5 and state.players[0].ready == 4  # every action uses a worker


def test_one_tile_per_action_and_the_first_to_pass_starts_the_next_phase():
    """'During the expansion phase, players can only buy a tile or pass.' 'Within each active phase, players
    take turns ... until all players pass.' 'The first person to pass in the previous phase goes first.'"""
    state = new_game(2)
    state, _ = play(state, 0, {"kind": "buy", "tile": 5})
    assert not any(key.startswith("buy:") for key in keys(state, 0))
    state, _ = play(state, 0, {"kind": "end"})
    assert state.current == 1
    state, _ = play(state, 1, {"kind": "buy", "tile": 30})
    state, _ = play(state, 1, {"kind": "end", "and_pass": True})
    assert state.current == 0 and state.phase == "expansion"
    state, _ = play(state, 0, {"kind": "pass"})
    assert state.phase == "construction" and state.current == 1


def test_round_action_must_go_with_a_phase_action():
    """'These actions ... must be done alongside another action (you may not make only a Round Action and
    pass the phase).'"""
    state = at_phase("construction")
    own(state, 0, 5)
    state, _ = play(state, 0, {"kind": "bank", "resource": "stone", "count": 1, "sell": True})
    assert state.players[0].ducats == 7
    assert "pass" not in keys(state, 0)
    rejected(state, 0, {"kind": "pass"}, "must go with a phase action")
    state, _ = play(state, 0, {"kind": "build", "tile": 5, "building": "market"})
    assert "end" in keys(state, 0) and "bank-buy:iron" in keys(state, 0)


def test_round_actions_after_passing_are_refused():
    """'If a player has passed during the current phase, they may not take these actions until the next
    phase.'"""
    state = at_phase("construction")
    state, _ = play(state, 0, {"kind": "pass"})
    rejected(state, 0, {"kind": "bank", "resource": "stone", "count": 1, "sell": True}, "not your turn")
