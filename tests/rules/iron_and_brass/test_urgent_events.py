"""Which events of Iron & Brass are urgent (a new post in the channel). The decisions are listed in
data/iron_and_brass/README.md: an attack that asks the defender, a hit (destroyed or disabled) and the end
of the game are; a miss and the routine actions are not."""

from __future__ import annotations

from rules.core import Event
from rules.iron_and_brass import GAME

from .helpers import dice_rng, new_game, play, position


def urgent(events: list[Event]) -> list[str]:
    return [event.text for event in events if event.urgent]


def _tank_vs_gunner(*rolls: int, surge: bool = False):
    """A Steam Tank (attack +4) on B3 against a Mechanized Gunner Patrol (defence +2) on B5."""
    state = position([("steam-tank", 0, "B3"), ("gunner", 1, "B5"), ("gunner", 1, "H8")])
    state.rng = dice_rng(*rolls)
    if not surge:
        state.players[1].advantage_tokens = 0
    return state


def test_an_attack_that_asks_the_defender_is_urgent():
    """ATTACKING 1 (text lines 233-236): 'If either the attacker or defender chooses, they may use one Surge
    token ... declared BEFORE any dice are rolled' - the defender must answer the attack now."""
    state = _tank_vs_gunner(2, 2, 3, 2, surge=True)
    state, events = play(state, 0, {"kind": "attack", "unit": "B3", "target": "B5"})
    assert GAME.to_act(state) == {1}
    assert [event.urgent for event in events] == [True]
    state, events = play(state, 1, {"kind": "defend", "surge": False})
    assert state.last_combat.outcome == "destroyed"
    assert len(urgent(events)) == 1 and "is destroyed" in urgent(events)[0]


def test_a_unit_destroyed_is_urgent():
    """ATTACKING 3 (text lines 242-244): 'If Attacker's sum > Defender's sum, the Defender's unit is
    destroyed and removed from the map' - the defender's army changed: the result gets a post."""
    state = _tank_vs_gunner(2, 2, 3, 2)  # 4 + 4 = 8 against 2 + 5 = 7
    state, events = play(state, 0, {"kind": "attack", "unit": "B3", "target": "B5"})
    assert state.last_combat.outcome == "destroyed" and GAME.to_act(state) == {0}
    (event,) = events
    assert event.urgent and event.reveals


def test_a_unit_disabled_is_urgent():
    """ATTACKING 3 (text lines 251-255): 'the Defender's unit is disabled ... reduced by 2 until the unit is
    healed/repaired' - the defender must plan a repair or heal."""
    state = _tank_vs_gunner(1, 2, 2, 3)  # 7 against 7
    state, events = play(state, 0, {"kind": "attack", "unit": "B3", "target": "B5"})
    assert state.last_combat.outcome == "disabled"
    assert [event.urgent for event in events] == [True]


def test_a_miss_is_not_urgent():
    """ATTACKING 3 (text line 257): 'Any other results = no damage to Defender's unit' - nothing changed on
    the map, so the line joins the attacker's edited post instead of a new one."""
    state = _tank_vs_gunner(1, 1, 3, 3)  # 6 against 8
    state, events = play(state, 0, {"kind": "attack", "unit": "B3", "target": "B5"})
    assert state.last_combat.outcome == "no-damage"
    assert urgent(events) == []


def test_the_game_end_is_urgent():
    """WINNING (text lines 207-210): 'The player destroying their opponent's Headquarters/Fortress or all
    military units is declared the winner'; the turn limit (a decision) ends it the same way."""
    state = position([("heavy-artillery", 0, "E2"), ("gunner", 0, "B2"), ("headquarters", 1, "E5")])
    state.rng = dice_rng(3, 3, 1, 1)
    state, events = play(state, 0, {"kind": "attack", "unit": "E2", "target": "E5"})
    assert GAME.result(state) is not None
    assert any(
        text.startswith("Game over: Alice wins by destroying Bob's Headquarters") for text in urgent(events)
    )
    state = new_game(max_rounds=1)
    first = state.current
    state, _ = play(state, first, {"kind": "end_turn"})
    state, events = play(state, 1 - first, {"kind": "end_turn"})
    assert GAME.result(state) is not None
    assert any(text.startswith("Game over: A draw at the turn limit") for text in urgent(events))
    assert GAME.result(state).reason == (
        "A draw at the turn limit of 1 round: both sides have 11 gold worth of pieces on the map."
    )


def test_routine_actions_are_not_urgent():
    """GAMEPLAY OVERVIEW (text lines 126-161): mining, hiring, building, training and moving are the acting
    player's own turn: the post is edited in place, and so is a build becoming ready."""
    state = position([("gunner", 0, "C3"), ("barracks", 0, "B1"), ("gunner", 1, "H8")])
    state.players[1].advantage_tokens = 0
    for kind in ("mine", "hire", "pick", "build", "move"):
        choice = next(c for c in GAME.legal_actions(state, 0) if c.action["kind"] == kind)
        state, events = play(state, 0, choice.action)
        assert urgent(events) == [], kind
    assert GAME.to_act(state) == {1}
    state, events = play(state, 1, {"kind": "end_turn"})
    assert "is ready at" in "\n".join(event.text for event in events)
    assert urgent(events) == []
