"""Iron Bridge Gorge pictures, drawn from a view only and sized for a phone (`renderer.phone`).

- The turn picture (public view) answers "what do I need to decide?": a header (round, step, who
  acts), the round's event and the innovations in play, one table row per seat with the numbers that
  decide a bid or a build (VP, coins, revenue, cards in hand, bid, resources in play by type, the
  type's leader filled in its colour), the Opportunity row as compact tiles, and an open trade.
- The final picture puts the result first: the winner, then every seat's tie-break numbers.
- A seat's hand picture holds only what that seat sees beyond the board: its hand (full cards), its
  secret bid, and a trade offer it is party to, under a one-line header.
- Sections (`OVERLAYS`) hold the rest: the row's full cards, each player's holdings by name, the
  event and innovation texts, and the key.
Every picture is `PHONE_WIDTH` wide with text of at least `MIN_TEXT`; turn, hand and final pictures
are at most `MAX_HEIGHT` tall at every table size, because whatever does not fit is cut with a
pointer to its section rather than shrunk.
"""

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
    to_png,
    with_names,
    wrap,
)
from renderer.changes import BANNER_SIZE, Changes
from renderer.phone import MAX_HEIGHT, MIN_TEXT, PHONE_WIDTH
from renderer.registry import Overlay
from rules import words
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
"""What the most resources of a type score each round (the rules' Scoring Step), for the key."""
INNER = PHONE_WIDTH - 2 * MARGIN
BODY = MIN_TEXT
"""Body text: the smallest size a phone shows readably, so that six seats and twelve cards fit."""
GAP = 8
KEY_ITEMS = (
    "F Fuel, I Iron, C Clay, L Limestone, T Transport, O Other industry: the resource types, each in its colour",
    "the table's type columns count each seat's resources in play; a count filled in the type's colour "
    "leads that type (each round the most F, I or T scores 2 VP, the most C or L 1 VP; a tie scores nothing)",
    "VP victory points; Coins, with L for an unpaid loan of 10; Rev revenue a round before events and "
    "requirements; Hand cards in hand; Bid the initiative bid (✓ placed but secret, – not yet)",
    "a yellow row must act, ▶ marks the player whose turn it is",
    "on a card, 5c is its build cost and +2 its revenue a round",
    "magenta frames mark what changed since the last turn post",
)
KEY = "Key: " + "; ".join(KEY_ITEMS) + "."
"""What every symbol on the pictures means, for the alt text (also drawn in the `key` section)."""
SHORT_KEY = (
    "F Fuel · I Iron · C Clay · L Limestone · T Transport · O Other",
    "filled: leads the type · L loan · 5c cost · +2 revenue",
)
"""The key drawn under the turn picture when there is room; the rest is in the `key` section."""


# ---- layout: a sheet that knows how tall it has become -------------------------------------------
@dataclass
class _Flow:
    """A `Sheet` plus the height used so far, so a phone picture can cut what would pass `MAX_HEIGHT`."""

    sheet: Sheet
    used: int = 2 * MARGIN

    @property
    def room(self) -> int:
        return MAX_HEIGHT - self.used

    def add(self, height: int, paint: Paint) -> None:
        self.sheet.block(height, paint)
        self.used += height

    def space(self, height: int) -> None:
        self.add(height, lambda draw, y: None)


def _flow(marks: frozenset[str] = frozenset()) -> _Flow:
    return _Flow(Sheet(width=PHONE_WIDTH, changed=marks))


def _lines_block(
    flow: _Flow, lines: Sequence[str], *, size: int = BODY, color: Color = Palette.ink, mark: str = ""
) -> None:
    height = len(lines) * line_height(size) + 4
    sheet = flow.sheet

    def paint(draw: Draw, y: int) -> None:
        for index, line in enumerate(lines):
            draw_text(draw, (MARGIN, y + index * line_height(size)), line, size=size, fill=color)
        if mark:
            sheet.mark(mark, (MARGIN - 6, y - 2, PHONE_WIDTH - MARGIN + 6, y + height - 2))

    flow.add(height, paint)


