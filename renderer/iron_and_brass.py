"""Iron & Brass pictures for a phone: drawn from a view only (the game has no hidden information).

Most players read the turn post on a phone, where Discord shows a picture about 400 px wide, so
every picture is `PHONE_WIDTH` (800) wide with no text under `MIN_TEXT` (22 px), and the turn
picture is no taller than 4:5 at every board size (10x10 to 16x16): the map's squares shrink to
what the height leaves, not the text.

`render(view)` draws the turn picture: one header line (round, whose turn, actions left), a strip
per side (gold, crew, army, advantage tokens), what the last battle did (and the opening roll in
round 1), then the map (A1 bottom-left; units as discs and structures as rounded squares in the
side's colour, Iron blue and Brass crimson, with their two-letter code; a yellow ring and corner
for disabled pieces, dashed outlines for builds that appear next turn, the last battle's squares
framed black). A finished game puts the result first. A seat's view (`view.seat` set) differs from
the public one only by its half-made choice (`picking`), so its hand picture shows just that.

The detail the turn picture leaves out is in sections (`OVERLAYS`): `key` (every symbol and the
pieces' stat tokens), `game` (opening roll, turn limit, the last battle's dice), `players` (each
side's numbers and pieces by square); `range` shows the reach of the unit on a square.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path

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
    to_png,
    with_names,
    wrap,
)
from renderer.changes import BANNER_SIZE, Changes, change
from renderer.phone import MAX_HEIGHT, MIN_TEXT, PHONE_WIDTH
from renderer.registry import Overlay
from rules import words
from rules.core import View
from rules.iron_and_brass.state import COLUMNS, parse_square
from rules.iron_and_brass.view import IronAndBrassView, ItemView, PieceView, SeatView

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
TOKEN_SHORT = {"spotter": "Spot", "surge": "Surge", "open_road": "Road", "heal": "Heal"}
TOKEN_NAMES = {"spotter": "Spotter", "surge": "Surge", "open_road": "Open Road", "heal": "Heal"}
FACTORIES = {"F": "Foundry", "A": "Arsenal", "S": "Steam Works"}
NAME_ROOM = 240
"""The most a player's name takes inside a header or a sentence, in px."""

KEY = (
    "Iron blue, Brass crimson; discs are units, rounded squares structures: SK Skirmisher, MG Gunner, "
    "II Iron Infantry, MA Motorized Artillery, HA Heavy Artillery, ST Steam Tank, CT Crusher Tank, "
    "HQ Headquarters, FT Fortress, BK Barracks, AW Armored Wall, TR Turret, FD Foundry, AR Arsenal, "
    "SW Steam Works. Dashed: ready next turn; yellow ring and corner: disabled (-2 attack and defence); "
    "black frame: last battle; magenta frame: changed; tinted rows: base rows. Spot, Surge, Road, Heal: "
    "advantage tokens left; P1: Player 1, who moves first."
)
"""Short enough to join the alt text (the bot drops a key that would take it past 1,000 characters);
the `key` section has the long form with the stat tokens."""


def side_color(seat: int) -> Color:
    return SIDE_COLORS[seat % 2]


def _tint(color: Color, amount: float) -> Color:
    """`color` mixed with white (amount 0 = color, 1 = white)."""
    return tuple(int(c + (255 - c) * amount) for c in color)  # type: ignore[return-value]


BASE_ROWS: tuple[Color, Color] = (_tint(SIDE_COLORS[0], 0.8), _tint(SIDE_COLORS[1], 0.8))
"""Each side's base row, tinted in its colour."""


def _name(view: IronAndBrassView, seat: int, size: int = BODY, *, bold: bool = False) -> str:
    return player_name(view.players[seat], NAME_ROOM, size, bold=bold)


def _game(view: View) -> IronAndBrassView:
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
def _code_mask(code: str, size: int, stroke: int) -> tuple[object, object, tuple[int, int]]:
    """The glyph masks of a code (its fill and, when `stroke`, its outline) centred on a point, laid
    out once: a map repeats the same dozen codes on every picture."""
    face = _code_face(size)
    fill_mask, offset = face.getmask2(code, "L", anchor="mm")
    outline = None
    if stroke:
        outline, stroke_offset = face.getmask2(code, "L", anchor="mm", stroke_width=stroke)
        return fill_mask, (outline, stroke_offset), offset
    return fill_mask, outline, offset


