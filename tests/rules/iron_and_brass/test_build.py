"""CITY BUILDING and PLACEMENT, one rule at a time: costs, prerequisites, ready next turn, where
structures and each kind of unit may be placed, token limits, the Fortress upgrade."""

from __future__ import annotations

from rules.iron_and_brass import GAME

from .helpers import at, keys, play, position, rejected, texts


def _build_squares(state, item: str) -> set[str]:
    state, _ = play(state, state.current, {"kind": "pick", "item": item})
    return {
        choice.action["square"]
        for choice in GAME.legal_actions(state, state.current)
        if choice.action["kind"] == "build"
    }


def test_commissioning_costs_gold_plus_one_crew_and_is_ready_next_turn():
    """'Commission a build for a structure or vehicle ... reduce your Gold and Crew markers by the cost ...
    At the start of your next turn, the unit will be completed and ready for use.'"""
    state = position([("barracks", 0, "E1"), ("gunner", 1, "J9")], gold=10, crew=1)
    state, events = play(state, 0, {"kind": "build", "item": "arsenal", "square": "C1"})
    assert (state.players[0].gold, state.players[0].crew) == (6, 0)
    assert at(state, "C1") is None and len(state.builds) == 1
    assert GAME.view(state, None).builds[0].square == "C1", "the pending build is public"
    state, _ = play(state, 0, {"kind": "end_turn"})
    assert at(state, "C1") is None, "not ready during the opponent's turn"
    state, events = play(state, 1, {"kind": "end_turn"})
    assert at(state, "C1").kind == "arsenal" and "Arsenal is ready at C1" in texts(events)


def test_training_costs_gold_only():
    """'Train Military Units: ... reduce your Gold marker by the cost of the unit' (no crew)."""
    state = position([("barracks", 0, "E1"), ("gunner", 1, "J9")], gold=10, crew=0)
    state, _ = play(state, 0, {"kind": "build", "item": "skirmisher", "square": "E2"})
    assert (state.players[0].gold, state.players[0].crew) == (8, 0)
    rejected(state, 0, {"kind": "build", "item": "steam-works", "square": "B1"}, "needs 1 crew")


def test_prerequisites_must_be_standing():
    """'See Tech Tree section for unit pre-requisites': the Turret needs an Arsenal, the Crusher Tank all
    three factories; 'Headquarters, Barracks, Foundry, Steam Works, Arsenal' need nothing."""
    state = position([("barracks", 0, "E1"), ("steam-works", 0, "F1"), ("gunner", 1, "J9")])
    rejected(state, 0, {"kind": "build", "item": "turret", "square": "C1"}, "needs your Arsenal")
    rejected(state, 0, {"kind": "build", "item": "crusher-tank", "square": "F2"}, "needs your Foundry")
    for item in ("foundry", "arsenal", "barracks"):
        assert GAME.build_problem(state, 0, item) in (None, "You already have 1 Barracks built or under way.")
    assert "pick:turret" not in keys(state, 0) and "pick:foundry" in keys(state, 0)


def test_structures_go_on_the_base_row_or_orthogonally_next_to_a_structure():
    """'New Structures may be placed anywhere on the base row of the map, or adjacent orthogonally (side to
    side or top to bottom) to an existing structure.'"""
    state = position([("barracks", 0, "E1"), ("arsenal", 0, "E2"), ("gunner", 1, "J9")])
    squares = _build_squares(state, "foundry")
    base = {f"{column}1" for column in "BCDFGHIJ"}  # A1 holds the HQ, E1 the Barracks
    assert squares == base | {"D2", "F2", "E3"} | {"A2"}  # A2 is above the HQ; B2 touches nothing
    assert "D3" not in squares, "diagonal contact is not enough"
    rejected(state, 0, {"kind": "build", "item": "foundry", "square": "D3"}, "orthogonally next to")


def test_infantry_are_placed_adjacent_to_the_barracks():
    """'New Infantry units are placed adjacent (or as close as possible) to the Barracks structure.'"""
    state = position([("barracks", 0, "E1"), ("gunner", 1, "J9")])
    assert _build_squares(state, "skirmisher") == {"D1", "F1", "D2", "E2", "F2"}
    rejected(state, 0, {"kind": "build", "item": "skirmisher", "square": "E3"}, "as close as possible")


