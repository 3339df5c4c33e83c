"""ATTACKING: the text's two worked examples, each outcome of the table, Surge, Spotter, concentrated
fire, disabled pieces, repair and heal, and the two ways to win."""

from __future__ import annotations

from rules.iron_and_brass import GAME

from .helpers import at, dice_rng, keys, play, position, rejected, texts


def _tank_vs_gunner(*rolls: int):
    """A Steam Tank (attack +4) on B3 and a Mechanized Gunner Patrol (defence +2) on B5."""
    state = position([("steam-tank", 0, "B3"), ("gunner", 1, "B5"), ("gunner", 1, "H8")])
    assert GAME.spec("steam-tank").attack == 4 and GAME.spec("gunner").defence == 2
    state.rng = dice_rng(*rolls)
    return state


def test_worked_example_one_attack_8_beats_defence_7():
    """'Attack strength 4 attacks Defense strength 2, no Surge. Attacker rolls a 4, Defender rolls a 5.
    Attack = 4 + 4 = 8, Defense = 2 + 5 = 7 ... the defending unit is destroyed'."""
    state = _tank_vs_gunner(2, 2, 3, 2)
    state, events = play(state, 0, {"kind": "attack", "unit": "B3", "target": "B5"})
    assert state.step == "defend" and GAME.to_act(state) == {1}, "the defender is asked about Surge first"
    state, events = play(state, 1, {"kind": "defend", "surge": False})
    record = state.last_combat
    assert (record.attack_sum, record.defence_sum, record.outcome) == (8, 7, "destroyed")
    assert at(state, "B5") is None
    assert "= 8 vs defence 2 + dice 3+2 = 7" in texts(events) and events[-1].reveals


def test_worked_example_two_defender_surge_8_against_9_disables():
    """'Defender adds Surge ... Attack = 4 + 4 = 8, Defense = 2 + 2 + 5 = 9. Since the Attack is within 1
    of the Defense, the defending unit is disabled.'"""
    state = _tank_vs_gunner(2, 2, 3, 2)
    state, _ = play(state, 0, {"kind": "attack", "unit": "B3", "target": "B5"})
    state, events = play(state, 1, {"kind": "defend", "surge": True})
    record = state.last_combat
    assert (record.attack_sum, record.defence_sum, record.outcome) == (8, 9, "disabled")
    gunner = at(state, "B5")
    assert gunner is not None and gunner.disabled
    assert state.players[1].advantage_tokens == 7 and state.players[1].played["surge"] == 1
    assert "Surge 2" in texts(events)


def test_equal_sums_disable_and_a_disabled_piece_loses_2_attack_and_defence():
    """'If Attacker's sum = Defender's sum ... the Defender's unit is disabled ... A disabled unit's Attack
    and defense modifiers are reduced by 2 until the unit is healed/repaired.'"""
    state = _tank_vs_gunner(1, 2, 2, 3)  # 4 + 3 = 7 against 2 + 5 = 7
    state.players[1].advantage_tokens = 0
    state, _ = play(state, 0, {"kind": "attack", "unit": "B3", "target": "B5"})
    gunner = at(state, "B5")
    assert state.last_combat.outcome == "disabled" and gunner.disabled
    view = GAME.view(state, None)
    shown = view.piece_at("B5")
    assert (shown.attack, shown.defence) == (2, 0)  # the Gunner's 4A / 2D, each 2 less


def test_two_less_is_no_damage():
    """'Any other results = no damage to Defender's unit.'"""
    state = _tank_vs_gunner(1, 1, 3, 3)  # 6 against 8
    state.players[1].advantage_tokens = 0
    state, events = play(state, 0, {"kind": "attack", "unit": "B3", "target": "B5"})
    assert state.last_combat.outcome == "no-damage" and not at(state, "B5").disabled
    assert "no damage" in texts(events)


def test_more_than_double_destroys_an_adjacent_unit_of_equal_or_lower_defence():
    """'If Attacker's sum > two times Defender's sum, the Defender's unit is destroyed ... AND one adjacent
    Defender's unit of equal or less Defense strength is also destroyed'."""
    state = position(
        [
            ("heavy-artillery", 0, "C2"),
            ("skirmisher", 1, "C5"),
            ("skirmisher", 1, "D6"),  # adjacent (diagonal), defence 1: destroyed too
            ("iron-infantry", 1, "B5"),  # adjacent but defence 4 > 1: spared
            ("gunner", 1, "H8"),
        ]
    )
    state.players[1].advantage_tokens = 0
    state.rng = dice_rng(3, 3, 1, 1)  # 6 + 6 = 12 against 1 + 2 = 3
    state, events = play(state, 0, {"kind": "attack", "unit": "C2", "target": "C5"})
    assert state.last_combat.outcome == "destroyed-two"
    assert at(state, "C5") is None and at(state, "D6") is None and at(state, "B5") is not None
    assert "adjacent Skirmisher Patrol D6" in texts(events)


