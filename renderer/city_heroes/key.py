"""City Heroes' key: `KEY` (the alt text's words for every symbol) and the drawn key section."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from renderer.canvas import (
    Color,
    Palette,
    Sheet,
    ellipsize,
)
from renderer.city_heroes.layout import (
    ACTING,
    CODES,
    EDGE,
    GARRISON,
    HILL,
    INNER,
    LEFT,
    LEVEL_FILL,
    PASSED,
    PLAIN,
    RIGHT,
    ROW,
    SMALL,
    SPENT,
    SWORD,
    WHITE,
    WORK_DONE,
    WORK_FILL,
    Draw,
    as_city_heroes,
    badge_width,
    building_level,
    building_name,
    canvas_of,
    draw_badge,
    draw_disc,
    draw_label,
    hatch,
    new_sheet,
    paragraph,
    static_names,
    width_of,
)
from rules.core import View

Symbol = Callable[[Draw, int, int], int]
"""Draws a symbol of the key with its left edge at x, in the row at y; returns its width."""


KEY = (
    "Map: grey hexes are Hills, green Plains; the number is the tile (T12); a disc is its resource "
    "(W wheat, T timber, S stone, I iron, G gold); a band in a player's colour marks the owner (every owned "
    "tile has a House); two-letter badges are buildings (white level 1, blue level 2, gold level 3; "
    "/board section:key names every code), a purple badge with n/m is a public work with n of m stages "
    "built (green with ✓ when finished); ⚔n is a garrison of n weapons (grey: spent attacking this turn); "
    "red stripes mean pillaged this turn. Strip: ▶ acts now, ✓ passed this phase, Score = influence if the "
    "game ended now, Infl = influence, Ducats = money, Workers = Ready / all workers, Tiles = tiles owned; "
    "Prestige: the city's against the rival's (+n at Cleanup: the rival's next gain; below the rival at the "
    "end, everybody loses); final table: Res = natural resources, Goods×2 = 2 per good, Duc÷3 = ducats ÷ 3, Total = the influence that ranks; "
    "magenta frames show what changed."
)
"""What every symbol on the pictures means, for the alt text (the `key` section draws it in full)."""


def _swatch(fill: Color, outline: Color = EDGE, width: int = 1) -> Symbol:
    def paint(draw: Draw, x: int, y: int) -> int:
        draw.rounded_rectangle(
            (x, y + 3, x + 40, y + ROW - 6), radius=4, fill=fill, outline=outline, width=width
        )
        return 40

    return paint


def _badge_symbol(text: str, fill: Color, ink: Color) -> Symbol:
    def paint(draw: Draw, x: int, y: int) -> int:
        width = badge_width(text)
        draw_badge(draw, (x + width / 2, y + ROW / 2 - 2), text, fill, ink)
        return width

    return paint


def _disc_symbol(resource: str) -> Symbol:
    return lambda draw, x, y: draw_disc(draw, (x + 15, y + ROW / 2 - 2), resource)


def _text_symbol(text: str) -> Symbol:
    def paint(draw: Draw, x: int, y: int) -> int:
        draw_label(draw, (x, y + 2), text, SMALL, bold=True)
        return width_of(text, SMALL, True)

    return paint


def _hatch_symbol(draw: Draw, x: int, y: int) -> int:
    box = [(x, y + 3), (x + 40, y + 3), (x + 40, y + ROW - 6), (x, y + ROW - 6)]
    draw.polygon(box, fill=PLAIN)
    hatch(canvas_of(draw), box)
    return 40


def _changed_symbol(draw: Draw, x: int, y: int) -> int:
    draw.rectangle((x, y + 3, x + 40, y + ROW - 6), outline=Palette.changed, width=5)
    return 40


def _legend_rows() -> list[list[tuple[Symbol, str]]]:
    """The key's rows, each one or more (symbol, meaning): every symbol but the building codes."""
    return [
        [(_swatch(HILL), "Hill"), (_swatch(PLAIN), "Plain"), (_text_symbol("12"), "tile number (T12)")],
        [(_swatch(PLAIN, Palette.seat(0), 6), "owned tile: a band in the owner's colour")],
        [
            (_disc_symbol("wheat"), "Wheat"),
            (_disc_symbol("timber"), "Timber"),
            (_disc_symbol("stone"), "Stone"),
        ],
        [(_disc_symbol("iron"), "Iron"), (_disc_symbol("gold"), "Gold: the tile's natural resource")],
        [
            (_badge_symbol("Ba", *LEVEL_FILL[1]), "level 1"),
            (_badge_symbol("Fo", *LEVEL_FILL[2]), "level 2"),
            (_badge_symbol("Ca", *LEVEL_FILL[3]), "level 3 building"),
        ],
        [
            (_badge_symbol("Kb", *WORK_FILL), "public work"),
            (_badge_symbol("2/6", *WORK_FILL), "stages built / needed"),
        ],
        [(_badge_symbol("Kb", *WORK_DONE), ""), (_badge_symbol("✓", *WORK_DONE), "public work finished")],
        [(_badge_symbol(f"{SWORD}3", GARRISON, WHITE), "garrison: weapons on the tile")],
        [(_badge_symbol(f"{SWORD}2", SPENT, WHITE), "weapons spent attacking this turn")],
        [(_hatch_symbol, "pillaged this turn"), (_changed_symbol, "changed since the last post")],
        [(_text_symbol(ACTING), "acts now"), (_text_symbol(PASSED), "passed this phase (score strip)")],
    ]