def _heading(flow: _Flow, text: str, *, color: Color = Palette.accent) -> None:
    """A section title: 24 px bold over a rule (smaller than `Sheet.heading`, which costs 52 px)."""
    text = ellipsize(text, INNER, 24, bold=True)

    def paint(draw: Draw, y: int) -> None:
        draw_text(draw, (MARGIN, y + 4), text, size=24, bold=True, fill=color)
        draw.line((MARGIN, y + 38, PHONE_WIDTH - MARGIN, y + 38), fill=Palette.line, width=2)

    flow.add(44, paint)


# ---- header -------------------------------------------------------------------------------------
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


def _header(flow: _Flow, *, title: str, subtitle: str) -> None:
    size = fit_size(title, INNER, 30, bold=True, minimum=24)
    title = ellipsize(title, INNER, size, bold=True)
    subtitle = ellipsize(subtitle, INNER, 24) if subtitle else ""

    def paint(draw: Draw, y: int) -> None:
        draw_text(draw, (MARGIN, y), title, size=size, bold=True)
        if subtitle:
            draw_text(draw, (MARGIN, y + line_height(size)), subtitle, size=24, fill=Palette.muted)

    flow.add(line_height(size) + (line_height(24) if subtitle else 0) + 8, paint)


def _round_title(view: IronBridgeGorgeView) -> str:
    return f"Iron Bridge Gorge · Round {view.round} of {view.rounds}"


# ---- event and innovations ----------------------------------------------------------------------
def _event_text(view: IronBridgeGorgeView) -> tuple[str, str]:
    if view.innovation_roll is not None:
        return f"Innovation: {view.innovation_roll.name}", view.innovation_roll.note
    return f"Event: {view.event.name}", view.event.note


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


def _event_box(flow: _Flow, view: IronBridgeGorgeView, *, max_lines: int = 2) -> None:
    """The round's event (bold) with its effect, and the innovations in play: what changes revenue."""
    title, note = _event_text(view)
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


# ---- the seat table -----------------------------------------------------------------------------
@dataclass(frozen=True)
class _Cell:
    text: str
    mark: str = ""
    bold: bool = False
    ink: Color = Palette.ink
    fill: Color | None = None
    """A badge behind the text (a type's leader), in the type's colour."""


@dataclass(frozen=True)
class _Column:
    title: str
    fill: Color | None = None
    ink: Color = Palette.ink


@dataclass
class _Row:
    seat: int
    name: str
    cells: list[_Cell]
    highlight: bool = False
    playing: bool = False
    mark: str = ""


@dataclass
class _Table:
    columns: list[_Column]
    rows: list[_Row] = field(default_factory=list)


CELL = 24
ROW_HEIGHT = 38
HEAD_HEIGHT = 36
NAME_MIN = 170


def _widths(table: _Table) -> list[int]:
    """Each number column as wide as its widest text (title or value); the name takes the rest."""
    widths = []
    for index, column in enumerate(table.columns):
        widest = text_width(column.title, BODY, bold=True)
        for row in table.rows:
            cell = row.cells[index]
            widest = max(widest, text_width(cell.text, CELL, bold=cell.bold) + (10 if cell.fill else 0))
        widths.append(widest + 14)
    return widths


def _table(flow: _Flow, table: _Table) -> None:
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
    draw: Draw, sheet: Sheet, row: _Row, name: tuple[str, int], place: tuple[int, int], widths: list[int]
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


def _type_counts(seat: SeatView) -> Counter[str]:
    return Counter(card.type for card in seat.resources)


