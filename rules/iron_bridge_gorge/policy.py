"""How a computer player judges Iron Bridge Gorge, from its own view only (see `rules/policy.py`).

It plays the generic greedy policy of `rules/policy.py`: each legal choice (a random 40 of them at
strength 3 when there are more) is applied to a copy of the state and the seat's view afterwards
is scored by `evaluate`; a choice whose outcome is secret or random gets a `prior` instead; the
best score wins, ties broken at random.

`evaluate`: VP (worth 8 coins: VP decide, coins only break ties) + coins + the revenue of the
resources in play for the rounds left + the majorities it leads (or ties) for the scorings left
+ what the cards in hand are worth (sale price, or their revenue if buildable) - an open loan;
minus half of the best rival's VP, coins, revenue and majorities.

`prior` (no lookahead): the secret bid is 0 or 1 coin (initiative rarely pays back its price in
this game's short rows); drawing from the deck is judged by a fixed price (it reveals a card);
trade offers are not made (a random or absent partner makes them a loop of refusals).
"""

from __future__ import annotations

from rules.core import Choice, Seat
from rules.iron_bridge_gorge.view import IronBridgeGorgeView

SEARCH_SKIPS = frozenset({"propose", "loan"})
"""The search opens no trades: an offer waits hours for a person, and between computers it is declined
and made again. Nor does it borrow: a loan and its repayment only move 10 coins back and forth, and a
search free to do both took a loan and repaid it for hundreds of moves in a benchmark game (the
heuristic, which borrows when it must, still gives its hint)."""
VP = 8.0
SALE = 5
MAJORITY_VP = {"F": 2, "I": 2, "T": 2, "C": 1, "L": 1}


def _rounds_left(view: IronBridgeGorgeView) -> tuple[int, int]:
    """(revenue steps left, scorings left): a round's revenue is paid when it starts, its scoring at its end."""
    revenue = max(0, view.rounds - view.round)
    scorings = revenue + (1 if view.step != "over" and view.round >= 1 else 0)
    return revenue, scorings


def _counts(view: IronBridgeGorgeView) -> list[dict[str, int]]:
    counts = []
    for entry in view.seats:
        mine: dict[str, int] = {}
        for card in entry.resources:
            mine[card.type] = mine.get(card.type, 0) + 1
        counts.append(mine)
    return counts


def _seat_value(view: IronBridgeGorgeView, seat: Seat, counts: list[dict[str, int]]) -> float:
    revenue_left, scorings_left = _rounds_left(view)
    entry = view.seats[seat]
    value = VP * entry.vp + entry.coins + entry.revenue * revenue_left * 0.8
    if entry.loan:
        value -= 10 + revenue_left + 1  # the interest is due at least once more
    for card_type, points in MAJORITY_VP.items():
        mine = counts[seat].get(card_type, 0)
        if not mine:
            continue
        best_other = max((c.get(card_type, 0) for i, c in enumerate(counts) if i != seat), default=0)
        if mine > best_other:
            value += VP * points * scorings_left * (0.9 if mine - best_other == 1 else 1.0)
        elif mine == best_other:
            value += VP * points * scorings_left * 0.3
    return value + 2.0 * entry.hand_count


def evaluate(view: IronBridgeGorgeView, seat: Seat) -> float:
    counts = _counts(view)
    mine = _seat_value(view, seat, counts)
    others = [_seat_value(view, other, counts) for other in range(len(view.seats)) if other != seat]
    value = mine - 0.5 * max(others, default=0.0)
    revenue_left, _ = _rounds_left(view)
    for card in view.hand or []:
        built = card.revenue * revenue_left * 0.8 - card.cost
        value += max(SALE, built) - 2.0  # hand_count already counted 2 per card
    return value


def prior(view: IronBridgeGorgeView, seat: Seat, choice: Choice) -> float | None:
    kind = choice.action.get("kind")
    if kind == "bid":
        amount = choice.action["amount"]
        return -2.0 * amount + (1.0 if amount == 1 and view.row else 0.0)
    if kind == "draw":
        return -10 + SALE + 1.0
    if kind == "propose":
        return -50.0
    if kind == "cancel":
        return 0.0
    return None
