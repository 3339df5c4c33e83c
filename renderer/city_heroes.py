"""City Heroes pictures, drawn for a phone from a view only (issue 19, "Pictures made for a phone").

Every picture is `PHONE_WIDTH` (800) px wide with no text under `MIN_TEXT` (22) px, so it stays readable
when Discord shows it 400 px wide; turn, final and hand pictures are at most `MAX_HEIGHT` (4:5) tall.

`render(view)` draws:
- the turn picture (public view): one header line (turn, phase, who acts), the city's prestige against
  the rival's, a score strip with one row per city (state, score if the game ended now, influence,
  ducats, Ready workers / workers, tiles), an open trade offer or pillage, and the hex map scaled into
  what height is left. Tiles carry symbols rather than words (the number, a resource letter, building
  codes, the stages of a public work, a sword with the garrison) explained in `KEY` and the `key`
  section. What changed since the last turn post (`changes`) is framed in magenta.
- the final picture: the verdict (the city against the rival decides whether anybody wins), the
  influence breakdown per player, then the final map.
- a seat's hand picture (`view.seat` set): a one-line header and only what that seat sees beyond the
  board: the terms of a trade offer it is party to, and its own goods to answer it with.

Sections shown on demand (`OVERLAYS`): `cities` (each city's full panel: workers, ducats, influence,
pillage tokens, resources, goods, buildings), `buyable` (the map with the tiles a player could buy now
and their price), `key` (every code, letter, colour and mark).

Everything comes from the view (plus the static names and levels of `data/city_heroes`), so nothing
hidden can leak. Badges and chips recur on every board, so their bitmaps are cached and pasted.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
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
    fit_name,
    line_height,
    player_name,
    seat_dot,
    text_width,
    to_png,
    with_names,
    wrap,
)
from renderer.changes import BANNER_SIZE, Changes, change
from renderer.phone import MAX_HEIGHT, MIN_TEXT, PHONE_WIDTH
from renderer.registry import Overlay
from rules import words
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


# ---- static data: names and levels ------------------------------------------------------------
@cache
def _catalogue() -> tuple[dict[str, tuple[str, int]], dict[str, str]]:
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


def _building_name(key: str) -> str:
    return _catalogue()[0].get(key, (key.replace("-", " ").title(), 1))[0]


def _level(key: str) -> int:
    return _catalogue()[0].get(key, ("", 1))[1]


def _work_name(view: CityHeroesView, key: str) -> str:
    return view.works.get(key) or _catalogue()[1].get(key) or key.replace("-", " ").title()


# ---- small drawing helpers ----------------------------------------------------------------------
def _tint(color: Color, amount: float) -> Color:
    """`color` mixed with white (0 = color, 1 = white)."""
    return tuple(int(c + (255 - c) * amount) for c in color)  # type: ignore[return-value]


@lru_cache(maxsize=4096)
def _width(text: str, size: int, bold: bool = False) -> int:
    return text_width(text, size, bold=bold)


def _text(
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


def _name(name: str, size: int, *, bold: bool = False) -> str:
    """A player's name inside a line of text at `size`: fitted to NAME_WIDTH."""
    return player_name(name, NAME_WIDTH, size, bold=bold)


def _canvas(draw: Draw) -> Image.Image:
    return draw._image  # type: ignore[attr-defined,no-any-return]


def _stamp(draw: Draw, sprite: Image.Image, left: float, top: float) -> None:
    _canvas(draw).paste(sprite, (round(left), round(top)), sprite)


