"""Seeded random games of Iron Bridge Gorge with the invariants checked after every move."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from rules.core import RuleError
from rules.iron_bridge_gorge import GAME
from rules.iron_bridge_gorge.data import catalogue
from rules.iron_bridge_gorge.engine import HAND_LIMIT, START_COINS
from rules.iron_bridge_gorge.state import IronBridgeGorgeState

from .helpers import NAMES

WEIGHTS = {
    "bid": 1.0,
    "take": 1.0,
    "draw": 0.4,
    "offer": 0.08,
    "ask": 0.08,
    "build": 6.0,
    "loan": 0.3,
    "repay": 1.0,
    "sell": 0.15,
    "end-turn": 2.0,
    "accept": 1.0,
    "decline": 1.0,
    "cancel": 0.5,
    "discard": 1.0,
}
"""A random player that builds more often than it sells, so games look like games."""

MARKERS = (
    "accepted",
    "declined",
    "withdrew",
    "shuffled into a new deck",
    "built Patents",
    "took a loan",
    "repaid",
    "interest",
    "discarded",
    "Tie at",
    "innovation roll",
    "already in use",
    "halved by Worker Shortage",
    "stopped:",
    "tied, no one scores",
    "paid the bank 1",
    "sold",
)
"""Event phrases the random games should all reach, so the playouts are known to cover the rules (the
Iron Bridge, which needs a Wrought Iron Forge and 20 coins, is too rare for a random player: see test_rules)."""


def _random_action(rng: random.Random, state: IronBridgeGorgeState) -> dict[str, Any]:
    """Any move at all, legal or not, for the 'refused moves change nothing' check."""
    card = rng.choice(catalogue().order + ["nonsense"])
    items = {
        "coins": rng.randint(0, 15),
        "hand": [card] if rng.random() < 0.5 else [],
        "vp": rng.randint(0, 2),
    }
    return rng.choice(
        [
            {"kind": "bid", "amount": rng.randint(0, 30)},
            {"kind": "take", "card": card},
            {"kind": "draw"},
            {"kind": "build", "card": card},
            {"kind": "sell", "card": card, "source": rng.choice(["hand", "play"])},
            {"kind": "discard", "card": card},
            {"kind": "loan"},
            {"kind": "repay"},
            {"kind": "accept"},
            {"kind": "decline"},
            {"kind": "cancel"},
            {"kind": "end_turn"},
            {
                "kind": "propose",
                "partner": rng.randint(0, len(state.players)),
                "give": items,
                "get": {"in_play": [card]},
            },
        ]
    )


def check_invariants(state: IronBridgeGorgeState) -> None:
    players = state.players
    assert all(player.coins >= 0 and player.vp >= 0 for player in players)
    # Money is conserved between the players and the bank.
    assert sum(player.coins for player in players) + state.bank == START_COINS * len(players)
    # Every card is in exactly one place.
    places = state.deck + state.discard + state.row
    for player in players:
        places += player.hand + player.in_play
    assert Counter(places) == Counter(catalogue().counts())
    if state.step == "turn":
        assert state.order and sorted(state.order) == list(range(len(players)))


def check_views(state: IronBridgeGorgeState) -> None:
    public = GAME.view(state, None)
    assert public.hand is None and public.my_bid is None
    if state.step == "initiative":
        assert all(seat.bid is None for seat in public.seats)
    if public.proposal is not None:
        assert public.proposal.give is None and public.proposal.get is None
    dumped = public.model_dump_json()
    assert '"rng"' not in dumped and '"deck"' not in dumped
    for seat, player in enumerate(state.players):
        own = GAME.view(state, seat)
        assert [card.id for card in own.hand] == player.hand
        assert (
            all(other.bid is None for other in own.seats if other.seat != seat) or state.step != "initiative"
        )
        if state.step == "initiative":
            assert own.my_bid == player.bid
        if own.proposal is not None and seat not in (state.proposal.proposer, state.proposal.partner):
            assert own.proposal.give is None


def run_game(
    seed: int,
    players: int,
    rounds: int,
    *,
    public_apply: bool = False,
    fuzz: float = 0.1,
    views: float = 0.02,
    seen: Counter[str] | None = None,
) -> tuple[IronBridgeGorgeState, list[tuple[int, dict[str, Any]]], int]:
    """Play one game with a seeded random player; return the final state, the action log and the steps;
    count the MARKERS met in the events into `seen`.

    With `public_apply` every move goes through `GAME.apply` (a deep copy each); otherwise through the
    `_apply` hook on the live state after the same whose-turn check, which is what the tests can afford
    for thousands of games."""
    rng = random.Random(seed)
    state = GAME.setup(list(NAMES[:players]), {"rounds": rounds}, seed)
    log: list[tuple[int, dict[str, Any]]] = []
    steps = 0
    while GAME.result(state) is None:
        steps += 1
        assert steps < 20_000, "the game does not end"
        to_act = sorted(GAME.to_act(state))
        assert to_act, "nobody can move in an unfinished game"
        seat = rng.choice(to_act)
        choices = GAME.legal_actions(state, seat)
        assert choices, f"seat {seat} must act but has no choice"
        assert len({choice.key for choice in choices}) == len(choices)
        if rng.random() < fuzz:
            probe, before = state.model_copy(deep=True), GAME.dump_state(state)
            try:
                GAME._apply(probe, seat, GAME.parse_action(_random_action(rng, state)))
            except RuleError:
                assert GAME.dump_state(probe) == before, "a refused move changed the state"
        if rng.random() < views:
            check_views(state)
        choice = rng.choices(choices, [WEIGHTS[choice.key.split(":")[0]] for choice in choices])[0]
        log.append((seat, choice.action))
        turn = (
            state.round,
            state.turn,
            state.step,
            state.order[state.turn] if state.step == "turn" else None,
        )
        if public_apply:
            applied = GAME.apply(state, seat, choice.action)
            state, events = applied.state, applied.events
        else:
            events = GAME._apply(state, seat, GAME.parse_action(choice.action))
        if seen is not None:
            seen.update(marker for event in events for marker in MARKERS if marker in event.text)
        check_invariants(state)
        if turn[3] is not None and (state.round, state.turn, state.step) != turn[:3]:
            assert len(state.players[turn[3]].hand) <= HAND_LIMIT, "a turn ended above the hand limit"
    assert state.round == rounds
    check_views(state)
    return state, log, steps
