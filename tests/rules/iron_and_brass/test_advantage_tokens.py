"""ADVANTAGE TOKENS (issue 41): "Each player begins the game with 8 Advantage tokens. Each of these tokens
may be used once per game combined with a normal action (attack, move, etc.) for any 1 of the actions
listed on the token" (Spotter, Surge, Open Road, Heal), and "One Advantage token may be played along
with any action. Once an Advantage token is played, it is removed from the game." One count per side,
any advantage each."""

from __future__ import annotations

from rules.iron_and_brass import GAME
from rules.iron_and_brass.state import Piece

from .helpers import at, dice_rng, keys, play, position, rejected

NO_TOKEN_LEFT = (
    "You have no advantage tokens left: each of your 8 advantage tokens can be played once per game"
)


def _walls_in_range():
    """Seat 0: three Steam Tanks (attack 4, range 2) facing a row of the enemy's Armored Walls (structures:
    no Surge question for the defender), and a Skirmisher free to march."""
    tanks = [("steam-tank", 0, square) for square in ("B3", "E3", "H3")]
    walls = [("armored-wall", 1, f"{column}{row}") for column in "ABCDEFGHI" for row in (4, 5)]
    return position([*tanks, *walls, ("skirmisher", 0, "J1")], gold=0, crew=0)


def _spend_a_turn(state):
    """Seat 0 plays four tokens in one turn: a Surge with each tank's attack on a wall still standing,
    then an Open Road with the Skirmisher's move; seat 1 passes."""
    for tank in ("B3", "E3", "H3"):
        attack = next(
            choice.action
            for choice in GAME.legal_actions(state, 0)
            if choice.key.startswith(f"at:{tank}:") and choice.key.endswith(":su")
        )
        state, _ = play(state, 0, attack)
    skirmisher = _sq(next(p for p in state.pieces if p.kind == "skirmisher"))
    road = next(
        c.action
        for c in GAME.legal_actions(state, 0)
        if c.key.startswith(f"mv:{skirmisher}:") and c.key.endswith(":r")
    )
    state, _ = play(state, 0, road)
    assert state.current == 1, "four actions end the turn"
    state, _ = play(state, 1, {"kind": "end_turn"})
    return state


def _sq(piece) -> str:
    return f"{'ABCDEFGHIJ'[piece.col]}{piece.row + 1}"


def test_a_third_and_fourth_surge_are_played_while_tokens_remain():
    """'... for any 1 of the actions listed on the token': Surge is not limited to 2 (the designed mix
    before issue 41 refused a third with "You have no Surge token left" while 6 tokens remained)."""
    state = _walls_in_range()
    state = _spend_a_turn(state)  # 3 Surges and an Open Road
    player = state.players[0]
    assert (player.advantage_tokens, player.played) == (
        4,
        {"spotter": 0, "surge": 3, "open_road": 1, "heal": 0},
    )
    state = _spend_a_turn(state)
    player = state.players[0]
    assert (player.advantage_tokens, player.played) == (
        0,
        {"spotter": 0, "surge": 6, "open_road": 2, "heal": 0},
    )


def test_a_ninth_token_is_refused_with_a_sentence_and_changes_nothing():
    """'Each player begins the game with 8 Advantage tokens ... Once an Advantage token is played, it is
    removed from the game': after 8, no advantage is offered or accepted, whatever it is for."""
    state = _spend_a_turn(_spend_a_turn(_walls_in_range()))
    assert state.players[0].advantage_tokens == 0
    offered = keys(state, 0)
    assert any(key.startswith("at:B3:") for key in offered), "the plain attacks are still there"
    assert not [key for key in offered if key.endswith((":su", ":sp", ":r")) or key.startswith("heal:")]
    wall = next(c.action["target"] for c in GAME.legal_actions(state, 0) if c.key.startswith("at:B3:"))
    rejected(state, 0, {"kind": "attack", "unit": "B3", "target": wall, "token": "surge"}, NO_TOKEN_LEFT)
    rejected(state, 0, {"kind": "attack", "unit": "B3", "target": wall, "token": "spotter"}, NO_TOKEN_LEFT)
    skirmisher = _sq(next(p for p in state.pieces if p.kind == "skirmisher"))
    rejected(state, 0, {"kind": "move", "unit": skirmisher, "to": "J4", "open_road": True}, NO_TOKEN_LEFT)


def test_heal_and_a_defenders_surge_take_the_same_tokens():
    """'Heal: Heals 1 infantry unit' and 'If either the attacker or defender chooses, they may use one
    Surge token': both come from the one count. A defender who has played Surge twice is still asked
    while any token is left (before issue 41 the question was skipped), and is not asked with none."""
    state = position(
        [("steam-tank", 0, "B3"), ("gunner", 1, "B5"), ("skirmisher", 1, "H8")], disabled=("H8",), current=1
    )
    defender = state.players[1]
    defender.advantage_tokens, defender.played = 2, {"spotter": 2, "surge": 2, "open_road": 2, "heal": 0}
    assert "heal:H8" in keys(state, 1)
    state, _ = play(state, 1, {"kind": "heal", "square": "H8"})
    assert not at(state, "H8").disabled and state.players[1].advantage_tokens == 1
    state, _ = play(state, 1, {"kind": "end_turn"})
    state.rng = dice_rng(1, 1, 3, 3)
    state, _ = play(state, 0, {"kind": "attack", "unit": "B3", "target": "B5"})
    assert state.step == "defend" and GAME.to_act(state) == {1}
    assert "(1 advantage token left)" in GAME.legal_actions(state, 1)[0].label
    state, _ = play(state, 1, {"kind": "defend", "surge": True})
    assert state.players[1].advantage_tokens == 0 and state.players[1].played["surge"] == 3
    assert state.last_combat is not None and state.last_combat.defence_sum >= 2 + 2 + 2
    assert at(state, "B5") is not None, "4 + 1 + 1 against 2 + 2 + 3 + 3: no damage"
    # With no token left the next attack on it asks nothing: the dice roll at once.
    state.pieces.append(Piece(id=99, kind="steam-tank", owner=0, col=2, row=4))  # C5
    state, _ = play(state, 0, {"kind": "attack", "unit": "C5", "target": "B5"})
    assert state.step == "play" and state.last_combat.squares == ["C5"] and state.last_combat.target == "B5"


def test_one_token_per_action():
    """'One Advantage token may be played along with any action': an attack is offered plainly, with
    Surge, or (one square beyond its range) with Spotter, never with two; a move that names a second
    token is refused in a sentence."""
    state = position([("gunner", 0, "C3"), ("gunner", 1, "C5"), ("gunner", 1, "D5")])
    attacks = {key for key in keys(state, 0) if key.startswith("at:C3:")}
    assert attacks == {"at:C3:C5", "at:C3:C5:su", "at:C3:D5:sp"}
    rejected(
        state,
        0,
        {"kind": "attack", "unit": "C3", "target": "C5", "token": ["surge", "spotter"]},
        "could not be read",
    )
    rejected(
        state,
        0,
        {"kind": "move", "unit": "C3", "to": "C2", "open_road": True, "token": "surge"},
        "could not be read",
    )


def test_the_view_shows_the_tokens_left_and_what_they_were_played_for():
    """Every token played is public; the view counts them together, as the rule does."""
    state = _spend_a_turn(_walls_in_range())
    seats = GAME.view(state, None).seats
    assert (seats[0].advantage_tokens, seats[1].advantage_tokens) == (4, 8)
    assert seats[0].played == {"spotter": 0, "surge": 3, "open_road": 1, "heal": 0}
    assert GAME.view(state, 1).seats == seats
