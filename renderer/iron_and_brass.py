"""Iron & Brass maps: drawn from a view only (the game has no hidden information).

`render(view)` draws, top to bottom: the title and headline, one panel per player (gold, crew,
advantage tokens, army), the map with its coordinates (A1 bottom-left; structures as squares and
units as discs in the owner's colour, a yellow ring and a 'D' badge for disabled pieces, dashed
outlines for builds that are ready next turn, the last battle's squares outlined), the last
battle's dice, and a key of the codes on the map with their stat tokens.

`render_range(view, square)` draws the same map with the reach of the unit on `square` highlighted:
green squares where it may move, red squares within its attack range (enemy pieces there ringed).
"""

from __future__ import annotations

from collections.abc import Iterable

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
    line_height,
    player_name,
    rounded_box,
    seat_dot,
    text_width,
    to_png,
    with_names,
    wrap,
)
from renderer.changes import BANNER_SIZE, Changes, change
from renderer.registry import Overlay
from rules.core import View
from rules.iron_and_brass.state import COLUMNS, IronAndBrassView, PieceView, parse_square

GUTTER = 34
"""Room for the row numbers (left) and column letters (bottom)."""
LIGHT: Color = (236, 229, 212)
DARK: Color = (222, 213, 193)
GRID: Color = (170, 160, 140)
MOVE: Color = (150, 214, 150)
ATTACK: Color = (244, 170, 160)
DISABLED: Color = (255, 205, 0)
TOKEN_SHORT = {"spotter": "Spotter", "surge": "Surge", "open_road": "Road", "heal": "Heal"}


def _tint(color: Color, amount: float) -> Color:
    """`color` mixed with white (amount 0 = color, 1 = white)."""
    return tuple(int(c + (255 - c) * amount) for c in color)  # type: ignore[return-value]


def _cell(size: int, width: int) -> int:
    return (width - 2 * MARGIN - GUTTER) // size