@lru_cache(maxsize=2048)
def _badge_sprite(text: str, fill: Color, ink: Color, outline: Color) -> Image.Image:
    """A rounded badge with `text` at the smallest size: the sprites recur on every map."""
    width, height = _badge_width(text), line_height(SMALL)
    sprite = Image.new("RGBA", (width + 1, height + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    draw.rounded_rectangle((0, 0, width, height), radius=6, fill=fill, outline=outline, width=2)
    draw_text(draw, (width / 2, height / 2 + 1), text, size=SMALL, bold=True, fill=ink, anchor="mm")
    return sprite


def _badge_width(text: str) -> int:
    return _width(text, SMALL, True) + 8


def _badge(
    draw: Draw, center: tuple[float, float], text: str, fill: Color, ink: Color, outline: Color = Palette.ink
) -> None:
    sprite = _badge_sprite(text, fill, ink, outline)
    _stamp(draw, sprite, center[0] - (sprite.width - 1) / 2, center[1] - (sprite.height - 1) / 2)


def _badges(
    draw: Draw, center: tuple[float, float], items: Sequence[tuple[str, Color, Color]], gap: int = 3
) -> None:
    """Badges in a row centred on `center`."""
    widths = [_badge_width(text) for text, _, _ in items]
    x = center[0] - (sum(widths) + gap * (len(widths) - 1)) / 2
    for (text, fill, ink), width in zip(items, widths, strict=True):
        _badge(draw, (x + width / 2, center[1]), text, fill, ink)
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


def _disc(draw: Draw, center: tuple[float, float], resource: str, faded: bool = False) -> int:
    """The resource's disc centred on `center`; returns its width."""
    _, letter, fill, ink = RESOURCES.get(resource, (resource, resource[:1].upper(), WHITE, Palette.ink))
    if faded:
        fill, ink = _tint(fill, FADED), _tint(ink, 0.3)
    sprite = _disc_sprite(letter, fill, ink)
    _stamp(draw, sprite, center[0] - sprite.width / 2, center[1] - sprite.height / 2)
    return sprite.width


@lru_cache(maxsize=1024)
def _pill_sprite(text: str, fill: Color, ink: Color) -> Image.Image:
    width = _width(text, SMALL, True) + SMALL
    height = line_height(SMALL) + 2
    sprite = Image.new("RGBA", (width + 1, height + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    draw.rounded_rectangle((0, 0, width, height), radius=height // 2, fill=fill, outline=Palette.line)
    draw_text(draw, (width / 2, height / 2 + 1), text, size=SMALL, bold=True, fill=ink, anchor="mm")
    return sprite


def _pill(draw: Draw, x: float, y: float, text: str, fill: Color, ink: Color = WHITE) -> int:
    """A rounded label at (x, y); returns its width so pills can be laid in a row."""
    sprite = _pill_sprite(text, fill, ink)
    _stamp(draw, sprite, x, y)
    return sprite.width - 1


def _chip_text(label: str, count: int) -> str:
    """`label count`, or the label alone for a count below zero (a chip such as "nothing")."""
    return label if count < 0 else f"{label} {count}"


def _chips(
    draw: Draw, x: int, y: int, items: Sequence[tuple[str, int, Color, Color]], right: int = RIGHT
) -> int:
    """`label count` pills in rows from (x, y), wrapping at `right` (zero counts faded); returns the
    height used."""
    left, top = x, y
    step = line_height(SMALL) + 8
    for label, count, fill, ink in items:
        if count == 0:
            fill, ink = _tint(fill, 0.75), Palette.muted
        text = _chip_text(label, count)
        width = _width(text, SMALL, True) + SMALL
        if x + width > right and x > left:
            x, top = left, top + step
        x += _pill(draw, x, top, text, fill, ink) + 8
    return top - y + step


def _chip_rows(items: Sequence[tuple[str, int, Color, Color]], x: int, right: int = RIGHT) -> int:
    """How many rows `_chips` takes for `items` from `x`."""
    rows, at = 1, x
    for label, count, _, _ in items:
        width = _width(_chip_text(label, count), SMALL, True) + SMALL + 8
        if at + width - 8 > right and at > x:
            rows, at = rows + 1, x
        at += width
    return rows


def _state(view: CityHeroesView, seat: SeatView) -> tuple[str, Color]:
    """The guide's Active / Waiting / Passed."""
    if view.finished:
        return "Done", Palette.muted
    if seat.seat == view.current:
        return "Active", Palette.good
    if seat.passed:
        return "Passed", Palette.muted
    return "Waiting", (70, 70, 80)


def _paragraph(
    sheet: Sheet, text: str, size: int = SMALL, *, color: Color = Palette.ink, bold: bool = False
) -> None:
    """Wrapped text."""
    lines = wrap(text, INNER, size, bold=bold)

    def paint(draw: Draw, y: int) -> None:
        for index, line in enumerate(lines):
            _text(draw, (LEFT, y + index * line_height(size)), line, size, bold=bold, fill=color)

    sheet.block(len(lines) * line_height(size) + 6, paint)


def _sheet(marks: frozenset[str] = frozenset()) -> Sheet:
    return Sheet(width=WIDTH, changed=marks)


# ---- header lines -------------------------------------------------------------------------------
def _status(view: CityHeroesView) -> str:
    if view.finished:
        return "Game over"
    return f"Turn {view.turn}/{view.turns} · {PHASES.get(view.phase, view.phase.title())}"


def _header(sheet: Sheet, view: CityHeroesView) -> None:
    """One line: the turn and phase, then who acts in their colour."""
    status = _status(view)

    def paint(draw: Draw, y: int) -> None:
        _text(draw, (LEFT, y), status, LARGE, bold=True)
        sheet.mark("phase", (LEFT - 4, y - 2, LEFT + _width(status, LARGE, True) + 4, y + line_height(LARGE)))
        acting = list(view.to_act)
        if not acting or view.finished:
            return
        x = LEFT + _width(status, LARGE, True) + 18
        room = RIGHT - x - 30
        suffix = " to act"
        share = (room - _width(suffix, BODY, True)) // len(acting) - _width(", ", BODY, True)
        names = ", ".join(player_name(view.players[seat], max(share, 20), BODY, bold=True) for seat in acting)
        label = ellipsize(names + suffix, room, BODY, bold=True)
        mid = y + line_height(LARGE) // 2
        seat_dot(draw, (x + 11, mid), acting[0])
        _text(draw, (x + 28, mid), label, BODY, bold=True, fill=Palette.seat(acting[0]), anchor="lm")

    sheet.block(line_height(LARGE) + 6, paint)


def _prestige(sheet: Sheet, view: CityHeroesView) -> None:
    """The city's prestige against the rival's on one line: it decides whether anybody can win."""
    wins = view.prestige >= view.rival_prestige
    city_color = Palette.good if wins else Palette.bad
    growth = f" (+{view.rival_growth} at Cleanup)" if view.rival_growth and not view.finished else ""
    parts = [
        ("Prestige: ", Palette.muted, False, ""),
        (f"city {view.prestige}", city_color, True, "prestige"),
        ("  vs  ", Palette.muted, False, ""),
        (f"rival {view.rival_prestige}", Palette.ink, True, "rival"),
        (growth, Palette.muted, False, "rival"),
    ]
    verdict = "" if view.finished else ("a winner possible" if wins else "behind: all lose")

    def paint(draw: Draw, y: int) -> None:
        x = LEFT
        for text, color, bold, key in parts:
            if not text:
                continue
            _text(draw, (x, y), text, BODY, bold=bold, fill=color)
            width = _width(text, BODY, bold)
            if key:
                sheet.mark(key, (x - 4, y - 2, x + width + 4, y + line_height(BODY)))
            x += width
        room = RIGHT - x - 12
        if verdict and _width(verdict, SMALL, True) <= room:
            _text(draw, (RIGHT, y + 2), verdict, SMALL, bold=True, fill=city_color, anchor="ra")

    sheet.block(line_height(BODY) + 8, paint)


# ---- the score strip ----------------------------------------------------------------------------
STRIP = (("Score", 372), ("Infl", 456), ("Ducats", 566), ("Workers", 682), ("Tiles", RIGHT - 2))
"""Column label and right edge of the score strip's numbers."""
STRIP_KEYS = ("score", "influence", "ducats", "workers", "tiles")


def _strip_values(seat: SeatView) -> tuple[str, ...]:
    return (
        str(seat.score),
        str(seat.influence),
        str(seat.ducats),
        f"{seat.ready}/{seat.workers}",
        str(seat.tiles),
    )


def _strip(sheet: Sheet, view: CityHeroesView) -> None:
    """One row per city with the numbers that decide the next move; the acting row is tinted."""
    name_right = STRIP[0][1] - _width("Score", SMALL, True) - 16

    def paint(draw: Draw, y: int) -> None:
        for label, right in STRIP:
            _text(draw, (right, y), label, SMALL, bold=True, fill=Palette.muted, anchor="ra")
        for index, seat in enumerate(view.seats):
            top = y + ROW + index * ROW
            acting = seat.seat in view.to_act and not view.finished
            color = Palette.seat(seat.seat)
            fill = _tint(color, 0.8) if acting else (Palette.panel if index % 2 == 0 else Palette.background)
            draw.rectangle((LEFT - 6, top, RIGHT + 6, top + ROW - 2), fill=fill)
            mid = top + ROW // 2 - 1
            seat_dot(draw, (LEFT + 11, mid), seat.seat)
            x = LEFT + 28
            if acting:
                _text(draw, (x, mid), ACTING, SMALL, bold=True, fill=Palette.ink, anchor="lm")
            x += _width(ACTING, SMALL, True) + 6
            suffix = f" {PASSED}" if seat.passed and not view.finished else ""
            name, _ = fit_name(seat.name, name_right - x, SMALL, suffix=suffix, bold=True)
            _text(
                draw,
                (x, mid),
                name,
                SMALL,
                bold=True,
                fill=Palette.muted if suffix else Palette.ink,
                anchor="lm",
            )
            sheet.mark(f"state:{seat.seat}", (x - 4, top, x + _width(name, SMALL, True) + 4, top + ROW - 2))
            for (label, right), value, key in zip(STRIP, _strip_values(seat), STRIP_KEYS, strict=True):
                _text(draw, (right, mid), value, SMALL, bold=True, anchor="rm")
                left = right - max(_width(label, SMALL, True), _width(value, SMALL, True))
                sheet.mark(f"{key}:{seat.seat}", (left - 6, top, right + 4, top + ROW - 2))

    sheet.block(ROW * (1 + len(view.seats)) + 6, paint)


def _notices(sheet: Sheet, view: CityHeroesView) -> None:
    """An open trade offer (the turn picture is public: its terms are in the parties' hand pictures)
    and a pillage being resolved."""
    lines: list[tuple[str, Color, str]] = []
    if view.proposal is not None:
        proposer = _name(view.players[view.proposal.proposer], SMALL, bold=True)
        partner = _name(view.players[view.proposal.partner], SMALL, bold=True)
        lines.append(
            (f"Trade offer: {proposer} → {partner}, waiting for an answer.", Palette.accent, "offer")
        )
    if view.raid is not None:
        raid = view.raid
        lines.append(
            (
                f"{_name(view.players[raid.attacker], SMALL, bold=True)} pillages T{raid.tile} of "
                f"{_name(view.players[raid.defender], SMALL, bold=True)}: "
                f"{raid.loot} loot, {raid.casualties} casualties.",
                Palette.bad,
                "raid",
            )
        )
    for text, color, key in lines:
        wrapped = wrap(text, INNER, SMALL, bold=True)[:2]

        def paint(
            draw: Draw, y: int, wrapped: list[str] = wrapped, color: Color = color, key: str = key
        ) -> None:
            for index, line in enumerate(wrapped):
                _text(draw, (LEFT, y + 6 + index * line_height(SMALL)), line, SMALL, bold=True, fill=color)
            sheet.mark(key, (LEFT - 8, y, RIGHT + 8, y + len(wrapped) * line_height(SMALL) + 10))

        sheet.block(len(wrapped) * line_height(SMALL) + 14, paint)


def _footer(sheet: Sheet) -> None:
    text = "Key: /board section:key · goods, workers: section:cities"
    text = ellipsize(text, INNER, SMALL)
    sheet.block(
        line_height(SMALL) + 2, lambda draw, y: _text(draw, (LEFT, y + 2), text, SMALL, fill=Palette.muted)
    )


# ---- the map ------------------------------------------------------------------------------------
class _Geometry:
    """Pointy-top hexes in axial coordinates, `s` px from centre to corner, centred on the sheet."""

    def __init__(self, radius: int, s: float, width: int = WIDTH) -> None:
        self.s = s
        self.w = s * math.sqrt(3)
        self.height = int(s * (2 + 3 * radius)) + 6
        self.cx = width / 2
        self.radius = radius

    @classmethod
    def fitting(cls, radius: int, height: int, width: int = WIDTH) -> _Geometry:
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


def _hatch(image: Image.Image, polygon: list[tuple[float, float]]) -> None:
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


def _map(
    sheet: Sheet,
    view: CityHeroesView,
    geo: _Geometry,
    *,
    prices: dict[int, int] | None = None,
    budget: int = 0,
    buyer: int | None = None,
) -> None:
    """The hex map; with `prices` (tile -> ducats) the buyable overlay: affordable tiles outlined in yellow
    with a gold coin, dearer neutral tiles with a grey coin, the rest faded. A changed tile (a mark
    "tile:<id>") gets a magenta hexagon rather than the sheet's rectangle, which would cover its
    neighbours' badges."""
    band = max(6, round(geo.s * 0.15))

    def paint(draw: Draw, y: int) -> None:
        image = _canvas(draw)
        s = geo.s
        changed: list[tuple[float, float]] = []
        for tile in view.tiles:
            center = geo.center(tile, y)
            terrain = HILL if tile.terrain == "hill" else PLAIN
            buyable = prices is not None and tile.id in prices and prices[tile.id] <= budget
            faded = prices is not None and not buyable and (buyer is None or tile.owner != buyer)
            if faded:
                terrain = _tint(terrain, FADED)
            outer = geo.corners(center, s - 1.5)
            inner = geo.corners(center, s - 1.5 - band)
            if buyable:
                draw.polygon(outer, fill=Palette.ink)
                draw.polygon(geo.corners(center, s - 4), fill=BUY)
                draw.polygon(inner, fill=terrain)
            elif tile.owner is not None:
                color = Palette.seat(tile.owner)
                draw.polygon(outer, fill=_tint(color, FADED) if faded else color)
                draw.polygon(inner, fill=terrain)
            else:
                draw.polygon(outer, fill=terrain, outline=EDGE, width=2)
            if tile.pillaged:
                _hatch(image, inner)
            _tile_content(draw, tile, center, s, faded)
            if prices is not None and tile.id in prices:
                _coin(draw, (center[0], center[1] + 0.52 * s), prices[tile.id], buyable)
            if f"tile:{tile.id}" in sheet.changed:
                changed.append(center)
        for center in changed:  # after every tile, so no neighbour paints over a frame
            draw.polygon(geo.corners(center, s - 1), outline=Palette.changed, width=6)
            draw.polygon(geo.corners(center, s - 7), outline=WHITE, width=2)

    sheet.block(geo.height, paint)


def _tile_items(tile: TileView, faded: bool) -> list[tuple[str, Color, Color]]:
    """The tile's badges: its House-track building beyond a plain House, its building or public work."""
    items: list[tuple[str, Color, Color]] = []
    for key in (tile.house if tile.house != "house" else None, tile.building):
        if key:
            fill, ink = LEVEL_FILL.get(_level(key), LEVEL_FILL[1])
            items.append((_code(key), fill, ink))
    if tile.work:
        fill, ink = WORK_DONE if tile.stages >= tile.stages_needed else WORK_FILL
        items.append((_code(tile.work), fill, ink))
    if faded:
        items = [(text, _tint(fill, FADED), _tint(ink, 0.3)) for text, fill, ink in items]
    return items


def _tile_content(draw: Draw, tile: TileView, center: tuple[float, float], s: float, faded: bool) -> None:
    """Three rows in the hex: number and resource disc; badges; work stages and garrison."""
    x, y = center
    top, bottom = y - 0.53 * s, y + 0.5 * s
    ink = Palette.bad if tile.pillaged else Palette.ink
    if faded:
        ink = _tint(ink, 0.35)
    number = str(tile.id)
    disc = line_height(SMALL) + 2 if tile.resource else 0
    width = _width(number, SMALL, True) + (disc + 3 if disc else 0)
    left = x - width / 2
    _text(draw, (left, top + 1), number, SMALL, bold=True, fill=ink, anchor="lm")
    if tile.resource:
        _disc(draw, (left + width - disc / 2, top), tile.resource, faded)
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
            marks = [(text, _tint(fill, FADED), ink) for text, fill, ink in marks]
        _badges(draw, (x, bottom), marks, gap=2)


def _coin(draw: Draw, center: tuple[float, float], price: int, affordable: bool) -> None:
    x, y = center
    text = "free" if price == 0 else str(price)
    radius = max(16, _width(text, SMALL, True) // 2 + 7)
    fill, edge, ink = (
        (COIN, COIN_EDGE, Palette.ink) if affordable else ((206, 206, 210), (130, 130, 136), (80, 80, 86))
    )
    draw.ellipse((x - radius, y - 16, x + radius, y + 16), fill=fill, outline=edge, width=3)
    _text(draw, (x, y + 1), text, SMALL, bold=True, fill=ink, anchor="mm")


def _fitted_map(sheet: Sheet, view: CityHeroesView, below: int = 0) -> None:
    """The map scaled into what is left of `MAX_HEIGHT` once `below` px more are added after it."""
    room = MAX_HEIGHT - sheet.used - below
    _map(sheet, view, _Geometry.fitting(view.radius, room))


# ---- the final result ---------------------------------------------------------------------------
SCORE_COLUMNS = (("Infl", 392), ("Res", 470), ("Goods×2", 592), ("Duc÷3", 688), ("Total", RIGHT - 2))


def _result(sheet: Sheet, view: CityHeroesView) -> None:
    wins = bool(view.city_wins)
    verdict = (
        f"The city ({view.prestige} prestige) beat the rival ({view.rival_prestige}): the most influence wins."
        if wins
        else f"The city's prestige {view.prestige} is below the rival's {view.rival_prestige}: everybody loses."
    )
    _paragraph(sheet, verdict, size=BODY, bold=True, color=Palette.good if wins else Palette.bad)
    lines = view.scoreboard or []
    if not lines:
        return
    name_right = SCORE_COLUMNS[0][1] - _width("Infl", SMALL, True) - 14

    def paint(draw: Draw, y: int) -> None:
        _text(
            draw,
            (LEFT, y),
            "Final influence" if wins else "Influence (nobody wins)",
            SMALL,
            bold=True,
            fill=Palette.accent,
        )
        for label, right in SCORE_COLUMNS:
            _text(draw, (right, y), label, SMALL, bold=True, fill=Palette.muted, anchor="ra")
        for index, line in enumerate(lines):
            top = y + ROW + index * ROW
            winner = wins and line.place == 1
            color = Palette.seat(line.seat)
            fill = _tint(color, 0.75) if winner else (Palette.panel if index % 2 == 0 else Palette.background)
            draw.rectangle((LEFT - 6, top, RIGHT + 6, top + ROW - 2), fill=fill)
            mid = top + ROW // 2 - 1
            _text(draw, (LEFT, mid), f"{line.place}.", SMALL, bold=True, anchor="lm")
            seat_dot(draw, (LEFT + 44, mid), line.seat)
            tag = " wins" if winner else ""
            name, _ = fit_name(line.name, name_right - LEFT - 62, SMALL, suffix=tag, bold=True)
            _text(draw, (LEFT + 62, mid), name, SMALL, bold=True, anchor="lm")
            values = (
                str(line.influence),
                str(line.naturals),
                str(2 * line.goods),
                str(line.ducats // 3),
                str(line.score),
            )
            for (_, right), value in zip(SCORE_COLUMNS, values, strict=True):
                _text(draw, (right, mid), value, SMALL, bold=True, anchor="rm")

    sheet.block(ROW * (1 + len(lines)) + 8, paint)


# ---- the hand picture ---------------------------------------------------------------------------
def _hand(view: CityHeroesView) -> bytes:
    """Only what this seat sees beyond the board: the terms of an offer it is party to, and its own
    stock to weigh them against."""
    assert view.seat is not None
    seat = view.seats[view.seat]
    sheet = _sheet()
    status = f" · {_status(view)}"
    room = INNER - _width("City Heroes · " + status, BODY, True)
    text = ellipsize(
        f"City Heroes · {player_name(seat.name, room, BODY, bold=True)}{status}", INNER, BODY, bold=True
    )
    sheet.block(line_height(BODY) + 8, lambda draw, y: _text(draw, (LEFT, y), text, BODY, bold=True))
    proposal = view.proposal
    if proposal is not None and proposal.give is not None and proposal.get is not None:
        _offer(sheet, view, proposal.proposer, proposal.partner, proposal.give, proposal.get)
    else:
        _paragraph(
            sheet,
            "Nothing private right now: everything you have is on the board.",
            size=BODY,
            color=Palette.muted,
        )
    _own_stock(sheet, seat)
    return to_png(sheet.image())


def _goods_items(goods: dict[str, int]) -> list[tuple[str, int, Color, Color]]:
    items = []
    for key, count in goods.items():
        if not count:
            continue
        if key in RESOURCES:
            label, _, fill, ink = RESOURCES[key]
        elif key == "ducats":
            label, fill, ink = "Ducats", COIN, Palette.ink
        else:
            label, fill, ink = GOODS.get(key, key.title()), WHITE, Palette.ink
        items.append((label, count, fill, ink))
    return items


def _offer(
    sheet: Sheet, view: CityHeroesView, proposer: int, partner: int, give: dict[str, int], get: dict[str, int]
) -> None:
    mine = view.seat == partner
    sheet.block(
        line_height(BODY) + 6,
        lambda draw, y: _text(draw, (LEFT, y), "Trade offer", BODY, bold=True, fill=Palette.accent),
    )
    for who, goods in ((proposer, give), (partner, get)):
        label = f"{_name(view.players[who], SMALL, bold=True)} gives" + (" (you)" if who == view.seat else "")
        items = _goods_items(goods) or [("nothing", -1, WHITE, Palette.ink)]
        rows = _chip_rows(items, LEFT + 20)
        label_text = ellipsize(label, INNER, SMALL, bold=True)

        def paint(draw: Draw, y: int, who: int = who, items=items, label_text=label_text) -> None:  # noqa: ANN001
            seat_dot(draw, (LEFT + 11, y + line_height(SMALL) // 2), who)
            _text(draw, (LEFT + 28, y), label_text, SMALL, bold=True)
            _chips(draw, LEFT + 20, y + line_height(SMALL) + 6, items)

        sheet.block(line_height(SMALL) + 6 + rows * (line_height(SMALL) + 8) + 6, paint)
    note = "You may accept or decline it." if mine else "Waiting for the answer; you may cancel it."
    _paragraph(sheet, note, size=SMALL, bold=True, color=Palette.accent)


def _stock_items(
    seat: SeatView,
) -> tuple[list[tuple[str, int, Color, Color]], list[tuple[str, int, Color, Color]]]:
    naturals = [
        (label, seat.stock.get(key, 0), fill, ink) for key, (label, _, fill, ink) in RESOURCES.items()
    ]
    goods = [(label, seat.stock.get(key, 0), WHITE, Palette.ink) for key, label in GOODS.items()]
    return [("Ducats", seat.ducats, COIN, Palette.ink), *naturals], goods


def _own_stock(sheet: Sheet, seat: SeatView) -> None:
    naturals, goods = _stock_items(seat)
    sheet.block(
        line_height(BODY) + 6,
        lambda draw, y: _text(draw, (LEFT, y), "Your stock", BODY, bold=True, fill=Palette.accent),
    )
    for items in (naturals, goods):
        rows = _chip_rows(items, LEFT)
        sheet.block(
            rows * (line_height(SMALL) + 8) + 2, lambda draw, y, items=items: _chips(draw, LEFT, y, items)
        )


# ---- sections -----------------------------------------------------------------------------------
def _buildings(view: CityHeroesView, seat: int) -> str:
    """The seat's buildings and public works with their tiles, a building it has several of named once
    ("Market T20 T26 T32"), so a big city's list stays short."""
    where: dict[str, list[str]] = {}
    for tile in view.tiles:
        if tile.owner != seat:
            continue
        for key in (tile.house if tile.house != "house" else None, tile.building):
            if key:
                where.setdefault(_building_name(key), []).append(f"T{tile.id}")
        if tile.work:
            name = f"{_work_name(view, tile.work)} {tile.stages}/{tile.stages_needed}"
            where.setdefault(name, []).append(f"T{tile.id}")
    return ", ".join(f"{name} {' '.join(tiles)}" for name, tiles in where.items()) or "only Houses"


def _city_panel(sheet: Sheet, view: CityHeroesView, seat: SeatView) -> None:
    """A city's full panel: state, workers by pool, ducats, influence, tokens, stock and buildings."""
    color = Palette.seat(seat.seat)
    state, state_color = _state(view, seat)
    facts = (
        f"Workers {seat.workers}: Ready {seat.ready}, Busy {seat.busy}, Idle {seat.idle} · Ducats {seat.ducats}"
        f" · Influence {seat.influence} · Score now {seat.score} · Tiles {seat.tiles}"
        + (f" · Pillage tokens {seat.pillage_tokens}" if seat.pillage_tokens else "")
    )
    fact_lines = wrap(facts, INNER - 20, SMALL)
    naturals, goods = _stock_items(seat)
    naturals = naturals[1:]  # the ducats are in the facts line
    building_lines = wrap("Buildings: " + _buildings(view, seat.seat), INNER - 20, SMALL)[:4]
    chip_rows = _chip_rows(naturals, LEFT + 20) + _chip_rows(goods, LEFT + 20)
    step = line_height(SMALL) + 8
    height = (
        line_height(LARGE)
        + 8
        + len(fact_lines) * line_height(SMALL)
        + 6
        + chip_rows * step
        + len(building_lines) * line_height(SMALL)
        + 16
    )

    def paint(draw: Draw, y: int) -> None:
        draw.rounded_rectangle(
            (LEFT - 8, y, RIGHT + 8, y + height - 8), radius=10, fill=Palette.panel, outline=color, width=3
        )
        draw.rectangle((LEFT - 6, y + 8, LEFT, y + height - 16), fill=color)
        x = LEFT + 12
        state_width = _width(state, SMALL, True) + SMALL
        name, size = fit_name(seat.name, INNER - state_width - 40, LARGE, bold=True, minimum=SMALL)
        _text(draw, (x, y + 6), name, size, bold=True)
        _pill(draw, x + _width(name, size, True) + 12, y + 8, state, state_color)
        top = y + line_height(LARGE) + 8
        for line in fact_lines:
            _text(draw, (x, top), line, SMALL)
            top += line_height(SMALL)
        top += 6
        top += _chips(draw, LEFT + 20, top, naturals)
        top += _chips(draw, LEFT + 20, top, goods)
        for line in building_lines:
            _text(draw, (x, top), line, SMALL, fill=Palette.muted)
            top += line_height(SMALL)

    sheet.block(height, paint)


def render_cities(view: View) -> bytes:
    """Every city's full panel: what the turn picture's score strip leaves out."""
    game = _game(view)
    sheet = _sheet()
    sheet.title("City Heroes · cities", subtitle=_status(game))
    for seat in game.seats:
        _city_panel(sheet, game, seat)
    return to_png(sheet.image())


Symbol = Callable[[Draw, int, int], int]
"""Draws a symbol of the key with its left edge at x, in the row at y; returns its width."""


def _swatch(fill: Color, outline: Color = EDGE, width: int = 1) -> Symbol:
    def paint(draw: Draw, x: int, y: int) -> int:
        draw.rounded_rectangle(
            (x, y + 3, x + 40, y + ROW - 6), radius=4, fill=fill, outline=outline, width=width
        )
        return 40

    return paint


def _badge_symbol(text: str, fill: Color, ink: Color) -> Symbol:
    def paint(draw: Draw, x: int, y: int) -> int:
        width = _badge_width(text)
        _badge(draw, (x + width / 2, y + ROW / 2 - 2), text, fill, ink)
        return width

    return paint


def _disc_symbol(resource: str) -> Symbol:
    return lambda draw, x, y: _disc(draw, (x + 15, y + ROW / 2 - 2), resource)


def _text_symbol(text: str) -> Symbol:
    def paint(draw: Draw, x: int, y: int) -> int:
        _text(draw, (x, y + 2), text, SMALL, bold=True)
        return _width(text, SMALL, True)

    return paint


def _hatch_symbol(draw: Draw, x: int, y: int) -> int:
    box = [(x, y + 3), (x + 40, y + 3), (x + 40, y + ROW - 6), (x, y + ROW - 6)]
    draw.polygon(box, fill=PLAIN)
    _hatch(_canvas(draw), box)
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
    rows = _legend_rows()

    def paint(draw: Draw, y: int) -> None:
        for index, row in enumerate(rows):
            top, x = y + index * ROW, LEFT
            for symbol, meaning in row:
                x += symbol(draw, x, top) + 10
                if meaning:
                    text = ellipsize(meaning, RIGHT - x, SMALL)
                    _text(draw, (x, top + 2), text, SMALL)
                    x += _width(text, SMALL) + 24

    sheet.block(len(rows) * ROW + 8, paint)


STRIP_WORDS = (
    "Score: influence if the game ended now (influence + resources + 2 per good + ducats ÷ 3). "
    "Infl: influence. Workers: Ready / all workers. Prestige: the city's against the rival's; "
    "below the rival at the end, everybody loses."
)


def render_key(view: View) -> bytes:
    """Every symbol, colour and building code on the pictures."""
    _game(view)
    return _key_png()


@cache
def _key_png() -> bytes:
    """The key depends on no view, so it is drawn once."""
    sheet = _sheet()
    sheet.title("City Heroes · key")
    _legend(sheet)
    _paragraph(sheet, STRIP_WORDS, size=SMALL, color=Palette.muted)
    sheet.heading("Building and public work codes")
    entries = sorted(CODES.items(), key=lambda item: item[1].lower())
    half = math.ceil(len(entries) / 2)
    column = INNER // 2

    def codes(draw: Draw, y: int) -> None:
        for index, (key, code) in enumerate(entries):
            x = LEFT + (index // half) * column
            top = y + (index % half) * ROW
            is_work = key in _catalogue()[1]
            fill, ink = WORK_FILL if is_work else LEVEL_FILL.get(_level(key), LEVEL_FILL[1])
            width = _badge_width(code)
            _badge(draw, (x + width / 2, top + ROW / 2 - 2), code, fill, ink)
            name = _catalogue()[1].get(key) if is_work else _building_name(key)
            _text(draw, (x + 50, top + 2), ellipsize(name or key, column - 58, SMALL), SMALL)

    sheet.block(half * ROW + 8, codes)
    return to_png(sheet.image())


# ---- entry points -------------------------------------------------------------------------------
def _game(view: View) -> CityHeroesView:
    assert isinstance(view, CityHeroesView), "renderer.city_heroes draws City Heroes views"
    return view


def render(view: View, *, marks: frozenset[str] = frozenset()) -> bytes:
    """The turn picture, the final picture, or (for a seat's view) the hand picture."""
    game = _game(view)
    if game.seat is not None:
        return _hand(game)
    sheet = _sheet(marks)
    if game.finished:
        sheet.block(
            line_height(LARGE) + 6,
            lambda draw, y: _text(draw, (LEFT, y), "City Heroes · Game over", LARGE, bold=True),
        )
        _result(sheet, game)
    else:
        _header(sheet, game)
        _prestige(sheet, game)
        _strip(sheet, game)
        _notices(sheet, game)
    footer = line_height(SMALL) + 2
    _fitted_map(sheet, game, below=footer)
    _footer(sheet)
    return to_png(sheet.image())


def buy_prices(view: CityHeroesView, seat: int) -> dict[int, int]:
    """Neutral tile -> what `seat` would pay for it now (the Expansion rule: the first tile is free, then
    1 ducat + 1 per tile between it and the nearest tile the seat owns, +1 for a Hill); empty when the
    seat has no Ready worker or as many tiles as workers."""
    player = view.seats[seat]
    mine = [tile for tile in view.tiles if tile.owner == seat]
    if player.ready < 1 or len(mine) + 1 > player.workers:
        return {}
    prices = {}
    for tile in view.tiles:
        if tile.owner is not None:
            continue
        if not mine:
            prices[tile.id] = 0
            continue
        nearest = min(_distance(tile, other) for other in mine)
        prices[tile.id] = nearest + (1 if tile.terrain == "hill" else 0)
    return prices


def _distance(a: TileView, b: TileView) -> int:
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _full_map(view: CityHeroesView) -> _Geometry:
    """The map as wide as the sheet allows: sections may be taller than a phone screen."""
    return _Geometry.fitting(view.radius, 10_000)


def render_buyable(view: View, seat: int | None = None) -> bytes:
    """The map with the tiles `seat` (default: the view's seat, else the acting player) could buy now."""
    game = _game(view)
    if seat is None:
        seat = game.seat if game.seat is not None else game.current
    sheet = _sheet()
    headline = with_names(game.headline, game.players, 24)
    if seat is None or not 0 <= seat < len(game.seats):
        sheet.title("City Heroes · tiles for sale", subtitle=headline)
        _paragraph(sheet, "Nobody is buying: the game is over.", size=BODY, bold=True)
        _map(sheet, game, _full_map(game))
        return to_png(sheet.image())
    player = game.seats[seat]
    prices = buy_prices(game, seat)
    affordable = {tile: price for tile, price in prices.items() if price <= player.ducats}
    name = _name(player.name, BODY, bold=True)
    sheet.title(f"City Heroes · tiles {_name(player.name, 40)} can buy", subtitle=headline)
    for text, color in _buy_notes(game, seat, prices, affordable):
        _paragraph(sheet, text.format(name=name), size=BODY, bold=True, color=color)
    _map(sheet, game, _full_map(game), prices=prices, budget=player.ducats, buyer=seat)
    _paragraph(
        sheet,
        "Yellow outline + gold coin: a tile this player can buy now, at that price in ducats; grey coin: "
        "the price is more than they have; faded: not for sale to them. Symbols: /board section:key.",
        size=SMALL,
        color=Palette.muted,
    )
    return to_png(sheet.image())


def _buy_notes(
    game: CityHeroesView, seat: int, prices: dict[int, int], affordable: dict[int, int]
) -> list[tuple[str, Color]]:
    """Why the buyer can or cannot buy, in words ({name} is the buyer's fitted name)."""
    player = game.seats[seat]
    notes: list[tuple[str, Color]] = []
    if game.finished:
        notes.append(("The game is over: nothing can be bought.", Palette.bad))
    elif game.phase != "expansion":
        notes.append(
            ("Tiles are bought in the Expansion: these are the prices if it were now.", Palette.muted)
        )
    mine = sum(1 for tile in game.tiles if tile.owner == seat)
    if player.ready < 1:
        notes.append(("{name} has no Ready worker, so can buy no tile now.", Palette.bad))
    elif mine + 1 > player.workers:
        notes.append(
            (
                f"{{name}} owns {mine} tiles with {player.workers} workers: no more tiles until a new worker.",
                Palette.bad,
            )
        )
    elif not prices:
        notes.append(("No neutral tile is left.", Palette.bad))
    else:
        cheapest = min(prices.values())
        count = len(affordable)
        notes.append(
            (
                f"{{name}}: {count} tile{'s' if count != 1 else ''} affordable with {words.count(player.ducats, 'ducat')}"
                + (f" (cheapest {cheapest})." if cheapest else " (the first tile is free)."),
                Palette.ink,
            )
        )
    return notes


# ---- what changed -------------------------------------------------------------------------------
def changes(old: View, new: View) -> Changes:
    """The tiles and score-strip cells that differ between two views, and the same in words."""
    before, after = _game(old), _game(new)
    marks: set[str] = set()
    lines: list[str] = []
    if (before.turn, before.phase) != (after.turn, after.phase):
        marks.add("phase")
        lines.append(change("Now", _status(before), _status(after)))
    if before.prestige != after.prestige:
        marks.add("prestige")
        lines.append(change("City prestige", before.prestige, after.prestige))
    if before.rival_prestige != after.rival_prestige or before.rival_growth != after.rival_growth:
        marks.add("rival")
        if before.rival_prestige != after.rival_prestige:
            lines.append(change("Rival prestige", before.rival_prestige, after.rival_prestige))
    for seat_before, seat_after in zip(before.seats, after.seats, strict=False):
        _seat_changes(seat_before, seat_after, marks, lines)
    olds = {tile.id: tile for tile in before.tiles}
    for tile in after.tiles:
        old_tile = olds.get(tile.id)
        if old_tile is not None and old_tile != tile:
            marks.add(f"tile:{tile.id}")
            lines.extend(_tile_lines(after, old_tile, tile))
    if before.proposal != after.proposal:
        marks.add("offer")
        lines.append("A trade offer is open." if after.proposal is not None else "The trade offer is closed.")
    if before.raid != after.raid and after.raid is not None:
        marks.add("raid")
        lines.append(f"A pillage of T{after.raid.tile} is being resolved.")
    return Changes(marks=frozenset(marks), lines=tuple(lines))


def _who(name: str) -> str:
    return player_name(name, NAME_WIDTH, BANNER_SIZE)


def _seat_changes(old: SeatView, new: SeatView, marks: set[str], lines: list[str]) -> None:
    name = _who(new.name)
    said: list[str] = []
    for key, label, a, b in (
        ("score", "score", old.score, new.score),
        ("influence", "influence", old.influence, new.influence),
        ("ducats", "ducats", old.ducats, new.ducats),
        ("workers", "workers", f"{old.ready}/{old.workers}", f"{new.ready}/{new.workers}"),
        ("tiles", "tiles", old.tiles, new.tiles),
    ):
        if a != b:
            marks.add(f"{key}:{new.seat}")
            said.append(change(label, a, b))
    if old.passed != new.passed:
        marks.add(f"state:{new.seat}")
        said.append("passed" if new.passed else "back in play")
    if said:
        lines.append(f"{name}: " + ", ".join(said) + ".")


def _tile_lines(view: CityHeroesView, old: TileView, new: TileView) -> list[str]:
    where = f"T{new.id}"
    lines: list[str] = []
    if old.owner != new.owner:
        lines.append(
            f"{where} now belongs to {_who(view.players[new.owner])}."
            if new.owner is not None
            else f"{where} is neutral again."
        )
    for key_old, key_new in ((old.house, new.house), (old.building, new.building)):
        if key_new and key_new != key_old and key_new != "house":
            lines.append(f"{where}: {_building_name(key_new)} built.")
    if new.work and (old.work != new.work or old.stages != new.stages):
        lines.append(f"{where}: {_work_name(view, new.work)} {new.stages}/{new.stages_needed} stages.")
    if old.garrison != new.garrison or old.spent != new.spent:
        lines.append(
            change(f"{where} garrison", old.garrison, new.garrison)
            + (f" ({new.spent} spent)" if new.spent else "")
        )
    if new.pillaged and not old.pillaged:
        lines.append(f"{where} was pillaged.")
    if old.resource != new.resource and new.resource:
        lines.append(f"{where}: {RESOURCES.get(new.resource, (new.resource,))[0]} planted.")
    return lines


def _buyable_overlay(view: View, target: str | None) -> bytes:
    return render_buyable(view)


OVERLAYS = (
    Overlay(
        name="buyable",
        description="The tiles the acting player could buy now, with their price",
        draw=_buyable_overlay,
    ),
    Overlay(
        name="cities",
        description="Each city in full: workers, ducats, influence, resources, goods, buildings",
        draw=lambda view, target: render_cities(view),
    ),
    Overlay(
        name="key",
        description="What every letter, code, colour and mark on the pictures means",
        draw=lambda view, target: render_key(view),
    ),
)
