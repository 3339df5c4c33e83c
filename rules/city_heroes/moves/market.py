"""Round actions beside the phase actions: trading with the bank, exchanging with the rival city and
buying or selling influence; and the free moves of the exchange tokens (Market, Festival Grounds)."""

from __future__ import annotations

import functools
from typing import Any

from rules import words
from rules.city_heroes.data import NATURALS, RESOURCES, Catalogue, PriceKind, rules_catalogue
from rules.city_heroes.moves.common import Counts, counts, has, pay_ducats
from rules.city_heroes.moves.turn import round_refusal
from rules.city_heroes.state import BankTrade, CityHeroesState, InfluenceTrade, PlayerState, RivalTrade, Token
from rules.core import Choice, Event, RuleError, Seat, built_choice

State = CityHeroesState


@functools.cache
def _bank_prices(cat: Catalogue) -> dict[str, tuple[int, int]]:
    prices = cat.setup.bank_prices
    table = {}
    for resource in RESOURCES:
        kind: PriceKind = (
            "jewellery" if resource == "jewellery" else "natural" if resource in NATURALS else "good"
        )
        table[resource] = (prices[kind].buy, prices[kind].sell)
    return table


@functools.cache
def _bank_choices(cat: Catalogue) -> tuple[dict[str, tuple[Choice, int]], dict[str, tuple[Choice, int]]]:
    """The bank's buy and sell choices never change: built once (with the price that gates each)."""
    buys, sells = {}, {}
    for resource, (pays, asks) in _bank_prices(cat).items():
        buys[resource] = (
            built_choice(
                key=f"bank-buy:{resource}",
                label=f"Buy {words.count(1, resource)} from the bank for {words.count(asks, 'ducat')}",
                action={"kind": "bank", "resource": resource, "count": 1, "sell": False},
                group="Bank (round action)",
            ),
            asks,
        )
        sells[resource] = (
            built_choice(
                key=f"bank-sell:{resource}",
                label=f"Sell {words.count(1, resource)} to the bank for {words.count(pays, 'ducat')}",
                action={"kind": "bank", "resource": resource, "count": 1, "sell": True},
                group="Bank (round action)",
            ),
            pays,
        )
    return buys, sells


def bank_price(resource: str) -> tuple[int, int]:
    """(what the bank pays, what it asks)."""
    return _bank_prices(rules_catalogue())[resource]


def rate_position(state: State, seat: Seat, row: str, table: Counts | None = None) -> int:
    bazaars = has(state, seat, "grand-bazaar", table)
    return min(4, state.players[seat].tokens.get(row, 0) + bazaars)


def rival_limit(state: State, seat: Seat, table: Counts | None = None) -> int:
    """'1 + your Festival Grounds + 2 * your Grand Bazaar' lots per row and phase."""
    table = table if table is not None else counts(state)
    return 1 + has(state, seat, "festival-grounds", table) + 2 * has(state, seat, "grand-bazaar", table)


def rival_terms(state: State, seat: Seat, row: str, table: Counts | None = None) -> tuple[int, int, int]:
    """(give, get, prestige) of one lot on `row` for `seat`."""
    cat = rules_catalogue()
    table = table if table is not None else counts(state)
    spec = cat.rows[row]
    give, get = spec.rates[rate_position(state, seat, row, table)]
    rival = cat.rival
    if row.startswith("sell-"):
        prestige = rival.sales_prestige[rate_position(state, seat, "sales", table)]
    else:
        prestige = rival.purchase_prestige[rate_position(state, seat, "purchase", table)]
    return give, get, prestige


def rival_problem(state: State, seat: Seat, row: str, lots: int, table: Counts | None = None) -> str | None:
    cat = rules_catalogue()
    if row not in cat.rows:
        return f"The rival city has no {row!r} exchange."
    table = table if table is not None else counts(state)
    player = state.players[seat]
    used = player.exchanged.get(row, 0)
    limit = rival_limit(state, seat, table)
    if used + lots > limit:
        return f"You may exchange at most {words.count(limit, 'lot')} of this row per phase ({used} done)."
    give, get, _ = rival_terms(state, seat, row, table)
    resource = cat.rows[row].resource
    if row.startswith("sell-"):
        if player.stock[resource] < give * lots:
            return f"Selling {words.count(lots, 'lot')} takes {words.count(give * lots, resource)}; you have {player.stock[resource]}."
    elif player.ducats < give * lots:
        return f"Buying {words.count(lots, 'lot')} costs {words.count(give * lots, 'ducat')}; you have {player.ducats}."
    return None


