"""MOVEMENT, one rule at a time: steps in any direction, direction changes, never all diagonal,
what infantry and vehicles may pass, where a move may end, and the move/attack pattern per unit."""

from __future__ import annotations

from rules.iron_and_brass import GAME

from .helpers import at, dice_rng, keys, moves_of, play, position, rejected


def _square(col: int, row: int) -> str:
    return f"{'ABCDEFGHIJ'[col]}{row + 1}"


def _around(square: str, distance: int) -> set[str]:
    col, row = "ABCDEFGHIJ".index(square[0]), int(square[1:]) - 1
    return {
        _square(col + dx, row + dy)
        for dx in range(-distance, distance + 1)
        for dy in range(-distance, distance + 1)
        if (dx, dy) != (0, 0) and 0 <= col + dx < 10 and 0 <= row + dy < 10
    }


def test_a_unit_moves_one_step_in_any_direction_orthogonal_or_diagonal():
    """'all units and vehicles may move in any direction (orthogonal or diagonal)': a 1-move Heavy
    Artillery reaches its 8 neighbours."""
    state = position([("heavy-artillery", 0, "E5"), ("gunner", 1, "J9")])
    assert moves_of(state, "E5") == _around("E5", 1)


def test_a_longer_move_changes_direction_but_is_never_diagonal_for_all_steps():
    """'Units able to move more than 1 square may change direction between each square, and cannot move
    diagonal for all moves': with 2 steps every square within 2 is reachable but the 4 pure-diagonal ones."""
    state = position([("skirmisher", 0, "E5"), ("gunner", 1, "J9")])
    corners = {"C3", "G3", "C7", "G7"}
    assert moves_of(state, "E5") == _around("E5", 2) - corners
    assert "D7" in moves_of(state, "E5"), "diagonal then orthogonal (a knight's square) is fine"
    rejected(state, 0, {"kind": "move", "unit": "E5", "to": "G7"}, "diagonal for all its steps")
    # A Steam Tank (3 steps) reaches G7 by a 3-step path with an orthogonal step, never the 3-diagonal H8.
    tank = position([("steam-tank", 0, "E5"), ("gunner", 1, "J10")])
    reach = moves_of(tank, "E5")
    assert "G7" in reach and "H8" not in reach and "H7" in reach


def test_infantry_pass_over_friendly_structures_and_units_but_do_not_end_on_them():
    """'infantry units may move over any friendly structures or units, but may not end their move on top
    of other units', 'Infantry units are allowed to pass over friendly Walls, Armored Walls and Turrets'."""
    walls = [("armored-wall", 0, square) for square in ("D4", "E4", "F4", "D5", "F5", "D6", "F6")]
    state = position([("skirmisher", 0, "E5"), ("skirmisher", 0, "E6"), *walls, ("gunner", 1, "J9")])
    reach = moves_of(state, "E5")
    assert {"E7", "E3", "C5", "G5"} <= reach, "over the ring of walls and the friendly unit"
    assert not reach & {"E6", "D4", "E4", "F4"}, "never ending on a piece"
    rejected(state, 0, {"kind": "move", "unit": "E5", "to": "E6"}, "occupied")


def test_no_unit_passes_an_enemy_piece():
    """Decision: only friendly pieces may be passed over ('over any friendly structures or units')."""
    ring = [
        (kind, 1, square) for kind, square in zip(["armored-wall"] * 8, sorted(_around("E5", 1)), strict=True)
    ]
    state = position([("skirmisher", 0, "E5"), *ring])
    assert moves_of(state, "E5") == set()
    rejected(state, 0, {"kind": "move", "unit": "E5", "to": "E7"}, "cannot pass enemy pieces")


def test_vehicles_and_artillery_never_pass_structures_even_their_own():
    """'Vehicles may NOT pass over any structures including walls'; 'Artillery may NOT pass over any
    structures including walls'."""
    ring = [("armored-wall", 0, square) for square in sorted(_around("E5", 1))]
    for kind in ("steam-tank", "motorized-artillery"):
        state = position([(kind, 0, "E5"), *ring, ("gunner", 1, "J9")])
        assert moves_of(state, "E5") == set(), kind
        rejected(state, 0, {"kind": "move", "unit": "E5", "to": "E7"}, "pass no structure")


def test_vehicles_pass_friendly_units():
    """Decision: the text forbids structures only, so a tank passes over its own infantry."""
    ring = [("skirmisher", 0, square) for square in sorted(_around("E5", 1))]
    state = position([("steam-tank", 0, "E5"), *ring, ("gunner", 1, "J9")])
    assert "E7" in moves_of(state, "E5")


