"""KEY (the short key joined to the alt text) and the `key` section: every map symbol drawn as on the
map, and each piece's stat token.
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import ImageDraw

from renderer.canvas import (
    MARGIN,
    Color,
    Palette,
    Sheet,
    draw_text,
    ellipsize,
    line_height,
    text_width,
    to_png,
)
from renderer.iron_and_brass.layout import (
    BODY,
    INNER,
    LIGHT,
    WIDTH,
    dashed_rect,
    draw_piece,
    game_view,
    paragraphs,
    section,
    side_color,
    subheading,
)
from renderer.phone import MIN_TEXT
from rules.core import View
from rules.iron_and_brass.view import ItemView, PieceView

KEY = (
    "Iron blue, Brass crimson; discs are units, rounded squares structures: SK Skirmisher, MG Gunner, "
    "II Iron Infantry, MA Motorized Artillery, HA Heavy Artillery, ST Steam Tank, CT Crusher Tank, "
    "HQ Headquarters, FT Fortress, BK Barracks, AW Armored Wall, TR Turret, FD Foundry, AR Arsenal, "
    "SW Steam Works. Dashed: ready next turn; yellow ring and corner: disabled (-2 attack and defence); "
    "black frame: last battle; magenta frame: changed; tinted rows: base rows. Advantage tokens left: "
    "each plays once for any of Spotter, Surge, Open Road or Heal; P1: Player 1, who moves first."
)
"""Short enough to join the alt text (the bot drops a key that would take it past 1,000 characters);
the `key` section has the long form with the stat tokens."""


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
        return lambda draw, rect: draw_piece(draw, rect, sample, MIN_TEXT)

    def dashed(draw: ImageDraw.ImageDraw, rect: tuple[int, int, int, int]) -> None:
        x0, y0, x1, y1 = rect
        dashed_rect(draw, (x0 + 4, y0 + 4, x1 - 4, y1 - 4), side_color(0), width=4, dash=6)

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


def key_section(view: View, target: str | None = None) -> bytes:
    game = game_view(view)
    sheet = section("Iron & Brass · key")
    _legend(sheet)
    subheading(sheet, "Pieces: cost | needs | attack / range move defence")
    _pieces_table(sheet, list(game.items))
    each = game.seats[0].advantage_tokens + sum(game.seats[0].played.values())  # what a side began with
    paragraphs(
        sheet,
        [
            ("Cost: gold, C = + 1 crew. Needs: F Foundry, A Arsenal, S Steam Works, - nothing.", False, ""),
            (
                f"Advantage tokens: {each} a side, each played once for any one of Spotter (+1 range), Surge "
                "(+2 to a roll), Open Road (+1 move) or Heal (heals disabled infantry). P1 = Player 1, who "
                "moves first.",
                False,
                "",
            ),
        ],
    )
    return to_png(sheet.image())
