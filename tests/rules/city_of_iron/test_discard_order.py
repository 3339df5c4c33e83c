"""The player chooses the order of a move's discards (issue 41).

Rulebook, Actions: "When you play the Action, discard all cards face up in their appropriate piles
(Citizen or Military). You may choose the order of the cards discarded." Citizen and Military Cards:
"When you play cards, place them in the appropriate discard piles (Citizen or Military), face up, in the
order you choose. Once you place cards in the discard pile, you cannot rearrange the order or shuffle
them." Draw: "If there are no remaining cards in the draw pile, pick up the cards in the discard pile (do
not change the order) and place them face down in the draw pile"; End Round step 4: "pick up the discard
pile (do not shuffle it or change the order of cards), turn it face down". A face-up pile turned face
down puts its lowest card on top: the first card put down is the first drawn again.
"""

from __future__ import annotations

import json
import random
from math import factorial
from pathlib import Path
from typing import Any

import pytest

import rules.search
from bot.app import archive
from rules import registry
from rules.city_of_iron import GAME
from rules.city_of_iron.determinize import determinize
from rules.city_of_iron.moves.discard import move_cards, orderable
from rules.city_of_iron.policy import POLICY, CityPolicy, best_order, evaluate, prior
from rules.city_of_iron.state import CityState
from rules.core import Choice
from rules.search import SearchPolicy

from .helpers import act, give, rejected, start_actions

SAVED = Path(__file__).with_name("saved_before_issue_41.json")
"""A four-player game 160 moves in, exported by the code before issue 41 (commit 8eeb4ff): its log has
no discard orders and its hash is of the JSON that code wrote."""


def _hand(state: CityState, seat: int, *kinds: str) -> list[str]:
    """The seat's hand becomes one card of each of these types; its citizen and military draw and
    discard piles are emptied (their cards set aside as unpurchased), so a draw turns the discards over."""
    player = state.players[seat]
    player.unpurchased += player.hand + player.citizen_draw + player.citizen_discard
    player.unpurchased += player.military_draw + player.military_discard
    for pile in (player.hand, player.citizen_draw, player.citizen_discard):
        pile.clear()
    player.military_draw.clear()
    player.military_discard.clear()
    return [give(state, seat, kind) for kind in kinds]


def _menu(state: CityState, seat: int) -> list[Choice]:
    return GAME.legal_actions(state, seat)


def _variant(choices: list[Choice], **wanted: Any) -> Choice:
    """The step's choice whose action has these fields (the discard order among them)."""
    found = [c for c in choices if all(c.action.get(name) == value for name, value in wanted.items())]
    assert len(found) == 1, [c.key for c in found]
    return found[0]


def _draw(state: CityState, seat: int, deck: str) -> tuple[CityState, list[str]]:
    state.current = seat
    after = act(state, seat, {"kind": "draw", "deck": deck})
    return after, [uid for uid in after.players[seat].hand if uid not in state.players[seat].hand]


def test_a_card_action_in_the_order_chosen_comes_back_in_that_order() -> None:
    """ "You may choose the order of the cards discarded": the Scholar (its action "Pay 1 coin and 1
    work: gain 1 science") paid with the Cartographer's work, the Cartographer put down first; with the
    draw pile empty, "pick up the cards in the discard pile (do not change the order) and place them face
    down": the Cartographer is drawn first, then the Scholar."""
    state = start_actions(2)
    seat = state.current
    scholar, cartographer = _hand(state, seat, "scholar", "cartographer")
    ordering = act(state, seat, {"kind": "order"})
    assert ordering.ordering and ordering.current == seat
    assert "chooses a discard order" in GAME.view(ordering, None).headline
    chosen = _variant(_menu(ordering, seat), card=scholar, discard_order=[cartographer, scholar])
    assert chosen.label.startswith("Discard Cartographer, then Scholar — Scholar")
    applied = GAME.apply(ordering, seat, chosen.action)
    state = applied.state
    assert not state.ordering and state.players[seat].actions_left == 2
    assert state.players[seat].citizen_discard == [cartographer, scholar]
    assert applied.events[0].text.endswith("Discard order: Cartographer, then Scholar.")
    state, first = _draw(state, seat, "citizen")
    state, second = _draw(state, seat, "citizen")
    assert (first, second) == ([cartographer], [scholar])
    assert state.players[seat].citizen_draw == [] and state.players[seat].citizen_discard == []