def _leaders(view: IronBridgeGorgeView) -> dict[str, int]:
    """The seat with strictly the most resources of each type (who would score it now)."""
    leaders = {}
    counts = [_type_counts(seat) for seat in view.seats]
    for card_type in TYPE_ORDER:
        best = max((count[card_type] for count in counts), default=0)
        holders = [
            seat.seat for seat, count in zip(view.seats, counts, strict=True) if count[card_type] == best
        ]
        if best and len(holders) == 1:
            leaders[card_type] = holders[0]
    return leaders


def _bid_cell(view: IronBridgeGorgeView, seat: SeatView) -> _Cell:
    """A bid is secret until every seat has bid: the public table says only whether it is placed."""
    if view.step == "initiative":
        return _Cell(
            "✓" if seat.bid_placed else "–",
            mark=f"bid:{seat.seat}",
            ink=Palette.good if seat.bid_placed else Palette.muted,
        )
    return _Cell("" if seat.bid is None else str(seat.bid), mark=f"bid:{seat.seat}")


def _seat_order(view: IronBridgeGorgeView) -> list[SeatView]:
    order = view.order or list(range(len(view.seats)))
    rank = {seat: index for index, seat in enumerate(order)}
    return sorted(view.seats, key=lambda entry: rank.get(entry.seat, len(order) + entry.seat))


def _type_cells(seat: SeatView, leaders: dict[str, int]) -> list[_Cell]:
    """A seat's resources in play counted by type, the type's leader filled in the type's colour."""
    counts = _type_counts(seat)
    cells = []
    for letter in TYPE_ORDER:
        lead = leaders.get(letter) == seat.seat
        _, band, ink = TYPES[letter]
        cells.append(
            _Cell(
                str(counts[letter]) if counts[letter] else "·",
                mark=f"{letter}:{seat.seat}",
                bold=lead,
                ink=ink if lead else Palette.ink if counts[letter] else Palette.muted,
                fill=band if lead else None,
            )
        )
    return cells


def _number_cells(view: IronBridgeGorgeView, seat: SeatView) -> list[_Cell]:
    index = seat.seat
    coins = f"{seat.coins} L" if seat.loan else str(seat.coins)
    return [
        _Cell(str(seat.vp), mark=f"vp:{index}", bold=True),
        _Cell(coins, mark=f"coins:{index}", ink=Palette.bad if seat.loan else Palette.ink),
        _Cell(f"+{seat.revenue}", mark=f"rev:{index}", ink=Palette.good),
        _Cell(str(seat.hand_count), mark=f"hand:{index}"),
        _bid_cell(view, seat),
    ]


NUMBER_COLUMNS = [_Column("VP"), _Column("Coins"), _Column("Rev"), _Column("Hand"), _Column("Bid")]
TYPE_COLUMNS = [_Column(letter, TYPES[letter][1], TYPES[letter][2]) for letter in TYPE_ORDER]


def _seat_table(flow: _Flow, view: IronBridgeGorgeView, seats: Sequence[SeatView] | None = None) -> None:
    """One row a seat in turn order: the numbers that decide a bid or a build, then the type counts.
    Given `seats` (the final picture's ranking), only the type counts, in that order."""
    numbers = seats is None
    table = _Table([*NUMBER_COLUMNS, *TYPE_COLUMNS] if numbers else list(TYPE_COLUMNS))
    leaders = _leaders(view)
    acting = set(view.to_act) if not view.finished else set()
    for seat in _seat_order(view) if seats is None else seats:
        cells = (
            [*_number_cells(view, seat), *_type_cells(seat, leaders)]
            if numbers
            else _type_cells(seat, leaders)
        )
        table.rows.append(
            _Row(
                seat.seat,
                seat.name,
                cells,
                highlight=seat.seat in acting,
                playing=view.current == seat.seat,
                mark=f"seat:{seat.seat}",
            )
        )
    _table(flow, table)