def _legend(sheet: Sheet) -> None:
    """A block a row, so that the key can be cut into pages between any two."""
    for row in _legend_rows():

        def paint(draw: Draw, y: int, row: list[tuple[Symbol, str]] = row) -> None:
            x = LEFT
            for symbol, meaning in row:
                x += symbol(draw, x, y) + 10
                if meaning:
                    text = ellipsize(meaning, RIGHT - x, SMALL)
                    draw_label(draw, (x, y + 2), text, SMALL)
                    x += width_of(text, SMALL) + 24

        sheet.block(ROW, paint)
    sheet.space(8)


STRIP_WORDS = (
    "Score: influence if the game ended now (influence + resources + 2 per good + ducats ÷ 3). "
    "Infl: influence. Workers: Ready / all workers. Prestige: the city's against the rival's; "
    "below the rival at the end, everybody loses."
)


def render_key(view: View) -> Sheet:
    """Every symbol, colour and building code on the pictures."""
    as_city_heroes(view)
    return _key_sheet()


@cache
def _key_sheet() -> Sheet:
    """The key depends on no view, so it is laid out once (and cut into pages by the overlay)."""
    sheet = new_sheet()
    sheet.title("City Heroes · key")
    sheet.keep_header()
    _legend(sheet)
    paragraph(sheet, STRIP_WORDS, size=SMALL, color=Palette.muted)
    sheet.heading("Building and public work codes")
    entries = sorted(CODES.items(), key=lambda item: item[1].lower())
    column = INNER // 2
    for start in range(0, len(entries), 2):  # two codes a row, in alphabetical order along the rows

        def codes(draw: Draw, y: int, pair: list[tuple[str, str]] = entries[start : start + 2]) -> None:
            for index, (key, code) in enumerate(pair):
                x = LEFT + index * column
                is_work = key in static_names()[1]
                fill, ink = WORK_FILL if is_work else LEVEL_FILL.get(building_level(key), LEVEL_FILL[1])
                width = badge_width(code)
                draw_badge(draw, (x + width / 2, y + ROW / 2 - 2), code, fill, ink)
                name = static_names()[1].get(key) if is_work else building_name(key)
                draw_label(draw, (x + 50, y + 2), ellipsize(name or key, column - 58, SMALL), SMALL)

        sheet.block(ROW, codes)
    return sheet