def test_surge_is_declared_by_the_attacker_with_the_attack_and_spent():
    """'Surge: Adds +2 to an Attack or Defense dice roll' and 'must be declared BEFORE any dice are rolled'."""
    state = _tank_vs_gunner(1, 1, 3, 3)  # 4 + 2 + 2 = 8 against 8: disabled
    state.players[1].advantage_tokens = 0
    assert "at:B3:B5:su" in keys(state, 0)
    state, _ = play(state, 0, {"kind": "attack", "unit": "B3", "target": "B5", "token": "surge"})
    assert state.last_combat.attack_sum == 8 and state.players[0].advantage_tokens == 7


def test_surge_is_for_military_units_not_structures():
    """'Surge can only be used with military units, not structures': a Turret cannot surge and a
    structure under attack gives the defender no Surge question."""
    state = position([("turret", 0, "C3"), ("barracks", 1, "C5"), ("gunner", 1, "H8")])
    assert "at:C3:C5:su" not in keys(state, 0)
    rejected(state, 0, {"kind": "attack", "unit": "C3", "target": "C5", "token": "surge"}, "military units")
    state, _ = play(state, 0, {"kind": "attack", "unit": "C3", "target": "C5"})
    assert state.step == "play" and state.last_combat is not None


def test_spotter_adds_one_range():
    """'Spotter: Adds +1 range to an Attack'; ranges count orthogonal steps."""
    state = position([("gunner", 0, "C3"), ("gunner", 1, "D5"), ("gunner", 1, "H8")])
    # D5 is 1 + 2 = 3 orthogonal steps from C3: out of range 2, in range with Spotter.
    assert "at:C3:D5" not in keys(state, 0) and "at:C3:D5:sp" in keys(state, 0)
    rejected(state, 0, {"kind": "attack", "unit": "C3", "target": "D5"}, "out of the .* range of 2")
    state.players[1].advantage_tokens = 0
    state, _ = play(state, 0, {"kind": "attack", "unit": "C3", "target": "D5", "token": "spotter"})
    assert state.players[0].advantage_tokens == 7 and state.players[0].played["spotter"] == 1


def test_concentrated_fire_combines_two_modifiers_with_one_roll_for_two_actions():
    """'concentrated fire attack once per turn, costing 2 actions ... Two units ... in range of the defender
    can combine their Attack modifiers plus one dice roll (both dice).'"""
    state = position(
        [("gunner", 0, "C3"), ("gunner", 0, "E3"), ("gunner", 0, "D2"), ("headquarters", 1, "D4")]
    )
    state.rng = dice_rng(2, 2, 2, 2)  # 4 + 4 + 4 = 12 against 5 + 4 = 9
    assert "aim:D4" in keys(state, 0)
    state, _ = play(state, 0, {"kind": "aim", "target": "D4"})
    assert {"cf:C3:E3:D4", "back"} <= set(keys(state, 0))
    state, events = play(state, 0, {"kind": "concentrate", "units": ["C3", "E3"], "target": "D4"})
    assert state.last_combat.attack_sum == 12 and state.last_combat.defence_sum == 9
    assert "Game over" in texts(events) and GAME.result(state).winners == [0]


def test_concentrated_fire_once_per_turn_and_never_with_tanks_or_heavy_artillery():
    """'once per turn' and 'Two units (except Tanks or Heavy Artillery)'."""
    state = position(
        [
            ("steam-tank", 0, "C3"),
            ("heavy-artillery", 0, "E3"),
            ("gunner", 0, "D2"),
            ("gunner", 1, "D4"),
            ("gunner", 1, "H8"),
        ]
    )
    assert not any(key.startswith("aim") for key in keys(state, 0))
    rejected(
        state,
        0,
        {"kind": "concentrate", "units": ["C3", "D2"], "target": "D4"},
        "cannot join a concentrated fire",
    )
    state = position([("gunner", 0, "C3"), ("gunner", 0, "E3"), ("gunner", 1, "D4"), ("gunner", 1, "H8")])
    state.concentrated = True
    rejected(state, 0, {"kind": "concentrate", "units": ["C3", "E3"], "target": "D4"}, "once per turn")
    state.concentrated, state.actions_left = False, 1
    rejected(state, 0, {"kind": "concentrate", "units": ["C3", "E3"], "target": "D4"}, "2 actions")