def _draw_code(
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
        mask, (sx, sy) = outline  # type: ignore[misc]
        draw.draw.draw_bitmap((center[0] + sx, center[1] + sy), mask, draw.draw.draw_ink(stroke))  # type: ignore[attr-defined]
    draw.draw.draw_bitmap((center[0] + dx, center[1] + dy), fill_mask, draw.draw.draw_ink(fill))  # type: ignore[attr-defined]


# ---- the header and the sides' strips -----------------------------------------------------------
def _header_text(view: IronAndBrassView) -> str:
    """The one line a player reads first: where the game is and who must act."""
    if view.finished:
        return f"Iron & Brass · game over in round {view.round}"
    if view.combat is not None:
        defender = _name(view, 1 - view.combat.attacker, 24, bold=True)
        return f"Iron & Brass · Round {view.round} · {defender}: Surge or not?"
    if view.current is None:
        return f"Iron & Brass · Round {view.round}"
    actions = f"{view.actions_left} action{'s' if view.actions_left != 1 else ''} left"
    return f"Iron & Brass · Round {view.round} · {_name(view, view.current, 24, bold=True)}: {actions}"


def _header(sheet: Sheet, text: str, *, size: int = 26) -> int:
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


def _tags(view: IronAndBrassView, seat: SeatView) -> str:
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
    tokens = " ".join(f"{TOKEN_SHORT.get(name, name)} {count}" for name, count in seat.tokens.items())
    return money, [*army, (f"tokens:{seat.seat}", tokens)]


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
        sheet.mark(key, (x - 4, y - 2, x + width + 4, y + line_height(size)))
        x += width
        if (key, text) != parts[-1]:
            draw_text(draw, (x, y), "  ·  ", size=size, bold=bold, fill=Palette.muted)
            x += gap
    return start


def _strips(sheet: Sheet, view: IronAndBrassView) -> int:
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
                seat.name, room, STRIP_NAME, suffix=_tags(view, seat), bold=True, minimum=MIN_TEXT
            )
            draw_text(draw, (MARGIN + 24, top), title, size=size, bold=True, fill=color)
            second = top + line_height(STRIP_NAME) + 2
            army_key, army = lower[0]
            draw_text(draw, (MARGIN + 24, second), army, size=BODY)
            width = text_width(army, BODY)
            sheet.mark(army_key, (MARGIN + 20, second - 2, MARGIN + 28 + width, second + line_height(BODY)))
            _segments(sheet, draw, lower[1:], WIDTH - MARGIN - 14, second, BODY, bold=False, fill=Palette.ink)

        sheet.block(STRIP_HEIGHT + STRIP_GAP, paint)
    return len(view.seats) * (STRIP_HEIGHT + STRIP_GAP)


# ---- lines of text --------------------------------------------------------------------------------
def _outcome(outcome: str) -> str:
    return outcome.replace("-two", " + 1 more").replace("-", " ")


def _battle_line(view: IronAndBrassView) -> str | None:
    """The pending attack (the defender must answer) or the last battle's result, in one sentence."""
    if view.combat is not None:
        attacker = _name(view, view.combat.attacker, BODY, bold=True)
        defender = _name(view, 1 - view.combat.attacker, BODY, bold=True)
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


def _opening(view: IronAndBrassView) -> str:
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


def _lines(
    sheet: Sheet, lines: Iterable[tuple[str, bool, str]], *, size: int = BODY, color: Color = Palette.ink
) -> int:
    """Wrapped paragraphs (text, bold, mark key); each is framed when its key changed."""
    laid = [(_wrap(text, size, bold=bold), bold, key) for text, bold, key in lines]
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


def _wrap(text: str, size: int, *, bold: bool = False) -> list[str]:
    return wrap(text, INNER, size, bold=bold)


def _wrapped_height(texts: Iterable[tuple[str, bool]], size: int = BODY) -> int:
    return sum(len(_wrap(text, size, bold=bold)) * line_height(size) + 6 for text, bold in texts)


