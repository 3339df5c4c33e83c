"""Iron Bridge Gorge boards: drawn from a view only (public, a seat's, or the finished game).

From top to bottom: round and event, innovations, the Opportunity row as card tiles, the viewer's
hand (a seat's view), the open trade when the viewer may see it, each player's panel (coins, VP,
loan, hand size, revenue, resources in play grouped by type), and once finished the scoreboard.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import ImageDraw

from renderer.canvas import (
    MARGIN,
    NAME_WIDTH,
    Color,
    Palette,
    Sheet,
    draw_text,
    ellipsize,
    fit_name,
    fit_size,
    line_height,
    pill,
    player_name,
    rounded_box,
    seat_dot,
    text_width,
    to_png,
    with_names,
    wrap,
)
from rules.core import View
from rules.iron_bridge_gorge.state import CardView, IronBridgeGorgeView, SeatView

TYPES: dict[str, tuple[str, Color, Color]] = {
    "F": ("Fuel", (45, 45, 48), (255, 255, 255)),
    "I": ("Iron", (150, 40, 30), (255, 255, 255)),
    "C": ("Clay", (196, 98, 16), (255, 255, 255)),
    "L": ("Limestone", (215, 208, 190), (28, 28, 30)),
    "T": ("Transport", (0, 90, 160), (255, 255, 255)),
    "O": ("Other", (30, 110, 60), (255, 255, 255)),
}
"""Card type: label, band colour, ink on the band."""
TYPE_ORDER = "FICLTO"
COLUMNS = 3
TILE_HEIGHT = 134
GAP = 14


def _tile_width(width: int) -> int:
    return (width - 2 * MARGIN - (COLUMNS - 1) * GAP) // COLUMNS


def _card_tiles(sheet: Sheet, cards: Sequence[CardView]) -> None:
    """Cards as tiles, three a row: type band with the name, then cost, revenue and requirements."""
    if not cards:
        sheet.paragraph("None.", color=Palette.muted)
        return
    width = _tile_width(sheet.width)
    rows = (len(cards) + COLUMNS - 1) // COLUMNS

    def paint(draw: ImageDraw.ImageDraw, y: int) -> None:
        for index, card in enumerate(cards):
            x = MARGIN + (index % COLUMNS) * (width + GAP)
            top = y + (index // COLUMNS) * (TILE_HEIGHT + GAP)
            _tile(draw, (x, top), width, card)

    sheet.block(rows * (TILE_HEIGHT + GAP), paint)


def _tile(draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int, card: CardView) -> None:
    x, y = xy
    label, band, ink = TYPES[card.type]
    rounded_box(draw, (x, y, x + width, y + TILE_HEIGHT), fill=Palette.panel, outline=band, width=3)
    draw.rounded_rectangle((x, y, x + width, y + 66), radius=12, fill=band)
    draw.rectangle((x, y + 50, x + width, y + 66), fill=band)
    name_size = 24
    lines = wrap(card.name, width - 20, name_size, bold=True)
    if len(lines) > 2:
        name_size = 22
        lines = wrap(card.name, width - 20, name_size, bold=True)[:2]
    top = y + 33 - len(lines) * line_height(name_size) // 2
    for number, line in enumerate(lines):
        draw_text(
            draw, (x + 10, top + number * line_height(name_size)), line, size=name_size, bold=True, fill=ink
        )
    pill_x = x + 10
    pill_x += pill(draw, (pill_x, y + 70), f"{card.cost}c", fill=Palette.accent, size=22) + 8
    pill_x += pill(draw, (pill_x, y + 70), f"+{card.revenue}", fill=Palette.good, size=22) + 8
    draw_text(draw, (x + width - 10, y + 72), label, size=22, bold=True, fill=Palette.muted, anchor="ra")
    room = width - 20
    needs = "needs " + ", ".join(card.requires) if card.requires else (card.note or "needs nothing")
    if card.requires and text_width(needs, 22) > room:
        needs = ", ".join(card.requires)  # the type colours already say it is a requirement line
    size = fit_size(needs, room, 22, minimum=20)
    draw_text(draw, (x + 10, y + 100), ellipsize(needs, room, size), size=size, fill=Palette.ink)


def _banner(sheet: Sheet, view: IronBridgeGorgeView) -> None:
    event = view.event.name
    if view.innovation_roll is not None:
        event = f"Innovation: {view.innovation_roll.name}"
    note = view.innovation_roll.note if view.innovation_roll is not None else view.event.note
    innovations = [entry.name for entry in view.innovations]
    size = 26

    note_lines = wrap(note, sheet.inner - 24, 22)
    height = (
        16
        + line_height(30)
        + len(note_lines) * line_height(22)
        + (line_height(size) + 12 if innovations else 0)
        + 12
    )

    def paint(draw: ImageDraw.ImageDraw, y: int) -> None:
        rounded_box(
            draw,
            (MARGIN, y, sheet.width - MARGIN, y + height - 8),
            fill=(255, 244, 214),
            outline=Palette.accent,
        )
        text = f"Event: {event}"
        draw_text(
            draw, (MARGIN + 12, y + 10), ellipsize(text, sheet.inner - 24, 30, bold=True), size=30, bold=True
        )
        line_y = y + 10 + line_height(30)
        for line in note_lines:
            draw_text(draw, (MARGIN + 12, line_y), line, size=22, fill=Palette.muted)
            line_y += line_height(22)
        if innovations:
            x = MARGIN + 12
            draw_text(draw, (x, line_y + 6), "Innovations:", size=22, bold=True)
            x += text_width("Innovations:", 22, bold=True) + 10
            for name in innovations:
                x += pill(draw, (x, line_y + 2), name, fill=Palette.good, size=20) + 8

    sheet.block(height, paint)


def _seat_panel(sheet: Sheet, view: IronBridgeGorgeView, seat: SeatView) -> None:
    """One player: name line with counters, then one line per resource type present."""
    inner = sheet.inner - 24
    groups: dict[str, list[CardView]] = {}
    for card in seat.resources:
        groups.setdefault(card.type, []).append(card)
    lines: list[tuple[str, list[str]]] = []
    for card_type in TYPE_ORDER:
        if card_type not in groups:
            continue
        names = ", ".join(card.name for card in groups[card_type])
        head = f"{TYPES[card_type][0]} {len(groups[card_type])}: "
        wrapped = wrap(head + names, inner - 40, 22)
        lines.append((card_type, wrapped))
    body = sum(len(wrapped) for _, wrapped in lines) * line_height(22) + 6 * len(lines)
    if not lines:
        body = line_height(22)
    counters = [
        f"{seat.coins} coin{'s' if seat.coins != 1 else ''}",
        f"{seat.vp} VP",
        f"hand {seat.hand_count}",
        f"revenue {seat.revenue}",
        f"last income {seat.income:+d}",
    ]
    if seat.loan:
        counters.append("LOAN 10")
    if seat.bid is not None:
        counters.append(f"bid {seat.bid}")
    counter_text = "  ·  ".join(counters)
    counter_lines = wrap(counter_text, inner, 24, bold=True)
    height = 12 + line_height(28) + len(counter_lines) * line_height(24) + 8 + body + 14
    acting = seat.seat in view.to_act
    first = bool(view.order) and view.order[0] == seat.seat

    def paint(draw: ImageDraw.ImageDraw, y: int) -> None:
        outline = Palette.seat(seat.seat) if acting else Palette.line
        rounded_box(
            draw,
            (MARGIN, y, sheet.width - MARGIN, y + height - 10),
            outline=outline,
            width=5 if acting else 2,
        )
        seat_dot(draw, (MARGIN + 24, y + 12 + line_height(28) // 2), seat.seat, radius=12)
        tags = []
        if first:
            tags.append("first")
        if view.current == seat.seat:
            tags.append("playing")
        elif acting:
            tags.append("to act")
        if view.step == "initiative" and seat.bid_placed:
            tags.append("has bid")
        if view.seat == seat.seat:
            tags.append("you")
        suffix = f"  ({', '.join(tags)})" if tags else ""
        title, size = fit_name(seat.name, inner - 30, 28, suffix=suffix, bold=True, minimum=22)
        draw_text(draw, (MARGIN + 44, y + 12), title, size=size, bold=True)
        line_y = y + 12 + line_height(28)
        for line in counter_lines:
            draw_text(draw, (MARGIN + 14, line_y), line, size=24, bold=True, fill=Palette.accent)
            line_y += line_height(24)
        line_y += 8
        if not lines:
            draw_text(draw, (MARGIN + 14, line_y), "No resources in play.", size=22, fill=Palette.muted)
        for card_type, wrapped in lines:
            _, band, ink = TYPES[card_type]
            draw.rounded_rectangle((MARGIN + 14, line_y, MARGIN + 42, line_y + 26), radius=6, fill=band)
            draw_text(draw, (MARGIN + 28, line_y + 13), card_type, size=20, bold=True, fill=ink, anchor="mm")
            for line in wrapped:
                draw_text(draw, (MARGIN + 52, line_y), line, size=22)
                line_y += line_height(22)
            line_y += 6

    sheet.block(height, paint)


def render(view: View) -> bytes:
    assert isinstance(view, IronBridgeGorgeView), "renderer.iron_bridge_gorge draws Iron Bridge Gorge views"
    sheet = Sheet()
    sheet.title("Iron Bridge Gorge", subtitle=with_names(view.headline, view.players, 24))
    if view.finished and view.scoreboard is not None:
        sheet.heading("Final scores")
        sheet.rows(
            [
                (
                    f"{line.place}. {player_name(line.name)}",
                    f"{line.vp} VP · {line.coins} coins · {line.resources} res.",
                )
                for line in view.scoreboard
            ],
            size=26,
            seat_colors=[line.seat for line in view.scoreboard],
        )
        sheet.space(8)
    _banner(sheet, view)
    sheet.space(6)
    if not view.finished:
        sheet.heading(
            f"Opportunity row ({len(view.row)})  ·  deck {view.deck_count}  ·  discard {view.discard_count}"
        )
        _card_tiles(sheet, view.row)
    if view.hand is not None:
        sheet.heading(f"Your hand ({len(view.hand)}/5)", color=Palette.seat(view.seat or 0))
        _card_tiles(sheet, view.hand)
    if view.proposal is not None:
        proposer = player_name(view.players[view.proposal.proposer], NAME_WIDTH, 24)
        partner = player_name(view.players[view.proposal.partner], NAME_WIDTH, 24)
        sheet.heading("Trade offer")
        if view.proposal.text is not None:
            sheet.paragraph(with_names(view.proposal.text, view.players, 24), size=24)
        else:
            sheet.paragraph(f"{proposer} has offered {partner} a trade.", size=24)
    sheet.heading("Ironmasters")
    order = view.order or list(range(len(view.seats)))
    for seat in sorted(view.seats, key=lambda entry: order.index(entry.seat)):
        _seat_panel(sheet, view, seat)
    return to_png(sheet.image())
