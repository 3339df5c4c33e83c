"""City Heroes' drawing pieces shared by its pictures: sizes, colours, codes, text, badges, discs,
chips, the sheet, the footer and the hex map."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache, lru_cache

from PIL import Image, ImageChops, ImageDraw

from renderer.canvas import (
    MARGIN,
    NAME_WIDTH,
    Color,
    Palette,
    Sheet,
    draw_text,
    ellipsize,
    line_height,
    player_name,
    text_width,
    wrap,
)
from renderer.phone import MIN_TEXT, PHONE_WIDTH, max_height
from rules.city_heroes.view import CityHeroesView, SeatView, TileView
from rules.core import View

Draw = ImageDraw.ImageDraw

WIDTH = PHONE_WIDTH
LEFT = MARGIN
RIGHT = WIDTH - MARGIN
INNER = RIGHT - LEFT
SMALL = MIN_TEXT
"""The smallest text: 22 px on the 800 px canvas, 11 px when shown 400 px wide."""
BODY = 24
LARGE = 28
ROW = line_height(SMALL) + 6
"""Height of one line of the score strip and of the tables."""
WHITE: Color = (255, 255, 255)

HILL: Color = (184, 182, 178)
PLAIN: Color = (170, 212, 128)
EDGE: Color = (120, 114, 104)
FADED = 0.55
"""How much non-buyable tiles are mixed with white on the buyable map."""
PILLAGE: Color = (200, 20, 20)
GARRISON: Color = (40, 40, 44)
SPENT: Color = (150, 150, 156)
BUY: Color = (255, 200, 0)
COIN: Color = (242, 190, 30)
COIN_EDGE: Color = (140, 100, 0)

RESOURCES: dict[str, tuple[str, str, Color, Color]] = {
    "wheat": ("Wheat", "W", (236, 206, 120), Palette.ink),
    "timber": ("Timber", "T", (120, 78, 36), WHITE),
    "stone": ("Stone", "S", (84, 92, 110), WHITE),
    "iron": ("Iron", "I", (150, 54, 40), WHITE),
    "gold": ("Gold", "G", (255, 214, 0), Palette.ink),
}
"""Resource id -> name, the letter on its map disc, disc fill and letter ink."""
NATURALS = tuple(RESOURCES)
GOODS: dict[str, str] = {
    "weapons": "Weapons",
    "tools": "Tools",
    "jewellery": "Jewellery",
    "planks": "Planks",
    "scaffolds": "Scaffolds",
    "sculptures": "Sculptures",
}
LEVEL_FILL: dict[int, tuple[Color, Color]] = {
    1: (WHITE, Palette.ink),
    2: ((52, 84, 150), WHITE),
    3: ((200, 150, 20), Palette.ink),
}
"""Badge fill and ink by building level: white, blue, gold."""
WORK_FILL: tuple[Color, Color] = ((110, 40, 110), WHITE)
WORK_DONE: tuple[Color, Color] = ((30, 120, 60), WHITE)
ACTING = "▶"
PASSED = "✓"
SWORD = "⚔"
"""Drawn before the acting city's name, after a city that passed, and (as a drawn sword) on garrisons."""

CODES: dict[str, str] = {
    "barracks": "Ba",
    "blacksmith": "Bs",
    "foraging-hut": "FH",
    "house": "Hs",
    "market": "Mk",
    "mine": "Mi",
    "workshop": "Ws",
    "school": "Sc",
    "apothecary": "Ap",
    "carpenter": "Cp",
    "college": "Co",
    "festival-grounds": "FG",
    "fort": "Fo",
    "foundry": "Fd",
    "forge": "Fg",
    "gathering-hut": "GH",
    "stable": "St",
    "stonemason": "SM",
    "temple": "Te",
    "tenement": "Tn",
    "studio": "Sd",
    "villa": "Vi",
    "apartment": "At",
    "arsenal": "Ar",
    "artisans-guild": "AG",
    "carpenters-guild": "CG",
    "castle": "Ca",
    "cathedral": "Ct",
    "grand-bazaar": "GB",
    "harvesting-plant": "HP",
    "hospital": "Ho",
    "manor": "Ma",
    "manufactory": "Mf",
    "masons-guild": "MG",
    "university": "Un",
    "estate": "Es",
    "bank": "Bk",
    "city-hall": "CH",
    "kronborg": "Kb",
    "la-rotonda": "LR",
    "carrariae": "Cr",
    "biblioteka-marciana": "BM",
}
"""Two-letter map codes of buildings and public works (two letters fit a tile of the phone map); an id
missing here gets its initials."""
PHASES = {"expansion": "Expansion", "construction": "Construction", "interaction": "Interaction"}