# ---- the map ----------------------------------------------------------------------------------------
def _map(
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
    board = cell * size
    left = (WIDTH - GUTTER - board) // 2 + GUTTER
    moves, attacks = set(moves), set(attacks)
    outlined: set[str] = set()
    if view.combat is not None:
        outlined = {*view.combat.units, view.combat.target}
    elif view.last_combat is not None:
        outlined = {*view.last_combat.squares, view.last_combat.target}
    code_size = max(MIN_TEXT, min(34, int(cell * 0.42)))
    label_size = MIN_TEXT

    def paint(draw: ImageDraw.ImageDraw, y: int) -> None:
        def box(square: str) -> tuple[int, int, int, int]:
            where = parse_square(square, size)
            assert where is not None
            col, row = where
            x = left + col * cell
            top = y + (size - 1 - row) * cell
            return x, top, x + cell, top + cell

        draw.rectangle((left, y, left + board, y + board), fill=LIGHT)
        for row in range(size):
            top = y + (size - 1 - row) * cell
            draw_text(
                draw,
                (left - 6, top + cell // 2),
                str(row + 1),
                size=label_size,
                bold=True,
                fill=Palette.muted,
                anchor="rm",
            )
            for col in range(size):
                fill = _square_fill(f"{COLUMNS[col]}{row + 1}", col, row, size, moves, attacks)
                if fill != LIGHT:
                    x = left + col * cell
                    draw.rectangle((x, top, x + cell, top + cell), fill=fill)
        for line in range(size + 1):  # the grid as lines: a quarter of the calls of outlined squares
            draw.line((left + line * cell, y, left + line * cell, y + board), fill=GRID)
            draw.line((left, y + line * cell, left + board, y + line * cell), fill=GRID)
        for square in moves & attacks:
            x0, y0, x1, y1 = box(square)
            inset = max(3, cell // 14)
            draw.rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), outline=Palette.bad, width=3)
        for col in range(size):
            draw_text(
                draw,
                (left + col * cell + cell // 2, y + board + 3),
                COLUMNS[col],
                size=label_size,
                bold=True,
                fill=Palette.muted,
                anchor="ma",
            )
        for build in view.builds:
            x0, y0, x1, y1 = box(build.square)
            color = side_color(build.owner)
            pad = max(3, cell // 10)
            _dashed_rect(
                draw, (x0 + pad, y0 + pad, x1 - pad, y1 - pad), color, width=4, dash=max(6, cell // 8)
            )
            _draw_code(draw, ((x0 + x1) // 2, (y0 + y1) // 2), build.code, code_size, color, None)
        enemy = next((p.owner for p in view.pieces if p.square == focus), None)
        for piece in view.pieces:
            _piece(draw, box(piece.square), piece, code_size)
            if piece.square in attacks and enemy is not None and piece.owner != enemy:
                x0, y0, x1, y1 = box(piece.square)
                draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=Palette.bad, width=5)
        for square in sorted(outlined):
            x0, y0, x1, y1 = box(square)
            draw.rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), outline=Palette.ink, width=4)
        if focus is not None:
            x0, y0, x1, y1 = box(focus)
            draw.rectangle((x0 - 3, y0 - 3, x1 + 3, y1 + 3), outline=Palette.ink, width=6)
        for square in sorted(
            sheet.changed
        ):  # one drawing order in every process (set order follows the hash seed)
            if parse_square(square, size) is not None:
                sheet.mark(square, box(square))

    height = board + LETTERS
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


def _piece(
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
    _draw_code(draw, ((x0 + x1) // 2, (y0 + y1) // 2), piece.code, code_size, (255, 255, 255), Palette.ink)


def _dashed_rect(
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


def _cell_for(size: int, room: int) -> int:
    """The square size that fits the width and `room` px of height (column letters included)."""
    return max(8, min((INNER - GUTTER) // size, (room - LETTERS) // size))


FOOTER = (
    "Disc = unit · square = structure · dashed = ready next turn\n"
    "yellow = disabled · black = last battle · key: /board section:key"
)
MIN_CELL_WITH_FOOTER = 46
"""A map whose squares would shrink below this to make room for the footer key goes without it (the
key is in the alt text and the `key` section)."""


# ---- pictures -------------------------------------------------------------------------------------------
def _turn(view: IronAndBrassView, marks: frozenset[str]) -> bytes:
    """The turn (or final) picture: numbers on top, the map filling what the height leaves."""
    sheet = Sheet(width=WIDTH, changed=marks)
    used = _header(sheet, _header_text(view))
    lines: list[tuple[str, bool, str]] = []
    if view.finished:
        reason = with_names(view.reason, view.players, 26, bold=True)
        lines.append((reason + ".", True, ""))
    used += _result(sheet, lines) if lines else 0
    used += _strips(sheet, view)
    notes: list[tuple[str, bool, str]] = []
    battle = _battle_line(view)
    if battle:
        notes.append((battle, view.combat is not None, "battle"))
    if view.round == 1 and not view.finished:
        notes.append((_opening(view), False, "opening"))
    notes.append((f"Gold Mined marker: {view.gold_left} left to mine.", False, "gold-left"))
    used += _lines(sheet, notes)
    room = MAX_HEIGHT - 2 * MARGIN - used
    footer = _wrap(FOOTER, BODY)
    footer_height = len(footer) * line_height(BODY) + 6
    with_footer = _cell_for(view.size, room - footer_height)
    cell = (
        with_footer
        if with_footer >= min(MIN_CELL_WITH_FOOTER, _cell_for(view.size, room))
        else _cell_for(view.size, room)
    )
    _map(sheet, view, cell)
    if cell == with_footer:
        _lines(sheet, [(FOOTER, False, "")], color=Palette.muted)
    return to_png(sheet.image())


def _result(sheet: Sheet, lines: list[tuple[str, bool, str]]) -> int:
    """The result, first and larger than the rest."""
    return _lines(sheet, lines, size=26, color=Palette.accent)


def _hand(view: IronAndBrassView) -> bytes:
    """A seat's own view: only its half-made choice (the rest of its view is the public board)."""
    seat = view.seats[view.seat] if view.seat is not None and view.seat < len(view.seats) else None
    sheet = Sheet(width=WIDTH)
    who = f"{_name(view, seat.seat, 24, bold=True)} ({seat.side})" if seat else "Spectator"
    _header(sheet, f"Iron & Brass · {who} · Round {view.round}", size=24)
    lines: list[tuple[str, bool, str]] = []
    what, _, value = (view.picking or "").partition(":")
    if what == "build":
        item = next((item for item in view.items if item.id == value), None)
        if item is not None:
            lines.append((f"You are placing: {item.name} ({item.code}).", True, ""))
            lines.extend((line, False, "") for line in _token_words(item))
        lines.append(("Choose its square in the menu (Take my turn), or go back.", False, ""))
    elif what == "aim":
        target = view.piece_at(value)
        named = f"{_name(view, target.owner)}'s {target.name} on {value}" if target else value
        lines.append((f"You are aiming concentrated fire at {named}.", True, ""))
        lines.append(("Choose the two units that fire together in the menu, or go back.", False, ""))
    else:
        lines.append(("Nothing private: every piece, build and token is on the board.", False, ""))
    if seat is not None:
        lines.append((f"You have {seat.gold} gold and {seat.crew} crew.", False, ""))
    _lines(sheet, lines, size=24)
    return to_png(sheet.image())


def render(view: View, *, marks: frozenset[str] = frozenset()) -> bytes:
    """The turn picture (public view) or a seat's hand picture; `marks` name what changed since the
    previous turn post (squares such as "C5", "gold:1", "tokens:0", "battle", "gold-left")."""
    game = _game(view)
    if game.seat is not None:
        return _hand(game)
    return _turn(game, frozenset(marks))


def render_range(view: View, square: str) -> bytes:
    """The map with the moves (green) and attack range (red) of the unit on `square` highlighted."""
    game = _game(view)
    target = parse_square(square, game.size)
    piece = game.piece_at(f"{COLUMNS[target[0]]}{target[1] + 1}") if target is not None else None
    sheet = Sheet(width=WIDTH)
    if piece is None:
        _header(sheet, f"Iron & Brass · nothing stands on {square.upper()[:4]}")
        _map(sheet, game, _cell_for(game.size, MAX_HEIGHT))
        return to_png(sheet.image())
    where = parse_square(piece.square, game.size)
    assert where is not None
    attacks = {
        f"{COLUMNS[col]}{row + 1}"
        for col in range(game.size)
        for row in range(game.size)
        if 0 < abs(col - where[0]) + abs(row - where[1]) <= piece.range
    }
    owner = _name(game, piece.owner, 24, bold=True)
    used = _header(sheet, f"{owner}'s {piece.name} {piece.square}", size=24)
    notes = [
        (
            f"Attack {piece.attack:+d}, range {piece.range}, move {piece.move}, defence {piece.defence:+d}.",
            True,
            "",
        )
    ]
    if piece.category == "structure":
        notes.append(("Structures never move.", False, ""))
    else:
        notes.append((f"Green: the {len(piece.reach)} squares it may move to.", False, ""))
    if piece.range:
        enemies = [p.square for p in game.pieces if p.owner != piece.owner and p.square in attacks]
        notes.append(
            (f"Red: within range {piece.range}. Targets: {', '.join(enemies) or 'none'}.", False, "")
        )
    else:
        notes.append(("It cannot attack.", False, ""))
    if piece.disabled:
        notes.append(("Disabled: -2 attack and defence until repaired or healed.", False, ""))
    used += _wrapped_height((text, bold) for text, bold, _ in notes)
    _map(
        sheet,
        game,
        _cell_for(game.size, MAX_HEIGHT - 2 * MARGIN - used),
        moves=piece.reach,
        attacks=attacks,
        focus=piece.square,
    )
    _lines(sheet, notes)
    return to_png(sheet.image())


# ---- sections ---------------------------------------------------------------------------------------
TOKEN_PATTERN = re.compile(
    r"^\s*(\d+)(\s*C)?\s*\|\s*([-FAS ]*)\|\s*(\d+)A\s*/\s*(\d+)R\s*(\d+)M\s*(\d+)D\s*$"
)


def _token_words(item: ItemView) -> list[str]:
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


def _section(title: str) -> Sheet:
    sheet = Sheet(width=WIDTH)
    _header(sheet, title)
    return sheet


def _subheading(sheet: Sheet, text: str, color: Color = Palette.accent) -> None:
    text = ellipsize(text, INNER, 24, bold=True)

    def paint(draw: ImageDraw.ImageDraw, y: int) -> None:
        draw_text(draw, (MARGIN, y + 6), text, size=24, bold=True, fill=color)

    sheet.block(line_height(24) + 8, paint)


def _legend(sheet: Sheet) -> None:
    """Each map symbol drawn as on the map, with its meaning."""
    cell = 44
    rows: list[tuple[Callable[[ImageDraw.ImageDraw, tuple[int, int, int, int]], None], str]] = []

    def piece(category: str, owner: int, disabled: bool = False) -> Callable[..., None]:
        sample = PieceView(
            square="A1",
            kind="",
            name="",
            code="MG" if category != "structure" else "TR",
            category=category,
            owner=owner,
            disabled=disabled,
            attack=0,
            range=0,
            move=0,
            defence=0,
            can_move=False,
            can_attack=False,
        )
        return lambda draw, rect: _piece(draw, rect, sample, MIN_TEXT)

    def dashed(draw: ImageDraw.ImageDraw, rect: tuple[int, int, int, int]) -> None:
        x0, y0, x1, y1 = rect
        _dashed_rect(draw, (x0 + 4, y0 + 4, x1 - 4, y1 - 4), side_color(0), width=4, dash=6)

    def framed(color: Color) -> Callable[..., None]:
        return lambda draw, rect: draw.rectangle(rect, fill=LIGHT, outline=color, width=5)

    rows = [
        (piece("infantry", 0), "Iron (blue) unit: a disc with its code"),
        (piece("structure", 1), "Brass (crimson) structure: a rounded square"),
        (piece("infantry", 1, True), "Disabled: yellow ring and corner (-2 A and D)"),
        (dashed, "Dashed: a build that appears next turn"),
        (framed(Palette.ink), "Black frame: the last battle's squares"),
        (framed(Palette.changed), "Magenta frame: changed since the last post"),
    ]
    step = cell + 10

    def paint(draw: ImageDraw.ImageDraw, y: int) -> None:
        for index, (sample, text) in enumerate(rows):
            top = y + index * step
            sample(draw, (MARGIN, top, MARGIN + cell, top + cell))
            label = ellipsize(text, INNER - cell - 16, BODY)
            draw_text(draw, (MARGIN + cell + 16, top + cell // 2), label, size=BODY, anchor="lm")

    sheet.block(len(rows) * step + 6, paint)


def _pieces_table(sheet: Sheet, items: list[ItemView]) -> None:
    """Code, name and stat token of every piece, one line each."""
    step = line_height(BODY) + 6

    def paint(draw: ImageDraw.ImageDraw, y: int) -> None:
        code_width = text_width("MM", BODY, bold=True) + 12
        for index, item in enumerate(items):
            top = y + index * step
            if index % 2 == 0:
                draw.rectangle((MARGIN - 8, top, WIDTH - MARGIN + 8, top + step), fill=Palette.panel)
            draw_text(draw, (MARGIN, top + 3), item.code, size=BODY, bold=True)
            token = item.token
            token_width = text_width(token, BODY)
            room = INNER - code_width - token_width - 12
            draw_text(draw, (MARGIN + code_width, top + 3), ellipsize(item.name, room, BODY), size=BODY)
            draw_text(draw, (WIDTH - MARGIN, top + 3), token, size=BODY, anchor="ra")

    sheet.block(len(items) * step + 8, paint)


def _key_section(view: View, target: str | None = None) -> bytes:
    game = _game(view)
    sheet = _section("Iron & Brass · key")
    _legend(sheet)
    _subheading(sheet, "Pieces: cost | needs | attack / range move defence")
    _pieces_table(sheet, list(game.items))
    _lines(
        sheet,
        [
            ("Cost: gold, C = + 1 crew. Needs: F Foundry, A Arsenal, S Steam Works, - nothing.", False, ""),
            (
                "Tokens: Spot = Spotter (+1 range), Surge (+2 to a roll), Road = Open Road (+1 move), "
                "Heal (repairs disabled infantry). P1 = Player 1, who moves first.",
                False,
                "",
            ),
        ],
    )
    return to_png(sheet.image())


def _game_section(view: View, target: str | None = None) -> bytes:
    game = _game(view)
    sheet = _section("Iron & Brass · game")
    first = _name(game, game.first, BODY)
    lines: list[tuple[str, bool, str]] = [
        (with_names(game.opening, game.players, BODY), False, ""),
        (f"Player 1: {first} ({game.seats[game.first].side}).", True, ""),
        (f"Round {game.round} of at most {game.max_rounds}; 4 actions a turn.", False, ""),
        (f"Gold Mined marker: {game.gold_left} mining actions left.", False, ""),
    ]
    if game.finished:
        lines.insert(0, (with_names(game.reason, game.players, BODY, bold=True) + ".", True, ""))
    battle = _battle_line(game)
    if battle:
        lines.append((battle, True, ""))
    record = game.last_combat
    if record is not None and game.combat is None:
        lines.append(
            (
                f"Dice: attack {' + '.join(map(str, record.attack_dice))}, "
                f"defence {' + '.join(map(str, record.defence_dice))}.",
                False,
                "",
            )
        )
        lines.append((with_names(record.text, game.players, BODY), False, ""))
    _lines(sheet, lines)
    return to_png(sheet.image())


def _army(view: IronAndBrassView, seat: int) -> list[str]:
    """A side's pieces grouped by kind ('MG Mechanized Gunner Patrol: E5, F6 disabled'), then its builds."""
    groups: dict[str, list[str]] = {}
    names: dict[str, str] = {}
    for piece in view.pieces:
        if piece.owner == seat:
            names[piece.code] = piece.name
            groups.setdefault(piece.code, []).append(piece.square + (" disabled" if piece.disabled else ""))
    lines = [f"{code} {names[code]}: {', '.join(squares)}" for code, squares in groups.items()]
    builds = [f"{b.code} {b.square}" for b in view.builds if b.owner == seat]
    if builds:
        lines.append("Ready next turn: " + ", ".join(builds))
    return lines or ["No pieces on the map."]


def _players_section(view: View, target: str | None = None) -> bytes:
    game = _game(view)
    sheet = _section("Iron & Brass · players")
    for seat in game.seats:
        color = side_color(seat.seat)
        title, _ = fit_name(seat.name, INNER, 24, suffix=_tags(game, seat), bold=True, minimum=MIN_TEXT)
        _subheading(sheet, title, color)
        tokens = ", ".join(f"{TOKEN_NAMES.get(name, name)} {count}" for name, count in seat.tokens.items())
        lines = [
            f"{seat.gold} gold · {seat.crew} crew · mined {seat.mined} · spent {seat.spent}",
            f"{words.count(seat.units, 'unit')} · {words.count(seat.structures, 'structure')}",
            f"Tokens: {tokens}",
            *_army(game, seat.seat),
        ]
        _lines(sheet, [(line, index == 0, "") for index, line in enumerate(lines)])
    return to_png(sheet.image())


# ---- changes ------------------------------------------------------------------------------------------
def changes(old: View, new: View) -> Changes:
    """What the turn picture shows that changed: squares whose piece or build changed (moved, arrived,
    destroyed, disabled, repaired), each side's gold, crew, army and tokens, the Gold Mined marker and
    the battle line, with the same changes in words."""
    old, new = _game(old), _game(new)
    names = [player_name(name, 240, BANNER_SIZE) for name in new.players]
    marks: set[str] = set()
    lines: list[str] = []
    _square_changes(old, new, names, marks, lines)
    for before, after in zip(old.seats, new.seats, strict=True):
        who = names[after.seat]
        for key, label, was, now in (
            ("gold", "gold", before.gold, after.gold),
            ("crew", "crew", before.crew, after.crew),
        ):
            if was != now:
                marks.add(f"{key}:{after.seat}")
                lines.append(change(f"{who}: {label}", was, now))
        if (before.units, before.structures) != (after.units, after.structures):
            marks.add(f"army:{after.seat}")
            if before.units != after.units:
                lines.append(change(f"{who}: units", before.units, after.units))
            if before.structures != after.structures:
                lines.append(change(f"{who}: structures", before.structures, after.structures))
        for token in sorted(set(before.tokens) | set(after.tokens)):
            was, now = before.tokens.get(token, 0), after.tokens.get(token, 0)
            if was != now:
                marks.add(f"tokens:{after.seat}")
                lines.append(change(f"{who}: {TOKEN_NAMES.get(token, token)}", was, now))
        if (before.mined, before.spent) != (after.mined, after.spent):
            marks.add(f"mined:{after.seat}")
    if old.gold_left != new.gold_left:
        marks.add("gold-left")
        lines.append(change("Gold Mined marker", old.gold_left, new.gold_left))
    if (old.combat, old.last_combat) != (new.combat, new.last_combat):
        line = _battle_line(new)
        if line:
            marks.add("battle")
            lines.append(line.rstrip("."))
    return Changes(marks=frozenset(marks), lines=tuple(lines))


def _square_changes(
    old: IronAndBrassView, new: IronAndBrassView, names: list[str], marks: set[str], lines: list[str]
) -> None:
    def piece(view: IronAndBrassView, square: str) -> tuple[int, str, bool] | None:
        found = view.piece_at(square)
        return (found.owner, found.name, found.disabled) if found else None

    def build(view: IronAndBrassView, square: str) -> tuple[int, str] | None:
        found = next((b for b in view.builds if b.square == square), None)
        return (found.owner, found.name) if found else None

    squares = {p.square for p in [*old.pieces, *new.pieces]} | {b.square for b in [*old.builds, *new.builds]}
    for square in sorted(squares, key=lambda sq: (sq[0], int(sq[1:]))):
        was, now = piece(old, square), piece(new, square)
        if was != now:
            marks.add(square)
            if now is None:
                lines.append(f"{square}: {names[was[0]]}'s {was[1]} is gone")
            elif was is None or was[:2] != now[:2]:
                lines.append(
                    f"{square}: {names[now[0]]}'s {now[1]} now here" + (" (disabled)" if now[2] else "")
                )
            else:
                lines.append(
                    f"{square}: {names[now[0]]}'s {now[1]} " + ("disabled" if now[2] else "repaired")
                )
        planned, planned_now = build(old, square), build(new, square)
        if planned != planned_now:
            marks.add(square)
            if planned_now is not None:
                article = "an" if planned_now[1][:1].lower() in "aeiou" else "a"
                lines.append(f"{square}: {names[planned_now[0]]} is building {article} {planned_now[1]}")


def _range_overlay(view: View, target: str | None) -> bytes:
    return render_range(view, target or "")


OVERLAYS = (
    Overlay(
        name="range",
        description="Where the unit on a square can move (green) and attack (red)",
        draw=_range_overlay,
        target="the unit's square, e.g. C5",
    ),
    Overlay(
        name="players",
        description="Each side's gold, crew, tokens and pieces by square",
        draw=_players_section,
    ),
    Overlay(
        name="game",
        description="The opening roll, the turn limit and the last battle's dice",
        draw=_game_section,
    ),
    Overlay(
        name="key", description="What every symbol, code and stat token on the map means", draw=_key_section
    ),
)
