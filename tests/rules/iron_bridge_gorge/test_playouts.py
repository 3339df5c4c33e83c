"""Seeded random playouts on the shared harness (`tests/support/playouts.py`): thousands of complete games,
invariants after every move, exact replays. This file holds only what is Iron Bridge Gorge's own: the
random player's weights, its random illegal moves, the invariants and the rule markers."""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from rules.core import Event
from rules.iron_bridge_gorge import GAME
from rules.iron_bridge_gorge.data import catalogue
from rules.iron_bridge_gorge.engine import HAND_LIMIT, START_COINS
from rules.iron_bridge_gorge.state import IronBridgeGorgeState
from tests.support.playouts import Playout, key_weights, random_game, replays

from .helpers import NAMES

WEIGHTS = key_weights(
    {
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
)
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
Iron Bridge, which needs a Wrought Iron Forge and 20 coins, is too rare for a random player: see
test_build)."""


def random_action(rng: random.Random, state: IronBridgeGorgeState) -> dict[str, Any]:
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


def _turn(state: IronBridgeGorgeState) -> tuple[Any, ...]:
    """Where the game is, and whose turn it is in the Turn Step."""
    return (state.round, state.turn, state.step, state.order[state.turn] if state.step == "turn" else None)


def invariants() -> Any:
    """The after-move check: the invariants, and no turn ends above the hand limit (the turn before the
    move is remembered from the previous check; the first move is a bid, in no one's turn)."""
    before: list[tuple[Any, ...] | None] = [None]

    def check(state: IronBridgeGorgeState, events: list[Event], action: Any) -> None:
        check_invariants(state)
        turn = before[0]
        if turn is not None and turn[3] is not None and _turn(state)[:3] != turn[:3]:
            assert len(state.players[turn[3]].hand) <= HAND_LIMIT, "a turn ended above the hand limit"
        before[0] = _turn(state)

    return check


def run_game(
    seed: int, players: int, rounds: int, *, public_apply: bool = False, seen: Counter[str] | None = None
) -> Playout:
    """One game with a seeded random player (a tenth of the moves also try a random illegal move, one in
    fifty checks the views); the MARKERS met in the events are counted into `seen`."""
    playout = random_game(
        GAME,
        NAMES[:players],
        seed,
        options={"rounds": rounds},
        weight=WEIGHTS,
        public_apply=public_apply,
        fuzz=0.1,
        random_action=random_action,
        check=invariants(),
        views=0.02,
        check_views=check_views,
        markers=MARKERS,
        seen=seen,
        max_steps=20_000,
    )
    assert playout.state.round == rounds
    check_views(playout.state)
    return playout


def test_two_thousand_random_games_end_with_the_invariants_kept():
    """2,000 complete games, 2 to 6 players. Most are 1-4 rounds (the rounds option) to stay fast; every
    50th is a full 25-round game. After every move: coins and VP never negative, money conserved between
    players and bank, every card in exactly one place, hand limit kept; listed choices always apply; random
    illegal moves are refused without touching the state; views hide hands and unrevealed bids."""
    started = time.perf_counter()
    moves = 0
    seen: Counter[str] = Counter()
    for seed in range(2000):
        rounds = 25 if seed % 50 == 0 else 1 + seed % 4
        playout = run_game(seed, players=2 + seed % 5, rounds=rounds, public_apply=seed % 25 == 1, seen=seen)
        moves += playout.steps
        state = playout.state
        result = GAME.result(state)
        assert result is not None and sorted(s for place in result.ranking for s in place) == list(
            range(len(state.players))
        )
    elapsed = time.perf_counter() - started
    assert {marker for marker in MARKERS if not seen[marker]} == set(), "the random games missed a rule"
    print(f"\n2000 games, {moves} moves in {elapsed:.1f}s")


def test_replay_reproduces_the_final_state_byte_for_byte():
    """setup(seed) + the action log, through the public `apply`, gives the same final state JSON."""
    for seed, players, rounds in [(11, 2, 25), (12, 4, 6), (13, 6, 3)]:
        replays(GAME, NAMES[:players], seed, run_game(seed, players, rounds), {"rounds": rounds})
