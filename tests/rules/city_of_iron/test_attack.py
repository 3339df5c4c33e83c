"""Attacks on neutral and owned towns, eyes, and the expansion towns on offer."""

from __future__ import annotations

from rules.city_of_iron.data import game_data
from rules.city_of_iron.moves.attack import attack_targets
from rules.city_of_iron.scoring import income_track

from .helpers import act, give, rejected, start_actions

DATA = game_data()


def test_attack_a_neutral_town() -> None:
    """Attack Town: attack value "equals the defense value", distance skills "equal the Distance", "A card cannot be
    used for its attack value and its Distance Skill"; "discard the left-most building card" for an unconquered town."""
    state = start_actions(2)
    seat = state.current
    town = state.town_piles["1"][0]
    defense, distance = DATA.towns[town].defense, DATA.towns[town].distance
    player = state.players[seat]
    player.hand = []
    captain, soldier = give(state, seat, "captain"), give(state, seat, "soldier")
    cartographer = give(state, seat, "cartographer")
    spy = give(state, seat, "spy")
    rejected(
        state,
        seat,
        {"kind": "attack", "town": town, "attackers": [], "distance": [cartographer]},
        "at least one",
    )
    rejected(
        state,
        seat,
        {"kind": "attack", "town": town, "attackers": [captain], "distance": [captain]},
        "only once",
    )
    if distance > 0:
        rejected(state, seat, {"kind": "attack", "town": town, "attackers": [captain, soldier]}, "distance")
    rejected(
        state, seat, {"kind": "attack", "town": state.town_piles["3"][1], "attackers": [captain]}, "cannot be"
    )
    if defense > 2:
        rejected(
            state,
            seat,
            {"kind": "attack", "town": town, "attackers": [captain], "distance": [spy]},
            "defence",
        )
    left = state.row[0]
    state = act(
        state, seat, {"kind": "attack", "town": town, "attackers": [captain, soldier], "distance": [spy]}
    )
    assert town in state.players[seat].towns and state.row[0] is None and left in state.discard
    assert income_track(state, state.players[seat]) == 3


def test_attack_an_owned_town_has_plus_two_defence_and_moves_income() -> None:
    """Towns: "The Defense value of a town is 2 greater when another player owns the town ... that player loses one
    income and the Goods"; the reference's "cannot attack your own town"."""
    state = start_actions(2)
    seat = state.current
    other = 1 - seat
    town = state.town_piles["1"][0]
    state.town_piles["1"].remove(town)
    state.players[other].towns.append(town)
    state.players[seat].hand = []
    captain, soldier = give(state, seat, "captain"), give(state, seat, "soldier")
    spy, cartographer = give(state, seat, "spy"), give(state, seat, "cartographer")
    defense = DATA.towns[town].defense + 2
    attack = [captain, soldier] if defense <= 3 else None
    if attack is None:
        iron = give(state, seat, "iron-guard")
        attack = [captain, iron]
    state = act(
        state, seat, {"kind": "attack", "town": town, "attackers": attack, "distance": [spy, cartographer]}
    )
    assert town in state.players[seat].towns and town not in state.players[other].towns
    assert income_track(state, state.players[other]) == 2
    state.current = seat  # seat's next turn
    rejected(state, seat, {"kind": "attack", "town": town, "attackers": [captain]}, "own town")


def test_eye_symbols_reach_deeper_into_town_piles() -> None:
    """Reference: "Eye symbols on buildings: skip 1 town card per Eye when attacking"."""
    state = start_actions(2)
    seat = state.current
    second = state.town_piles["1"][1]
    assert second not in [target[0] for target in attack_targets(state, seat)]
    state.players[seat].cities[0].buildings.append("watchtower.1")
    assert second in [target[0] for target in attack_targets(state, seat)]


def test_expansion_keeps_three_towns_on_offer() -> None:
    """Town Card Expansion: "There should always be 3 expansion towns available to conquer"."""
    state = start_actions(2, expansion=True)
    assert len(state.expansion_row) == 3 and len(state.expansion_deck) == 4
    seat = state.current
    target = next(town for town in state.expansion_row if DATA.towns[town].defense <= 2)
    state.players[seat].hand = []
    captain, spy = give(state, seat, "captain"), give(state, seat, "spy")
    state = act(state, seat, {"kind": "attack", "town": target, "attackers": [captain], "distance": [spy]})
    assert len(state.expansion_row) == 3 and len(state.expansion_deck) == 3
