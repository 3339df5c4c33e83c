"""What changed between two views of one viewer (`changes`): the keys the pictures frame, and words."""

from __future__ import annotations

from collections import Counter

from renderer.canvas import (
    NAME_WIDTH,
    player_name,
)
from renderer.changes import BANNER_SIZE, Changes
from renderer.iron_bridge_gorge.layout import TYPE_ORDER, event_text, game_view, type_counts
from rules.core import View
from rules.iron_bridge_gorge.view import IronBridgeGorgeView, SeatView


def _seat_changes(old: SeatView, new: SeatView, view: IronBridgeGorgeView) -> tuple[set[str], list[str]]:
    """Marks and words for one seat's row: each number that moved, and the resources gained or lost."""
    name = player_name(new.name, NAME_WIDTH, BANNER_SIZE)
    seat = new.seat
    marks: set[str] = set()
    lines: list[str] = []
    numbers = (
        ("vp", "VP", old.vp, new.vp),
        ("coins", "coins", old.coins, new.coins),
        ("rev", "revenue", old.revenue, new.revenue),
        ("hand", "cards in hand", old.hand_count, new.hand_count),
    )
    for key, label, before, after in numbers:
        if before != after:
            marks.add(f"{key}:{seat}")
            lines.append(f"{name}: {label} {before} → {after}")
    if old.loan != new.loan:
        marks.add(f"coins:{seat}")
        lines.append(f"{name} {'took a loan of 10' if new.loan else 'repaid the loan'}")
    if (old.bid_placed, old.bid) != (new.bid_placed, new.bid) and (new.bid_placed or new.bid is not None):
        marks.add(f"bid:{seat}")
        lines.append(
            f"{name} bid {new.bid}"
            if view.step != "initiative" and new.bid is not None
            else f"{name} placed a bid"
        )
    held_before = Counter(card.name for card in old.resources)
    held_after = Counter(card.name for card in new.resources)
    counted_before, counted_after = type_counts(old), type_counts(new)  # once, not once per type
    for card_type in TYPE_ORDER:
        if counted_before[card_type] != counted_after[card_type]:
            marks.add(f"{card_type}:{seat}")
    gained = sorted((held_after - held_before).elements())
    lost = sorted((held_before - held_after).elements())
    if gained:
        lines.append(f"{name} now has in play: {', '.join(gained)}")
    if lost:
        lines.append(f"{name} no longer has in play: {', '.join(lost)}")
    return marks, lines


def _board_changes(old: IronBridgeGorgeView, new: IronBridgeGorgeView) -> tuple[set[str], list[str]]:
    marks: set[str] = set()
    lines: list[str] = []
    if old.round != new.round:
        lines.append(f"Round {old.round} → {new.round}")
    if (old.event, old.innovation_roll) != (new.event, new.innovation_roll):
        marks.add("event")
        lines.append(event_text(new)[0])
    if old.innovations != new.innovations:
        marks.add("innovations")
        added = [entry.name for entry in new.innovations if entry not in old.innovations]
        lines.append("New innovation: " + ", ".join(added) if added else "Innovations changed")
    before, after = Counter(card.id for card in old.row), Counter(card.id for card in new.row)
    names = {card.id: card.name for card in [*old.row, *new.row]}
    if after - before:
        marks.add("row")
        lines.append(f"New on offer: {len(list((after - before).elements()))} cards")
    taken = sorted(names[card] for card in (before - after).elements())
    if taken and not after - before:
        lines.append("Gone from the row: " + ", ".join(taken))
    if old.proposal != new.proposal:
        if new.proposal is not None:
            marks.add("trade")
            proposer = player_name(new.players[new.proposal.proposer], NAME_WIDTH, BANNER_SIZE)
            partner = player_name(new.players[new.proposal.partner], NAME_WIDTH, BANNER_SIZE)
            lines.append(f"{proposer} offered {partner} a trade")
        else:
            lines.append("The trade offer was closed")
    return marks, lines


def _hand_changes(old: IronBridgeGorgeView, new: IronBridgeGorgeView) -> tuple[set[str], list[str]]:
    """A seat's own view: the cards new in its hand, and its secret bid."""
    marks: set[str] = set()
    lines: list[str] = []
    before = Counter(card.id for card in old.hand or [])
    after = Counter(card.id for card in new.hand or [])
    names = {card.id: card.name for card in new.hand or []}
    for card in sorted((after - before).elements()):
        marks.add(f"card:{card}")
        lines.append(f"New in your hand: {names[card]}")
    if old.my_bid != new.my_bid and new.my_bid is not None:
        marks.add("mybid")
        lines.append(f"Your secret bid: {new.my_bid}")
    return marks, lines


def changes(old: View, new: View) -> Changes:
    """What changed between two views of one viewer, as the keys the pictures frame and in words."""
    before, after = game_view(old), game_view(new)
    marks, lines = _board_changes(before, after)
    previous = {seat.seat: seat for seat in before.seats}
    for seat in after.seats:
        if seat.seat in previous:
            seat_marks, seat_lines = _seat_changes(previous[seat.seat], seat, after)
            marks |= seat_marks
            lines += seat_lines
    if after.seat is not None:
        hand_marks, hand_lines = _hand_changes(before, after)
        marks |= hand_marks
        lines += hand_lines
    if after.finished and not before.finished:
        lines.insert(0, "The game is over")
    return Changes(marks=frozenset(marks), lines=tuple(lines))