def bank_problem(state: State, seat: Seat, resource: str, count: int, sell: bool) -> str | None:
    if resource not in RESOURCES:
        return f"The bank does not trade {resource!r}."
    player = state.players[seat]
    pays, asks = bank_price(resource)
    if sell:
        if player.stock[resource] < count:
            return f"You have only {words.count(player.stock[resource], resource)}."
        if state.bank_ducats < pays * count:
            return f"The bank has only {words.count(state.bank_ducats, 'ducat')}."
    else:
        if state.bank[resource] < count:
            return f"The bank has only {words.count(state.bank[resource], resource)}."
        if player.ducats < asks * count:
            return f"{words.count(count, resource)} cost {words.count(asks * count, 'ducat')}; you have {player.ducats}."
    return None


def _bank_offers(state: State, player: PlayerState) -> list[Choice]:
    choices = []
    buys, sells = _bank_choices(rules_catalogue())
    for resource in RESOURCES:
        asks, pays = buys[resource][1], sells[resource][1]
        if state.bank[resource] >= 1 and player.ducats >= asks:
            choices.append(buys[resource][0])
        if player.stock[resource] >= 1 and state.bank_ducats >= pays:
            choices.append(sells[resource][0])
    return choices


def _rival_offers(state: State, seat: Seat) -> list[Choice]:
    cat = rules_catalogue()
    player = state.players[seat]
    table = counts(state)
    bazaars = has(state, seat, "grand-bazaar", table)
    limit = rival_limit(state, seat, table)
    rival = cat.rival
    sales = rival.sales_prestige[min(4, player.tokens.get("sales", 0) + bazaars)]
    purchase = rival.purchase_prestige[min(4, player.tokens.get("purchase", 0) + bazaars)]
    choices = []
    for row, spec in cat.rows.items():
        if player.exchanged.get(row, 0) >= limit:
            continue
        give, get = spec.rates[min(4, player.tokens.get(row, 0) + bazaars)]
        if row.startswith("sell-"):
            if player.stock[spec.resource] < give:
                continue
            prestige = sales
            label = f"Sell {words.count(give, spec.resource)} to the rival for {words.count(get, 'ducat')}"
        else:
            if player.ducats < give:
                continue
            prestige = purchase
            label = f"Buy {words.count(get, spec.resource)} from the rival for {words.count(give, 'ducat')}"
        choices.append(
            built_choice(
                key=f"rival:{row}",
                label=f"{label} (prestige {prestige:+d})",
                action={"kind": "rival", "row": row, "lots": 1},
                group="Rival city (round action)",
            )
        )
    return choices


def _influence_offers(state: State, player: PlayerState) -> list[Choice]:
    choices = []
    if player.influence >= 1 and state.bank_ducats >= 1:
        choices.append(
            built_choice(
                key="influence-sell",
                label="Sell 1 influence for 1 ducat",
                action={"kind": "influence", "amount": 1, "sell": True},
                group="Influence (round action)",
            )
        )
    if player.ducats >= 2:
        choices.append(
            built_choice(
                key="influence-buy",
                label="Buy 1 influence for 2 ducats",
                action={"kind": "influence", "amount": 1, "sell": False},
                group="Influence (round action)",
            )
        )
    return choices


def round_choices(state: State, seat: Seat) -> list[Choice]:
    player = state.players[seat]
    return _bank_offers(state, player) + _rival_offers(state, seat) + _influence_offers(state, player)


def token_choices(state: State, seat: Seat) -> list[Choice]:
    """The exchange token moves the Markets and Festival Grounds built so far give (free choices)."""
    player = state.players[seat]
    choices = []
    if player.rate_moves:
        for row in rules_catalogue().rows:
            if player.tokens.get(row, 0) < 4:
                choices.append(
                    built_choice(
                        key=f"token:{row}",
                        label=f"Market: move your {row.replace('-', ' ')} token right (better rate)",
                        action={"kind": "token", "row": row},
                        group="Exchange tokens",
                    )
                )
    if player.prestige_moves:
        for row in ("sales", "purchase"):
            if player.tokens.get(row, 0) < 4:
                choices.append(
                    built_choice(
                        key=f"token:{row}",
                        label=f"Festival Grounds: move your {row} prestige token down",
                        action={"kind": "token", "row": row},
                        group="Exchange tokens",
                    )
                )
    return choices


