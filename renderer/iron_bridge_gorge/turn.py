"""The turn picture (public view): header, event box, seat table, open trade, the Opportunity row as
compact tiles, and as much of the short key as fits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from renderer.canvas import (
    MARGIN,
    NAME_WIDTH,
    Palette,
    draw_text,
    ellipsize,
    line_height,
    pill,
    player_name,
    rounded_box,
    text_width,
    to_png,
    wrap,
)
from renderer.iron_bridge_gorge.key import short_key
from renderer.iron_bridge_gorge.layout import (
    BODY,
    GAP,
    INNER,
    TYPES,
    Draw,
    Flow,
    event_text,
    header_block,
    heading,
    lines_block,
    new_flow,
    seat_table,
    tile_width,
    trade_box,
)
from renderer.phone import PHONE_WIDTH
from rules.iron_bridge_gorge.view import CardView, IronBridgeGorgeView


def _status(view: IronBridgeGorgeView) -> str:
    """Who acts and in which step, in words, names fitted so that the line stays one line."""
    if view.finished:
        return "Game over"
    if view.step == "initiative":
        waiting = [player_name(view.players[seat], 200, 24) for seat in view.to_act]
        return "Secret bids · waiting for " + ", ".join(waiting) if waiting else "Secret bids"
    if view.current is None:
        return view.phase.title() + " phase" if view.phase else ""
    name = player_name(view.players[view.current], NAME_WIDTH - 60, 24)
    phase = "End phase (discard to 5)" if view.phase == "discard" else f"{(view.phase or '').title()} phase"
    text = f"{name}'s turn · {phase}"
    if view.proposal is not None:
        text += f" · {player_name(view.players[view.proposal.partner], 200, 24)} answers a trade"
    return text


def _round_title(view: IronBridgeGorgeView) -> str:
    return f"Iron Bridge Gorge · Round {view.round} of {view.rounds}"


def _event_lines(title: str, note: str, max_lines: int) -> tuple[str, list[str]]:
    """The note's words that fit after the bold title on the first line, then the rest wrapped, at
    most `max_lines` lines in all (the last one ellipsized)."""
    room = INNER - 24
    words = note.split()
    first = ""
    while (
        words
        and text_width(f"{first} {words[0]}" if first else f" — {words[0]}", BODY)
        + text_width(title, BODY, bold=True)
        <= room
    ):
        first = f"{first} {words[0]}" if first else f" — {words[0]}"
        words.pop(0)
    rest = wrap(" ".join(words), room, BODY) if words else []
    if len(rest) > max_lines - 1:
        rest = [*rest[: max_lines - 2], ellipsize(" ".join(rest[max_lines - 2 :]), room, BODY)]
    return first, rest[: max_lines - 1]


def _event_box(flow: Flow, view: IronBridgeGorgeView, *, max_lines: int = 2) -> None:
    """The round's event (bold) with its effect, and the innovations in play: what changes revenue."""
    title, note = event_text(view)
    title = ellipsize(title, INNER - 24, BODY, bold=True)
    first, lines = _event_lines(title, note, max_lines)
    innovations = ", ".join(entry.name for entry in view.innovations)
    if innovations:
        lines.append(ellipsize(f"Innovations: {innovations}", INNER - 24, BODY))
    height = (1 + len(lines)) * line_height(BODY) + 16
    sheet = flow.sheet

    def paint(draw: Draw, y: int) -> None:
        box = (MARGIN, y, PHONE_WIDTH - MARGIN, y + height - 6)
        rounded_box(draw, box, fill=(255, 244, 214), outline=Palette.accent, radius=10)
        draw_text(draw, (MARGIN + 12, y + 5), title, size=BODY, bold=True)
        draw_text(draw, (MARGIN + 12 + text_width(title, BODY, bold=True), y + 5), first, size=BODY)
        for index, line in enumerate(lines, start=1):
            draw_text(draw, (MARGIN + 12, y + 5 + index * line_height(BODY)), line, size=BODY)
        sheet.mark("event", box)
        if innovations:
            sheet.mark("innovations", box)

    flow.add(height, paint)


COMPACT_COLUMNS = 3

PILL_ROW = 36
"""Under a compact tile's band (the name on the type's colour): cost and revenue pills, type letter."""


def _name_lines(name: str, width: int) -> list[str]:
    lines = wrap(name, width, BODY, bold=True)
    if len(lines) > 2:
        lines = [lines[0], ellipsize(" ".join(lines[1:]), width, BODY, bold=True)]
    return lines


def _band_height(lines: int) -> int:
    return lines * line_height(BODY) + 10


