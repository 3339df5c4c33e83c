"""Round actions go with a phase action (issue 41): 'Some actions are available to players during any
phase. These actions do not qualify as phase actions and must be done alongside another action (you
may not make only a Round Action and pass the phase). If a player has passed during the current phase,
they may not take these actions until the next phase.' (Round Actions). A turn is one phase action with
round actions before it or during it; with no phase action left this turn, a round action is refused
and the player passes. Games created before the rule keep the earlier one (`round_actions` option)."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from rules.city_heroes import GAME
from rules.city_heroes.determinize import determinize
from rules.city_heroes.moves.turn import round_refusal
from rules.core import RuleError
from rules.policy import play as policy_play
from rules.policy import policy_for
from rules.search import SearchPolicy

from .helpers import at_phase, dump, give, keys, new_game, own, play, rejected

RULE = r"Round actions 'must be done alongside another action \(you may not make only a Round Action and pass"
SALE = {"kind": "bank", "resource": "wheat", "count": 1, "sell": True}
ROUND_KEYS = ("bank-", "rival:", "influence-")
SAVED = Path(__file__).with_name("saved_before_round_rule.json")
"""A game in progress exported by main at 8eeb4ff (before this rule) with bot/app/archive.py: two
players buy five tiles each, then each sells a Wheat to the bank and passes, in the Expansion (no Ready
worker, five tiles for five workers) and in the Construction (no Ready worker); it stops in the
Interaction."""


def _round_keys(state, seat: int) -> list[str]:
    return [key for key in keys(state, seat) if key.startswith(ROUND_KEYS)]


def test_a_round_action_with_no_ready_worker_is_refused_and_changes_nothing():
    """'These actions do not qualify as phase actions and must be done alongside another action (you
    may not make only a Round Action and pass the phase).' Every Construction action takes a Ready
    worker (data/city_heroes/README.md), so a player without one has no phase action this turn: the
    sale is refused in a sentence that quotes the rule, the menu offers no round action, and passing
    is what is left."""
    state = at_phase("construction")
    own(state, 0, 5)
    state.players[0].ready, state.players[0].busy = 0, 5
    error = rejected(state, 0, SALE, RULE)
    assert "no phase action to take this turn" in error.message and "Ready worker" in error.message
    assert error.message.endswith("Pass instead.")
    rejected(state, 0, {"kind": "influence", "amount": 1, "sell": False}, RULE)
    rejected(state, 0, {"kind": "rival", "row": "buy-wheat", "lots": 1}, RULE)
    assert _round_keys(state, 0) == [] and "pass" in keys(state, 0)
    state, events = play(state, 0, {"kind": "pass"})
    assert state.players[0].passed and "passed the construction phase" in events[-1].text


def test_a_round_action_with_the_tiles_at_the_worker_limit_is_refused():
    """'Players can own as many tiles as they have workers' limits the Expansion's only phase action:
    with five tiles and five workers, a Ready worker buys nothing, so no sale may go with it."""
    state = new_game(2)
    own(state, 0, 1, 2, 3, 4, 5)
    error = rejected(state, 0, SALE, RULE)
    assert "you own 5 tiles and have 5 workers in all pools" in error.message
    assert _round_keys(state, 0) == [] and "pass" in keys(state, 0)


def test_a_sale_before_the_phase_action_pays_for_it():
    """'A player can trade resources with the bank at any time they can carry out a Round Action': before
    the phase action of the same turn, too. With no ducat the player cannot pay for a tile (1 Ducat + 1
    for each tile between, on a plain); a Wheat sold to the bank (2 Ducats) pays for it, and the turn
    goes on."""
    state = at_phase("expansion")
    own(state, 0, 1)
    give(state, 0, ducats=0)
    assert not any(key.startswith("buy:") for key in keys(state, 0))
    assert "bank-sell:wheat" in _round_keys(state, 0)
    state, _ = play(state, 0, SALE)
    assert "pass" not in keys(state, 0)  # the sale must go with a phase action
    state, _ = play(state, 0, {"kind": "buy", "tile": 2})
    assert state.tiles[1].owner == 0 and state.players[0].ducats == 1


def test_a_round_action_during_the_phase_action_is_allowed_after_the_last_worker_is_used():
    """Alongside: a round action after the phase action has started, before it ends. The building takes
    the player's last Ready worker; the bank still trades with them until they end the action."""
    state = at_phase("construction")
    own(state, 0, 5)
    state.players[0].ready, state.players[0].busy = 1, 4
    state, _ = play(state, 0, {"kind": "build", "tile": 5, "building": "market"})
    assert state.players[0].ready == 0 and state.acted == "build"
    assert "bank-sell:wheat" in _round_keys(state, 0)
    state, _ = play(state, 0, SALE)
    state, _ = play(state, 0, {"kind": "end", "and_pass": True})
    assert state.players[0].passed and state.players[0].stock["wheat"] == 4