def test_a_move_never_ends_on_a_square_held_by_a_build():
    """Decision: a pending build holds its square until it is ready."""
    from rules.iron_and_brass.state import Build

    state = position([("skirmisher", 0, "E5"), ("gunner", 1, "J9")])
    state.builds.append(Build(kind="turret", owner=1, col=4, row=6))  # E7
    assert "E7" not in moves_of(state, "E5") and "E8" not in moves_of(state, "E5")
    rejected(state, 0, {"kind": "move", "unit": "E5", "to": "E7"}, "held by a build")


def test_open_road_adds_one_movement_and_is_spent():
    """'Open Road: Adds +1 movement to any unit movement'."""
    state = position([("skirmisher", 0, "E5"), ("gunner", 1, "J9")])
    assert "mv:E5:E8:r" in keys(state, 0) and "mv:E5:E8" not in keys(state, 0)
    rejected(state, 0, {"kind": "move", "unit": "E5", "to": "E8"}, "movement of 2")
    state, _ = play(state, 0, {"kind": "move", "unit": "E5", "to": "E8", "open_road": True})
    assert at(state, "E8") is not None and state.players[0].advantage_tokens == 7


def test_units_move_and_attack_once_each_in_either_order():
    """'a unit can move, attack, move-attack or attack-move ... Units cannot attack-attack, move-move, or
    move-attack-move in one turn.'"""
    state = position([("gunner", 0, "E3"), ("gunner", 1, "E6"), ("gunner", 1, "J9")])
    state.players[1].advantage_tokens = 0
    state.rng = dice_rng(1, 1, 3, 3)  # 3 + 2 against 2 + 6: no damage
    state, _ = play(state, 0, {"kind": "move", "unit": "E3", "to": "E4"})
    rejected(state, 0, {"kind": "move", "unit": "E4", "to": "E3"}, "no move-move")
    assert not any(key.startswith("mv:E4") for key in keys(state, 0))
    state, _ = play(state, 0, {"kind": "attack", "unit": "E4", "target": "E6"})
    assert state.last_combat.outcome == "no-damage"
    # move-attack done: no further move (no move-attack-move) and no second attack
    rejected(state, 0, {"kind": "move", "unit": "E4", "to": "E3"}, "no move-move")
    rejected(state, 0, {"kind": "attack", "unit": "E4", "target": "E6"}, "no attack-attack")
    # attack first, then a move is still allowed, but not a second attack
    other = position([("gunner", 0, "E3"), ("gunner", 1, "E5"), ("gunner", 1, "J9")])
    other.players[1].advantage_tokens = 0
    other.rng = dice_rng(1, 1, 3, 3)
    other, _ = play(other, 0, {"kind": "attack", "unit": "E3", "target": "E5"})
    assert "mv:E3:E2" in keys(other, 0)
    rejected(other, 0, {"kind": "attack", "unit": "E3", "target": "E5"}, "no attack-attack")
    other, _ = play(other, 0, {"kind": "move", "unit": "E3", "to": "E2"})
    assert at(other, "E2").moved and at(other, "E2").attacked


def test_artillery_moves_or_attacks_not_both():
    """'Light and Heavy Artillery units can move OR attack in a turn, NOT both.'"""
    state = position([("motorized-artillery", 0, "E3"), ("gunner", 1, "E6"), ("gunner", 1, "J9")])
    moved, _ = play(state, 0, {"kind": "move", "unit": "E3", "to": "E4"})
    rejected(moved, 0, {"kind": "attack", "unit": "E4", "target": "E6"}, "moves OR attacks")
    state.players[1].advantage_tokens = 0
    fired, _ = play(state, 0, {"kind": "attack", "unit": "E3", "target": "E6"})
    rejected(fired, 0, {"kind": "move", "unit": "E3", "to": "E2"}, "moves OR attacks")


def test_structures_do_not_move_and_turrets_attack_once():
    """Structures have no movement; the Turret (cannon tower) attacks once a turn."""
    state = position([("turret", 0, "E3"), ("gunner", 1, "E6"), ("gunner", 1, "J9")])
    rejected(state, 0, {"kind": "move", "unit": "E3", "to": "E4"}, "structures do not move")
    assert "at:E3:E6" in keys(state, 0)


def test_the_choices_read_like_the_map():
    """Choices are labelled 'Steam Tank B3 → attack ... C5' for the bot's autocomplete."""
    state = position([("steam-tank", 0, "B3"), ("skirmisher", 1, "C4"), ("gunner", 1, "J9")])
    labels = {choice.key: choice.label for choice in GAME.legal_actions(state, 0)}
    assert labels["at:B3:C4"] == "Steam Tank B3 → attack Skirmisher Patrol C4"
    assert labels["mv:B3:B4"] == "Steam Tank B3 → move B4"