def _seat_panels(sheet: Sheet, view: IronAndBrassView) -> None:
    height = 12 + line_height(28) + 2 * line_height(24) + 16

    for seat in view.seats:
        acting = seat.seat in view.to_act

        def paint(draw: ImageDraw.ImageDraw, y: int, seat=seat, acting=acting) -> None:
            color = Palette.seat(seat.seat)
            rounded_box(
                draw,
                (MARGIN, y, sheet.width - MARGIN, y + height - 10),
                outline=color if acting else Palette.line,
                width=5 if acting else 2,
            )
            seat_dot(draw, (MARGIN + 24, y + 12 + line_height(28) // 2), seat.seat, radius=12)
            tags = [seat.side]
            if seat.seat == view.first:
                tags.append("Player 1")
            if acting:
                tags.append("to act")
            suffix = f"  ({', '.join(tags)})"
            title, size = fit_name(seat.name, sheet.inner - 60, 28, suffix=suffix, bold=True, minimum=22)
            draw_text(draw, (MARGIN + 44, y + 12), title, size=size, bold=True)
            line_y = y + 12 + line_height(28)
            first = f"{seat.gold} gold  ·  {seat.crew} crew  ·  {seat.units} units  ·  {seat.structures} structures"
            draw_text(
                draw,
                (MARGIN + 14, line_y),
                ellipsize(first, sheet.inner - 28, 24, bold=True),
                size=24,
                bold=True,
                fill=Palette.accent,
            )
            tokens = "  ·  ".join(f"{TOKEN_SHORT[name]} {count}" for name, count in seat.tokens.items())
            draw_text(
                draw,
                (MARGIN + 14, line_y + line_height(24)),
                ellipsize(f"Tokens: {tokens}", sheet.inner - 28, 24),
                size=24,
            )

        sheet.block(height, paint)


def _map(
    sheet: Sheet,
    view: IronAndBrassView,
    *,
    moves: Iterable[str] = (),
    attacks: Iterable[str] = (),
    focus: str | None = None,
) -> None:
    """The board; squares named in `sheet.changed` get the "changed since your move" frame."""
    size = view.size
    cell = _cell(size, sheet.width)
    board = cell * size
    height = board + GUTTER + 8
    moves, attacks = set(moves), set(attacks)
    outlined: set[str] = set()
    if view.combat is not None:
        outlined = {*view.combat.units, view.combat.target}
    elif view.last_combat is not None:
        outlined = {*view.last_combat.squares, view.last_combat.target}
    pieces = {piece.square: piece for piece in view.pieces}
    code_size = max(22, min(40, int(cell * 0.42)))

    def paint(draw: ImageDraw.ImageDraw, y: int) -> None:
        left = MARGIN + GUTTER
        for row in range(size):
            top = y + (size - 1 - row) * cell
            draw_text(
                draw,
                (left - 8, top + cell // 2),
                str(row + 1),
                size=22,
                bold=True,
                fill=Palette.muted,
                anchor="rm",
            )
            for col in range(size):
                x = left + col * cell
                name = f"{COLUMNS[col]}{row + 1}"
                fill = LIGHT if (row + col) % 2 == 0 else DARK
                if row == 0:
                    fill = _tint(Palette.seat(0), 0.8)
                elif row == size - 1:
                    fill = _tint(Palette.seat(1), 0.8)
                if name in attacks:
                    fill = ATTACK
                if name in moves:
                    fill = MOVE
                draw.rectangle((x, top, x + cell, top + cell), fill=fill, outline=GRID)
                if name in attacks and name in moves:
                    inset = max(3, cell // 14)
                    draw.rectangle(
                        (x + inset, top + inset, x + cell - inset, top + cell - inset),
                        outline=Palette.bad,
                        width=3,
                    )
        for col in range(size):
            draw_text(
                draw,
                (left + col * cell + cell // 2, y + board + 4),
                COLUMNS[col],
                size=22,
                bold=True,
                fill=Palette.muted,
                anchor="ma",
            )

        def box(square: str) -> tuple[int, int, int, int]:
            where = parse_square(square, size)
            assert where is not None
            col, row = where
            x = left + col * cell
            top = y + (size - 1 - row) * cell
            return x, top, x + cell, top + cell

        for build in view.builds:
            x0, y0, x1, y1 = box(build.square)
            color = Palette.seat(build.owner)
            pad = max(4, cell // 10)
            _dashed_rect(
                draw, (x0 + pad, y0 + pad, x1 - pad, y1 - pad), color, width=4, dash=max(6, cell // 8)
            )
            draw_text(
                draw,
                ((x0 + x1) // 2, (y0 + y1) // 2),
                build.code,
                size=code_size,
                bold=True,
                fill=color,
                anchor="mm",
            )
        for piece in pieces.values():
            _piece(draw, box(piece.square), piece, code_size)
            if piece.square in attacks and piece.owner != (pieces[focus].owner if focus in pieces else -1):
                x0, y0, x1, y1 = box(piece.square)
                draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=Palette.bad, width=5)
        for square in outlined:
            x0, y0, x1, y1 = box(square)
            draw.rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), outline=Palette.ink, width=4)
        if focus is not None:
            x0, y0, x1, y1 = box(focus)
            draw.rectangle((x0 - 3, y0 - 3, x1 + 3, y1 + 3), outline=Palette.ink, width=6)
        for square in sheet.changed:
            if parse_square(square, size) is not None:
                sheet.mark(square, box(square))

    sheet.block(height, paint)


def _piece(
    draw: ImageDraw.ImageDraw, rect: tuple[int, int, int, int], piece: PieceView, code_size: int
) -> None:
    x0, y0, x1, y1 = rect
    cell = x1 - x0
    color = Palette.seat(piece.owner)
    pad = max(3, cell // 12)
    inner = (x0 + pad, y0 + pad, x1 - pad, y1 - pad)
    outline = DISABLED if piece.disabled else Palette.ink
    width = max(4, cell // 12) if piece.disabled else 2
    if piece.category == "structure":
        draw.rounded_rectangle(inner, radius=max(4, cell // 8), fill=color, outline=outline, width=width)
    else:
        draw.ellipse(inner, fill=color, outline=outline, width=width)
    draw_text(
        draw,
        ((x0 + x1) // 2, (y0 + y1) // 2),
        piece.code,
        size=code_size,
        bold=True,
        fill=(255, 255, 255),
        anchor="mm",
    )
    if piece.disabled:
        radius = max(11, cell // 6)
        cx, cy = x1 - radius, y0 + radius
        draw.ellipse(
            (cx - radius, cy - radius, cx + radius, cy + radius), fill=DISABLED, outline=Palette.ink, width=2
        )
        draw_text(draw, (cx, cy), "D", size=max(16, radius + 4), bold=True, fill=Palette.ink, anchor="mm")


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


def _key(sheet: Sheet, view: IronAndBrassView) -> None:
    """The codes on the map with their tokens, two columns of code + name, then the token line."""
    present = {piece.kind for piece in view.pieces} | {build.kind for build in view.builds}
    items = [item for item in view.items if item.id in present]
    if not items:
        return
    sheet.heading("Key  (cost | needs F A S | attack / range move defence)")
    size = 22
    row_height = line_height(size) + 6

    def paint(draw: ImageDraw.ImageDraw, y: int) -> None:
        for index, item in enumerate(items):
            top = y + index * row_height
            if index % 2 == 0:
                draw.rectangle(
                    (MARGIN - 8, top, sheet.width - MARGIN + 8, top + row_height), fill=Palette.panel
                )
            shape_box = (MARGIN, top + 3, MARGIN + row_height - 6, top + row_height - 3)
            if item.category == "structure":
                draw.rounded_rectangle(shape_box, radius=5, fill=Palette.ink)
            else:
                draw.ellipse(shape_box, fill=Palette.ink)
            draw_text(draw, (MARGIN + row_height + 4, top + 3), item.code, size=size, bold=True)
            name_x = MARGIN + row_height + 4 + text_width("MM", size, bold=True) + 14
            token_width = text_width(item.token, size, bold=True)
            room = sheet.width - MARGIN - token_width - 16 - name_x
            draw_text(draw, (name_x, top + 3), ellipsize(item.name, room, size), size=size)
            draw_text(draw, (sheet.width - MARGIN, top + 3), item.token, size=size, bold=True, anchor="ra")

    sheet.block(len(items) * row_height + 8, paint)
    sheet.paragraph(
        "Discs are units, squares structures; yellow ring + D = disabled (-2 attack and defence); "
        "dashed = ready at its owner's next turn.",
        size=22,
        color=Palette.muted,
    )


def _captions(sheet: Sheet, view: IronAndBrassView) -> None:
    lines: list[tuple[str, bool]] = []
    if view.combat is not None:
        attacker = player_name(view.players[view.combat.attacker], NAME_WIDTH, 24, bold=True)
        defender = player_name(view.players[1 - view.combat.attacker], NAME_WIDTH, 24, bold=True)
        surge = " with Surge" if view.combat.attacker_surge else ""
        lines.append(
            (
                f"{attacker} attacks {view.combat.target} from {' + '.join(view.combat.units)}{surge}: "
                f"{defender} decides on Surge.",
                True,
            )
        )
    elif view.last_combat is not None:
        record = view.last_combat
        lines.append(
            (
                f"Last battle: {' + '.join(record.squares)} → {record.target}: "
                f"attack {record.attack_sum} vs defence {record.defence_sum} "
                f"({record.outcome.replace('-two', ' + 1 more').replace('-', ' ')}).",
                True,
            )
        )
    lines.append(
        (f"Gold Mined marker: {view.gold_left} left  ·  Round {view.round}/{view.max_rounds}", False)
    )
    for line, bold in lines:
        sheet.paragraph(line, size=24, bold=bold)


def _sheet(
    view: View, subtitle: str | None = None, marks: frozenset[str] = frozenset()
) -> tuple[Sheet, IronAndBrassView]:
    assert isinstance(view, IronAndBrassView), "renderer.iron_and_brass draws Iron & Brass views"
    sheet = Sheet(changed=marks)
    sheet.title("Iron & Brass", subtitle=subtitle or with_names(view.headline, view.players, 24))
    if view.finished:
        reason = with_names(view.reason, view.players, 28, bold=True)
        sheet.paragraph(reason + ".", size=28, bold=True, color=Palette.accent)
    return sheet, view


def render(view: View, *, marks: frozenset[str] = frozenset()) -> bytes:
    """The board; `marks` are squares to frame as changed since the viewer's last move."""
    sheet, game = _sheet(view, marks=marks)
    _seat_panels(sheet, game)
    sheet.space(4)
    _map(sheet, game)
    _captions(sheet, game)
    _key(sheet, game)
    return to_png(sheet.image())


def render_range(view: View, square: str) -> bytes:
    """The map with the moves (green) and attack range (red) of the unit on `square` highlighted."""
    assert isinstance(view, IronAndBrassView), "renderer.iron_and_brass draws Iron & Brass views"
    target = parse_square(square, view.size)
    piece = view.piece_at(f"{COLUMNS[target[0]]}{target[1] + 1}") if target is not None else None
    if piece is None:
        sheet, game = _sheet(view, f"Nothing stands on {square.upper()}")
        _map(sheet, game)
        return to_png(sheet.image())
    where = parse_square(piece.square, view.size)
    assert where is not None
    attacks = {
        f"{COLUMNS[col]}{row + 1}"
        for col in range(view.size)
        for row in range(view.size)
        if 0 < abs(col - where[0]) + abs(row - where[1]) <= piece.range
    }
    owner = player_name(view.players[piece.owner], NAME_WIDTH, 24)
    subtitle = f"{owner}'s {piece.name} {piece.square}: {piece.attack:+d}A / {piece.range}R {piece.move}M {piece.defence:+d}D"
    sheet, game = _sheet(view, subtitle)
    _map(sheet, game, moves=piece.reach, attacks=attacks, focus=piece.square)
    notes = []
    if piece.category == "structure":
        notes.append("Structures never move.")
    else:
        notes.append(
            f"Green: {len(piece.reach)} squares it may move to ({piece.move} steps, not all diagonal)."
        )
    if piece.range:
        enemies = [p.square for p in game.pieces if p.owner != piece.owner and p.square in attacks]
        targets = ", ".join(enemies) if enemies else "none"
        notes.append(
            f"Red (fill or frame): attack range {piece.range} in orthogonal steps. Targets now: {targets}."
        )
    else:
        notes.append("It cannot attack.")
    if piece.disabled:
        notes.append("Disabled: -2 attack and defence until repaired or healed.")
    for note in notes:
        for line in wrap(note, sheet.inner, 24):
            sheet.paragraph(line, size=24)
    return to_png(sheet.image())


def changes(old: View, new: View) -> Changes:
    """Squares whose piece or build changed (moved, arrived, destroyed, disabled, repaired), and each
    player's gold and crew, between two views of the same viewer."""
    assert isinstance(old, IronAndBrassView) and isinstance(new, IronAndBrassView)
    names = [player_name(name, NAME_WIDTH, BANNER_SIZE) for name in new.players]

    def piece(view: IronAndBrassView, square: str) -> tuple[int, str, bool] | None:
        found = view.piece_at(square)
        return (found.owner, found.name, found.disabled) if found else None

    def build(view: IronAndBrassView, square: str) -> tuple[int, str] | None:
        found = next((b for b in view.builds if b.square == square), None)
        return (found.owner, found.name) if found else None

    squares = {p.square for p in [*old.pieces, *new.pieces]} | {b.square for b in [*old.builds, *new.builds]}
    marks: set[str] = set()
    lines: list[str] = []
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
    for before, after in zip(old.seats, new.seats, strict=True):
        for label, was_amount, now_amount in (
            ("gold", before.gold, after.gold),
            ("crew", before.crew, after.crew),
        ):
            if was_amount != now_amount:
                lines.append(change(f"{names[after.seat]}: {label}", was_amount, now_amount))
    return Changes(marks=frozenset(marks), lines=tuple(lines))


def _range_overlay(view: View, target: str | None) -> bytes:
    return render_range(view, target or "")


OVERLAYS = (
    Overlay(
        name="range",
        description="Where the unit on a square can move (green) and attack (red)",
        draw=_range_overlay,
        target="the unit's square, e.g. C5",
    ),
)