def test_passing_without_any_action_still_works():
    """A player with no phase action left and no round action taken passes, as before."""
    state = at_phase("construction")
    state.players[0].ready = 0
    state, _ = play(state, 0, {"kind": "pass"})
    assert state.players[0].passed and state.current == 1


def test_a_solo_interaction_has_no_phase_action_so_no_round_action():
    """'During Phase 3, players can trade with each other' or pillage another player's tile: alone with the
    rival city there is neither, so the Interaction offers only the pass."""
    state = at_phase("interaction", players=1)
    own(state, 0, 5)
    rejected(state, 0, SALE, "a solo game has nobody to trade with or pillage")
    assert _round_keys(state, 0) == []


def test_a_trade_offer_is_the_phase_action_whatever_the_answer():
    """'The other player will then get an alert on their client, where they can accept or deny the trade
    request': the offer is the proposer's phase action. After a sale and an offer the partner declines,
    the proposer may pass (they were held to offer again until somebody accepted)."""
    state = at_phase("interaction")
    state, _ = play(state, 0, SALE)
    assert "pass" not in keys(state, 0)
    state, _ = play(state, 0, {"kind": "propose", "partner": 1, "give": {"wheat": 1}, "get": {}})
    state, _ = play(state, 1, {"kind": "decline"})
    assert state.acted is None and "pass" in keys(state, 0)
    state, _ = play(state, 0, {"kind": "pass"})
    assert state.players[0].passed


def test_a_passed_player_takes_no_round_action_when_answering_an_offer():
    """'If a player has passed during the current phase, they may not take these actions until the next
    phase': asked to answer a trade, they may only accept or decline."""
    state = at_phase("interaction", seat=1)
    state, _ = play(state, 1, {"kind": "pass"})
    state, _ = play(state, 0, {"kind": "propose", "partner": 1, "give": {"wheat": 1}, "get": {}})
    assert sorted(keys(state, 1)) == ["accept", "decline"]
    rejected(state, 1, SALE, "Accept or decline")


@pytest.mark.parametrize("seed", range(3))
def test_the_menus_offer_exactly_the_round_actions_the_rules_accept(seed):
    """Along random games (two and three players, two turns): where a round action would be refused, the
    menu offers none; where the menu offers one, it is accepted."""
    rng = random.Random(seed)
    state = new_game(2 + seed % 2, seed, turns=2)
    while GAME.result(state) is None:
        seat = min(GAME.to_act(state))
        menu = GAME.legal_actions(state, seat)
        offered = [choice for choice in menu if choice.key.startswith(ROUND_KEYS)]
        refusal = round_refusal(state, seat) if state.proposal is None and state.raid is None else None
        if refusal:
            assert offered == []
            with pytest.raises(RuleError, match="no phase action to take this turn"):
                GAME.apply(state, seat, SALE)
        for choice in offered:
            GAME.apply(state, seat, choice.action)  # raises if refused
        state = GAME.apply(state, seat, rng.choice(menu).action).state