def test_infantry_go_as_close_as_possible_when_the_barracks_is_surrounded():
    """'(or as close as possible)': with every neighbour taken, the next ring out."""
    ring = [("armored-wall", 0, square) for square in ("D1", "F1", "D2", "E2", "F2")]
    state = position([("barracks", 0, "E1"), *ring, ("gunner", 1, "J9")])
    assert _build_squares(state, "skirmisher") == {"C1", "C2", "C3", "D3", "E3", "F3", "G3", "G2", "G1"}


def test_vehicles_next_to_the_steam_works_and_artillery_next_to_the_arsenal():
    """'New Vehicle units are placed adjacent ... to the Steam Works'; 'New Artillery units are placed
    adjacent ... to the Arsenal.'"""
    state = position(
        [("foundry", 0, "B1"), ("steam-works", 0, "H1"), ("arsenal", 0, "J5"), ("gunner", 1, "A9")]
    )
    assert _build_squares(state, "steam-tank") == {"G1", "I1", "G2", "H2", "I2"}
    assert _build_squares(state, "heavy-artillery") == {"I4", "I5", "I6", "J4", "J6"}


def test_no_unit_without_its_factory():
    """Decision: units are placed next to their factory, so it must be standing."""
    state = position([("foundry", 0, "B1"), ("arsenal", 0, "C1"), ("gunner", 1, "J9")])
    rejected(state, 0, {"kind": "pick", "item": "gunner"}, "next to your Barracks")


def test_a_build_square_is_held_until_ready():
    """Decision: nothing else may be placed on a pending build's square."""
    state = position([("barracks", 0, "E1"), ("gunner", 1, "J9")])
    state, _ = play(state, 0, {"kind": "build", "item": "skirmisher", "square": "E2"})
    assert "E2" not in _build_squares(state, "skirmisher")
    rejected(state, 0, {"kind": "build", "item": "skirmisher", "square": "E2"}, "as close as possible")


def test_destroyed_units_are_gone_for_good_and_structures_rebuildable():
    """'Once a military unit ... is destroyed, it is removed from the game and cannot be re-built.
    Destroyed structures may be re-built if desired.'"""
    state = position(
        [("barracks", 0, "E1"), ("steam-works", 0, "G1"), ("foundry", 0, "B1"), ("gunner", 1, "J9")]
    )
    state.players[0].trained = {"steam-tank": 2}
    rejected(state, 0, {"kind": "pick", "item": "steam-tank"}, "gone for good")
    state.pieces = [p for p in state.pieces if p.kind != "foundry"]
    assert GAME.build_problem(state, 0, "foundry") is None
    assert "You already have 1 Barracks" in GAME.build_problem(state, 0, "barracks")


def test_the_fortress_upgrades_the_headquarters_on_its_square():
    """'1 Fortress (upgraded Headquarters)'."""
    state = position(
        [("foundry", 0, "B1"), ("arsenal", 0, "C1"), ("gunner", 0, "C3"), ("gunner", 1, "J9")], gold=20
    )
    assert _build_squares(state, "fortress") == {"A1"}
    rejected(state, 0, {"kind": "pick", "item": "headquarters"}, "placed at setup")
    state, _ = play(state, 0, {"kind": "build", "item": "fortress", "square": "A1"})
    assert at(state, "A1").kind == "headquarters"
    state, _ = play(state, 0, {"kind": "end_turn"})
    state, _ = play(state, 1, {"kind": "end_turn"})
    assert at(state, "A1").kind == "fortress"
    assert not any(p.kind == "headquarters" and p.owner == 0 for p in state.pieces)


def test_the_two_step_build_offers_back():
    """Multi-step choice: pick an item, then a square, or go back."""
    state = position([("barracks", 0, "E1"), ("gunner", 1, "J9")])
    picked, _ = play(state, 0, {"kind": "pick", "item": "skirmisher"})
    assert "back" in keys(picked, 0) and all(key.startswith(("build:", "back")) for key in keys(picked, 0))
    assert GAME.view(picked, 0).picking == "build:skirmisher" and GAME.view(picked, None).picking is None
    back, _ = play(picked, 0, {"kind": "back"})
    assert back.picking is None and back.actions_left == 4
