"""SET-UP, the turn (4 actions), mining and hiring, the turn limit, the choice list and the views."""

from __future__ import annotations

import re

import pytest

from rules.core import RuleError
from rules.iron_and_brass import GAME

from .helpers import NAMES, dice_rng, keys, new_game, play, position, rejected, texts


def test_setup_resources_tokens_and_base_rows():
    """'Place the Gold Mined marker token at 48 ... Gold marker token at 8 and their Crew marker at 1';
    'Place your Headquarters and Barracks structures along your edge'; 8 Advantage tokens each."""
    state = new_game(board_size=12)
    assert state.gold_left == 48
    assert all((p.gold, p.crew) == (8, 1) for p in state.players)
    assert all(p.advantage_tokens == 8 for p in state.players)
    assert all(p.played == {"spotter": 0, "surge": 0, "open_road": 0, "heal": 0} for p in state.players)
    camp = {(p.owner, p.kind): p for p in state.pieces}
    assert len(state.pieces) == 4
    for seat, row in ((0, 0), (1, 11)):
        assert camp[(seat, "headquarters")].row == row and camp[(seat, "barracks")].row == row


def test_the_opening_roll_for_player_1_is_told():
    """SET-UP: 'Each player roll 2 dice, highest result is Player 1.' The roll happens in `setup`, which has
    no events: `opening_events` tells it (with any tie rolled again), naming who plays first."""
    for seed in range(1, 30):
        state = new_game(seed=seed)
        (event,) = GAME.opening_events(state)
        assert event.reveals and event.text == state.opening
        first = state.players[state.first].name
        assert event.text.startswith("Opening roll: Alice ")
        assert event.text.endswith(f"{first} is Player 1 and plays first.") and state.current == state.first
        final = event.text.split("; tie, again: ")[-1]
        sums = [int(part) for part in re.findall(r"= (\d)", final)]
        assert len(sums) == 2 and sums[state.first] > sums[1 - state.first]


def test_board_size_option_is_10_to_16():
    """'10x10 to 16x16 square grid board'."""
    assert new_game(board_size=16).size == 16
    for bad in (9, 17):
        with pytest.raises(RuleError, match="between 10 and 16"):
            new_game(board_size=bad)


def test_the_higher_opening_roll_plays_first():
    """'Each player roll 2 dice, highest result is Player 1.'"""
    firsts = set()
    for seed in range(20):
        state = new_game(seed)
        firsts.add(state.first)
        assert GAME.to_act(state) == {state.first} and state.current == state.first
        assert f"{NAMES[state.first]} is Player 1" in state.opening
    assert firsts == {0, 1}


def test_four_actions_then_the_turn_passes():
    """'Each round, each player can take up to 4 actions in their turn.'"""
    state = new_game()
    seat = state.current
    for _ in range(3):
        state, _ = play(state, seat, {"kind": "hire"})
    assert state.actions_left == 1 and state.current == seat
    state, events = play(state, seat, {"kind": "hire"})
    assert state.current == 1 - seat and state.actions_left == 4 and state.players[seat].crew == 5


def test_end_turn_is_always_offered():
    state = new_game()
    assert "end" in keys(state, state.current)
    state, events = play(state, state.current, {"kind": "end_turn"})
    assert "4 actions unused" in texts(events)


def test_mining_moves_the_marker_down_and_adds_a_d3():
    """'Mine Gold. Move the shared Gold Mined marker down one square, then roll 1 die. The result of the roll
    (1, 2, or 3) is the amount of Gold added to your treasury.'"""
    state = new_game()
    state.rng = dice_rng(3)
    seat = state.current
    state, events = play(state, seat, {"kind": "mine"})
    assert state.gold_left == 47 and state.players[seat].gold == 11
    assert events[0].reveals and "rolled 3" in texts(events)
    state.gold_left = 0
    assert "mine" not in keys(state, seat)
    rejected(state, seat, {"kind": "mine"}, "no gold is left")


def test_the_turn_limit_ends_the_game_on_the_worth_of_the_pieces():
    """Safety net (decision): after `max_rounds` rounds, more gold worth of pieces on the map wins."""
    state = new_game(max_rounds=1)
    first = state.current
    state, _ = play(state, first, {"kind": "end_turn"})
    state, events = play(state, 1 - first, {"kind": "end_turn"})
    result = GAME.result(state)
    assert result is not None and result.ranking == [[0, 1]] and "draw" in result.reason
    state = position([("turret", 0, "C3"), ("gunner", 1, "J9")])
    state.max_rounds = 1
    state, _ = play(state, 0, {"kind": "end_turn"})
    state, _ = play(state, 1, {"kind": "end_turn"})
    assert GAME.result(state).winners == [0]


def test_the_defender_alone_acts_during_a_surge_question():
    state = position([("gunner", 0, "C3"), ("gunner", 1, "C5")])
    state, _ = play(state, 0, {"kind": "attack", "unit": "C3", "target": "C5"})
    assert GAME.to_act(state) == {1} and set(keys(state, 1)) == {"def:surge", "def:none"}
    rejected(state, 0, {"kind": "end_turn"}, "not your turn")
    rejected(state, 1, {"kind": "end_turn"}, "Surge")
    assert "Surge against Alice's attack" in GAME.view(state, None).headline


def test_malformed_and_off_board_actions_are_refused():
    state = position([("gunner", 0, "C3"), ("gunner", 1, "J9")])
    rejected(state, 0, {"kind": "move", "unit": "Z99", "to": "C4"}, "not a square")
    rejected(state, 0, {"kind": "move", "unit": "D3", "to": "C4"}, "nothing on D3")
    rejected(state, 0, {"kind": "move", "unit": "J9", "to": "J8"}, "not yours")
    rejected(state, 0, {"kind": "fly"}, "could not be read")
    rejected(state, 0, {"kind": "back"}, "nothing to go back")
    rejected(state, 0, {"kind": "defend", "surge": True}, "no attack")


def test_views_are_public_except_a_half_made_choice():
    """'Both players' resources are public; nothing private here except undeclared choices.'"""
    state = position([("barracks", 0, "E1"), ("gunner", 1, "J9")])
    state, _ = play(state, 0, {"kind": "pick", "item": "skirmisher"})
    public, own, other = GAME.view(state, None), GAME.view(state, 0), GAME.view(state, 1)
    assert public.picking is None and other.picking is None and own.picking == "build:skirmisher"
    assert (
        public.seats[1].gold == 20 and own.seats[1].advantage_tokens == other.seats[1].advantage_tokens == 8
    )
    dumped = public.model_dump_json()
    assert '"rng"' not in dumped and "seed" not in dumped
    assert public.headline == "Round 1 - Alice: 4 actions left"


def test_choice_keys_are_unique_short_and_every_choice_applies():
    state = position(
        [
            ("barracks", 0, "E1"),
            ("arsenal", 0, "F1"),
            ("gunner", 0, "C4"),
            ("gunner", 0, "E4"),
            ("steam-tank", 0, "D2"),
            ("gunner", 1, "D5"),
            ("skirmisher", 1, "E6"),
        ],
        disabled=("D2",),
    )
    choices = GAME.legal_actions(state, 0)
    assert len({c.key for c in choices}) == len(choices)
    assert all(len(c.key) <= 60 and len(c.label) <= 100 for c in choices)
    groups = {c.group for c in choices}
    assert {"Economy", "Build", "Move", "Attack", "Concentrated fire", "Repair", "Turn"} <= groups
    for choice in choices:
        GAME.apply(state, 0, choice.action)