def test_the_computer_players_pass_when_no_phase_action_is_left():
    """The heuristic and the search choose from the menu, which holds only the pass (and no round action)
    for a seat with no phase action left; whole games of them raise no refused move."""
    state = at_phase("construction")
    own(state, 0, 5)
    give(state, 0, wheat=20)
    state.players[0].ready, state.players[0].busy = 0, 5
    search = SearchPolicy(budgets={1: 20, 2: 20, 3: 20}, tables=frozenset({2}))
    for chooser in (policy_for("city-heroes"), search):
        assert chooser.choose(GAME, state, 0, random.Random(1), 3).key == "pass"
    heuristic = policy_for("city-heroes")
    played = policy_play(GAME, [heuristic, heuristic], [3, 3], seed=3, rng_seed=3, options={"turns": 2})
    assert played.result is not None and played.illegal == []


def test_determinized_worlds_keep_the_rule_of_their_game():
    """The search's worlds are the same game: a world of an old-rule game is an old-rule world."""
    for options in ({}, {"round_actions": "alone_if_stuck"}):
        state = new_game(2, 1, **options)
        assert determinize(state, 1, random.Random(0)).alongside == state.alongside


# ---- games created before the rule ----------------------------------------------------------------
def test_new_games_have_the_rule_and_games_stored_before_it_keep_the_old_one():
    """A new game resolves `round_actions` to the guide's rule; the stored options of a game created before
    the option (every option of that time, resolved by the lobby) lack it and read as the old rule."""
    assert GAME.resolve_options({})["round_actions"] == "with_phase_action"
    assert GAME.stored_options({"map_seed": 0, "turns": 0})["round_actions"] == "alone_if_stuck"
    assert GAME.stored_options(GAME.resolve_options({}))["round_actions"] == "with_phase_action"
    assert new_game(2).alongside
    assert not GAME.setup(["a", "b"], GAME.stored_options({"map_seed": 0, "turns": 0}), 1).alongside


def test_an_old_rule_game_keeps_round_actions_alone_and_its_json():
    """Under the earlier rule a player with no phase action left sells, then passes; its state's JSON is
    the JSON of that time (no `alongside` key), while a new game's names the rule."""
    state = at_phase("construction")
    state.alongside = False
    state.players[0].ready = 0
    state, _ = play(state, 0, SALE)
    state, _ = play(state, 0, {"kind": "pass"})
    assert state.players[0].passed and state.players[0].stock["wheat"] == 4
    assert "alongside" not in json.loads(dump(state))
    fresh = new_game(2)
    assert json.loads(dump(fresh))["alongside"] is True
    assert GAME.load_state(dump(fresh)).alongside and not GAME.load_state(dump(state)).alongside


def test_a_game_saved_before_the_rule_replays_to_its_position_and_goes_on_under_the_old_rule():
    """The saved file's log holds a sale, then a pass, by players with no phase action left (refused
    today): read through its stored options it replays move for move to the very position (the hash of
    the state's JSON) the old code saved, and the game goes on under the rule it started with."""
    saved = json.loads(SAVED.read_text())
    names = [seat["name"] for seat in saved["seats"]]
    state = GAME.setup(names, GAME.stored_options(saved["options"]), saved["seed"])
    for move in saved["moves"]:
        state = GAME.apply(state, move["seat"], move["action"]).state
    digest = "sha256:" + hashlib.sha256(GAME.dump_state(state).encode()).hexdigest()
    assert digest == saved["position"] and not state.alongside and state.phase == "interaction"
    assert [m["action"] for m in saved["moves"]].count(SALE) == 4
    new = GAME.setup(names, GAME.resolve_options(saved["options"]), saved["seed"])
    with pytest.raises(RuleError, match="no phase action to take this turn"):
        for move in saved["moves"]:
            new = GAME.apply(new, move["seat"], move["action"]).state
