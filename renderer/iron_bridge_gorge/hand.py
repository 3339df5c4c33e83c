"""A seat's hand picture: only what that seat sees beyond the board (its hand, its secret bid, a trade
it is party to)."""

from __future__ import annotations

from collections.abc import Sequence

from renderer.canvas import (
    MARGIN,
    Palette,
    draw_text,
    ellipsize,
    fit_size,
    line_height,
    player_name,
    seat_dot,
    text_width,
    to_png,
    wrap,
)
from renderer.iron_bridge_gorge.layout import (
    BODY,
    INNER,
    TYPES,
    Draw,
    Flow,
    full_cards,
    full_tiles,
    full_tiles_height,
    heading,
    lines_block,
    needs_text,
    new_flow,
    trade_box,
)
from renderer.phone import PHONE_WIDTH
from rules import words
from rules.iron_bridge_gorge.view import CardView, IronBridgeGorgeView

LIST_HEIGHT = 36


def _card_list(flow: Flow, cards: Sequence[CardView], marks: Sequence[str] = ()) -> None:
    """One line a card (type letter, name, cost, revenue): a hand too long for tiles."""
    sheet = flow.sheet

    def paint(draw: Draw, y: int) -> None:
        for index, card in enumerate(cards):
            top = y + index * LIST_HEIGHT
            _, band, ink = TYPES[card.type]
            draw.rounded_rectangle((MARGIN, top + 3, MARGIN + 30, top + 33), radius=6, fill=band)
            draw_text(draw, (MARGIN + 15, top + 18), card.type, size=BODY, bold=True, fill=ink, anchor="mm")
            numbers = f"{card.cost}c  +{card.revenue}"
            room = INNER - 48 - text_width(numbers, BODY, bold=True) - 16
            name = ellipsize(card.name, room, BODY)
            draw_text(draw, (MARGIN + 42, top + 18), name, size=BODY, anchor="lm")
            needs = ellipsize(" · " + needs_text(card).lower(), room - text_width(name, BODY), BODY)
            draw_text(
                draw,
                (MARGIN + 42 + text_width(name, BODY), top + 18),
                needs,
                size=BODY,
                fill=Palette.muted,
                anchor="lm",
            )
            draw_text(draw, (PHONE_WIDTH - MARGIN, top + 18), numbers, size=BODY, bold=True, anchor="rm")
            if index < len(marks) and marks[index]:
                sheet.mark(marks[index], (MARGIN - 4, top, PHONE_WIDTH - MARGIN + 4, top + LIST_HEIGHT - 2))

    flow.add(len(cards) * LIST_HEIGHT + 4, paint)


def draw_hand(view: IronBridgeGorgeView, marks: frozenset[str]) -> bytes:
    """Only the seat's own view: its hand, its secret bid, a trade it is party to; no board."""
    seat = view.seat if view.seat is not None else 0
    flow = new_flow(marks)
    coins = view.seats[seat].coins if seat < len(view.seats) else 0
    where = "game over" if view.finished else f"round {view.round}/{view.rounds}"
    name = player_name(view.players[seat], 240, 24, bold=True)
    header = f"{name}'s hand · Iron Bridge Gorge · {where}"
    size = fit_size(header, INNER - 30, 26, bold=True, minimum=BODY)
    header = ellipsize(header, INNER - 30, size, bold=True)

    def paint_header(draw: Draw, y: int) -> None:
        seat_dot(draw, (MARGIN + 12, y + 17), seat, radius=11)
        draw_text(draw, (MARGIN + 32, y + 17), header, size=size, bold=True, anchor="lm")

    flow.add(44, paint_header)
    if view.step == "initiative" and not view.finished:
        bid = (
            "You have not bid yet."
            if view.my_bid is None
            else f"Your secret bid: {words.count(view.my_bid, 'coin')} (shown when all have bid)."
        )
        lines_block(flow, wrap(bid, INNER, BODY), color=Palette.accent, mark="mybid")
    if view.proposal is not None and view.proposal.text is not None:
        trade_box(flow, view)
    hand = list(view.hand or [])
    heading(flow, f"Your hand ({len(hand)}/5) · you have {words.count(coins, 'coin')}")
    if not hand:
        lines_block(flow, ["Your hand is empty."], color=Palette.muted)
        return to_png(flow.sheet.image())
    card_marks = [f"card:{card.id}" for card in hand]
    full = full_cards(hand, card_marks)
    if full_tiles_height(full) <= flow.room:
        full_tiles(flow, full)
    else:
        fitting = max(1, (flow.room - line_height(BODY) - 8) // LIST_HEIGHT)
        shown = hand if len(hand) * LIST_HEIGHT + 4 <= flow.room else hand[:fitting]
        _card_list(flow, shown, card_marks)
        if len(shown) < len(hand):
            lines_block(flow, [f"+ {len(hand) - len(shown)} more cards"], color=Palette.muted)
    return to_png(flow.sheet.image())