# ---- cards --------------------------------------------------------------------------------------
COMPACT_COLUMNS = 3
CARD_COLUMNS = 2
"""Full cards (hand, `cards` section) two a row: room for the requirements."""
PILL_ROW = 36
"""Under a compact tile's band (the name on the type's colour): cost and revenue pills, type letter."""


def _tile_width(columns: int) -> int:
    return (INNER - (columns - 1) * GAP) // columns


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
        width = _tile_width(COMPACT_COLUMNS) - 16
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


def _compact_tiles(flow: _Flow, tiles: _Compact, *, mark: str = "") -> None:
    width = _tile_width(COMPACT_COLUMNS)
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


def _needs(card: CardView) -> str:
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


def _full_cards(cards: Sequence[CardView], marks: Sequence[str] = ()) -> list[_FullCard]:
    width = _tile_width(CARD_COLUMNS) - 20
    out = []
    for index, card in enumerate(cards):
        lines = wrap(_needs(card), width, BODY)
        if len(lines) > 3:
            lines = [*lines[:2], ellipsize(" ".join(lines[2:]), width, BODY)]
        name = ellipsize(card.name, width, BODY, bold=True)
        out.append(_FullCard(card, name, lines, marks[index] if index < len(marks) else ""))
    return out


def _full_height(lines: int) -> int:
    return 40 + 38 + lines * line_height(BODY) + 10


def _full_tiles_height(cards: Sequence[_FullCard]) -> int:
    return sum(
        _full_row_height(cards[start : start + CARD_COLUMNS]) + GAP
        for start in range(0, len(cards), CARD_COLUMNS)
    )


def _full_row_height(row: Sequence[_FullCard]) -> int:
    return _full_height(max(len(entry.lines) for entry in row))


def _full_tiles(flow: _Flow, cards: Sequence[_FullCard]) -> None:
    width = _tile_width(CARD_COLUMNS)
    sheet = flow.sheet

    def paint(draw: Draw, y: int) -> None:
        top = y
        for start in range(0, len(cards), CARD_COLUMNS):
            row = cards[start : start + CARD_COLUMNS]
            height = _full_row_height(row)
            for column, entry in enumerate(row):
                x = MARGIN + column * (width + GAP)
                _full_tile(draw, (x, top, x + width, top + height), entry)
                if entry.mark:
                    sheet.mark(entry.mark, (x, top, x + width, top + height))
            top += height + GAP

    flow.add(_full_tiles_height(cards), paint)


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


LIST_HEIGHT = 36


def _card_list(flow: _Flow, cards: Sequence[CardView], marks: Sequence[str] = ()) -> None:
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
            needs = ellipsize(" · " + _needs(card).lower(), room - text_width(name, BODY), BODY)
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


# ---- trade --------------------------------------------------------------------------------------
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


def _trade(flow: _Flow, view: IronBridgeGorgeView) -> None:
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


# ---- the pictures -------------------------------------------------------------------------------
def _game(view: View) -> IronBridgeGorgeView:
    assert isinstance(view, IronBridgeGorgeView), "renderer.iron_bridge_gorge draws Iron Bridge Gorge views"
    return view


def _row_heading(view: IronBridgeGorgeView) -> str:
    return f"On offer: {len(view.row)} card{'s' if len(view.row) != 1 else ''} · deck {view.deck_count} · discard {view.discard_count}"


def _offer(flow: _Flow, cards: Sequence[CardView]) -> None:
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
        _lines_block(
            flow, [ellipsize(more, INNER, BODY)], color=Palette.muted, mark="" if tiles.rows else "row"
        )


def _short_key(flow: _Flow) -> None:
    """As many lines of the short key as there is room for (the `key` section has all of it)."""
    lines = [line for index, line in enumerate(SHORT_KEY) if (index + 1) * line_height(BODY) + 4 <= flow.room]
    if lines:
        _lines_block(flow, [ellipsize(line, INNER, BODY) for line in lines], color=Palette.muted)


