"""Games stored before issue 41 (`before_issue_41/`, written by commit 8eeb4ff) load and replay.

Then each side held a designed mix of 2 tokens of each advantage; the text says "Each of these tokens
may be used once per game ... for any 1 of the actions listed on the token". The new rule is more
permissive, so every move of an old log stays legal, with one exception the replay handles: the
defender is asked about Surge while holding any token ("If either the attacker or defender chooses,
they may use one Surge token"), where the old rule asked only while a Surge token of the mix was left.
An old log has no answer there: the old rule rolled at once, without Surge (`Game.implied`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.core import RuleError
from rules.iron_and_brass import GAME
from rules.iron_and_brass.view import IronAndBrassView

OLD = Path(__file__).parent / "before_issue_41"


def _text(name: str) -> str:
    return (OLD / name).read_text(encoding="utf-8").rstrip("\n")


def _log(name: str) -> tuple[list[str], dict, int, list[tuple[int, dict]]]:
    saved = json.loads(_text(name))
    moves = [(move["seat"], move["action"]) for move in saved["moves"]]
    return [seat["name"] for seat in saved["seats"]], saved["options"], saved["seed"], moves


def test_an_old_snapshot_loads_with_its_tokens_counted_together():
    """'Each player begins the game with 8 Advantage tokens': a snapshot that stored what was left of
    each kind loads with their sum, any of them now playable for any advantage, and what is missing of
    each kind as played; written back as before issue 41 it is the stored text to the byte."""
    stored = _text("in-progress-seed-13.state.json")
    old = json.loads(stored)
    state = GAME.load_state(stored)
    for player, was in zip(state.players, old["players"], strict=True):
        assert player.advantage_tokens == sum(was["tokens"].values())
        assert player.played == {kind: 2 - left for kind, left in was["tokens"].items()}
    assert [p.advantage_tokens for p in state.players] == [2, 3]
    assert GAME.earlier_dumps(state) == [stored]
    assert GAME.load_state(GAME.dump_state(state)) == state


def test_an_old_game_goes_on_under_the_new_rule():
    """The stored game continues under the text's rule: Ada had played both Open Road tokens of the old
    mix (the old rule offered no third), and with 2 tokens left she may now play one for Open Road."""
    state = GAME.load_state(_text("in-progress-seed-13.state.json"))
    assert state.players[0].played["open_road"] == 2 and state.current == 1
    state = GAME.apply(state, 1, {"kind": "end_turn"}).state
    roads = [choice for choice in GAME.legal_actions(state, 0) if choice.key.endswith(":r")]
    assert roads
    state = GAME.apply(state, 0, roads[0].action).state
    assert state.players[0].advantage_tokens == 1 and state.players[0].played["open_road"] == 3
    assert GAME.earlier_dumps(state) == [], "no position of the old rule"


@pytest.mark.parametrize("name", ["finished-seed-13", "in-progress-seed-13"])
def test_an_old_log_replays_to_its_stored_snapshot(name: str):
    """Every logged move is still offered by today's menus (the rule only widened), the replay makes the
    old rule's unasked answers itself, and the position it reaches is the stored snapshot as written
    before issue 41 (`Game.saved_forms`; the in-progress log ends on such an attack)."""
    names, options, seed, moves = _log(f"{name}.json")
    state = GAME.setup(names, options, seed)
    implied_at = []
    for number, (seat, action) in enumerate(moves, start=1):
        if GAME.implied(state, seat, action):
            implied_at.append(number)
            defender = state.players[1 - state.current]
            assert defender.played["surge"] == 2 and defender.advantage_tokens > 0
            with pytest.raises(RuleError):
                GAME.apply(state, seat, action)  # without the implied answer, the old log stops here
        else:
            assert action in [choice.action for choice in GAME.legal_actions(state, seat)], number
        state = GAME.apply_logged(state, seat, action).state
    assert implied_at == ([181] if name == "finished-seed-13" else [])
    stored = _text(f"{name}.state.json")
    matched = [final for final, text in GAME.saved_forms(state) if text == stored]
    assert len(matched) == 1
    if name == "finished-seed-13":
        assert GAME.result(matched[0]).model_dump_json() == _text("finished-seed-13.result.json")
    else:
        assert state.step == "defend" and matched[0].step == "play", "the log ends on an unasked attack"


def test_a_log_written_today_is_never_completed_by_the_replay():
    """Today the defender's question admits no other move: an answer is never implied before the
    defender's own answer, and a live move by the attacker is refused ('It is not your turn')."""
    names, options, seed, moves = _log("in-progress-seed-13.json")
    state = GAME.setup(names, options, seed)
    for seat, action in moves:
        state = GAME.apply_logged(state, seat, action).state
    assert state.step == "defend"
    defender = 1 - state.current
    assert GAME.implied(state, defender, {"kind": "defend", "surge": True}) == []
    answered = GAME.apply_logged(state, defender, {"kind": "defend", "surge": True}).state
    assert answered.players[defender].played["surge"] == 3
    with pytest.raises(RuleError, match="not your turn"):
        GAME.apply(state, state.current, {"kind": "end_turn"})


def test_a_view_waiting_in_the_outbox_before_issue_41_is_drawn_with_the_count():
    """A post queued before the change holds the old view: it loads with the tokens left summed."""
    stored = json.loads(_text("in-progress-seed-13.view.json"))
    view = GAME.load_view(stored)
    assert isinstance(view, IronAndBrassView)
    assert [seat.advantage_tokens for seat in view.seats] == [
        sum(seat["tokens"].values()) for seat in stored["seats"]
    ]
    assert view.seats[0].played == {"spotter": 2, "surge": 2, "open_road": 2, "heal": 0}
