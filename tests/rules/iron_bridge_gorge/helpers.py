"""Building positions of Iron Bridge Gorge for the tests, and the checks every test repeats."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core import Rng, RuleError
from rules.iron_bridge_gorge import GAME
from rules.iron_bridge_gorge.state import IronBridgeGorgeState, Phase

NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")


def new_game(players: int = 3, seed: int = 1, **options: Any) -> IronBridgeGorgeState:
    return GAME.setup(list(NAMES[:players]), options, seed)


def dice_rng(*rolls: int | None) -> Rng:
    """An Rng whose first die rolls are `rolls` (None: any value), found by trying seeds."""
    for seed in range(100_000):
        probe = Rng(seed=seed)
        if all(want in (None, probe.die()) for want in rolls):
            return Rng(seed=seed)
    raise AssertionError(f"no seed rolls {rolls}")


def at_turn(
    players: int = 3,
    *,
    seat: int = 0,
    phase: Phase = "expansion",
    in_play: dict[int, list[str]] | None = None,
    hands: dict[int, list[str]] | None = None,
    coins: dict[int, int] | None = None,
    seed: int = 1,
) -> IronBridgeGorgeState:
    """A game in round 1's Turn Step, `seat` to play in `phase`, with the given cards moved out of the
    deck (so cards stay conserved) and the given coins (the difference is booked to the bank)."""
    state = new_game(players, seed)
    state.step = "turn"
    state.order = [(seat + step) % players for step in range(players)]
    state.turn = 0
    state.phase = phase
    for player in state.players:
        player.bid = None
    for where, cards in (("in_play", in_play or {}), ("hand", hands or {})):
        for index, ids in cards.items():
            for card in ids:
                pile = state.deck if card in state.deck else state.row if card in state.row else state.discard
                pile.remove(card)
                getattr(state.players[index], where).append(card)
    for index, amount in (coins or {}).items():
        state.bank += state.players[index].coins - amount
        state.players[index].coins = amount
    return state


def dump(state: IronBridgeGorgeState) -> str:
    return GAME.dump_state(state)


def play(state: IronBridgeGorgeState, seat: int, action: dict[str, Any]) -> tuple[IronBridgeGorgeState, list]:
    applied = GAME.apply(state, seat, action)
    return applied.state, applied.events


def rejected(state: IronBridgeGorgeState, seat: int, action: dict[str, Any], match: str) -> RuleError:
    """The move raises RuleError with a sentence matching `match`; neither the public `apply` nor the
    `_apply` hook (given its own copy) changes anything before refusing."""
    before = dump(state)
    with pytest.raises(RuleError, match=match) as raised:
        GAME.apply(state, seat, action)
    assert dump(state) == before
    working = GAME.copy_state(state)
    if seat in GAME.to_act(working):
        with pytest.raises(RuleError, match=match):
            GAME._apply(working, seat, GAME.parse_action(action))
        assert dump(working) == before
    return raised.value


def keys(state: IronBridgeGorgeState, seat: int) -> list[str]:
    return [choice.key for choice in GAME.legal_actions(state, seat)]


def texts(events: list) -> str:
    return "\n".join(event.text for event in events)


def all_bid(state: IronBridgeGorgeState, bids: list[int]) -> tuple[IronBridgeGorgeState, list]:
    """Every seat bids, in seat order; the state after the last bid and every event."""
    events = []
    for seat, amount in enumerate(bids):
        state, more = play(state, seat, {"kind": "bid", "amount": amount})
        events += more
    return state, events
