"""The order of a move's discards, which the player chooses (rulebook, Actions: "When you play the
Action, discard all cards face up in their appropriate piles (Citizen or Military). You may choose the
order of the cards discarded."; Citizen and Military Cards: "place them in the appropriate discard
piles ... in the order you choose. Once you place cards in the discard pile, you cannot rearrange the
order or shuffle them.").

Why it matters: an empty draw pile is refilled with the discard pile "(do not change the order)", turned
face down, so the first card put down is the first drawn again (`cards.draw_cards`; the state lists a
discard pile first card down first). It matters only when one move puts two cards of different types
on one pile.

How it is offered: a card action or attack from the actions menu discards in the default order (the
played card, then its payers; the attackers, then the distance cards): the order every move had before
issue 41, so old action logs replay unchanged. One more choice, "Choose the discard order", opens a step
listing the card actions and attacks whose order matters, each in every order of its discards (and
Back): the actions menu grows by one choice, not by the orders, and the step is where they are.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from rules import words
from rules.city_of_iron.choices import action_of, card_names, fit_key, kind_of
from rules.city_of_iron.scoring import card
from rules.city_of_iron.state import Back, ChooseOrder, CityState, Player
from rules.core import Choice, Event, RuleError, Seat, assembled, built_choice, first_declared, fit_label

ORDER_LIMIT = 120
"""Most orders offered for one move: every order of five different cards on one pile. A move with more
(never seen in 40 random four-player games) lists its first 120; `apply` takes any order."""


def move_cards(action: dict[str, Any]) -> tuple[str, ...]:
    """The cards a card action or attack (as a choice's action) discards, in the default order."""
    if action["kind"] == "play":
        return (action["card"], *action.get("payers", ()))
    return (*action["attackers"], *action.get("distance", ()))


def ordered(cards: list[str], order: list[str] | None) -> list[str]:
    """The order the move's cards go down: the default (`cards`) or the one given, which must name
    each of them once. Checked before the move changes anything."""
    if order is None:
        return cards
    if sorted(order) != sorted(cards):
        raise RuleError(
            f"The discard order must name each card this move discards once: {card_names(cards)}."
        )
    return order


def discard_cards(player: Player, uids: list[str]) -> None:
    """Each card from the hand onto its own discard pile, in this order (the first is the lowest)."""
    for uid in uids:
        player.hand.remove(uid)
        getattr(player, f"{card(uid).deck}_discard").append(uid)


def order_words(order: list[str] | tuple[str, ...]) -> str:
    """'Engineer, then Scholar' (one pile whose order matters), 'citizen pile Engineer, then Scholar;
    military pile Captain, then Soldier' (two); '' when no pile gets two different cards."""
    return _order_words(tuple(map(kind_of, order)))


@lru_cache(maxsize=4096)
def _order_words(kinds: tuple[str, ...]) -> str:
    piles: dict[str, list[str]] = {}
    for kind_id in kinds:
        piles.setdefault(card(kind_id).deck, []).append(kind_id)
    shown = {deck: pile for deck, pile in piles.items() if len(set(pile)) > 1}
    parts = [
        (f"{deck} pile " if len(shown) > 1 else "") + ", then ".join(card(kind_id).name for kind_id in pile)
        for deck, pile in shown.items()
    ]
    return "; ".join(parts)


def orderable(action: dict[str, Any]) -> bool:
    """Whether the order of a card action's or attack's discards can change a pile (asked of every
    actions menu's card moves until one says yes: kept cheap)."""
    if action["kind"] == "play":
        payers = action.get("payers") or ()
        return bool(payers) and _orderable((action["card"], *payers))
    distance = action.get("distance")
    attackers = action["attackers"]
    return _orderable((*attackers, *distance) if distance else tuple(attackers))


@lru_cache(maxsize=8192)
def _orderable(cards: tuple[str, ...]) -> bool:
    """Two cards of different types on one pile (by card instance: the menus meet the same hands)."""
    if len(cards) < 2:
        return False
    first: dict[str, str] = {}
    for uid in cards:
        kind_id = kind_of(uid)
        if first.setdefault(card(kind_id).deck, kind_id) != kind_id:
            return True
    return False


@lru_cache(maxsize=4096)
def orders(cards: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Each different order of the move's cards, the default (`cards`) first: per pile, the distinct
    sequences of card types (copies of one type are alike; which pile a card goes to never changes),
    each type's copies taken in their default order. At most `ORDER_LIMIT`."""
    piles: dict[str, list[str]] = {}
    for uid in cards:
        piles.setdefault(card(uid).deck, []).append(uid)
    per_pile = [_pile_orders(tuple(pile)) for pile in piles.values()]
    combined = itertools.product(*per_pile)
    next(combined)  # every pile in its default order: `cards` itself
    out = [cards]
    for combo in itertools.islice(combined, ORDER_LIMIT - 1):
        out.append(tuple(uid for sequence in combo for uid in sequence))
    return tuple(out)


def _pile_orders(pile: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The pile's distinct orders by card type, its own first (at most `ORDER_LIMIT`)."""
    kinds = tuple(map(kind_of, pile))
    copies: dict[str, list[str]] = {}
    for uid in pile:
        copies.setdefault(kind_of(uid), []).append(uid)
    out = [pile]
    for arrangement in _arrangements(kinds):
        if len(out) >= ORDER_LIMIT:
            break
        if arrangement != kinds:
            taken: Counter[str] = Counter()
            sequence = []
            for kind_id in arrangement:
                sequence.append(copies[kind_id][taken[kind_id]])
                taken[kind_id] += 1
            out.append(tuple(sequence))
    return out


def _arrangements(kinds: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """Every distinct arrangement of a multiset of card types, each once (not n! with repeats)."""
    left = Counter(kinds)
    types = list(dict.fromkeys(kinds))
    chosen: list[str] = []

    def walk() -> Iterator[tuple[str, ...]]:
        if len(chosen) == len(kinds):
            yield tuple(chosen)
            return
        for kind_id in types:
            if left[kind_id]:
                left[kind_id] -= 1
                chosen.append(kind_id)
                yield from walk()
                chosen.pop()
                left[kind_id] += 1

    return walk()


# ---- the step --------------------------------------------------------------------------------------
def order_choice(moves: list[Choice]) -> list[Choice]:
    """'Choose the discard order' (in the group of the first move it serves) when one of the menu's card
    actions or attacks puts two different cards on one pile; nothing otherwise."""
    for move in moves:
        if orderable(move.action):
            return [_order_choice(move.group)]
    return []


@lru_cache(maxsize=8)
def _order_choice(group: str) -> Choice:
    return built_choice(
        key="order",
        label="Choose the discard order, then the card action or attack…",
        action=action_of(ChooseOrder),
        group=group,
    )


def ordering_choices(moves: list[Choice]) -> list[Choice]:
    """The discard-order step: every card action and attack whose order matters, in each of its orders
    (grouped under the move, so the bot offers the move, then its orders), and Back."""
    out: list[Choice] = []
    for move in moves:
        if not orderable(move.action):
            continue
        frozen = tuple(
            (name, tuple(value) if isinstance(value, list) else value) for name, value in move.action.items()
        )
        short = _short(move)
        for order in orders(move_cards(move.action)):
            out.append(_ordered(move.key, move.label, short, move.group, move.style, frozen, order))
    # No pass (Back is a step back, not a move): the clock plays the first move in its first order.
    return [*first_declared(out, "safe"), _back_choice()]


def _short(move: Choice) -> str:
    """The move's label without its card's action text ('Scholar; pay with Engineer'): next to the
    order, what tells the moves apart (the step groups each move's orders under its full label)."""
    if move.action["kind"] == "play":
        effect = card(move.action["card"]).action
        if effect is not None and effect.text:
            return move.label.replace(f": {words.clause(effect.text)}", "", 1)
    return move.label


@lru_cache(maxsize=8192)
def _ordered(
    key: str,
    label: str,
    short: str,
    group: str,
    style: str,
    action: tuple[tuple[str, Any], ...],
    order: tuple[str, ...],
) -> Choice:
    """One move in one order (cached: the computer players meet the same moves in every world)."""
    values = {name: list(value) if isinstance(value, tuple) else value for name, value in action}
    values["discard_order"] = list(order)
    return assembled(
        Choice,
        {
            "key": fit_key(f"{key}>" + ".".join(map(kind_of, order))),
            "label": fit_label(f"Discard {order_words(order)} — {short}"),
            "action": values,
            "group": group,
            "path": [label],
            "style": style,
            "timeout": None,
            "ends": False,
        },
        {"key", "label", "action", "group", "path", "style"},
    )


@lru_cache(maxsize=1)
def _back_choice() -> Choice:
    return built_choice(
        key="back", label="Back to all moves (no discard order)", action=action_of(Back), group="Other"
    )


def apply_order(state: CityState, seat: Seat, moves: list[Choice]) -> list[Event]:
    """Open the step (`moves`: the seat's card actions and attacks now); nothing to tell the table."""
    if state.ordering:
        raise RuleError("You are already choosing a discard order: pick a card action or attack, or Back.")
    if not order_choice(moves):
        raise RuleError(
            "None of your card actions or attacks puts two different cards on one discard pile: "
            "there is no order to choose."
        )
    state.ordering = True
    return []


def apply_back(state: CityState, seat: Seat, action: Back) -> list[Event]:
    if not state.ordering:
        raise RuleError("There is no discard order to leave.")
    state.ordering = False
    return []
