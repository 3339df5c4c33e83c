"""The drawing pieces every Iron & Brass picture shares: sizes and colours, the codes on the map,
the header, the sides' strips, wrapped paragraphs, the map itself and the stat tokens in words.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import ImageDraw, ImageFont

from renderer.canvas import (
    MARGIN,
    Color,
    Palette,
    Sheet,
    draw_text,
    ellipsize,
    fit_name,
    fit_size,
    font,
    line_height,
    player_name,
    rounded_box,
    text_width,
    with_names,
    wrap,
)
from renderer.phone import MIN_TEXT, PHONE_WIDTH
from rules import words
from rules.core import View
from rules.iron_and_brass.state import COLUMNS, parse_square
from rules.iron_and_brass.view import IronAndBrassView, ItemView, PieceView, SeatView

if TYPE_CHECKING:  # Pillow's core types exist in its stubs only
    from PIL._imaging import ImagingCore

WIDTH = PHONE_WIDTH
INNER = WIDTH - 2 * MARGIN
GUTTER = 34
"""Room left of the map for the row numbers (two digits at `MIN_TEXT`)."""
LETTERS = 30
"""Room below the map for the column letters."""
BODY = MIN_TEXT
"""Every secondary line is drawn at the smallest readable size: the map needs the height."""
LIGHT: Color = (236, 229, 212)
DARK: Color = (222, 213, 193)
GRID: Color = (170, 160, 140)
MOVE: Color = (150, 214, 150)
ATTACK: Color = (244, 170, 160)
DISABLED: Color = (255, 205, 0)
CRIMSON: Color = (190, 20, 60)
"""Brass, as the rules text names it; far enough from the magenta change frames and from blue."""
SIDE_COLORS: tuple[Color, Color] = (Palette.seat(0), CRIMSON)
TOKEN_NAMES = {"spotter": "Spotter", "surge": "Surge", "open_road": "Open Road", "heal": "Heal"}
FACTORIES = {"F": "Foundry", "A": "Arsenal", "S": "Steam Works"}
NAME_ROOM = 240
"""The most a player's name takes inside a header or a sentence, in px."""


def side_color(seat: int) -> Color:
    return SIDE_COLORS[seat % 2]


def _tint(color: Color, amount: float) -> Color:
    """`color` mixed with white (amount 0 = color, 1 = white)."""
    red, green, blue = (int(c + (255 - c) * amount) for c in color)
    return red, green, blue


BASE_ROWS: tuple[Color, Color] = (_tint(SIDE_COLORS[0], 0.8), _tint(SIDE_COLORS[1], 0.8))
"""Each side's base row, tinted in its colour."""


def name_of(view: IronAndBrassView, seat: int, size: int = BODY, *, bold: bool = False) -> str:
    return player_name(view.players[seat], NAME_ROOM, size, bold=bold)


def game_view(view: View) -> IronAndBrassView:
    assert isinstance(view, IronAndBrassView), "renderer.iron_and_brass draws Iron & Brass views"
    return view


# ---- codes on the map -----------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _code_face_path() -> str | None:
    """DejaVu Sans Condensed Bold next to the canvas's bold font: a two-letter code at 22 px then fits
    a 16x16 board's squares."""
    bold = font(MIN_TEXT, bold=True)
    path = getattr(bold, "path", None)
    if not path:
        return None
    condensed = Path(path).with_name("DejaVuSansCondensed-Bold.ttf")
    return str(condensed) if condensed.is_file() else str(path)