def test_an_attack_in_the_order_chosen_comes_back_in_that_order() -> None:
    """ "Discard all cards face up in their appropriate piles ... in the order you choose": an attack on
    Leckri Harbor (defence 3, distance 2) with the Captain and the Soldier, the Spy giving the distance,
    the three military cards put down Spy, Soldier, Captain, and drawn again in that order. The step
    offers every order of the three (3! = 6), each once."""
    state = start_actions(2)
    seat = state.current
    captain, soldier, spy = _hand(state, seat, "captain", "soldier", "spy")
    ordering = act(state, seat, {"kind": "order"})
    move = {"town": "leckri-harbor", "attackers": [captain, soldier], "distance": [spy]}
    variants = [c for c in _menu(ordering, seat) if c.action.get("town") == "leckri-harbor"]
    assert len(variants) == factorial(3) == len({tuple(c.action["discard_order"]) for c in variants})
    chosen = _variant(variants, **move, discard_order=[spy, soldier, captain])
    state = act(ordering, seat, chosen.action)
    assert state.players[seat].military_discard == [spy, soldier, captain]
    drawn = []
    for _ in range(3):
        state, card = _draw(state, seat, "military")
        drawn += card
    assert drawn == [spy, soldier, captain]


def test_two_piles_each_take_their_own_order() -> None:
    """ "Discard all cards face up in their appropriate piles (Citizen or Military)": each pile gets its
    own order, said pile by pile in the event; the order across the two piles changes nothing."""
    state = start_actions(2)
    seat = state.current
    captain, soldier, cartographer, scout = _hand(
        state, seat, "captain", "soldier", "cartographer", "scout-ship"
    )
    action = {
        "kind": "attack",
        "town": "leckri-harbor",
        "attackers": [captain, soldier],
        "distance": [cartographer, scout],
        "discard_order": [soldier, scout, captain, cartographer],
    }
    applied = GAME.apply(state, seat, action)
    player = applied.state.players[seat]
    assert player.citizen_discard == [scout, cartographer] and player.military_discard == [soldier, captain]
    assert applied.events[0].text.endswith(
        "Discard order: military pile Soldier, then Captain; citizen pile Scout Ship, then Cartographer."
    )
    ordering = act(state, seat, {"kind": "order"})
    variants = [c for c in _menu(ordering, seat) if c.action.get("distance") == [cartographer, scout]]
    assert len(variants) == 2 * 2  # two orders per pile, not the 4! orders of the four cards


def test_the_default_order_is_unchanged_and_the_menu_grows_by_one_choice() -> None:
    """Before issue 41 every card went down "in the order given (the played card first)": a move from the
    actions menu still does (no order in its action), so old logs replay as they played. The orders
    live in a step of their own: the actions menu only gains "Choose the discard order"."""
    state = start_actions(2)
    seat = state.current
    scholar, engineer, captain, soldier, spy = _hand(
        state, seat, "scholar", "engineer", "captain", "soldier", "spy"
    )
    menu = _menu(state, seat)
    assert [c.key for c in menu].count("order") == 1
    moves = [c for c in menu if c.action["kind"] in ("play", "attack")]
    assert moves and all("discard_order" not in c.action for c in moves)
    after = act(state, seat, _variant(moves, card=scholar, payers=[engineer]).action)
    assert after.players[seat].citizen_discard == [scholar, engineer]
    attack = _variant(moves, town="leckri-harbor", attackers=[captain, soldier], distance=[spy])
    after = act(state, seat, attack.action)
    assert after.players[seat].military_discard == [captain, soldier, spy]
    assert "Discard order" not in GAME.apply(state, seat, attack.action).events[0].text


def test_the_step_offers_only_moves_whose_order_matters_and_back_leaves_it() -> None:
    """The order can only matter for two different cards on one pile: a lone card (the Junkbot's free
    action "gain 1 coin") or two of a kind offer no order; Back leaves the step as it was."""
    state = start_actions(2)
    seat = state.current
    _hand(state, seat, "junkbot", "soldier")
    assert "order" not in {c.key for c in _menu(state, seat)}
    rejected(state, seat, {"kind": "order"}, "no order to choose")
    scholar, cartographer = give(state, seat, "scholar"), give(state, seat, "cartographer")
    before = _menu(state, seat)
    ordering = act(state, seat, {"kind": "order"})
    step = _menu(ordering, seat)
    assert step[-1].key == "back"
    assert all(orderable(c.action) for c in step[:-1])
    offered = {move_cards(c.action) for c in before if c.action["kind"] == "play" and orderable(c.action)}
    assert {move_cards(c.action) for c in step[:-1]} == offered
    assert {(scholar, cartographer), (cartographer, scholar)} <= offered
    rejected(ordering, seat, {"kind": "order"}, "already choosing")
    back = GAME.apply(ordering, seat, {"kind": "back"})
    assert back.events == [] and GAME.dump_state(back.state) == GAME.dump_state(state)
    assert [c.key for c in _menu(back.state, seat)] == [c.key for c in before]
    rejected(state, seat, {"kind": "back"}, "no discard order")