def _turn(view: IronBridgeGorgeView, marks: frozenset[str]) -> bytes:
    flow = _flow(marks)
    _header(flow, title=_round_title(view), subtitle=_status(view))
    _event_box(flow, view)
    flow.space(4)
    _seat_table(flow, view)
    _trade(flow, view)
    _heading(flow, _row_heading(view))
    if not view.row:
        _lines_block(flow, ["Nothing left on offer this round."], color=Palette.muted)
    else:
        _offer(flow, view.row)
    _short_key(flow)
    return to_png(flow.sheet.image())


def _final(view: IronBridgeGorgeView, marks: frozenset[str]) -> bytes:
    """The result first: the winner and each seat's VP and tie-break numbers, then the seat table."""
    flow = _flow(marks)
    _header(flow, title=f"Iron Bridge Gorge · Game over after {view.round} rounds", subtitle="")
    board = view.scoreboard or []
    winners = [line for line in board if line.place == 1]
    if winners:
        names = " and ".join(player_name(line.name, 300, 30, bold=True) for line in winners)
        verb = "wins" if len(winners) == 1 else "share first place"
        result = ellipsize(f"{names} {verb} with {winners[0].vp} VP", INNER - 24, 30, bold=True)

        def banner(draw: Draw, y: int) -> None:
            rounded_box(
                draw,
                (MARGIN, y, PHONE_WIDTH - MARGIN, y + 52),
                fill=Palette.highlight,
                outline=Palette.accent,
            )
            draw_text(draw, (MARGIN + 12, y + 26), result, size=30, bold=True, anchor="lm")

        flow.add(62, banner)
    table = _Table([_Column("Place"), _Column("VP"), _Column("Coins"), _Column("In play")])
    for line in board:
        seat = view.seats[line.seat]
        coins = f"{line.coins} L" if seat.loan else str(line.coins)
        table.rows.append(
            _Row(
                line.seat,
                line.name,
                [
                    _Cell(str(line.place), bold=True),
                    _Cell(str(line.vp), mark=f"vp:{line.seat}", bold=True),
                    _Cell(coins, mark=f"coins:{line.seat}", ink=Palette.bad if seat.loan else Palette.ink),
                    _Cell(str(line.resources)),
                ],
                highlight=line.place == 1,
            )
        )
    _table(flow, table)
    _lines_block(
        flow,
        wrap(
            "Ties are broken by coins (less 10 for an unpaid loan, L), then by resources in play.",
            INNER,
            BODY,
        ),
        color=Palette.muted,
    )
    flow.space(6)
    _heading(flow, "Resources in play by type")
    _seat_table(flow, view, [view.seats[line.seat] for line in board])
    return to_png(flow.sheet.image())