@lru_cache(maxsize=16)
def _code_face(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = _code_face_path()
    return ImageFont.truetype(path, size) if path else font(size, bold=True)


@lru_cache(maxsize=256)
def _code_mask(
    code: str, size: int, stroke: int
) -> tuple[ImagingCore, tuple[ImagingCore, tuple[int, int]] | None, tuple[int, int]]:
    """The glyph masks of a code (its fill and, when `stroke`, its outline) centred on a point, laid
    out once: a map repeats the same dozen codes on every picture."""
    face = _code_face(size)
    if not isinstance(face, ImageFont.FreeTypeFont):
        return face.getmask(code), None, (0, 0)  # Pillow's bitmap font: no anchors, no outline
    fill_mask, offset = face.getmask2(code, "L", anchor="mm")
    if stroke:
        return fill_mask, face.getmask2(code, "L", anchor="mm", stroke_width=stroke), offset
    return fill_mask, None, offset


def draw_code(
    draw: ImageDraw.ImageDraw,
    center: tuple[int, int],
    code: str,
    size: int,
    fill: Color,
    stroke: Color | None,
) -> None:
    """A piece's code, white on its disc with a dark outline so it stays readable where it overflows a
    small square's disc."""
    fill_mask, outline, (dx, dy) = _code_mask(code, size, 2 if stroke is not None else 0)
    if outline is not None and stroke is not None:
        mask, (sx, sy) = outline
        draw.draw.draw_bitmap((center[0] + sx, center[1] + sy), mask, draw.draw.draw_ink(stroke))
    draw.draw.draw_bitmap((center[0] + dx, center[1] + dy), fill_mask, draw.draw.draw_ink(fill))


# ---- the header and the sides' strips -----------------------------------------------------------
def header_text(view: IronAndBrassView) -> str:
    """The one line a player reads first: where the game is and who must act."""
    if view.finished:
        return f"Iron & Brass · game over in round {view.round}"
    if view.combat is not None:
        defender = name_of(view, 1 - view.combat.attacker, 24, bold=True)
        return f"Iron & Brass · Round {view.round} · {defender}: Surge or not?"
    if view.current is None:
        return f"Iron & Brass · Round {view.round}"
    actions = f"{view.actions_left} action{'s' if view.actions_left != 1 else ''} left"
    return f"Iron & Brass · Round {view.round} · {name_of(view, view.current, 24, bold=True)}: {actions}"


def header(sheet: Sheet, text: str, *, size: int = 26) -> int:
    size = fit_size(text, INNER, size, bold=True, minimum=MIN_TEXT)
    text = ellipsize(text, INNER, size, bold=True)
    height = line_height(size) + 8

    def paint(draw: ImageDraw.ImageDraw, y: int) -> None:
        draw_text(draw, (MARGIN, y), text, size=size, bold=True)
        draw.line((MARGIN, y + height - 4, WIDTH - MARGIN, y + height - 4), fill=Palette.line, width=2)

    sheet.block(height, paint)
    return height


STRIP_NAME = 24
STRIP_HEIGHT = 10 + line_height(STRIP_NAME) + line_height(BODY) + 8
STRIP_GAP = 8


def seat_tags(view: IronAndBrassView, seat: SeatView) -> str:
    tags = [seat.side]
    if seat.seat == view.first:
        tags.append("P1")
    if seat.seat in view.to_act:
        tags.append("to act")
    return "  " + " · ".join(tags)


def _strip_segments(
    view: IronAndBrassView, seat: SeatView
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(mark key, text) of the numbers on a side's two lines: gold and crew (what it can pay) on the
    name line, army and tokens (what it can fight with) below; a finished game shows what was mined."""
    money = [(f"gold:{seat.seat}", f"{seat.gold} gold"), (f"crew:{seat.seat}", f"{seat.crew} crew")]
    army = [
        (
            f"army:{seat.seat}",
            f"{words.count(seat.units, 'unit')} · {words.count(seat.structures, 'structure')}",
        )
    ]
    if view.finished:
        return money, [*army, (f"mined:{seat.seat}", f"mined {seat.mined} · spent {seat.spent}")]
    return money, [*army, (f"tokens:{seat.seat}", tokens_left(seat))]


def tokens_left(seat: SeatView) -> str:
    """'5 advantage tokens left': one count, as each token may be played for any advantage."""
    return f"{words.count(seat.advantage_tokens, 'advantage token')} left"


def tokens_played(seat: SeatView) -> str:
    """What the side's advantage tokens were played for: 'Surge 2, Open Road 1', or 'none'."""
    return (
        ", ".join(f"{TOKEN_NAMES.get(name, name)} {count}" for name, count in seat.played.items() if count)
        or "none"
    )


def _segments(
    sheet: Sheet,
    draw: ImageDraw.ImageDraw,
    parts: list[tuple[str, str]],
    right: int,
    y: int,
    size: int,
    *,
    bold: bool,
    fill: Color,
) -> int:
    """`parts` laid right-aligned ending at `right`, each framed when its key changed; returns where
    the run starts (so the text to its left knows its room)."""
    gap = text_width("  ·  ", size, bold=bold)
    widths = [text_width(text, size, bold=bold) for _, text in parts]
    x = right - sum(widths) - gap * (len(parts) - 1)
    start = x
    for (key, text), width in zip(parts, widths, strict=True):
        draw_text(draw, (x, y), text, size=size, bold=bold, fill=fill)
        sheet.mark(key, (x - 4, y, x + width + 4, y + line_height(size)))  # clear of the line above
        x += width
        if (key, text) != parts[-1]:
            draw_text(draw, (x, y), "  ·  ", size=size, bold=bold, fill=Palette.muted)
            x += gap
    return start


def strips(sheet: Sheet, view: IronAndBrassView) -> int:
    """One strip per side; the side to act gets a thick frame in its colour."""
    for seat in view.seats:

        def paint(draw: ImageDraw.ImageDraw, y: int, seat: SeatView = seat) -> None:
            color = side_color(seat.seat)
            acting = seat.seat in view.to_act or view.winner == seat.seat
            box = (MARGIN, y, WIDTH - MARGIN, y + STRIP_HEIGHT)
            rounded_box(draw, box, outline=color if acting else Palette.line, width=5 if acting else 2)
            draw.rounded_rectangle((MARGIN, y, MARGIN + 12, y + STRIP_HEIGHT), radius=6, fill=color)
            money, lower = _strip_segments(view, seat)
            top = y + 8
            start = _segments(
                sheet, draw, money, WIDTH - MARGIN - 14, top, STRIP_NAME, bold=True, fill=Palette.accent
            )
            room = start - (MARGIN + 24) - 16
            title, size = fit_name(
                seat.name, room, STRIP_NAME, suffix=seat_tags(view, seat), bold=True, minimum=MIN_TEXT
            )
            draw_text(draw, (MARGIN + 24, top), title, size=size, bold=True, fill=color)
            second = top + line_height(STRIP_NAME) + 2
            army_key, army = lower[0]
            draw_text(draw, (MARGIN + 24, second), army, size=BODY)
            width = text_width(army, BODY)
            sheet.mark(army_key, (MARGIN + 20, second, MARGIN + 28 + width, second + line_height(BODY)))
            _segments(sheet, draw, lower[1:], WIDTH - MARGIN - 14, second, BODY, bold=False, fill=Palette.ink)

        sheet.block(STRIP_HEIGHT + STRIP_GAP, paint)
    return len(view.seats) * (STRIP_HEIGHT + STRIP_GAP)


# ---- lines of text --------------------------------------------------------------------------------
def _outcome(outcome: str) -> str:
    return outcome.replace("-two", " + 1 more").replace("-", " ")


def battle_line(view: IronAndBrassView) -> str | None:
    """The pending attack (the defender must answer) or the last battle's result, in one sentence."""
    if view.combat is not None:
        attacker = name_of(view, view.combat.attacker, BODY, bold=True)
        defender = name_of(view, 1 - view.combat.attacker, BODY, bold=True)
        surge = " with Surge" if view.combat.attacker_surge else ""
        return (
            f"{attacker} attacks {view.combat.target} from {' + '.join(view.combat.units)}{surge}: "
            f"{defender} decides on Surge."
        )
    if view.last_combat is not None:
        record = view.last_combat
        return (
            f"Last battle {' + '.join(record.squares)} → {record.target}: attack {record.attack_sum} "
            f"vs defence {record.defence_sum}, {_outcome(record.outcome)}."
        )
    return None


def opening_line(view: IronAndBrassView) -> str:
    """The opening roll that made Player 1 in one line: each sum with its dice, re-rolled ties counted
    rather than listed (the `game` section gives the whole sentence)."""
    text = with_names(view.opening, view.players, BODY)
    rolls = text.split("; tie, again: ")
    if len(rolls) > 1 and rolls[0].startswith("Opening roll: "):
        ties = len(rolls) - 1
        text = f"Opening roll ({ties} tie{'s' if ties > 1 else ''} re-rolled): {rolls[-1]}"
    text = DICE.sub(r"\3 (\1+\2)", text)
    return text.replace(" is Player 1 and plays first.", " is P1.")


DICE = re.compile(r"\b(\d)\+(\d) = (\d+)")
"""'3+1 = 4' in the opening roll, drawn '4 (3+1)'."""


def paragraphs(
    sheet: Sheet, lines: Iterable[tuple[str, bool, str]], *, size: int = BODY, color: Color = Palette.ink
) -> int:
    """Wrapped paragraphs (text, bold, mark key); each is framed when its key changed."""
    laid = [(wrap_inner(text, size, bold=bold), bold, key) for text, bold, key in lines]
    step = line_height(size)
    height = sum(len(rows) for rows, _, _ in laid) * step + 6 * len(laid)

    def paint(draw: ImageDraw.ImageDraw, y: int) -> None:
        for rows, bold, key in laid:
            for index, row in enumerate(rows):
                draw_text(draw, (MARGIN, y + index * step), row, size=size, bold=bold, fill=color)
            widest = max(text_width(row, size, bold=bold) for row in rows)
            if key:
                sheet.mark(key, (MARGIN - 6, y - 2, MARGIN + widest + 6, y + len(rows) * step))
            y += len(rows) * step + 6

    if laid:
        sheet.block(height, paint)
    return height if laid else 0


def wrap_inner(text: str, size: int, *, bold: bool = False) -> list[str]:
    return wrap(text, INNER, size, bold=bold)


def wrapped_height(texts: Iterable[tuple[str, bool]], size: int = BODY) -> int:
    return sum(len(wrap_inner(text, size, bold=bold)) * line_height(size) + 6 for text, bold in texts)


# ---- the map ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Grid:
    """Where the board lies on the picture: its left edge, its top, the square size and the board size."""

    left: int
    top: int
    cell: int
    size: int

    @property
    def board(self) -> int:
        return self.cell * self.size

    def row_top(self, row: int) -> int:
        return self.top + (self.size - 1 - row) * self.cell

    def box(self, square: str) -> tuple[int, int, int, int]:
        where = parse_square(square, self.size)
        assert where is not None
        col, row = where
        x = self.left + col * self.cell
        top = self.row_top(row)
        return x, top, x + self.cell, top + self.cell


def _paint_squares(draw: ImageDraw.ImageDraw, grid: _Grid, moves: set[str], attacks: set[str]) -> None:
    """The board's colours and the row numbers left of it."""
    left, cell, size = grid.left, grid.cell, grid.size
    draw.rectangle((left, grid.top, left + grid.board, grid.top + grid.board), fill=LIGHT)
    for row in range(size):
        top = grid.row_top(row)
        draw_text(
            draw,
            (left - 6, top + cell // 2),
            str(row + 1),
            size=MIN_TEXT,
            bold=True,
            fill=Palette.muted,
            anchor="rm",
        )
        for col in range(size):
            fill = _square_fill(f"{COLUMNS[col]}{row + 1}", col, row, size, moves, attacks)
            if fill != LIGHT:
                x = left + col * cell
                draw.rectangle((x, top, x + cell, top + cell), fill=fill)


def _paint_grid(draw: ImageDraw.ImageDraw, grid: _Grid, moves: set[str], attacks: set[str]) -> None:
    """The grid lines, the inner frame of squares both reached and in range, and the column letters."""
    left, top, cell, board = grid.left, grid.top, grid.cell, grid.board
    for line in range(grid.size + 1):  # the grid as lines: a quarter of the calls of outlined squares
        draw.line((left + line * cell, top, left + line * cell, top + board), fill=GRID)
        draw.line((left, top + line * cell, left + board, top + line * cell), fill=GRID)
    for square in moves & attacks:
        x0, y0, x1, y1 = grid.box(square)
        inset = max(3, cell // 14)
        draw.rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), outline=Palette.bad, width=3)
    for col in range(grid.size):
        draw_text(
            draw,
            (left + col * cell + cell // 2, top + board + 3),
            COLUMNS[col],
            size=MIN_TEXT,
            bold=True,
            fill=Palette.muted,
            anchor="ma",
        )


def code_size_for(cell: int) -> int:
    """A piece's code size on squares of `cell` px: never under the phone's smallest text."""
    return max(MIN_TEXT, min(34, int(cell * 0.42)))


def _paint_pieces(
    draw: ImageDraw.ImageDraw, grid: _Grid, view: IronAndBrassView, attacks: set[str], focus: str | None
) -> None:
    """Builds (dashed, ready next turn), then the pieces; in the range overlay, the focus unit's
    targets framed red."""
    cell = grid.cell
    code_size = code_size_for(cell)
    for build in view.builds:
        x0, y0, x1, y1 = grid.box(build.square)
        color = side_color(build.owner)
        pad = max(3, cell // 10)
        dashed_rect(draw, (x0 + pad, y0 + pad, x1 - pad, y1 - pad), color, width=4, dash=max(6, cell // 8))
        draw_code(draw, ((x0 + x1) // 2, (y0 + y1) // 2), build.code, code_size, color, None)
    enemy = next((p.owner for p in view.pieces if p.square == focus), None)
    for piece in view.pieces:
        draw_piece(draw, grid.box(piece.square), piece, code_size)
        if piece.square in attacks and enemy is not None and piece.owner != enemy:
            bracket(draw, grid.box(piece.square), Palette.bad, code_size, inset=1)


@lru_cache(maxsize=16)
def _code_height(size: int) -> int:
    """How tall a piece's code is drawn at `size` (its outline included)."""
    face = _code_face(size)
    if not isinstance(face, ImageFont.FreeTypeFont):
        return size
    top, bottom = face.getbbox("HQ", anchor="mm")[1::2]
    return math.ceil(bottom - top) + 4


def bracket(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    color: Color,
    code_size: int,
    *,
    inset: int = 0,
    width: int = 5,
    edge: Color | None = None,
) -> None:
    """A square's frame that leaves its code alone: the top and bottom sides whole, the left and right
    sides only above and below the band where the code is written (a code may be as wide as its
    square). `edge` draws a thin line of that colour inside the frame, so it shows on any square."""
    x0, y0, x1, y1 = box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset
    arm = max(2, ((y1 - y0) - _code_height(code_size)) // 2 - 1)
    lines = [(x0, y0, x1, y0 + width - 1), (x0, y1 - width + 1, x1, y1)]
    lines += [(x0, y0, x0 + width - 1, y0 + arm), (x0, y1 - arm, x0 + width - 1, y1)]
    lines += [(x1 - width + 1, y0, x1, y0 + arm), (x1 - width + 1, y1 - arm, x1, y1)]
    for line in lines:
        draw.rectangle(line, fill=color)
    if edge is not None:
        inner = width
        draw.line((x0 + inner, y0 + inner, x1 - inner, y0 + inner), fill=edge, width=1)
        draw.line((x0 + inner, y1 - inner, x1 - inner, y1 - inner), fill=edge, width=1)


def _battle_squares(view: IronAndBrassView) -> set[str]:
    """The squares of the pending attack, or else of the last battle: framed black."""
    if view.combat is not None:
        return {*view.combat.units, view.combat.target}
    if view.last_combat is not None:
        return {*view.last_combat.squares, view.last_combat.target}
    return set()


def _paint_frames(draw: ImageDraw.ImageDraw, grid: _Grid, view: IronAndBrassView, focus: str | None) -> None:
    for square in sorted(_battle_squares(view)):
        x0, y0, x1, y1 = grid.box(square)
        draw.rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), outline=Palette.ink, width=4)
    if focus is not None:
        x0, y0, x1, y1 = grid.box(focus)
        draw.rectangle((x0 - 3, y0 - 3, x1 + 3, y1 + 3), outline=Palette.ink, width=6)


def draw_map(
    sheet: Sheet,
    view: IronAndBrassView,
    cell: int,
    *,
    moves: Iterable[str] = (),
    attacks: Iterable[str] = (),
    focus: str | None = None,
) -> int:
    """The board with `cell` px squares, centred; squares named in `sheet.changed` are framed."""
    size = view.size
    left = (WIDTH - GUTTER - cell * size) // 2 + GUTTER
    moves, attacks = set(moves), set(attacks)

    def paint(draw: ImageDraw.ImageDraw, y: int) -> None:
        grid = _Grid(left=left, top=y, cell=cell, size=size)
        _paint_squares(draw, grid, moves, attacks)
        _paint_grid(draw, grid, moves, attacks)
        _paint_pieces(draw, grid, view, attacks, focus)
        _paint_frames(draw, grid, view, focus)
        # A changed square's magenta frame is a bracket (its code may fill the square); one drawing
        # order in every process (set order follows the hash seed).
        code_size = code_size_for(cell)
        for square in sorted(sheet.changed):
            if parse_square(square, size) is not None:
                bracket(draw, grid.box(square), Palette.changed, code_size, edge=(255, 255, 255))

    height = cell * size + LETTERS
    sheet.block(height, paint)
    return height


def _square_fill(name: str, col: int, row: int, size: int, moves: set[str], attacks: set[str]) -> Color:
    """A square's colour: the range overlay's green and red first, then the sides' tinted base rows,
    then the checkerboard."""
    if name in moves:
        return MOVE
    if name in attacks:
        return ATTACK
    if row == 0:
        return BASE_ROWS[0]
    if row == size - 1:
        return BASE_ROWS[1]
    return LIGHT if (row + col) % 2 == 0 else DARK


def draw_piece(
    draw: ImageDraw.ImageDraw, rect: tuple[int, int, int, int], piece: PieceView, code_size: int
) -> None:
    x0, y0, x1, y1 = rect
    cell = x1 - x0
    color = side_color(piece.owner)
    pad = max(2, cell // 16)
    inner = (x0 + pad, y0 + pad, x1 - pad, y1 - pad)
    outline = DISABLED if piece.disabled else Palette.ink
    width = max(4, cell // 10) if piece.disabled else 2
    if piece.category == "structure":
        draw.rounded_rectangle(inner, radius=max(4, cell // 6), fill=color, outline=outline, width=width)
    else:
        draw.ellipse(inner, fill=color, outline=outline, width=width)
    if piece.disabled:
        corner = max(10, cell // 3)
        draw.polygon([(x1 - corner, y0), (x1, y0), (x1, y0 + corner)], fill=DISABLED, outline=Palette.ink)
    draw_code(draw, ((x0 + x1) // 2, (y0 + y1) // 2), piece.code, code_size, (255, 255, 255), Palette.ink)


def dashed_rect(
    draw: ImageDraw.ImageDraw, rect: tuple[int, int, int, int], color: Color, *, width: int, dash: int
) -> None:
    x0, y0, x1, y1 = rect
    for start in range(x0, x1, dash * 2):
        end = min(start + dash, x1)
        draw.line((start, y0, end, y0), fill=color, width=width)
        draw.line((start, y1, end, y1), fill=color, width=width)
    for start in range(y0, y1, dash * 2):
        end = min(start + dash, y1)
        draw.line((x0, start, x0, end), fill=color, width=width)
        draw.line((x1, start, x1, end), fill=color, width=width)


def cell_for(size: int, room: int) -> int:
    """The square size that fits the width and `room` px of height (column letters included)."""
    return max(8, min((INNER - GUTTER) // size, (room - LETTERS) // size))


TOKEN_PATTERN = re.compile(
    r"^\s*(\d+)(\s*C)?\s*\|\s*([-FAS ]*)\|\s*(\d+)A\s*/\s*(\d+)R\s*(\d+)M\s*(\d+)D\s*$"
)


def token_words(item: ItemView) -> list[str]:
    """A stat token ('7 C | F S | 4A / 2R 3M 5D') in words, for the hand picture and the key."""
    found = TOKEN_PATTERN.match(item.token)
    if found is None:
        return [f"Token: {item.token}"]
    gold, crew, needs, attack, reach, move, defence = found.groups()
    needed = [FACTORIES[letter] for letter in needs.split() if letter in FACTORIES]
    cost = f"{gold} gold" + (" + 1 crew" if crew else "")
    return [
        f"Cost {cost}; needs {', '.join(needed) if needed else 'nothing'}.",
        f"Attack +{attack}, range {reach}, move {move}, defence +{defence}.",
    ]


def section(title: str) -> Sheet:
    """A section's sheet under its title, which heads each page when the section is cut into pages."""
    sheet = Sheet(width=WIDTH)
    header(sheet, title)
    sheet.keep_header()
    return sheet


def subheading(sheet: Sheet, text: str, color: Color = Palette.accent) -> None:
    text = ellipsize(text, INNER, 24, bold=True)

    def paint(draw: ImageDraw.ImageDraw, y: int) -> None:
        draw_text(draw, (MARGIN, y + 6), text, size=24, bold=True, fill=color)

    sheet.block(line_height(24) + 8, paint)
    sheet.keep_with_next()