def test_repair_costs_one_crew_and_heal_one_advantage_token():
    """'Repair a disabled vehicle or structure (costing 1 Crew)' and 'Heal a disabled non-vehicle unit
    (costing 1 Heal token)' (Heal: 'Heals 1 infantry unit'), the Heal token being any advantage token
    played for Heal ('for any 1 of the actions listed on the token')."""
    state = position(
        [("steam-tank", 0, "C3"), ("skirmisher", 0, "D3"), ("gunner", 1, "H8")],
        disabled=("C3", "D3"),
    )
    assert {"rep:C3", "heal:D3"} <= set(keys(state, 0))
    rejected(state, 0, {"kind": "heal", "square": "C3"}, "infantry only")
    rejected(state, 0, {"kind": "repair", "square": "D3"}, "healed with an advantage token")
    state, _ = play(state, 0, {"kind": "repair", "square": "C3"})
    state, _ = play(state, 0, {"kind": "heal", "square": "D3"})
    assert not at(state, "C3").disabled and not at(state, "D3").disabled
    assert state.players[0].crew == 2 and state.players[0].advantage_tokens == 7
    assert state.players[0].played["heal"] == 1
    rejected(state, 0, {"kind": "repair", "square": "C3"}, "not disabled")
    state.players[0].crew = 0
    at(state, "C3").disabled = True
    rejected(state, 0, {"kind": "repair", "square": "C3"}, "1 crew; you have none")


def test_destroying_the_headquarters_wins():
    """'The player destroying their opponent's Headquarters/Fortress ... is declared the winner.'"""
    state = position([("heavy-artillery", 0, "E2"), ("gunner", 0, "B2"), ("headquarters", 1, "E5")])
    state.rng = dice_rng(3, 3, 1, 1)
    state, events = play(state, 0, {"kind": "attack", "unit": "E2", "target": "E5"})
    result = GAME.result(state)
    assert result is not None and result.winners == [0] and "Headquarters" in result.reason
    assert GAME.to_act(state) == set() and GAME.legal_actions(state, 1) == []
    rejected(state, 1, {"kind": "end_turn"}, "over")


def test_destroying_all_military_units_wins_unless_one_is_in_training():
    """'... or all military units is declared the winner'; a unit set aside in training still counts."""
    state = position([("heavy-artillery", 0, "E2"), ("skirmisher", 1, "E5")])
    state.players[1].advantage_tokens = 0
    state.rng = dice_rng(3, 3, 1, 1)
    won, _ = play(state, 0, {"kind": "attack", "unit": "E2", "target": "E5"})
    assert GAME.result(won).winners == [0]
    result = GAME.result(won)
    assert not result.scored and result.place_line(1, 0, "Alice") == "1. Alice", "no '— 1 / — 0' score"
    assert GAME.result(won).reason == (
        "Alice wins by destroying Bob's last military unit in round 1: Bob has no military units left, "
        "on the board or in training."
    )
    state.builds.append(_build("gunner", 1, "H9"))
    state.players[1].trained = {"gunner": 1}
    on, _ = play(state, 0, {"kind": "attack", "unit": "E2", "target": "E5"})
    assert GAME.result(on) is None


def _build(kind: str, owner: int, square: str):
    from rules.iron_and_brass.state import Build, parse_square

    col, row = parse_square(square, 10)
    return Build(kind=kind, owner=owner, col=col, row=row)


def test_every_way_the_game_ends_says_why_in_words():
    """WINNING: 'Gameplay continues until one player's Headquarters/Fortress is destroyed. If neither side
    can destroy their opponent's Headquarters/Fortress, gameplay continues until one side's military units
    are destroyed.' Plus the turn limit (a decision: more gold worth of pieces on the map wins, equal is a
    draw). Each reason names the winner and what ended the game, not just a score of 1 to 0."""
    reasons = {}
    for command in ("headquarters", "fortress"):
        state = position([("heavy-artillery", 0, "E2"), (command, 1, "E5")])
        state.rng = dice_rng(3, 3, 1, 1)
        state, _ = play(state, 0, {"kind": "attack", "unit": "E2", "target": "E5"})
        reasons[command] = GAME.result(state).reason
    assert reasons["headquarters"] == "Alice wins by destroying Bob's Headquarters in round 1."
    assert reasons["fortress"] == "Alice wins by destroying Bob's Fortress in round 1."

    state = position([("turret", 0, "C3"), ("gunner", 1, "J9")])
    state.max_rounds = 1
    state, _ = play(state, 0, {"kind": "end_turn"})
    state, _ = play(state, 1, {"kind": "end_turn"})
    worth = [GAME._worth(state, seat) for seat in (0, 1)]
    assert worth[0] > worth[1]
    assert GAME.result(state).reason == (
        f"Alice wins at the turn limit of 1 round with more gold worth of pieces on the map, "
        f"{worth[0]} to Bob's {worth[1]}."
    )
