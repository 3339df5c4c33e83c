"""Bidding for turn order: the bid track's costs and open spaces, the bids, and the Toad's second bid."""

from __future__ import annotations

from functools import lru_cache

from rules import words
from rules.city_of_iron.choices import action_of
from rules.city_of_iron.data import rules_data
from rules.city_of_iron.state import Bid, CityState, Rebid
from rules.core import Choice, Event, RuleError, Seat, built_choice, first_declared


def bid_costs(state: CityState) -> list[int]:
    return rules_data().board.bid_costs[len(state.players)]


def bid_spaces(state: CityState, seat: Seat) -> list[int]:
    costs = bid_costs(state)
    coins = state.players[seat].coins
    open_spaces = [space for space, who in enumerate(state.track) if who is None]
    affordable = [space for space in open_spaces if costs[space] <= coins]
    if affordable:
        return affordable
    cheapest = min(costs[space] for space in open_spaces)
    return [space for space in open_spaces if costs[space] == cheapest]


def _turn_position(state: CityState, space: int) -> str:
    ahead = sum(1 for index in range(space + 1, len(state.track)) if state.track[index] is not None)
    return ["1st", "2nd", "3rd", "4th"][ahead]


def bid_choices(state: CityState, seat: Seat) -> list[Choice]:
    costs = bid_costs(state)
    player = state.players[seat]
    choices: list[Choice] = []
    if state.phase == "rebid":
        now = state.track.index(seat)
        choices.append(
            built_choice(
                key="rebid:keep",
                label=f"Keep your bid (space {now + 1})",
                action=action_of(Rebid),
                group="Second bid",
                timeout="safe",  # the clock keeps the Toad's bid where it is
            )
        )
        for space, cost in enumerate(costs):
            if state.track[space] is None and cost >= costs[now] and cost - costs[now] <= player.coins:
                choices.append(
                    built_choice(
                        key=f"rebid:{space}",
                        label=f"Move to space {space + 1} ({words.count(cost - costs[now], 'more coin')})",
                        action=action_of(Rebid, space=space),
                        group="Second bid",
                    )
                )
        return choices
    for space in bid_spaces(state, seat):
        choices.append(_bid_choice(space, costs[space], len(costs), _turn_position(state, space)))
    return first_declared(choices, "safe")  # no pass: the clock bids on the first open space (the cheapest)


@lru_cache(maxsize=256)
def _bid_choice(space: int, cost: int, spaces: int, position: str) -> Choice:
    """A bid choice depends only on these: built once and shared (treat choices as read-only)."""
    return built_choice(
        key=f"bid:{space}",
        label=f"Bid {cost} (space {space + 1} of {spaces}, {position} in turn order so far)",
        action=action_of(Bid, space=space),
        group="Bid",
        style="primary" if cost == 0 else "secondary",
    )


def apply_bid(state: CityState, seat: Seat, action: Bid) -> list[Event]:
    costs = bid_costs(state)
    if action.space >= len(costs) or state.track[action.space] is not None:
        raise RuleError("That space on the turn-order track is not open.")
    if action.space not in bid_spaces(state, seat):
        raise RuleError(f"You cannot afford a bid of {words.count(costs[action.space], 'coin')}.")
    player = state.players[seat]
    paid = min(costs[action.space], player.coins)
    player.coins -= paid
    state.track[action.space] = seat
    return [Event(text=f"{player.name} bids {words.count(paid, 'coin')} (space {action.space + 1}).")]


def second_bidder(state: CityState) -> Seat | None:
    if not state.abilities:
        return None
    for seat, player in enumerate(state.players):
        if player.nation and rules_data().nations[player.nation].second_bid:
            return seat
    return None


def apply_rebid(state: CityState, seat: Seat, action: Rebid) -> list[Event]:
    costs = bid_costs(state)
    player = state.players[seat]
    now = state.track.index(seat)
    events: list[Event] = []
    if action.space is None:
        events.append(Event(text=f"{player.name} keeps the bid."))
    else:
        space = action.space
        if space >= len(costs) or state.track[space] is not None:
            raise RuleError("That space on the turn-order track is not open.")
        extra = costs[space] - costs[now]
        if extra < 0:
            raise RuleError("A second bid cannot be lower than your first bid.")
        if extra > player.coins:
            raise RuleError(
                f"Moving there costs {words.count(extra, 'more coin')}; you have {words.count(player.coins, 'coin')}."
            )
        player.coins -= extra
        state.track[now] = None
        state.track[space] = seat
        events.append(
            Event(
                text=f"{player.name} bids again: space {space + 1}, paying {words.count(extra, 'more coin')}."
            )
        )
    return events
