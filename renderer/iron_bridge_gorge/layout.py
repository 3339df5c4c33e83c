"""The drawing pieces Iron Bridge Gorge's pictures share: sizes and type colours, a sheet that knows how
tall it has become, text blocks and headings, the seat table, full card tiles and the trade box."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

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
    with_names,
    wrap,
)
from renderer.phone import MIN_TEXT, PHONE_WIDTH, max_height
from rules.core import View
from rules.iron_bridge_gorge.view import CardView, IronBridgeGorgeView, SeatView

Draw = ImageDraw.ImageDraw

Paint = Callable[[Draw, int], None]

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

MAJORITY_VP = {"F": 2, "I": 2, "T": 2, "C": 1, "L": 1}
LOAN = "loan"
"""After a seat's coins when it has an unpaid loan of 10: a word, since every letter is a type's (L is
Limestone)."""
"""What the most resources of a type score each round (the rules' Scoring Step), for the key."""

INNER = PHONE_WIDTH - 2 * MARGIN

BODY = MIN_TEXT
"""Body text: the smallest size a phone shows readably, so that six seats and twelve cards fit."""

GAP = 8


@dataclass
class Flow:
    """A `Sheet` plus the height used so far, so a phone picture can cut what would pass `MAX_HEIGHT`."""

    sheet: Sheet
    used: int = 2 * MARGIN

    @property
    def room(self) -> int:
        return max_height() - self.used

    def add(self, height: int, paint: Paint) -> None:
        self.sheet.block(height, paint)
        self.used += height

    def space(self, height: int) -> None:
        self.add(height, lambda draw, y: None)


def new_flow(marks: frozenset[str] = frozenset()) -> Flow:
    return Flow(Sheet(width=PHONE_WIDTH, changed=marks))


def lines_block(
    flow: Flow, lines: Sequence[str], *, size: int = BODY, color: Color = Palette.ink, mark: str = ""
) -> None:
    height = len(lines) * line_height(size) + 4
    sheet = flow.sheet

    def paint(draw: Draw, y: int) -> None:
        for index, line in enumerate(lines):
            draw_text(draw, (MARGIN, y + index * line_height(size)), line, size=size, fill=color)
        if mark:
            sheet.mark(mark, (MARGIN - 6, y - 2, PHONE_WIDTH - MARGIN + 6, y + height - 2))

    flow.add(height, paint)


def heading(flow: Flow, text: str, *, color: Color = Palette.accent) -> None:
    """A section title: 24 px bold over a rule (smaller than `Sheet.heading`, which costs 52 px)."""
    text = ellipsize(text, INNER, 24, bold=True)

    def paint(draw: Draw, y: int) -> None:
        draw_text(draw, (MARGIN, y + 4), text, size=24, bold=True, fill=color)
        draw.line((MARGIN, y + 38, PHONE_WIDTH - MARGIN, y + 38), fill=Palette.line, width=2)

    flow.add(44, paint)
    flow.sheet.keep_with_next()


def header_block(flow: Flow, *, title: str, subtitle: str) -> None:
    size = fit_size(title, INNER, 30, bold=True, minimum=24)
    title = ellipsize(title, INNER, size, bold=True)
    subtitle = ellipsize(subtitle, INNER, 24) if subtitle else ""

    def paint(draw: Draw, y: int) -> None:
        draw_text(draw, (MARGIN, y), title, size=size, bold=True)
        if subtitle:
            draw_text(draw, (MARGIN, y + line_height(size)), subtitle, size=24, fill=Palette.muted)

    flow.add(line_height(size) + (line_height(24) if subtitle else 0) + 8, paint)


def event_text(view: IronBridgeGorgeView) -> tuple[str, str]:
    if view.innovation_roll is not None:
        return f"Innovation: {view.innovation_roll.name}", view.innovation_roll.note
    return f"Event: {view.event.name}", view.event.note


@dataclass(frozen=True)
class Cell:
    text: str
    mark: str = ""
    bold: bool = False
    ink: Color = Palette.ink
    fill: Color | None = None
    """A badge behind the text (a type's leader), in the type's colour."""


@dataclass(frozen=True)
class Column:
    title: str
    fill: Color | None = None
    ink: Color = Palette.ink


@dataclass
class Row:
    seat: int
    name: str
    cells: list[Cell]
    highlight: bool = False
    playing: bool = False
    mark: str = ""


@dataclass
class Table:
    columns: list[Column]
    rows: list[Row] = field(default_factory=list)


CELL = 24

ROW_HEIGHT = 38

HEAD_HEIGHT = 36

NAME_MIN = 170


def _widths(table: Table) -> list[int]:
    """Each number column as wide as its widest text (title or value); the name takes the rest."""
    widths = []
    for index, column in enumerate(table.columns):
        widest = text_width(column.title, BODY, bold=True)
        for row in table.rows:
            cell = row.cells[index]
            widest = max(widest, text_width(cell.text, CELL, bold=cell.bold) + (10 if cell.fill else 0))
        widths.append(widest + 14)
    return widths


def draw_table(flow: Flow, table: Table) -> None:
    widths = _widths(table)
    name_width = max(INNER - sum(widths), NAME_MIN)
    height = HEAD_HEIGHT + len(table.rows) * ROW_HEIGHT + 6
    sheet = flow.sheet
    names = [
        fit_name(row.name, name_width - 44, CELL, suffix=" ▶" if row.playing else "", bold=True, minimum=BODY)
        for row in table.rows
    ]

    def paint(draw: Draw, y: int) -> None:
        x = MARGIN + name_width
        for column, width in zip(table.columns, widths, strict=True):
            center = x + width // 2
            if column.fill is not None:
                draw.rounded_rectangle(
                    (x + 4, y + 2, x + width - 4, y + HEAD_HEIGHT - 4), radius=6, fill=column.fill
                )
            draw_text(
                draw,
                (center, y + HEAD_HEIGHT // 2 - 1),
                column.title,
                size=BODY,
                bold=True,
                fill=column.ink,
                anchor="mm",
            )
            x += width
        for index, row in enumerate(table.rows):
            top = y + HEAD_HEIGHT + index * ROW_HEIGHT
            _table_row(draw, sheet, row, names[index], (top, name_width), widths)

    flow.add(height, paint)


def _table_row(
    draw: Draw, sheet: Sheet, row: Row, name: tuple[str, int], place: tuple[int, int], widths: list[int]
) -> None:
    top, name_width = place
    fill = Palette.highlight if row.highlight else Palette.panel if row.seat % 2 == 0 else None
    if fill is not None:
        draw.rectangle((MARGIN - 6, top, PHONE_WIDTH - MARGIN + 6, top + ROW_HEIGHT - 2), fill=fill)
    middle = top + ROW_HEIGHT // 2
    seat_dot(draw, (MARGIN + 12, middle), row.seat, radius=11)
    text, size = name
    draw_text(draw, (MARGIN + 32, middle), text, size=size, bold=True, anchor="lm")
    if row.mark:
        sheet.mark(row.mark, (MARGIN - 4, top + 1, MARGIN + name_width - 4, top + ROW_HEIGHT - 3))
    x = MARGIN + name_width
    for cell, width in zip(row.cells, widths, strict=True):
        center = x + width // 2
        if cell.fill is not None:
            half = text_width(cell.text, CELL, bold=True) // 2 + 9
            draw.rounded_rectangle(
                (center - half, top + 4, center + half, top + ROW_HEIGHT - 6), radius=8, fill=cell.fill
            )
        draw_text(draw, (center, middle), cell.text, size=CELL, bold=cell.bold, fill=cell.ink, anchor="mm")
        if cell.mark:
            sheet.mark(cell.mark, (x + 2, top + 1, x + width - 2, top + ROW_HEIGHT - 3))
        x += width


def type_counts(seat: SeatView) -> Counter[str]:
    return Counter(card.type for card in seat.resources)


def _leaders(view: IronBridgeGorgeView) -> dict[str, int]:
    """The seat with strictly the most resources of each type (who would score it now)."""
    leaders = {}
    counts = [type_counts(seat) for seat in view.seats]
    for card_type in TYPE_ORDER:
        best = max((count[card_type] for count in counts), default=0)
        holders = [
            seat.seat for seat, count in zip(view.seats, counts, strict=True) if count[card_type] == best
        ]
        if best and len(holders) == 1:
            leaders[card_type] = holders[0]
    return leaders


def _bid_cell(view: IronBridgeGorgeView, seat: SeatView) -> Cell:
    """A bid is secret until every seat has bid: the public table says only whether it is placed."""
    if view.step == "initiative":
        return Cell(
            "✓" if seat.bid_placed else "–",
            mark=f"bid:{seat.seat}",
            ink=Palette.good if seat.bid_placed else Palette.muted,
        )
    return Cell("" if seat.bid is None else str(seat.bid), mark=f"bid:{seat.seat}")


def seat_order(view: IronBridgeGorgeView) -> list[SeatView]:
    order = view.order or list(range(len(view.seats)))
    rank = {seat: index for index, seat in enumerate(order)}
    return sorted(view.seats, key=lambda entry: rank.get(entry.seat, len(order) + entry.seat))


def _type_cells(seat: SeatView, leaders: dict[str, int]) -> list[Cell]:
    """A seat's resources in play counted by type, the type's leader filled in the type's colour."""
    counts = type_counts(seat)
    cells = []
    for letter in TYPE_ORDER:
        lead = leaders.get(letter) == seat.seat
        _, band, ink = TYPES[letter]
        cells.append(
            Cell(
                str(counts[letter]) if counts[letter] else "·",
                mark=f"{letter}:{seat.seat}",
                bold=lead,
                ink=ink if lead else Palette.ink if counts[letter] else Palette.muted,
                fill=band if lead else None,
            )
        )
    return cells


def _number_cells(view: IronBridgeGorgeView, seat: SeatView) -> list[Cell]:
    index = seat.seat
    coins = f"{seat.coins} {LOAN}" if seat.loan else str(seat.coins)
    return [
        Cell(str(seat.vp), mark=f"vp:{index}", bold=True),
        Cell(coins, mark=f"coins:{index}", ink=Palette.bad if seat.loan else Palette.ink),
        Cell(f"+{seat.revenue}", mark=f"rev:{index}", ink=Palette.good),
        Cell(str(seat.hand_count), mark=f"hand:{index}"),
        _bid_cell(view, seat),
    ]


NUMBER_COLUMNS = [Column("VP"), Column("Coins"), Column("Rev"), Column("Hand"), Column("Bid")]

TYPE_COLUMNS = [Column(letter, TYPES[letter][1], TYPES[letter][2]) for letter in TYPE_ORDER]


def seat_table(flow: Flow, view: IronBridgeGorgeView, seats: Sequence[SeatView] | None = None) -> None:
    """One row a seat in turn order: the numbers that decide a bid or a build, then the type counts.
    Given `seats` (the final picture's ranking), only the type counts, in that order."""
    numbers = seats is None
    table = Table([*NUMBER_COLUMNS, *TYPE_COLUMNS] if numbers else list(TYPE_COLUMNS))
    leaders = _leaders(view)
    acting = set(view.to_act) if not view.finished else set()
    for seat in seat_order(view) if seats is None else seats:
        cells = (
            [*_number_cells(view, seat), *_type_cells(seat, leaders)]
            if numbers
            else _type_cells(seat, leaders)
        )
        table.rows.append(
            Row(
                seat.seat,
                seat.name,
                cells,
                highlight=seat.seat in acting,
                playing=view.current == seat.seat,
                mark=f"seat:{seat.seat}",
            )
        )
    draw_table(flow, table)


CARD_COLUMNS = 2
"""Full cards (hand, `cards` section) two a row: room for the requirements."""


def tile_width(columns: int) -> int:
    return (INNER - (columns - 1) * GAP) // columns


def needs_text(card: CardView) -> str:
    if card.requires:
        return "Needs " + ", ".join(card.requires)
    return card.note or "Needs nothing"


@dataclass(frozen=True)
class _FullCard:
    """A full card (hand, `cards` section): name, cost, revenue, type, then requirements or note."""

    card: CardView
    name: str
    lines: list[str]
    mark: str = ""


def full_cards(cards: Sequence[CardView], marks: Sequence[str] = ()) -> list[_FullCard]:
    width = tile_width(CARD_COLUMNS) - 20
    out = []
    for index, card in enumerate(cards):
        lines = wrap(needs_text(card), width, BODY)
        if len(lines) > 3:
            lines = [*lines[:2], ellipsize(" ".join(lines[2:]), width, BODY)]
        name = ellipsize(card.name, width, BODY, bold=True)
        out.append(_FullCard(card, name, lines, marks[index] if index < len(marks) else ""))
    return out


def _full_height(lines: int) -> int:
    return 40 + 38 + lines * line_height(BODY) + 10


def full_tiles_height(cards: Sequence[_FullCard]) -> int:
    return sum(
        _full_row_height(cards[start : start + CARD_COLUMNS]) + GAP
        for start in range(0, len(cards), CARD_COLUMNS)
    )


def _full_row_height(row: Sequence[_FullCard]) -> int:
    return _full_height(max(len(entry.lines) for entry in row))


def full_tiles(flow: Flow, cards: Sequence[_FullCard]) -> None:
    """The cards in full, a block a row (a section with many cards is cut into pages between rows)."""
    width = tile_width(CARD_COLUMNS)
    sheet = flow.sheet
    for start in range(0, len(cards), CARD_COLUMNS):
        row = cards[start : start + CARD_COLUMNS]
        height = _full_row_height(row)

        def paint(draw: Draw, top: int, row: Sequence[_FullCard] = row, height: int = height) -> None:
            for column, entry in enumerate(row):
                x = MARGIN + column * (width + GAP)
                _full_tile(draw, (x, top, x + width, top + height), entry)
                if entry.mark:
                    sheet.mark(entry.mark, (x, top, x + width, top + height))

        flow.add(height + GAP, paint)


def _full_tile(draw: Draw, box: tuple[int, int, int, int], entry: _FullCard) -> None:
    x, y, right, _ = box
    label, band, ink = TYPES[entry.card.type]
    rounded_box(draw, box, fill=Palette.panel, outline=band, width=3, radius=10)
    draw.rounded_rectangle((x, y, right, y + 40), radius=10, fill=band)
    draw.rectangle((x, y + 28, right, y + 40), fill=band)
    draw_text(draw, (x + 10, y + 20), entry.name, size=BODY, bold=True, fill=ink, anchor="lm")
    pill_x = x + 10
    pill_x += pill(draw, (pill_x, y + 44), f"{entry.card.cost}c", fill=Palette.accent, size=BODY) + 6
    pill(draw, (pill_x, y + 44), f"+{entry.card.revenue}", fill=Palette.good, size=BODY)
    draw_text(draw, (right - 10, y + 60), label, size=BODY, bold=True, fill=Palette.muted, anchor="rm")
    for number, line in enumerate(entry.lines):
        draw_text(draw, (x + 10, y + 80 + number * line_height(BODY)), line, size=BODY)


def _trade_lines(view: IronBridgeGorgeView) -> list[str]:
    """The open trade: its contents for the two parties, only who and whom for everyone else."""
    proposal = view.proposal
    if proposal is None:
        return []
    if proposal.text is not None:
        return wrap("Trade offer: " + with_names(proposal.text, view.players, BODY), INNER - 20, BODY)[:4]
    proposer = player_name(view.players[proposal.proposer], NAME_WIDTH - 60, BODY)
    partner = player_name(view.players[proposal.partner], NAME_WIDTH - 60, BODY)
    return wrap(f"Trade: {proposer} offered {partner} a trade; waiting for the answer.", INNER - 20, BODY)[:2]


def trade_box(flow: Flow, view: IronBridgeGorgeView) -> None:
    lines = _trade_lines(view)
    if not lines:
        return
    height = len(lines) * line_height(BODY) + 14
    sheet = flow.sheet

    def paint(draw: Draw, y: int) -> None:
        box = (MARGIN, y, PHONE_WIDTH - MARGIN, y + height - 6)
        rounded_box(draw, box, fill=Palette.panel, outline=Palette.accent, radius=10)
        for index, line in enumerate(lines):
            draw_text(draw, (MARGIN + 10, y + 4 + index * line_height(BODY)), line, size=BODY)
        sheet.mark("trade", box)

    flow.add(height, paint)


def game_view(view: View) -> IronBridgeGorgeView:
    assert isinstance(view, IronBridgeGorgeView), "renderer.iron_bridge_gorge draws Iron Bridge Gorge views"
    return view
