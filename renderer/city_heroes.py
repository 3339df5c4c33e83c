"""City Heroes pictures, drawn from a view only: the city map, the players' panels, the final result.

`render(view)` draws, top to bottom:
- the title, the turn and phase (Expansion > Construction > Interaction) and who acts;
- the city's prestige against the rival's as two bars (with the rival's gain at the next Cleanup);
- a line for an open trade offer or pillage: its terms only in the view of a seat party to the offer;
- one panel per player: seat colour, Active / Waiting / Passed, the Ready / Busy / Idle worker pools,
  ducats, influence, tiles, pillage tokens, the score if the game ended now, natural resources, goods;
- the hexagonal map: tiles coloured by terrain (Hill grey, Plain green) with their number (T1...) and
  resource, a band in the owner's colour, badges for buildings (fill = level) and public works (stages
  done / needed, a tick when finished), the garrison (grey: weapons spent this turn), red stripes on
  pillaged tiles; then a key of the badges shown.
A finished game starts with the verdict (the city against the rival decides whether anybody wins) and the
influence breakdown per player, then the final map and key.

`render_buyable(view, seat=None)` draws the headline, the buyer's panel and the map with the tiles that
player could buy now outlined in yellow with their price on a gold coin (unaffordable neutral tiles get a
grey coin, other tiles are faded). The buyer is `seat`, else the view's own seat, else the acting player.

Everything comes from the view (plus the static names and levels of `data/city_heroes`), so nothing
hidden can leak. Labels, badges and chips recur on every board, so their bitmaps are cached and pasted:
a late 5-player board renders in ~55 ms (~185 ms before caching, or on a cold start).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache, lru_cache

from PIL import Image, ImageChops, ImageDraw

from renderer.canvas import (
    MARGIN,
    NAME_WIDTH,
    WIDTH,
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
from renderer.registry import Overlay
from rules.city_heroes.state import CityHeroesView, SeatView, TileView
from rules.core import View

Draw = ImageDraw.ImageDraw

LEFT = MARGIN
RIGHT = WIDTH - MARGIN
INNER = RIGHT - LEFT
BODY = 24
SMALL = 22
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

RESOURCES: dict[str, tuple[str, Color, Color]] = {
    "wheat": ("Wheat", (236, 206, 120), Palette.ink),
    "timber": ("Timber", (120, 78, 36), WHITE),
    "stone": ("Stone", (84, 92, 110), WHITE),
    "iron": ("Iron", (150, 54, 40), WHITE),
    "gold": ("Gold", (255, 214, 0), Palette.ink),
}
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
    "apartment": "Ap3",
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
"""Map codes of buildings and public works; an id missing here gets its initials."""
PHASES = (("expansion", "Expansion"), ("construction", "Construction"), ("interaction", "Interaction"))


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
    return "".join(part[:1].upper() for part in key.split("-"))[:3] or "?"


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
def _badge_sprite(text: str, fill: Color, ink: Color, size: int, outline: Color) -> Image.Image:
    width, height = _badge_width(text, size), line_height(size) + 2
    sprite = Image.new("RGBA", (width + 1, height + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    draw.rounded_rectangle((0, 0, width, height), radius=6, fill=fill, outline=outline, width=2)
    draw_text(draw, (width / 2, height / 2 + 1), text, size=size, bold=True, fill=ink, anchor="mm")
    return sprite


def _badge(
    draw: Draw,
    center: tuple[float, float],
    text: str,
    fill: Color,
    ink: Color,
    *,
    size: int = SMALL,
    outline: Color = Palette.ink,
) -> None:
    sprite = _badge_sprite(text, fill, ink, size, outline)
    _stamp(draw, sprite, center[0] - (sprite.width - 1) / 2, center[1] - (sprite.height - 1) / 2)


def _badge_width(text: str, size: int = SMALL) -> int:
    return _width(text, size, True) + 12


def _badges(
    draw: Draw, center: tuple[float, float], items: Sequence[tuple[str, Color, Color]], gap: int = 5
) -> None:
    """Badges in a row centred on `center`."""
    widths = [_badge_width(text) for text, _, _ in items]
    x = center[0] - (sum(widths) + gap * (len(widths) - 1)) / 2
    for (text, fill, ink), width in zip(items, widths, strict=True):
        _badge(draw, (x + width / 2, center[1]), text, fill, ink)
        x += width + gap


@lru_cache(maxsize=2048)
def _chip_sprite(text: str, fill: Color, ink: Color) -> Image.Image:
    width = _width(text, SMALL, True) + 16
    height = line_height(SMALL) + 4
    sprite = Image.new("RGBA", (width + 1, height + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    draw.rounded_rectangle((0, 0, width, height), radius=8, fill=fill, outline=Palette.line, width=1)
    draw_text(draw, (8, height / 2 + 1), text, size=SMALL, bold=True, fill=ink, anchor="lm")
    return sprite


def _chip(draw: Draw, x: int, y: int, label: str, count: int, fill: Color, ink: Color) -> int:
    """`label count` on a coloured chip (zero counts faded); returns the chip's width."""
    if count == 0:
        fill, ink = _tint(fill, 0.75), Palette.muted
    sprite = _chip_sprite(f"{label} {count}", fill, ink)
    _stamp(draw, sprite, x, y)
    return sprite.width - 1