# ---- static data: names and levels ------------------------------------------------------------
@cache
def static_names() -> tuple[dict[str, tuple[str, int]], dict[str, str]]:
    """Building id -> (name, level), public work id -> name, from the game's data files."""
    try:
        from rules.city_heroes.data import catalogue

        cat = catalogue()
        return (
            {key: (spec.name, spec.level) for key, spec in cat.buildings.items()},
            {key: spec.name for key, spec in cat.works.items()},
        )
    except Exception:  # pragma: no cover - the renderer still draws without the data files
        return {}, {}


def _code(key: str) -> str:
    if key in CODES:
        return CODES[key]
    return "".join(part[:1].upper() for part in key.split("-"))[:2] or "?"


def building_name(key: str) -> str:
    return static_names()[0].get(key, (key.replace("-", " ").title(), 1))[0]


def building_level(key: str) -> int:
    return static_names()[0].get(key, ("", 1))[1]


def work_name(view: CityHeroesView, key: str) -> str:
    return view.works.get(key) or static_names()[1].get(key) or key.replace("-", " ").title()


# ---- small drawing helpers ----------------------------------------------------------------------
def tint(color: Color, amount: float) -> Color:
    """`color` mixed with white (0 = color, 1 = white)."""
    red, green, blue = (int(c + (255 - c) * amount) for c in color)
    return red, green, blue


@lru_cache(maxsize=4096)
def width_of(text: str, size: int, bold: bool = False) -> int:
    return text_width(text, size, bold=bold)


def draw_label(
    draw: Draw,
    xy: tuple[float, float],
    text: str,
    size: int = BODY,
    *,
    bold: bool = False,
    fill: Color = Palette.ink,
    anchor: str = "la",
) -> None:
    draw_text(draw, xy, text, size=size, bold=bold, fill=fill, anchor=anchor)


def name_in_text(name: str, size: int, *, bold: bool = False) -> str:
    """A player's name inside a line of text at `size`: fitted to NAME_WIDTH."""
    return player_name(name, NAME_WIDTH, size, bold=bold)


def canvas_of(draw: Draw) -> Image.Image:
    return draw._image


def _stamp(draw: Draw, sprite: Image.Image, left: float, top: float) -> None:
    canvas_of(draw).paste(sprite, (round(left), round(top)), sprite)