def apply_token(state: State, seat: Seat, action: Token, events: list[Event]) -> None:
    row = action.row
    player = state.players[seat]
    if row in ("sales", "purchase"):
        if player.prestige_moves < 1:
            raise RuleError(
                "Each Festival Grounds lets you move a prestige token once; you have no move left."
            )
        if player.tokens.get(row, 0) >= 4:
            raise RuleError(f"Your {row} prestige token is already at the bottom.")
        player.prestige_moves -= 1
    else:
        if row not in rules_catalogue().rows:
            raise RuleError(f"There is no exchange row {row!r}.")
        if player.rate_moves < 1:
            raise RuleError("Each Market lets you move an exchange token once; you have no move left.")
        if player.tokens.get(row, 0) >= 4:
            raise RuleError("That exchange token is already at the best rate.")
        player.rate_moves -= 1
    player.tokens[row] = player.tokens.get(row, 0) + 1
    events.append(Event(text=f"{player.name} moved the {row.replace('-', ' ')} exchange token."))


def _bank_trade(state: State, seat: Seat, action: BankTrade, events: list[Event]) -> None:
    player = state.players[seat]
    resource, count, sell = action.resource, action.count, action.sell
    problem = bank_problem(state, seat, resource, count, sell)
    if problem:
        raise RuleError(problem)
    pays, asks = bank_price(resource)
    if sell:
        player.stock[resource] -= count
        state.bank[resource] += count
        player.ducats += pays * count
        state.bank_ducats -= pays * count
        events.append(
            Event(
                text=f"{player.name} sold {words.count(count, resource)} to the bank for {words.count(pays * count, 'ducat')}."
            )
        )
    else:
        player.stock[resource] += count
        state.bank[resource] -= count
        player.ducats -= asks * count
        state.bank_ducats += asks * count
        events.append(
            Event(
                text=f"{player.name} bought {words.count(count, resource)} from the bank for {words.count(asks * count, 'ducat')}."
            )
        )


def _rival_trade(state: State, seat: Seat, action: RivalTrade, events: list[Event]) -> None:
    player = state.players[seat]
    row, lots = action.row, action.lots
    problem = rival_problem(state, seat, row, lots)
    if problem:
        raise RuleError(problem)
    give, get, prestige = rival_terms(state, seat, row)
    resource = rules_catalogue().rows[row].resource
    player.exchanged[row] = player.exchanged.get(row, 0) + lots
    if row.startswith("sell-"):
        player.stock[resource] -= give * lots
        state.outside[resource] += give * lots
        player.ducats += get * lots
        state.outside_ducats += get * lots
        what = f"sold {words.count(give * lots, resource)} to the rival city for {words.count(get * lots, 'ducat')}"
    else:
        player.ducats -= give * lots
        state.outside_ducats -= give * lots
        player.stock[resource] += get * lots
        state.outside[resource] -= get * lots
        what = f"bought {words.count(get * lots, resource)} from the rival city for {words.count(give * lots, 'ducat')}"
    state.prestige += prestige * lots
    events.append(Event(text=f"{player.name} {what}; city prestige {prestige * lots:+d}."))


def _influence_trade(state: State, seat: Seat, action: InfluenceTrade, events: list[Event]) -> None:
    player = state.players[seat]
    amount = action.amount
    if action.sell:
        if player.influence < amount:
            raise RuleError(f"You have only {player.influence} influence.")
        if state.bank_ducats < amount:
            raise RuleError(f"The bank has only {words.count(state.bank_ducats, 'ducat')}.")
        player.influence -= amount
        pay_ducats(state, seat, amount)
        events.append(
            Event(text=f"{player.name} sold {amount} influence for {words.count(amount, 'ducat')}.")
        )
    else:
        if player.ducats < 2 * amount:
            raise RuleError(
                f"{amount} influence cost {words.count(2 * amount, 'ducat')}; you have {player.ducats}."
            )
        player.ducats -= 2 * amount
        state.bank_ducats += 2 * amount
        player.influence += amount
        events.append(
            Event(text=f"{player.name} bought {amount} influence for {words.count(2 * amount, 'ducat')}.")
        )


_ROUND_ACTIONS: dict[type, Any] = {
    BankTrade: _bank_trade,
    RivalTrade: _rival_trade,
    InfluenceTrade: _influence_trade,
}


def apply_round_action(state: State, seat: Seat, action: Any, events: list[Event]) -> None:
    if state.current != seat:
        raise RuleError("Round actions are taken on your own turn.")
    refusal = round_refusal(state, seat)
    if refusal:
        raise RuleError(refusal)
    _ROUND_ACTIONS[type(action)](state, seat, action, events)
    state.round_used = True