def _hand(view: IronBridgeGorgeView, marks: frozenset[str]) -> bytes:
    """Only the seat's own view: its hand, its secret bid, a trade it is party to; no board."""
    seat = view.seat if view.seat is not None else 0
    flow = _flow(marks)
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
        _lines_block(flow, wrap(bid, INNER, BODY), color=Palette.accent, mark="mybid")
    if view.proposal is not None and view.proposal.text is not None:
        _trade(flow, view)
    hand = list(view.hand or [])
    _heading(flow, f"Your hand ({len(hand)}/5) · you have {words.count(coins, 'coin')}")
    if not hand:
        _lines_block(flow, ["Your hand is empty."], color=Palette.muted)
        return to_png(flow.sheet.image())
    card_marks = [f"card:{card.id}" for card in hand]
    full = _full_cards(hand, card_marks)
    if _full_tiles_height(full) <= flow.room:
        _full_tiles(flow, full)
    else:
        fitting = max(1, (flow.room - line_height(BODY) - 8) // LIST_HEIGHT)
        shown = hand if len(hand) * LIST_HEIGHT + 4 <= flow.room else hand[:fitting]
        _card_list(flow, shown, card_marks)
        if len(shown) < len(hand):
            _lines_block(flow, [f"+ {len(hand) - len(shown)} more cards"], color=Palette.muted)
    return to_png(flow.sheet.image())


def render(view: View, *, marks: frozenset[str] = frozenset()) -> bytes:
    game = _game(view)
    if game.seat is not None:
        return _hand(game, marks)
    if game.finished and game.scoreboard is not None:
        return _final(game, marks)
    return _turn(game, marks)


# ---- sections -----------------------------------------------------------------------------------
def _section(view: View, title: str) -> tuple[IronBridgeGorgeView, _Flow]:
    game = _game(view)
    flow = _flow()
    where = "game over" if game.finished else f"round {game.round} of {game.rounds}"
    _header(flow, title=f"Iron Bridge Gorge · {title}", subtitle=f"Public view, {where}")
    return game, flow


def render_cards(view: View, target: str | None = None) -> bytes:
    """The Opportunity row as full cards: requirements and notes the turn picture's tiles leave out."""
    game, flow = _section(view, "cards on offer")
    _lines_block(
        flow,
        [f"Deck {words.count(game.deck_count, 'card')} · discard {words.count(game.discard_count, 'card')}"],
        color=Palette.muted,
    )
    if game.row:
        _full_tiles(flow, _full_cards(game.row))
    else:
        _lines_block(flow, ["Nothing is on offer now."], color=Palette.muted)
    _lines_block(
        flow,
        wrap(
            "5c: build cost (a Land Lease in play takes 1 off). +2: revenue a round. "
            "Each requirement you lack costs 1 coin a round.",
            INNER,
            BODY,
        ),
        color=Palette.muted,
    )
    return to_png(flow.sheet.image())


def _holdings(seat: SeatView) -> list[tuple[str, list[str]]]:
    """A seat's resources in play by type, named, wrapped to the panel."""
    groups: dict[str, list[str]] = {}
    for card in seat.resources:
        groups.setdefault(card.type, []).append(card.name)
    lines = []
    for card_type in TYPE_ORDER:
        if card_type in groups:
            names = groups[card_type]
            text = f"{TYPES[card_type][0]} {len(names)}: " + ", ".join(names)
            lines.append((card_type, wrap(text, INNER - 64, BODY)))
    return lines


def _player_panel(flow: _Flow, seat: SeatView) -> None:
    """One player: name, VP, last round's net income and a loan on one line, then the resources in
    play by type and name (the turn picture has the other numbers)."""
    facts = [f"{seat.vp} VP", f"income {seat.income:+d}", *(["loan 10"] if seat.loan else [])]
    facts_text = " · ".join(facts)
    facts_width = text_width(facts_text, BODY, bold=True)
    title, size = fit_name(seat.name, INNER - 70 - facts_width, 26, bold=True, minimum=BODY)
    holdings = _holdings(seat)
    body = sum(len(lines) for _, lines in holdings) * line_height(BODY) + 4 * len(holdings) or line_height(
        BODY
    )
    height = 8 + line_height(26) + 4 + body + 14

    def paint(draw: Draw, y: int) -> None:
        rounded_box(
            draw, (MARGIN, y, PHONE_WIDTH - MARGIN, y + height - 6), outline=Palette.seat(seat.seat), width=3
        )
        middle = y + 8 + line_height(26) // 2
        seat_dot(draw, (MARGIN + 24, middle), seat.seat, radius=11)
        draw_text(draw, (MARGIN + 44, middle), title, size=size, bold=True, anchor="lm")
        draw_text(
            draw,
            (PHONE_WIDTH - MARGIN - 14, middle),
            facts_text,
            size=BODY,
            bold=True,
            fill=Palette.bad if seat.loan else Palette.accent,
            anchor="rm",
        )
        line_y = y + 8 + line_height(26) + 4
        if not holdings:
            draw_text(draw, (MARGIN + 14, line_y), "No resources in play.", size=BODY, fill=Palette.muted)
        for card_type, lines in holdings:
            _, band, ink = TYPES[card_type]
            draw.rounded_rectangle((MARGIN + 14, line_y, MARGIN + 42, line_y + 27), radius=6, fill=band)
            draw_text(
                draw, (MARGIN + 28, line_y + 14), card_type, size=BODY, bold=True, fill=ink, anchor="mm"
            )
            for line in lines:
                draw_text(draw, (MARGIN + 52, line_y), line, size=BODY)
                line_y += line_height(BODY)
            line_y += 4

    flow.add(height, paint)


def render_players(view: View, target: str | None = None) -> bytes:
    """Each player's holdings by name: what the turn picture's counts stand for."""
    game, flow = _section(view, "players")
    for seat in _seat_order(game):
        _player_panel(flow, seat)
    return to_png(flow.sheet.image())


def _scoring_text() -> str:
    """The Scoring Step in words, from the VP each type's majority is worth."""
    parts = []
    for points in sorted(set(MAJORITY_VP.values()), reverse=True):
        names = [TYPES[letter][0] for letter, value in MAJORITY_VP.items() if value == points]
        parts.append(f"the most {' or '.join(names)} in play scores {points} VP")
    return "Each round " + "; ".join(parts) + ". A tie for the most scores nothing."


def render_events(view: View, target: str | None = None) -> bytes:
    """The round's event and every innovation in play, with their full texts, and what scores."""
    game, flow = _section(view, "events")
    title, note = _event_text(game)
    _heading(flow, title)
    _lines_block(flow, wrap(note, INNER, BODY))
    _heading(flow, f"Innovations in play ({len(game.innovations)})")
    if not game.innovations:
        _lines_block(flow, ["None yet."], color=Palette.muted)
    for entry in game.innovations:
        _lines_block(flow, wrap(f"{entry.name}: {entry.note}", INNER, BODY))
    _heading(flow, "Scoring step, every round")
    _lines_block(flow, wrap(_scoring_text(), INNER, BODY))
    return to_png(flow.sheet.image())


def render_key(view: View, target: str | None = None) -> bytes:
    """The key: the type colours drawn, then every symbol and abbreviation in words."""
    _, flow = _section(view, "key")
    width = _tile_width(3)

    def swatches(draw: Draw, y: int) -> None:
        for index, letter in enumerate(TYPE_ORDER):
            label, band, ink = TYPES[letter]
            x = MARGIN + (index % 3) * (width + GAP)
            top = y + (index // 3) * 44
            draw.rounded_rectangle((x, top, x + width, top + 38), radius=8, fill=band)
            draw_text(
                draw, (x + 12, top + 19), f"{letter}  {label}", size=BODY, bold=True, fill=ink, anchor="lm"
            )

    flow.add(2 * 44 + 8, swatches)
    for item in KEY_ITEMS:
        _lines_block(flow, wrap("• " + item[0].upper() + item[1:] + ".", INNER, BODY))
    return to_png(flow.sheet.image())


OVERLAYS = (
    Overlay("cards", "The cards on offer in full: requirements, notes, deck and discard.", render_cards),
    Overlay("players", "Every player's resources in play by name, last income and loan.", render_players),
    Overlay("events", "This round's event, the innovations in play and what scores.", render_events),
    Overlay("key", "What every colour, letter and number on the pictures means.", render_key),
)


# ---- what changed -------------------------------------------------------------------------------
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
    before, after = Counter(card.name for card in old.resources), Counter(card.name for card in new.resources)
    for card_type in TYPE_ORDER:
        if _type_counts(old)[card_type] != _type_counts(new)[card_type]:
            marks.add(f"{card_type}:{seat}")
    gained, lost = sorted((after - before).elements()), sorted((before - after).elements())
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
        lines.append(_event_text(new)[0])
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
    before, after = _game(old), _game(new)
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
