"""Setup, nations and the starting decks, one test per rule of the City of Iron rulebook (quoted or cited in
each docstring)."""

from __future__ import annotations

import pytest

from rules.city_of_iron import GAME
from rules.city_of_iron.data import game_data
from rules.city_of_iron.scoring import income_track

from .helpers import act, arrange_all, give, kinds, nation_game, new_game, rejected, start_actions

DATA = game_data()


@pytest.mark.parametrize(("players", "slots"), [(2, 7), (3, 10), (4, 12)])
def test_setup_removes_marked_buildings_and_fills_slots(players: int, slots: int) -> None:
    """Setup 4-5: "3 Players: Remove all cards with the number 3 ... 2 Players: ... 3 or 2"; slots 7/10/12."""
    state = new_game([f"P{index}" for index in range(players)])
    in_play = [uid for uid in [*state.row, *state.deck] if uid and not uid.startswith("score-")]
    for uid in in_play:
        mark = DATA.buildings[uid.rsplit(".", 1)[0]].copies[int(uid.rsplit(".", 1)[1]) - 1]
        assert mark is None or (mark == 3 and players == 4) or (mark == 2 and players >= 3)
    marks = [mark for kind in DATA.buildings.values() for mark in kind.copies]
    assert len(marks) == 26 + 22 + 18
    expected = {4: len(marks), 3: len(marks) - marks.count(3), 2: marks.count(None)}[players]
    assert len(in_play) == expected
    assert len(state.row) == slots and None not in state.row


def test_setup_tells_the_random_bid_order_and_nations() -> None:
    """Setup 9: "Randomly determine beginning bid order. Take one cube from each player and place the cubes
    in bid order from left to right on the bid track"; nations dealt at random (option). Setup has no
    events, so `opening_events` tells both in the first post."""
    state = new_game(["Sam", "Julia", "Mark"], seed=3)
    order, nations = GAME.opening_events(state)
    names = [state.players[seat].name for seat in state.bid_order]
    assert (
        order.text
        == f"Bid order, drawn at random (left to right on the bid track): {names[0]}, {names[1]} and {names[2]}."
    )
    for player in state.players:
        assert f"the {DATA.nations[player.nation].name} to {player.name}" in nations.text
    picked = new_game(["Sam", "Julia", "Mark"], seed=3, nations="pick")
    assert [event.text for event in GAME.opening_events(picked)] == [order.text], (
        "picked nations: only the order"
    )


def test_score_cards_lie_under_decks_a_b_and_c() -> None:
    """Setup 4: the A Score card at the bottom of deck A, B under B, the final card under C; A on B on C."""
    state = new_game()
    scores = [index for index, uid in enumerate(state.deck) if uid.startswith("score-")]
    assert [state.deck[index] for index in scores] == ["score-A", "score-B", "score-C"]
    assert scores[-1] == len(state.deck) - 1
    letters = [
        DATA.buildings[uid.rsplit(".", 1)[0]].deck for uid in state.deck if not uid.startswith("score-")
    ]
    assert letters == sorted(letters)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_town_piles_drop_demons_and_ore(players: int) -> None:
    """Setup 7: "three players, put all towns with Demons in the box ... two players ... Demons and Ore"."""
    state = new_game([f"P{index}" for index in range(players)])
    towns = [town for pile in state.town_piles.values() for town in pile]
    goods = {good for town in towns for good in DATA.towns[town].goods}
    assert ("bottled_demons" in goods) == (players == 4)
    assert ("ore" in goods) == (players >= 3)
    assert not state.expansion_row  # the expansion is an option


def test_setup_coins_income_hand_and_lands() -> None:
    """Setup 1, 3, 6, 8: 7 coins, one citizen card, base income 2, a 5-city on a 0-distance land; 2-player lands."""
    state = start_actions(2)
    for player in state.players:
        assert (
            player.coins <= 7
            and len(player.hand) == 1
            and kinds(player.hand)[0] in ("scholar", "cartographer")
        )
        assert income_track(state, player) == 2
        assert DATA.lands[player.cities[0].land].distance == 0 and player.cities[0].token == "t5"
    assert not any(not DATA.lands[land].two_player for land in state.lands)


def test_random_nations_and_pick_option() -> None:
    """Setup 1: each player takes a Nation; option `nations`: dealt at random, or picked in seat order."""
    state = new_game(seed=5)
    assert sorted(player.nation for player in state.players) == sorted(DATA.nations)
    state = new_game(["A", "B"], nations="pick")
    assert state.phase == "nation" and GAME.to_act(state) == {0}
    state = act(state, 0, {"kind": "nation", "nation": "om"})
    rejected(state, 1, {"kind": "nation", "nation": "om"}, "already taken")
    state = act(state, 1, {"kind": "nation", "nation": "arc"})
    assert state.phase == "arrange" and GAME.to_act(state) == {0, 1}


def test_starting_decks_in_chosen_order() -> None:
    """Setup 2: "Put the Cartographer and Scholar together (in the order you choose)"; draw one citizen."""
    state = new_game(["A", "B"])
    state = act(
        state,
        0,
        {"kind": "arrange", "citizen": ["cartographer", "scholar"], "military": ["captain", "soldier"]},
    )
    assert kinds(state.players[0].hand) == ["cartographer"]
    assert kinds(state.players[0].military_draw) == ["captain", "soldier"]
    rejected(
        state, 1, {"kind": "arrange", "citizen": ["scholar"], "military": ["soldier", "captain"]}, "exactly"
    )


def test_first_game_removes_the_special_cards() -> None:
    """Nations: "For your first game, ignore the special abilities ... remove the unique cards from play"."""
    for nation in DATA.nations:
        state = nation_game(nation, abilities=False)
        owned = kinds(
            state.players[0].citizen_draw + state.players[0].military_draw + state.players[0].unpurchased
        )
        assert not {"genius", "gunslinger", "strategist", "fixer"} & set(owned)


def test_hogmen_gunslinger_and_strategist() -> None:
    """Hogmen Republic: "replace the Captain with the Gunslinger ... add the Strategist to the pile of unpurchased"."""
    player = nation_game("republic").players[0]
    assert sorted(kinds(player.military_draw)) == ["gunslinger", "soldier"]
    assert {"strategist", "captain"} <= set(kinds(player.unpurchased))


def test_cresarian_genius_and_free_scholar() -> None:
    """Cresarian Scholars: "the Genius ... added to the pile of unpurchased cards. The Scholar card costs 0 Coins to use"."""
    state = nation_game("cresaria")
    assert "genius" in kinds(state.players[0].unpurchased)
    state = arrange_all(state)
    for seat in list(state.bid_order):
        state = act(state, seat, {"kind": "bid", "space": [0, 1][state.bid_order.index(seat)]})
    while state.current != 0:
        state = act(state, state.current, {"kind": "tax"})
    state.players[0].hand = []
    scholar, cartographer = give(state, 0, "scholar"), give(state, 0, "cartographer")
    coins = state.players[0].coins
    state = act(state, 0, {"kind": "play", "card": scholar, "payers": [cartographer]})
    assert state.players[0].coins == coins and state.players[0].science == 1


def test_om_fixer_starts_in_the_citizen_deck() -> None:
    """Toad Inventors of Om: "The Toads start with the 'Fixer' Citizen card in their Citizen deck"."""
    player = nation_game("om").players[0]
    assert sorted(kinds(player.citizen_draw)) == ["cartographer", "fixer", "scholar"]