@lru_cache(maxsize=2048)
def _badge_sprite(text: str, fill: Color, ink: Color, outline: Color) -> Image.Image:
    """A rounded badge with `text` at the smallest size: the sprites recur on every map."""
    width, height = badge_width(text), line_height(SMALL)
    sprite = Image.new("RGBA", (width + 1, height + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    draw.rounded_rectangle((0, 0, width, height), radius=6, fill=fill, outline=outline, width=2)
    draw_text(draw, (width / 2, height / 2 + 1), text, size=SMALL, bold=True, fill=ink, anchor="mm")
    return sprite


def badge_width(text: str) -> int:
    return width_of(text, SMALL, True) + 8


def draw_badge(
    draw: Draw, center: tuple[float, float], text: str, fill: Color, ink: Color, outline: Color = Palette.ink
) -> None:
    sprite = _badge_sprite(text, fill, ink, outline)
    _stamp(draw, sprite, center[0] - (sprite.width - 1) / 2, center[1] - (sprite.height - 1) / 2)


def _badges(
    draw: Draw, center: tuple[float, float], items: Sequence[tuple[str, Color, Color]], gap: int = 3
) -> None:
    """Badges in a row centred on `center`."""
    widths = [badge_width(text) for text, _, _ in items]
    x = center[0] - (sum(widths) + gap * (len(widths) - 1)) / 2
    for (text, fill, ink), width in zip(items, widths, strict=True):
        draw_badge(draw, (x + width / 2, center[1]), text, fill, ink)
        x += width + gap


@lru_cache(maxsize=64)
def _disc_sprite(letter: str, fill: Color, ink: Color) -> Image.Image:
    """A resource's disc with its letter: colour for the eye, the letter for colour-blind readers."""
    size = line_height(SMALL) + 1
    sprite = Image.new("RGBA", (size + 1, size + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    draw.ellipse((0, 0, size, size), fill=fill, outline=Palette.ink, width=2)
    draw_text(draw, (size / 2, size / 2 + 1), letter, size=SMALL, bold=True, fill=ink, anchor="mm")
    return sprite


def draw_disc(draw: Draw, center: tuple[float, float], resource: str, faded: bool = False) -> int:
    """The resource's disc centred on `center`; returns its width."""
    _, letter, fill, ink = RESOURCES.get(resource, (resource, resource[:1].upper(), WHITE, Palette.ink))
    if faded:
        fill, ink = tint(fill, FADED), tint(ink, 0.3)
    sprite = _disc_sprite(letter, fill, ink)
    _stamp(draw, sprite, center[0] - sprite.width / 2, center[1] - sprite.height / 2)
    return sprite.width


@lru_cache(maxsize=1024)
def _pill_sprite(text: str, fill: Color, ink: Color) -> Image.Image:
    width = width_of(text, SMALL, True) + SMALL
    height = line_height(SMALL) + 2
    sprite = Image.new("RGBA", (width + 1, height + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    draw.rounded_rectangle((0, 0, width, height), radius=height // 2, fill=fill, outline=Palette.line)
    draw_text(draw, (width / 2, height / 2 + 1), text, size=SMALL, bold=True, fill=ink, anchor="mm")
    return sprite


def draw_pill(draw: Draw, x: float, y: float, text: str, fill: Color, ink: Color = WHITE) -> int:
    """A rounded label at (x, y); returns its width so pills can be laid in a row."""
    sprite = _pill_sprite(text, fill, ink)
    _stamp(draw, sprite, x, y)
    return sprite.width - 1


def _chip_text(label: str, count: int) -> str:
    """`label count`, or the label alone for a count below zero (a chip such as "nothing")."""
    return label if count < 0 else f"{label} {count}"


def draw_chips(
    draw: Draw, x: int, y: int, items: Sequence[tuple[str, int, Color, Color]], right: int = RIGHT
) -> int:
    """`label count` pills in rows from (x, y), wrapping at `right` (zero counts faded); returns the
    height used."""
    left, top = x, y
    step = line_height(SMALL) + 8
    for label, count, fill, ink in items:
        if count == 0:
            fill, ink = tint(fill, 0.75), Palette.muted
        text = _chip_text(label, count)
        width = width_of(text, SMALL, True) + SMALL
        if x + width > right and x > left:
            x, top = left, top + step
        x += draw_pill(draw, x, top, text, fill, ink) + 8
    return top - y + step


def chip_row_count(items: Sequence[tuple[str, int, Color, Color]], x: int, right: int = RIGHT) -> int:
    """How many rows `draw_chips` takes for `items` from `x`."""
    rows, at = 1, x
    for label, count, _, _ in items:
        width = width_of(_chip_text(label, count), SMALL, True) + SMALL + 8
        if at + width - 8 > right and at > x:
            rows, at = rows + 1, x
        at += width
    return rows


def seat_state(view: CityHeroesView, seat: SeatView) -> tuple[str, Color]:
    """The guide's Active / Waiting / Passed."""
    if view.finished:
        return "Done", Palette.muted
    if seat.seat == view.current:
        return "Active", Palette.good
    if seat.passed:
        return "Passed", Palette.muted
    return "Waiting", (70, 70, 80)


def paragraph(
    sheet: Sheet, text: str, size: int = SMALL, *, color: Color = Palette.ink, bold: bool = False
) -> None:
    """Wrapped text."""
    lines = wrap(text, INNER, size, bold=bold)

    def paint(draw: Draw, y: int) -> None:
        for index, line in enumerate(lines):
            draw_label(draw, (LEFT, y + index * line_height(size)), line, size, bold=bold, fill=color)

    sheet.block(len(lines) * line_height(size) + 6, paint)


def new_sheet(marks: frozenset[str] = frozenset()) -> Sheet:
    return Sheet(width=WIDTH, changed=marks)


# ---- header lines -------------------------------------------------------------------------------
def status_line(view: CityHeroesView) -> str:
    if view.finished:
        return "Game over"
    return f"Turn {view.turn}/{view.turns} · {PHASES.get(view.phase, view.phase.title())}"


def draw_footer(sheet: Sheet) -> None:
    text = "Key: /board section:key · goods, workers: section:cities"
    text = ellipsize(text, INNER, SMALL)
    sheet.block(
        line_height(SMALL) + 2,
        lambda draw, y: draw_label(draw, (LEFT, y + 2), text, SMALL, fill=Palette.muted),
    )


# ---- the map ------------------------------------------------------------------------------------
GAP = 1.5
"""Between a tile's hexagon and the next one's: half the gap between two tiles."""
RING = 4
"""A changed tile's magenta ring, from the middle of the gap around it inwards."""


class Geometry:
    """Pointy-top hexes in axial coordinates, `s` px from centre to corner, centred on the sheet."""

    def __init__(self, radius: int, s: float, width: int = WIDTH) -> None:
        self.s = s
        self.w = s * math.sqrt(3)
        self.height = int(s * (2 + 3 * radius)) + 6
        self.cx = width / 2
        self.radius = radius

    @classmethod
    def fitting(cls, radius: int, height: int, width: int = WIDTH) -> Geometry:
        """The largest map no wider than `width` (less a margin) and no taller than `height`."""
        across = 2 * radius + 1
        by_width = (width - 32) / across / math.sqrt(3)
        by_height = (height - 6) / (2 + 3 * radius)
        return cls(radius, min(by_width, by_height), width)

    def center(self, tile: TileView, top: int) -> tuple[float, float]:
        x = self.cx + self.w * (tile.q + tile.r / 2)
        y = top + self.s * (1 + 1.5 * (tile.r + self.radius)) + 3
        return x, y

    def corners(self, center: tuple[float, float], size: float) -> list[tuple[float, float]]:
        x, y = center
        return [(x + size * _COS[k], y + size * _SIN[k]) for k in range(6)]


_COS = [math.cos(math.radians(60 * k - 90)) for k in range(6)]
_SIN = [math.sin(math.radians(60 * k - 90)) for k in range(6)]


def hatch(image: Image.Image, polygon: Sequence[tuple[float, float]]) -> None:
    """Red diagonal stripes inside `polygon` (a pillaged tile)."""
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    x0, y0, x1, y1 = int(min(xs)), int(min(ys)), int(max(xs)) + 1, int(max(ys)) + 1
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    mdraw = ImageDraw.Draw(mask)
    span = (x1 - x0) + (y1 - y0)
    for start in range(-span, span, 20):
        mdraw.line((start, 0, start + (y1 - y0), y1 - y0), fill=150, width=6)
    clip = Image.new("L", mask.size, 0)
    ImageDraw.Draw(clip).polygon([(px - x0, py - y0) for px, py in polygon], fill=255)
    image.paste(PILLAGE, (x0, y0, x1, y1), ImageChops.multiply(mask, clip))


def draw_map(
    sheet: Sheet,
    view: CityHeroesView,
    geo: Geometry,
    *,
    prices: dict[int, int] | None = None,
    budget: int = 0,
    buyer: int | None = None,
) -> None:
    """The hex map; with `prices` (tile -> ducats) the buyable overlay: affordable tiles outlined in yellow
    with a gold coin, dearer neutral tiles with a grey coin, the rest faded. A changed tile (a mark
    "tile:<id>") gets a magenta hexagon rather than the sheet's rectangle, which would cover its
    neighbours' badges. The ring lies in the gap between tiles and on a pixel of each band beside it, so
    the owner's colour still shows and the tile's number stays clear of it."""
    band = max(6, round(geo.s * 0.15))

    def paint(draw: Draw, y: int) -> None:
        image = canvas_of(draw)
        s = geo.s
        changed: list[tuple[float, float]] = []
        for tile in view.tiles:
            center = geo.center(tile, y)
            terrain = HILL if tile.terrain == "hill" else PLAIN
            buyable = prices is not None and tile.id in prices and prices[tile.id] <= budget
            faded = prices is not None and not buyable and (buyer is None or tile.owner != buyer)
            if faded:
                terrain = tint(terrain, FADED)
            outer = geo.corners(center, s - GAP)
            inner = geo.corners(center, s - GAP - band)
            if buyable:
                draw.polygon(outer, fill=Palette.ink)
                draw.polygon(geo.corners(center, s - 4), fill=BUY)
                draw.polygon(inner, fill=terrain)
            elif tile.owner is not None:
                color = Palette.seat(tile.owner)
                draw.polygon(outer, fill=tint(color, FADED) if faded else color)
                draw.polygon(inner, fill=terrain)
            else:
                draw.polygon(outer, fill=terrain, outline=EDGE, width=2)
            if tile.pillaged:
                hatch(image, inner)
            _tile_content(draw, tile, center, s, faded)
            if prices is not None and tile.id in prices:
                _coin(draw, (center[0], center[1] + 0.52 * s), prices[tile.id], buyable)
            if f"tile:{tile.id}" in sheet.changed:
                changed.append(center)
        for center in changed:  # after every tile, so no neighbour paints over a frame
            draw.polygon(geo.corners(center, s + GAP), outline=Palette.changed, width=RING)

    sheet.block(geo.height, paint)


def _tile_items(tile: TileView, faded: bool) -> list[tuple[str, Color, Color]]:
    """The tile's badges: its House-track building beyond a plain House, its building or public work."""
    items: list[tuple[str, Color, Color]] = []
    for key in (tile.house if tile.house != "house" else None, tile.building):
        if key:
            fill, ink = LEVEL_FILL.get(building_level(key), LEVEL_FILL[1])
            items.append((_code(key), fill, ink))
    if tile.work:
        fill, ink = WORK_DONE if tile.stages >= tile.stages_needed else WORK_FILL
        items.append((_code(tile.work), fill, ink))
    if faded:
        items = [(text, tint(fill, FADED), tint(ink, 0.3)) for text, fill, ink in items]
    return items


def _tile_content(draw: Draw, tile: TileView, center: tuple[float, float], s: float, faded: bool) -> None:
    """Three rows in the hex: number and resource disc; badges; work stages and garrison."""
    x, y = center
    top, bottom = y - 0.5 * s, y + 0.5 * s
    ink = Palette.bad if tile.pillaged else Palette.ink
    if faded:
        ink = tint(ink, 0.35)
    number = str(tile.id)
    disc = line_height(SMALL) + 2 if tile.resource else 0
    width = width_of(number, SMALL, True) + (disc + 3 if disc else 0)
    left = x - width / 2
    draw_label(draw, (left, top + 1), number, SMALL, bold=True, fill=ink, anchor="lm")
    if tile.resource:
        draw_disc(draw, (left + width - disc / 2, top), tile.resource, faded)
    items = _tile_items(tile, faded)
    if items:
        _badges(draw, (x, y + 0.02 * s), items)
    marks: list[tuple[str, Color, Color]] = []
    if tile.work:
        done = tile.stages >= tile.stages_needed
        fill, text_ink = WORK_DONE if done else WORK_FILL
        marks.append(("✓" if done else f"{tile.stages}/{tile.stages_needed}", fill, text_ink))
    for count, fill in ((tile.garrison, GARRISON), (tile.spent, SPENT)):
        if count:
            marks.append((f"{SWORD}{count}", fill, WHITE))
    if marks:
        if faded:
            marks = [(text, tint(fill, FADED), ink) for text, fill, ink in marks]
        _badges(draw, (x, bottom), marks, gap=2)


def _coin(draw: Draw, center: tuple[float, float], price: int, affordable: bool) -> None:
    x, y = center
    text = "free" if price == 0 else str(price)
    radius = max(16, width_of(text, SMALL, True) // 2 + 7)
    fill, edge, ink = (
        (COIN, COIN_EDGE, Palette.ink) if affordable else ((206, 206, 210), (130, 130, 136), (80, 80, 86))
    )
    draw.ellipse((x - radius, y - 16, x + radius, y + 16), fill=fill, outline=edge, width=3)
    draw_label(draw, (x, y + 1), text, SMALL, bold=True, fill=ink, anchor="mm")


def fitted_map(sheet: Sheet, view: CityHeroesView, below: int = 0) -> None:
    """The map scaled into what is left of `MAX_HEIGHT` once `below` px more are added after it."""
    room = max_height() - sheet.used - below
    draw_map(sheet, view, Geometry.fitting(view.radius, room))


# ---- the view -----------------------------------------------------------------------------------
def as_city_heroes(view: View) -> CityHeroesView:
    assert isinstance(view, CityHeroesView), "renderer.city_heroes draws City Heroes views"
    return view