@dataclass(frozen=True)
class _Compact:
    """The Opportunity row's tiles laid out in rows of three, each row as tall as its longest name."""

    rows: list[list[tuple[CardView, list[str]]]]

    @staticmethod
    def of(cards: Sequence[CardView]) -> _Compact:
        width = tile_width(COMPACT_COLUMNS) - 16
        named = [(card, _name_lines(card.name, width)) for card in cards]
        return _Compact(
            [named[start : start + COMPACT_COLUMNS] for start in range(0, len(named), COMPACT_COLUMNS)]
        )

    @staticmethod
    def band(row: Sequence[tuple[CardView, list[str]]]) -> int:
        return _band_height(max(len(lines) for _, lines in row))

    def height(self, rows: int | None = None) -> int:
        return sum(self.band(row) + PILL_ROW + GAP for row in self.rows[:rows])

    def fitting(self, room: int) -> int:
        """How many of the first rows fit in `room` px."""
        count = 0
        while count < len(self.rows) and self.height(count + 1) <= room:
            count += 1
        return count


def _compact_tile(
    draw: Draw, box: tuple[int, int, int, int], band_height: int, entry: tuple[CardView, list[str]]
) -> None:
    card, lines = entry
    x, y, right, _ = box
    _, band, ink = TYPES[card.type]
    rounded_box(draw, box, fill=Palette.panel, outline=band, width=3, radius=10)
    draw.rounded_rectangle((x, y, right, y + band_height), radius=10, fill=band)
    draw.rectangle((x, y + band_height - 12, right, y + band_height), fill=band)
    top = y + band_height // 2 - len(lines) * line_height(BODY) // 2
    for number, line in enumerate(lines):
        draw_text(draw, (x + 8, top + number * line_height(BODY)), line, size=BODY, bold=True, fill=ink)
    pill_x = x + 8
    pill_x += pill(draw, (pill_x, y + band_height + 2), f"{card.cost}c", fill=Palette.accent, size=BODY) + 6
    pill(draw, (pill_x, y + band_height + 2), f"+{card.revenue}", fill=Palette.good, size=BODY)
    middle = y + band_height + 2 + (line_height(BODY) + 4) // 2
    draw_text(draw, (right - 10, middle), card.type, size=BODY, bold=True, fill=Palette.muted, anchor="rm")


def _compact_tiles(flow: Flow, tiles: _Compact, *, mark: str = "") -> None:
    width = tile_width(COMPACT_COLUMNS)
    height = tiles.height()
    sheet = flow.sheet

    def paint(draw: Draw, y: int) -> None:
        top = y
        for row in tiles.rows:
            band = tiles.band(row)
            for column, entry in enumerate(row):
                x = MARGIN + column * (width + GAP)
                _compact_tile(draw, (x, top, x + width, top + band + PILL_ROW), band, entry)
            top += band + PILL_ROW + GAP
        if mark:
            sheet.mark(mark, (MARGIN, y, PHONE_WIDTH - MARGIN, y + height - GAP))

    flow.add(height, paint)


def _row_heading(view: IronBridgeGorgeView) -> str:
    return f"On offer: {len(view.row)} card{'s' if len(view.row) != 1 else ''} · deck {view.deck_count} · discard {view.discard_count}"


def _offer(flow: Flow, cards: Sequence[CardView]) -> None:
    """The Opportunity row's tiles, all of them when they fit (before the key line, which gives way),
    else as many rows as fit with the rest counted and pointed to: never shrunk below readable."""
    tiles = _Compact.of(cards)
    if tiles.height() > flow.room:
        rows = tiles.fitting(flow.room - line_height(BODY) - 4)
        tiles = _Compact(tiles.rows[:rows])
    shown = sum(len(row) for row in tiles.rows)
    if tiles.rows:
        _compact_tiles(flow, tiles, mark="row")
    if shown < len(cards):
        more = f"+ {len(cards) - shown} more on offer: /board section:cards"
        lines_block(
            flow, [ellipsize(more, INNER, BODY)], color=Palette.muted, mark="" if tiles.rows else "row"
        )


def draw_turn(view: IronBridgeGorgeView, marks: frozenset[str]) -> bytes:
    flow = new_flow(marks)
    header_block(flow, title=_round_title(view), subtitle=_status(view))
    _event_box(flow, view)
    flow.space(4)
    seat_table(flow, view)
    trade_box(flow, view)
    heading(flow, _row_heading(view))
    if not view.row:
        lines_block(flow, ["Nothing left on offer this round."], color=Palette.muted)
    else:
        _offer(flow, view.row)
    short_key(flow)
    return to_png(flow.sheet.image())