def test_a_bad_order_is_refused_and_changes_nothing() -> None:
    """The order names the move's own cards, each once ("discard all cards"): a card left out, named
    twice or not in the move is refused with a sentence, and nothing changes."""
    state = start_actions(2)
    seat = state.current
    scholar, cartographer, soldier = _hand(state, seat, "scholar", "cartographer", "soldier")
    play = {"kind": "play", "card": scholar, "payers": [cartographer]}
    for order in ([scholar], [scholar, scholar], [scholar, soldier], [scholar, cartographer, soldier]):
        message = rejected(state, seat, {**play, "discard_order": order}, "discard order must name each card")
        assert message.endswith("once: Scholar and Cartographer.")
    captain, spy = give(state, seat, "captain"), give(state, seat, "spy")
    attack = {"kind": "attack", "town": "woolcombe", "attackers": [captain], "distance": [spy]}
    rejected(state, seat, {**attack, "discard_order": [captain]}, "Captain and Spy")
    assert act(state, seat, {**attack, "discard_order": [spy, captain]}).players[seat].military_discard == [
        spy,
        captain,
    ]


def test_an_old_saved_game_replays_to_its_hash_and_old_snapshots_load() -> None:
    """Stored games and exported files must still load and replay. A file written before issue 41
    (`SAVED`: its card actions and attacks have no order, and several put two different cards on one
    pile that later come back) replays to the position hash it was saved with: the default order is the
    old order, and the state's JSON has no key for the step while nobody is in it."""
    raw = SAVED.read_bytes()
    saved, rules = archive.read(raw, lambda game_id: registry.get(game_id))
    ordered_moves = [m for m in saved.moves if m.action["kind"] in ("play", "attack") and orderable(m.action)]
    assert len(ordered_moves) >= 10 and not saved.finished
    states = archive.replay(rules, saved)
    snapshot = json.loads(GAME.dump_state(states[-1]))
    assert "ordering" not in snapshot
    assert GAME.load_state(json.dumps(snapshot)).ordering is False


def test_the_computer_puts_its_most_valuable_card_down_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The heuristic's order: the card it wants again soonest (its price: the Engineer costs 4 coins,
    the Scholar 2) goes down first, so it is drawn first. It asks for the step, then plays the move it
    chose in that order; the search plays the heuristic's step without looking into it."""
    state = start_actions(2)
    seat = state.current
    scholar, engineer = _hand(state, seat, "scholar", "engineer")
    assert best_order((scholar, engineer)) == (engineer, scholar)
    assert best_order((engineer, scholar)) == (engineer, scholar)
    assert isinstance(POLICY, CityPolicy)

    def wants_the_scholar(view: Any, seat: int, choice: Choice) -> float | None:
        if choice.action.get("card") == scholar and "discard_order" not in choice.action:
            return 50.0
        return prior(view, seat, choice)

    policy = CityPolicy(evaluate=evaluate, prior=wants_the_scholar)
    first = policy.choose(GAME, state, seat, random.Random(1), 3)
    assert first.key == "order"
    ordering = act(state, seat, first.action)
    second = policy.choose(GAME, ordering, seat, random.Random(1), 3)
    assert second.action["card"] == scholar and second.action["discard_order"] == [engineer, scholar]
    world = determinize(ordering, seat, random.Random(2))
    assert world.ordering and world.players[seat].hand == ordering.players[seat].hand

    def no_search(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("searched")

    monkeypatch.setattr(SearchPolicy, "_search", no_search)
    monkeypatch.setattr(rules.search, "policy_of", lambda game: policy)
    assert SearchPolicy(tables=frozenset({2})).choose(GAME, state, seat, random.Random(1), 3).key == "order"


def test_the_shipped_heuristic_orders_along_a_whole_game() -> None:
    """Along a four-player game of the shipped heuristic: each card action or attack whose discards it
    wants in another order is played through the step, in that order; the others in the default one."""
    rng = random.Random(4)
    state = GAME.setup(["A", "B", "C", "D"], {}, 4)
    steps = 0
    while GAME.result(state) is None:
        seat = min(GAME.to_act(state))
        choice = POLICY.choose(GAME, state, seat, rng, 3)
        action = choice.action
        if action["kind"] in ("play", "attack"):
            cards = move_cards(action)
            wanted = best_order(cards)
            assert tuple(action.get("discard_order", cards)) == wanted
            assert ("discard_order" in action) == (wanted != cards) == state.ordering
        steps += choice.key == "order"
        state = act(state, seat, action)
    assert steps >= 3
