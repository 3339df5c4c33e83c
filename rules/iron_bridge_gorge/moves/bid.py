"""The Initiative Step: every seat bids at once, in secret; the highest bid goes first, the others
clockwise; ties roll high on 1D6; all bid money is lost."""

from __future__ import annotations

from rules import words
from rules.core import Choice, Event, RuleError, Seat
from rules.iron_bridge_gorge.state import Bid, IronBridgeGorgeState

State = IronBridgeGorgeState


def choices(state: State, seat: Seat) -> list[Choice]:
    return [
        Choice(
            key=f"bid:{amount}",
            label=f"Bid {words.count(amount, 'coin')}",
            action={"kind": "bid", "amount": amount},
            group="Bid",
            style="primary" if amount == 0 else "secondary",
            timeout="safe" if amount == 0 else None,  # no pass: the clock bids 0 coins
        )
        for amount in range(state.players[seat].coins + 1)
    ]


def open_bidding(state: State) -> bool:
    """Ask every seat for a bid (a seat without coins bids 0); True when every bid is in already."""
    for player in state.players:
        player.bid = 0 if player.coins == 0 else None
    return all(player.bid is not None for player in state.players)


def bid(state: State, seat: Seat, action: Bid, events: list[Event]) -> bool:
    """Place a secret bid; True when it was the last one."""
    player = state.players[seat]
    if action.amount > player.coins:
        raise RuleError(f"You cannot bid {action.amount}: you have {words.count(player.coins, 'coin')}.")
    player.bid = action.amount
    events.append(
        Event(
            text=f"{player.name} placed a secret bid.",
            private={seat: f"You bid {words.count(action.amount, 'coin')}."},
        )
    )
    return all(other.bid is not None for other in state.players)


def reveal(state: State, events: list[Event]) -> None:
    """INITIATIVE STEP: highest bid goes first, the others clockwise; ties roll high on 1D6; all bid
    money is lost. Sets the turn order and starts the Turn Step."""
    bids = [player.bid or 0 for player in state.players]
    state.last_bids = bids
    for player, amount in zip(state.players, bids, strict=True):
        player.coins -= amount
        player.bid = None
        state.bank += amount
    events.append(
        Event(
            text="Bids revealed: "
            + ", ".join(f"{player.name} {amount}" for player, amount in zip(state.players, bids, strict=True))
            + ".",
            reveals=True,
            urgent=True,  # the secret bids come out together and set the turn order
        )
    )
    first = _break_tie(state, bids, events)
    count = len(state.players)
    state.order = [(first + step) % count for step in range(count)]
    events.append(
        Event(text="Turn order: " + ", ".join(state.players[seat].name for seat in state.order) + ".")
    )
    state.step = "turn"
    state.turn = 0


def _break_tie(state: State, bids: list[int], events: list[Event]) -> Seat:
    top = max(bids)
    tied = [seat for seat, amount in enumerate(bids) if amount == top]
    while len(tied) > 1:
        rolls = {seat: state.rng.die() for seat in tied}
        events.append(
            Event(
                text=f"Tie at {top}: "
                + ", ".join(f"{state.players[seat].name} rolls {roll}" for seat, roll in rolls.items())
                + ".",
                reveals=True,
            )
        )
        best = max(rolls.values())
        tied = [seat for seat in tied if rolls[seat] == best]
    return tied[0]