@lru_cache(maxsize=1024)
def _pill_sprite(text: str, fill: Color, ink: Color, size: int) -> Image.Image:
    width = _width(text, size, True) + size
    height = line_height(size) + 4
    sprite = Image.new("RGBA", (width + 1, height + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    draw.rounded_rectangle((0, 0, width, height), radius=height // 2, fill=fill)
    draw_text(draw, (width / 2, height / 2 + 1), text, size=size, bold=True, fill=ink, anchor="mm")
    return sprite


def _pill(draw: Draw, x: int, y: int, text: str, fill: Color, ink: Color = WHITE, size: int = SMALL) -> int:
    sprite = _pill_sprite(text, fill, ink, size)
    _stamp(draw, sprite, x, y)
    return sprite.width - 1


def _state(view: CityHeroesView, seat: SeatView) -> tuple[str, Color]:
    """The guide's Active / Waiting / Passed."""
    if view.finished:
        return "Done", Palette.muted
    if seat.seat == view.current:
        return "Active", Palette.good
    if seat.passed:
        return "Passed", Palette.muted
    return "Waiting", (70, 70, 80)


# ---- header -----------------------------------------------------------------------------------
def _header(sheet: Sheet, view: CityHeroesView, subtitle: str | None = None) -> None:
    title = "City Heroes" + (
        f" · {_name(view.players[view.seat], 40)}'s view" if view.seat is not None else ""
    )
    sheet.title(title, subtitle=subtitle or "")
    height = line_height(BODY) + 12

    def paint(draw: Draw, y: int) -> None:
        x = LEFT
        x += _pill(draw, x, y, f"Turn {view.turn}/{view.turns}", Palette.ink) + 14
        for key, name in PHASES:
            here = key == view.phase
            x += (
                _pill(
                    draw,
                    x,
                    y,
                    name,
                    Palette.accent if here else _tint(Palette.line, 0.4),
                    WHITE if here else Palette.muted,
                )
                + 6
            )
            if key != "interaction":
                _text(draw, (x + 2, y + 15), "›", BODY, bold=True, fill=Palette.muted, anchor="lm")
                x += 18
        acting = [seat for seat in view.to_act]
        if acting:
            x += 8
            room = RIGHT - x - 30
            share = (room - _width(" to act", BODY, True)) // len(acting) - _width(", ", BODY, True)
            names = ", ".join(player_name(view.players[seat], share, BODY, bold=True) for seat in acting)
            label = ellipsize(f"{names} to act", room, BODY, bold=True)
            seat_dot(draw, (x + 11, y + 16), acting[0])
            _text(draw, (x + 28, y + 16), label, BODY, bold=True, fill=Palette.seat(acting[0]), anchor="lm")

    sheet.block(height, paint)


def _prestige(sheet: Sheet, view: CityHeroesView) -> None:
    """The city's prestige against the rival's: two bars on one scale."""
    size = BODY
    row = line_height(size) + 10
    wins = view.prestige >= view.rival_prestige
    growth = f" (+{view.rival_growth} at the Cleanup)" if view.rival_growth and not view.finished else ""
    rows = [
        ("City", view.prestige, Palette.good if wins else Palette.bad, ""),
        ("Rival city", view.rival_prestige, (80, 80, 90), growth),
    ]
    top = max(1, view.prestige, view.rival_prestige)
    label_width = _width("Rival city", size, True) + 16

    def paint(draw: Draw, y: int) -> None:
        _text(draw, (LEFT, y), "Prestige", 26, bold=True, fill=Palette.accent)
        if not view.finished:
            verdict = (
                "city level or ahead: a winner is possible" if wins else "city behind: everybody would lose"
            )
            color = Palette.good if wins else Palette.bad
            _text(draw, (RIGHT, y + 2), verdict, SMALL, bold=True, fill=color, anchor="ra")
        for index, (label, value, color, note) in enumerate(rows):
            top_y = y + line_height(26) + 4 + index * row
            _text(draw, (LEFT, top_y + 3), label, size, bold=True)
            bar_left = LEFT + label_width
            room = INNER - label_width - 360
            length = int(room * max(value, 0) / top)
            draw.rounded_rectangle(
                (bar_left, top_y + 2, bar_left + room, top_y + row - 8),
                radius=6,
                fill=_tint(Palette.line, 0.5),
            )
            if length > 0:
                draw.rounded_rectangle(
                    (bar_left, top_y + 2, bar_left + max(length, 12), top_y + row - 8), radius=6, fill=color
                )
            _text(draw, (bar_left + room + 12, top_y + 3), f"{value}{note}", size, bold=True, fill=color)

    sheet.block(line_height(26) + 4 + 2 * row + 8, paint)


def _notices(sheet: Sheet, view: CityHeroesView) -> None:
    """An open trade offer (terms only for its two parties) and a pillage being resolved."""
    lines: list[tuple[str, Color]] = []
    if view.proposal is not None:
        proposer = _name(view.players[view.proposal.proposer], BODY, bold=True)
        partner = _name(view.players[view.proposal.partner], BODY, bold=True)
        if view.proposal.text:
            offer = with_names(view.proposal.text, view.players, BODY, bold=True)
            lines.append((f"Trade offer: {offer}", Palette.accent))
            if view.seat == view.proposal.partner:
                lines.append(("You may accept or decline it.", Palette.accent))
        else:
            lines.append((f"{proposer} offered {partner} a trade (terms private).", Palette.ink))
    if view.raid is not None:
        raid = view.raid
        lines.append(
            (
                f"{_name(view.players[raid.attacker], BODY, bold=True)} pillages T{raid.tile} of "
                f"{_name(view.players[raid.defender], BODY, bold=True)}: "
                f"{raid.loot} loot and {raid.casualties} casualties to choose.",
                Palette.bad,
            )
        )
    for text, color in lines:
        sheet.paragraph(text, size=BODY, bold=True, color=color)


# ---- player panels ------------------------------------------------------------------------------
PANEL_ROW = line_height(SMALL) + 10


def _panels(sheet: Sheet, view: CityHeroesView, seats: Sequence[SeatView] | None = None) -> None:
    title_height = line_height(28) + 6
    height = 12 + title_height + 3 * PANEL_ROW + 12
    for seat in seats if seats is not None else view.seats:

        def paint(draw: Draw, y: int, seat: SeatView = seat) -> None:
            color = Palette.seat(seat.seat)
            acting = seat.seat in view.to_act
            mine = seat.seat == view.seat
            rounded_box(
                draw,
                (LEFT, y, RIGHT, y + height - 10),
                fill=_tint(color, 0.9) if mine else Palette.panel,
                outline=color,
                width=6 if acting else 3,
            )
            draw.rectangle((LEFT + 3, y + 12, LEFT + 12, y + height - 22), fill=color)
            x = LEFT + 26
            top = y + 10
            state, state_color = _state(view, seat)
            right = f"{seat.tiles} tile{'s' if seat.tiles != 1 else ''} · score now {seat.score}"
            state_width = _width(state, SMALL, True) + SMALL
            room = INNER - 60 - state_width - _width(right, SMALL, True) - 30
            suffix = "  (you)" if mine else ""
            name, size = fit_name(seat.name, room, 28, suffix=suffix, bold=True, minimum=22)
            _text(draw, (x, top + 2), name, size, bold=True)
            x += _width(name, size, True) + 14
            _pill(draw, x, top + 2, state, state_color)
            _text(draw, (RIGHT - 16, top + 4), right, SMALL, bold=True, fill=Palette.muted, anchor="ra")

            row_y = top + title_height
            x = LEFT + 26
            pools = (
                ("Ready", seat.ready, Palette.good),
                ("Busy", seat.busy, (170, 80, 30)),
                ("Idle", seat.idle, (90, 90, 100)),
            )
            values = [("Ducats", seat.ducats, Palette.ink), ("Influence", seat.influence, Palette.ink)]
            if seat.pillage_tokens:
                values.append(("Pillage tokens", seat.pillage_tokens, Palette.bad))
            needed = sum(_width(f"{label} {count}", SMALL, True) + SMALL + 8 for label, count, _ in pools)
            needed += sum(_width(f"{label} {value}", BODY, True) + 22 for label, value, _ in values)
            if needed + _width("Workers", SMALL, True) + 24 <= INNER - 40:
                _text(draw, (x, row_y + 16), "Workers", SMALL, bold=True, fill=Palette.muted, anchor="lm")
                x += _width("Workers", SMALL, True) + 10
            for label, count, fill in pools:
                x += _pill(draw, x, row_y + 1, f"{label} {count}", fill if count else _tint(fill, 0.6)) + 8
            x += 14
            for label, value, color in values:
                text = ellipsize(f"{label} {value}", max(RIGHT - 16 - x, 40), BODY, bold=True)
                _text(draw, (x, row_y + 16), text, BODY, bold=True, fill=color, anchor="lm")
                x += _width(text, BODY, True) + 22

            row_y += PANEL_ROW
            x = LEFT + 26
            for key, (label, fill, ink) in RESOURCES.items():
                x += _chip(draw, x, row_y, label, seat.stock.get(key, 0), fill, ink) + 8
            row_y += PANEL_ROW
            x = LEFT + 26
            for key, label in GOODS.items():
                x += _chip(draw, x, row_y, label, seat.stock.get(key, 0), WHITE, Palette.ink) + 8

        sheet.block(height, paint)


# ---- the map ------------------------------------------------------------------------------------
class _Geometry:
    """Pointy-top hexes in axial coordinates, the widest row filling the sheet's width."""

    def __init__(self, radius: int, width: int = WIDTH) -> None:
        across = 2 * radius + 1
        self.w = (width - 2 * 16) / across
        self.s = self.w / math.sqrt(3)
        self.height = int(self.s * (2 + 3 * radius)) + 4
        self.cx = width / 2
        self.radius = radius

    def center(self, tile: TileView, top: int) -> tuple[float, float]:
        x = self.cx + self.w * (tile.q + tile.r / 2)
        y = top + self.s * (1 + 1.5 * (tile.r + self.radius)) + 2
        return x, y

    def corners(self, center: tuple[float, float], size: float) -> list[tuple[float, float]]:
        x, y = center
        return [
            (x + size * math.cos(math.radians(60 * k - 90)), y + size * math.sin(math.radians(60 * k - 90)))
            for k in range(6)
        ]


def _hatch(image: Image.Image, polygon: list[tuple[float, float]]) -> None:
    """Red diagonal stripes inside `polygon` (a pillaged tile)."""
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    x0, y0, x1, y1 = int(min(xs)), int(min(ys)), int(max(xs)) + 1, int(max(ys)) + 1
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    mdraw = ImageDraw.Draw(mask)
    span = (x1 - x0) + (y1 - y0)
    for start in range(-span, span, 26):
        mdraw.line((start, 0, start + (y1 - y0), y1 - y0), fill=150, width=7)
    clip = Image.new("L", mask.size, 0)
    ImageDraw.Draw(clip).polygon([(px - x0, py - y0) for px, py in polygon], fill=255)
    image.paste(PILLAGE, (x0, y0, x1, y1), ImageChops.multiply(mask, clip))


def _map(
    sheet: Sheet,
    view: CityHeroesView,
    *,
    prices: dict[int, int] | None = None,
    budget: int = 0,
    buyer: int | None = None,
) -> None:
    """The hex map; with `prices` (tile -> ducats) the buyable overlay: affordable tiles outlined in yellow
    with a gold coin, dearer neutral tiles with a grey coin, the rest faded."""
    geo = _Geometry(view.radius, sheet.width)

    def paint(draw: Draw, y: int) -> None:
        image: Image.Image = draw._image  # type: ignore[attr-defined]
        s = geo.s
        for tile in view.tiles:
            center = geo.center(tile, y)
            terrain = HILL if tile.terrain == "hill" else PLAIN
            buyable = prices is not None and tile.id in prices and prices[tile.id] <= budget
            faded = prices is not None and not buyable and (buyer is None or tile.owner != buyer)
            if faded:
                terrain = _tint(terrain, FADED)
            outer = geo.corners(center, s - 2)
            if buyable:
                draw.polygon(outer, fill=Palette.ink)
                draw.polygon(geo.corners(center, s - 5), fill=BUY)
                draw.polygon(geo.corners(center, s - 14), fill=terrain)
            elif tile.owner is not None:
                band = Palette.seat(tile.owner)
                draw.polygon(outer, fill=_tint(band, FADED) if faded else band)
                draw.polygon(geo.corners(center, s - 13), fill=terrain)
            else:
                draw.polygon(outer, fill=terrain, outline=EDGE, width=2)
            if tile.pillaged:
                _hatch(image, geo.corners(center, s - 13))
            _tile_content(draw, view, tile, center, s, faded)
            if prices is not None and tile.id in prices:
                _coin(draw, (center[0], center[1] + 0.52 * s), prices[tile.id], buyable)

    sheet.block(geo.height, paint)


def _tile_content(
    draw: Draw, view: CityHeroesView, tile: TileView, center: tuple[float, float], s: float, faded: bool
) -> None:
    x, y = center
    ink = Palette.bad if tile.pillaged else Palette.ink
    if faded:
        ink = _tint(ink, 0.35)
    _text(draw, (x, y - 0.63 * s), f"T{tile.id}", 24, bold=True, fill=ink, anchor="mm")
    if tile.resource:
        label, fill, text_ink = RESOURCES.get(tile.resource, (tile.resource.title(), WHITE, Palette.ink))
        if faded:
            fill, text_ink = _tint(fill, FADED), _tint(text_ink, 0.3)
        _badge(
            draw,
            (x, y - 0.24 * s),
            label,
            fill,
            text_ink,
            outline=_tint(Palette.ink, 0.3 if not faded else 0.6),
        )
    items: list[tuple[str, Color, Color]] = []
    if tile.house and tile.house != "house":
        fill, text_ink = LEVEL_FILL.get(_level(tile.house), LEVEL_FILL[1])
        items.append((_code(tile.house), fill, text_ink))
    if tile.building:
        fill, text_ink = LEVEL_FILL.get(_level(tile.building), LEVEL_FILL[1])
        items.append((_code(tile.building), fill, text_ink))
    if tile.work:
        done = tile.stages >= tile.stages_needed
        fill, text_ink = WORK_DONE if done else WORK_FILL
        text = f"{_code(tile.work)} ✓" if done else f"{_code(tile.work)} {tile.stages}/{tile.stages_needed}"
        items.append((text, fill, text_ink))
    if items:
        if faded:
            items = [(text, _tint(fill, FADED), _tint(text_ink, 0.3)) for text, fill, text_ink in items]
        _badges(draw, (x, y + 0.16 * s), items)
    soldiers = [(count, fill) for count, fill in ((tile.garrison, GARRISON), (tile.spent, SPENT)) if count]
    if soldiers:
        widths = [_garrison_width(count) for count, _ in soldiers]
        left = x - (sum(widths) + 5 * (len(widths) - 1)) / 2
        for (count, fill), width in zip(soldiers, widths, strict=True):
            _garrison(draw, (left + width / 2, y + 0.53 * s), count, _tint(fill, FADED) if faded else fill)
            left += width + 5


def _garrison_width(count: int) -> int:
    return _width(str(count), SMALL, True) + 34


def _garrison(draw: Draw, center: tuple[float, float], count: int, fill: Color) -> None:
    """A badge with a sword and the number of weapons."""
    width, height = _garrison_width(count), line_height(SMALL) + 2
    x, y = center
    left = x - width / 2
    draw.rounded_rectangle(
        (left, y - height / 2, x + width / 2, y + height / 2),
        radius=6,
        fill=fill,
        outline=Palette.ink,
        width=2,
    )
    sx = left + 13
    draw.line((sx, y - 10, sx, y + 5), fill=WHITE, width=4)
    draw.polygon([(sx - 2, y - 10), (sx + 2, y - 10), (sx, y - 14)], fill=WHITE)
    draw.line((sx - 6, y + 4, sx + 6, y + 4), fill=WHITE, width=3)
    draw.line((sx, y + 4, sx, y + 11), fill=WHITE, width=3)
    _text(draw, (left + 23, y + 1), str(count), SMALL, bold=True, fill=WHITE, anchor="lm")


def _coin(draw: Draw, center: tuple[float, float], price: int, affordable: bool) -> None:
    x, y = center
    text = "free" if price == 0 else str(price)
    radius = max(17, _width(text, 24, True) // 2 + 8)
    fill, edge, ink = (
        (COIN, COIN_EDGE, Palette.ink) if affordable else ((206, 206, 210), (130, 130, 136), (80, 80, 86))
    )
    draw.ellipse((x - radius, y - 17, x + radius, y + 17), fill=fill, outline=edge, width=3)
    _text(draw, (x, y + 1), text, 24, bold=True, fill=ink, anchor="mm")


def _key(sheet: Sheet, view: CityHeroesView, *, buyable: bool = False) -> None:
    """The badges on the map with their names, and what the marks mean."""
    entries: dict[str, tuple[str, Color, Color]] = {}
    for tile in view.tiles:
        for key in (tile.house if tile.house != "house" else None, tile.building):
            if key:
                fill, ink = LEVEL_FILL.get(_level(key), LEVEL_FILL[1])
                entries[key] = (_building_name(key), fill, ink)
        if tile.work:
            entries[tile.work] = (_work_name(view, tile.work), *WORK_FILL)
    ordered = sorted(entries.items(), key=lambda item: (item[0] not in CODES, _code(item[0])))
    columns = 3 if len(ordered) <= 12 else 4
    column_width = INNER // columns
    row = line_height(SMALL) + 10
    rows = math.ceil(len(ordered) / columns)
    sheet.heading("Key")

    legend_height = row

    def legend(draw: Draw, y: int) -> None:
        x = LEFT
        for label, fill in (("Hill", HILL), ("Plain", PLAIN)):
            draw.rounded_rectangle((x, y + 2, x + 30, y + row - 10), radius=4, fill=fill, outline=EDGE)
            _text(draw, (x + 38, y + row // 2 - 4), label, SMALL, anchor="lm")
            x += 38 + _width(label, SMALL) + 20
        _text(draw, (x, y + row // 2 - 4), "Badge level:", SMALL, fill=Palette.muted, anchor="lm")
        x += _width("Badge level:", SMALL) + 8
        for level in (1, 2, 3):
            fill, ink = LEVEL_FILL[level]
            width = _badge_width(f"L{level}")
            _badge(draw, (x + width / 2, y + row // 2 - 4), f"L{level}", fill, ink)
            x += width + 6
        x += 14
        fill, ink = WORK_FILL
        width = _badge_width("2/4")
        _badge(draw, (x + width / 2, y + row // 2 - 4), "2/4", fill, ink)
        x += width + 8
        _text(draw, (x, y + row // 2 - 4), "public work stages", SMALL, fill=Palette.muted, anchor="lm")

    sheet.block(legend_height, legend)

    def paint(draw: Draw, y: int) -> None:
        for index, (key, (name, fill, ink)) in enumerate(ordered):
            column, line = index // rows, index % rows
            x = LEFT + column * column_width
            top = y + line * row
            code = _code(key)
            width = _badge_width(code)
            _badge(draw, (x + width / 2, top + row / 2 - 2), code, fill, ink)
            room = column_width - width - 20
            _text(draw, (x + width + 8, top + row / 2 - 2), ellipsize(name, room, SMALL), SMALL, anchor="lm")

    if ordered:
        sheet.block(rows * row + 4, paint)
    notes = [
        "Band = owner's colour; every owned tile has a House. Sword = weapons garrisoned there (grey: spent "
        "attacking this turn). Red stripes = pillaged this turn."
    ]
    if buyable:
        notes.insert(
            0,
            "Yellow outline + gold coin: a tile this player can buy now, at that price in ducats; "
            "grey coin: the price is more than they have.",
        )
    for note in notes:
        sheet.paragraph(note, size=SMALL, color=Palette.muted)


# ---- the final result ---------------------------------------------------------------------------
def _result(sheet: Sheet, view: CityHeroesView) -> None:
    wins = bool(view.city_wins)
    verdict = (
        f"The city ({view.prestige} prestige) beat the rival ({view.rival_prestige}): the most influence wins."
        if wins
        else f"The city's prestige {view.prestige} is below the rival's {view.rival_prestige}: everybody loses."
    )
    sheet.paragraph(verdict, size=28, bold=True, color=Palette.good if wins else Palette.bad)
    _prestige(sheet, view)
    lines = view.scoreboard or []
    if not lines:
        return
    sheet.heading("Final influence")
    columns = (
        ("Influence", 470),
        ("Resources", 614),
        ("Goods×2", 744),
        ("Ducats÷3", 890),
        ("Total", RIGHT - 10),
    )
    header = line_height(SMALL) + 6
    row = line_height(26) + 16

    def paint(draw: Draw, y: int) -> None:
        for label, right in columns:
            _text(draw, (right, y), label, SMALL, bold=True, fill=Palette.muted, anchor="ra")
        for index, line in enumerate(lines):
            top = y + header + index * row
            color = Palette.seat(line.seat)
            winner = wins and line.place == 1
            draw.rounded_rectangle(
                (LEFT - 6, top, RIGHT + 6, top + row - 6),
                radius=10,
                fill=_tint(color, 0.82)
                if winner
                else (Palette.panel if index % 2 == 0 else Palette.background),
                outline=color if winner else None,
                width=3,
            )
            mid = top + (row - 6) / 2
            _text(draw, (LEFT + 8, mid), f"{line.place}.", 26, bold=True, anchor="lm")
            seat_dot(draw, (LEFT + 58, int(mid)), line.seat, radius=12)
            tag = " · wins" if winner else ""
            name, _ = fit_name(line.name, 470 - 120 - LEFT - 80, 26, suffix=tag, bold=True)
            _text(draw, (LEFT + 80, mid), name, 26, bold=True, anchor="lm")
            values = (
                str(line.influence),
                str(line.naturals),
                f"{2 * line.goods}",
                f"{line.ducats // 3}",
                str(line.score),
            )
            for (_, right), value in zip(columns, values, strict=True):
                bold = right == columns[-1][1]
                _text(draw, (right, mid), value, 28 if bold else 26, bold=bold, anchor="rm")
        foot = y + header + len(lines) * row

        for index, text in enumerate(wrap(detail, INNER, SMALL)):
            _text(draw, (LEFT, foot + 4 + index * line_height(SMALL)), text, SMALL, fill=Palette.muted)

    detail = "  ·  ".join(
        f"{_name(line.name, SMALL)}: {line.goods} goods, {line.ducats} ducats" for line in lines
    )
    detail_height = len(wrap(detail, INNER, SMALL)) * line_height(SMALL) + 10
    sheet.block(header + len(lines) * row + detail_height, paint)
    if not wins:
        sheet.paragraph(
            "Nobody wins: the ranking only shows who gathered the most influence.",
            size=SMALL,
            color=Palette.muted,
        )


# ---- entry points -------------------------------------------------------------------------------
def _game(view: View) -> CityHeroesView:
    assert isinstance(view, CityHeroesView), "renderer.city_heroes draws City Heroes views"
    return view


def render(view: View) -> bytes:
    game = _game(view)
    sheet = Sheet()
    if game.finished:
        sheet.title(
            "City Heroes · Game over"
            + (f" · {_name(game.players[game.seat], 40)}'s view" if game.seat is not None else "")
        )
        _result(sheet, game)
        sheet.space(8)
        _map(sheet, game)
        _key(sheet, game)
        return to_png(sheet.image())
    _header(sheet, game)
    _prestige(sheet, game)
    _notices(sheet, game)
    sheet.space(6)
    _panels(sheet, game)
    _map(sheet, game)
    _key(sheet, game)
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


def render_buyable(view: View, seat: int | None = None) -> bytes:
    """The map with the tiles `seat` (default: the view's seat, else the acting player) could buy now."""
    game = _game(view)
    if seat is None:
        seat = game.seat if game.seat is not None else game.current
    sheet = Sheet()
    if seat is None or not 0 <= seat < len(game.seats):
        sheet.title("City Heroes · tiles for sale", subtitle=with_names(game.headline, game.players, 24))
        sheet.paragraph("Nobody is buying: the game is over.", size=BODY, bold=True)
        _map(sheet, game)
        _key(sheet, game)
        return to_png(sheet.image())
    player = game.seats[seat]
    prices = buy_prices(game, seat)
    affordable = {tile: price for tile, price in prices.items() if price <= player.ducats}
    name = _name(player.name, BODY, bold=True)
    headline = with_names(game.headline, game.players, 24)
    sheet.title(f"City Heroes · tiles {_name(player.name, 40)} can buy", subtitle=headline)
    notes: list[tuple[str, Color]] = []
    if game.finished:
        notes.append(("The game is over: nothing can be bought.", Palette.bad))
    elif game.phase != "expansion":
        notes.append(
            ("Tiles are bought in the Expansion phase: these are the prices if it were now.", Palette.muted)
        )
    mine = sum(1 for tile in game.tiles if tile.owner == seat)
    if player.ready < 1:
        notes.append((f"{name} has no Ready worker, so can buy no tile now.", Palette.bad))
    elif mine + 1 > player.workers:
        notes.append(
            (
                f"{name} owns {mine} tiles with {player.workers} workers: no more tiles until a new worker.",
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
                f"{count} tile{'s' if count != 1 else ''} affordable with {player.ducats} ducats"
                + (f" (cheapest {cheapest})." if cheapest else " (the first tile is free)."),
                Palette.ink,
            )
        )
    for text, color in notes:
        sheet.paragraph(text, size=BODY, bold=True, color=color)
    _panels(sheet, game, [player])
    _map(sheet, game, prices=prices, budget=player.ducats, buyer=seat)
    _key(sheet, game, buyable=True)
    return to_png(sheet.image())


def _buyable_overlay(view: View, target: str | None) -> bytes:
    return render_buyable(view)


OVERLAYS = (
    Overlay(
        name="buyable",
        description="The tiles the acting player could buy now, with their price",
        draw=_buyable_overlay,
    ),
)
