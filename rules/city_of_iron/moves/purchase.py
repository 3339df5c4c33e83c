"""The secret card purchase: choosing cards, clearing, finishing, and revealing everyone's buys."""

from __future__ import annotations

from functools import lru_cache

from rules import words
from rules.city_of_iron.choices import action_of, card_names, kind_of
from rules.city_of_iron.scoring import card
from rules.city_of_iron.state import CityState, ClearSelection, Done, Player, Select
from rules.core import Choice, Event, RuleError, Seat, built_choice


def selected_cost(player: Player) -> tuple[int, int]:
    return sum(card(uid).coins for uid in player.selected), sum(card(uid).science for uid in player.selected)


def can_buy_any(player: Player) -> bool:
    return any(
        card(uid).coins <= player.coins and card(uid).science <= player.science for uid in player.unpurchased
    )


@lru_cache(maxsize=64)
def _done_choice(selected: int) -> Choice:
    """'Done choosing', with the number of cards chosen so far (built once per number)."""
    return built_choice(
        key="purchase:done",
        label="Done choosing" + (f" ({words.count(selected, 'card')})" if selected else ""),
        action=action_of(Done),
        group="Purchase",
        style="success",
        ends=True,
        timeout="pass",  # 'Done choosing': the clock ends the secret purchase with what is chosen
    )


@lru_cache(maxsize=1)
def _clear_choice() -> Choice:
    return built_choice(
        key="purchase:clear",
        label="Clear my choices",
        action=action_of(ClearSelection),
        group="Purchase",
        style="danger",
    )


@lru_cache(maxsize=1024)
def _select_choice(uid: str) -> Choice:
    kind = card(uid)
    cost = f"{words.count(kind.coins, 'coin')}" + (f", {kind.science} science" if kind.science else "")
    return built_choice(
        key=f"select:{uid}",
        label=f"Buy {kind.name} ({kind.deck}, {cost})",
        action=action_of(Select, card=uid),
        group="Buy cards",
    )


def purchase_choices(state: CityState, seat: Seat) -> list[Choice]:
    player = state.players[seat]
    coins, science = selected_cost(player)
    coins_left, science_left = player.coins - coins, player.science - science
    choices = [_done_choice(len(player.selected))]
    if player.selected:
        choices.append(_clear_choice())
    for uid, price, cost in _offers(tuple(player.unpurchased), tuple(player.selected)):
        if price <= coins_left and cost <= science_left:
            choices.append(_select_choice(uid))
    return choices


@lru_cache(maxsize=4096)
def _offers(unpurchased: tuple[str, ...], selected: tuple[str, ...]) -> tuple[tuple[str, int, int], ...]:
    """(card, coins, science) of the first copy not chosen yet of each card type, in order: the one
    copy a type is offered by when the seat can pay for it (copies of a type cost the same, so a later
    copy is never affordable when the first is not). Cached: the purchase step asks for the same
    cards many times while the coins change less often."""
    seen: set[str] = set()
    out: list[tuple[str, int, int]] = []
    for uid in unpurchased:
        kind_id = kind_of(uid)
        if uid in selected or kind_id in seen:
            continue
        seen.add(kind_id)
        kind = card(uid)
        out.append((uid, kind.coins, kind.science))
    return tuple(out)


def apply_select(state: CityState, seat: Seat, action: Select) -> list[Event]:
    player = state.players[seat]
    if player.done:
        raise RuleError("You have already finished choosing.")
    if action.card not in player.unpurchased or action.card in player.selected:
        raise RuleError("Choose a card from your unpurchased cards that you have not chosen yet.")
    coins, science = selected_cost(player)
    kind = card(action.card)
    if coins + kind.coins > player.coins or science + kind.science > player.science:
        raise RuleError(f"You cannot pay for {kind.name} on top of your other choices.")
    # The table hears once that the player is choosing (at their first card); each further card is
    # theirs alone to know.
    said = "" if player.selected else f"{player.name} is choosing cards."
    player.selected.append(action.card)
    return [Event(text=said, private={seat: f"You chose {kind.name}."})]


def apply_clear(state: CityState, seat: Seat, action: ClearSelection) -> list[Event]:
    player = state.players[seat]
    if player.done:
        raise RuleError("You have already finished choosing.")
    if not player.selected:
        raise RuleError("You have not chosen any card yet.")
    player.selected = []
    return [Event(text="", private={seat: "You cleared your choices."})]


def apply_done(state: CityState, seat: Seat, action: Done) -> list[Event]:
    player = state.players[seat]
    if player.done:
        raise RuleError("You have already finished choosing.")
    player.done = True
    return [Event(text=f"{player.name} has finished choosing.")]


def reveal_purchases(state: CityState, events: list[Event]) -> None:
    parts = []
    for player in state.players:
        coins, science = selected_cost(player)
        player.coins -= coins
        player.science -= science
        for uid in player.selected:
            player.unpurchased.remove(uid)
            player.hand.append(uid)
        if player.selected:
            parts.append(
                f"{player.name} bought {card_names(player.selected)} for {words.count(coins, 'coin')}, {science} science"
            )
        player.selected = []
        player.done = False
    # The cards bought in secret come out together (like revealed bids): urgent when anyone bought.
    events.append(
        Event(
            text=words.sentences(parts) or "Nobody bought cards.",
            reveals=bool(parts),
            urgent=bool(parts),
        )
    )
    state.round += 1
    state.bid_order = [seat for seat in state.track if seat is not None]


def start_purchase(state: CityState, events: list[Event]) -> None:
    """The secret purchase: whoever can buy nothing is done at once."""
    state.phase = "purchase"
    for player in state.players:
        player.selected = []
        player.done = not can_buy_any(player)
    events.append(Event(text="Choose citizen and military cards to buy, in secret."))
