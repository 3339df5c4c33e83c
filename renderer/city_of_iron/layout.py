"""City of Iron pictures' shared drawing pieces: sizes, colours, icons, badges and pill flows, the
header and the seat legend, and the nations table's numbers the pictures and the marks share."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from renderer.canvas import (
    MARGIN,
    Color,
    Palette,
    Sheet,
    draw_text,
    ellipsize,
    fit_size,
    initial,
    line_height,
    player_name,
    text_width,
    with_names,
    wrap,
)
from renderer.phone import MIN_TEXT, PHONE_WIDTH, max_height
from rules.city_of_iron.view import BuildingInfo, CardInfo, CityOfIronView, GoodInfo, PlayerInfo, TownInfo

Draw = ImageDraw.ImageDraw

WIDTH = PHONE_WIDTH
INNER = WIDTH - 2 * MARGIN
LEFT = MARGIN
RIGHT = WIDTH - MARGIN
GAP = 10
BODY = 24
SMALL = MIN_TEXT
"""The smallest text on every picture: 22 px on 800 px is 11 px on a phone."""

WHITE: Color = (255, 255, 255)
GOLD: Color = (240, 188, 40)
GOLD_EDGE: Color = (150, 110, 10)
SCIENCE: Color = (70, 70, 170)
VP_COLOR: Color = (140, 30, 40)
SOFT: Color = (236, 229, 214)
"""Panel tint for secondary areas."""
SKILL: Color = (90, 90, 96)
DISTANCE: Color = (60, 110, 150)

LANDS: dict[str, tuple[str, Color]] = {
    "grass": ("Grass", (112, 168, 56)),
    "forest": ("Forest", (34, 96, 52)),
    "mountain": ("Mountain", (112, 104, 98)),
    "coast": ("Coast", (30, 112, 190)),
    "desert": ("Desert", (206, 150, 50)),
    "jungle": ("Jungle", (0, 122, 104)),
    "flying_island": ("Flying island", (120, 160, 220)),
}

GOODS: dict[str, tuple[str, Color, Color]] = {
    "turnips": ("Turnip", (128, 58, 142), WHITE),
    "srikas": ("Srika", (150, 100, 60), WHITE),
    "glow_moss": ("Moss", (120, 190, 40), Palette.ink),
    "ore": ("Ore", (70, 74, 86), WHITE),
    "tentacles": ("Tentacle", (206, 80, 110), WHITE),
    "salt": ("Salt", (232, 232, 226), Palette.ink),
    "silk": ("Silk", (176, 30, 120), WHITE),
    "bottled_demons": ("Demon", (190, 36, 24), WHITE),
    "machine_parts": ("Parts", (140, 96, 40), WHITE),
    "magic_crystals": ("Crystal", (40, 168, 200), Palette.ink),
}
"""Good id: short label, colour, ink on the colour."""

DECKS: dict[str, Color] = {"A": (74, 104, 52), "B": (126, 78, 34), "C": (94, 56, 116)}
CARD_DECKS: dict[str, tuple[str, Color]] = {
    "citizen": ("Citizen", (20, 104, 120)),
    "military": ("Military", (150, 38, 38)),
}
PHASES = {
    "nation": "Choosing nations",
    "arrange": "Arranging decks",
    "bid": "Bidding",
    "rebid": "Bidding again",
    "actions": "Actions",
    "snyle": "End Round",
    "purchase": "Buying cards",
    "over": "Game over",
}


def _good(good_id: str) -> tuple[str, Color, Color]:
    return GOODS.get(good_id, (good_id.replace("_", " ").title(), Palette.muted, WHITE))


def _land(land_id: str) -> tuple[str, Color]:
    return LANDS.get(land_id, (land_id.replace("_", " ").title(), Palette.muted))


def _tint(color: Color, amount: float = 0.78) -> Color:
    """A light version of `color` (mixed with white) for backgrounds."""
    red, green, blue = (int(channel + (255 - channel) * amount) for channel in color)
    return red, green, blue


@lru_cache(maxsize=1024)
def _pill_mask(width: int, height: int) -> Image.Image:
    """The coverage of a pill `width` x `height` (inclusive, like `rounded_rectangle`'s box): badges and
    coins are drawn hundreds of times a picture, and stamping a cached mask is several times faster
    than drawing the rounded rectangle's corners and sides each time."""
    mask = Image.new("L", (width + 1, height + 1), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width, height), radius=height // 2, fill=255)
    return mask


def _stamp(draw: Draw, x: int, y: int, mask: Image.Image, fill: Color) -> None:
    """`fill` through `mask` at (x, y), as `canvas.draw_text` draws its cached glyph masks."""
    draw.draw.draw_bitmap((x, y), mask.im, draw.draw.draw_ink(fill))


def _badge(draw: Draw, x: int, y: int, text: str, fill: Color, ink: Color = WHITE, size: int = SMALL) -> int:
    """A pill like canvas.pill (height line_height + 4) with any ink; returns its width."""
    pad = size // 2
    width = text_width(text, size, bold=True) + 2 * pad
    height = line_height(size) + 4
    _stamp(draw, x, y, _pill_mask(width, height), fill)
    draw_text(draw, (x + width // 2, y + height // 2), text, size=size, bold=True, fill=ink, anchor="mm")
    return width


def _badge_width(text: str, size: int = SMALL) -> int:
    return text_width(text, size, bold=True) + 2 * (size // 2)


def _coin(draw: Draw, x: int, y: int, amount: int | str, size: int = SMALL) -> int:
    """A gold coin with the amount on it; top-left at (x, y), as tall as a badge of `size`."""
    height = line_height(size) + 4
    text = str(amount)
    width = max(height, text_width(text, size, bold=True) + 12)
    _stamp(draw, x, y, _pill_mask(width, height), GOLD_EDGE)
    _stamp(draw, x + 2, y + 2, _pill_mask(width - 4, height - 4), GOLD)
    draw_text(draw, (x + width // 2, y + height // 2), text, size=size, bold=True, anchor="mm")
    return width


def _coin_width(amount: int | str, size: int = SMALL) -> int:
    return max(line_height(size) + 4, text_width(str(amount), size, bold=True) + 12)


def _land_icon(draw: Draw, x: int, y: int, land_id: str, size: int = 32) -> int:
    """A coloured square with a white glyph for the land type; returns its width."""
    _, color = _land(land_id)
    draw.rounded_rectangle((x, y, x + size, y + size), radius=6, fill=color, outline=Palette.ink, width=1)
    s = size
    ink = WHITE
    if land_id == "grass":
        for offset in (0.28, 0.5, 0.72):
            cx = x + int(s * offset)
            draw.line((cx, y + int(s * 0.78), cx - 3, y + int(s * 0.3)), fill=ink, width=3)
    elif land_id == "forest":
        draw.polygon(
            [
                (x + s // 2, y + int(s * 0.14)),
                (x + int(s * 0.2), y + int(s * 0.7)),
                (x + int(s * 0.8), y + int(s * 0.7)),
            ],
            fill=ink,
        )
        draw.rectangle((x + s // 2 - 2, y + int(s * 0.7), x + s // 2 + 2, y + int(s * 0.88)), fill=ink)
    elif land_id == "mountain":
        draw.polygon(
            [
                (x + int(s * 0.1), y + int(s * 0.82)),
                (x + int(s * 0.42), y + int(s * 0.2)),
                (x + int(s * 0.74), y + int(s * 0.82)),
            ],
            fill=ink,
        )
        draw.polygon(
            [
                (x + int(s * 0.5), y + int(s * 0.82)),
                (x + int(s * 0.7), y + int(s * 0.42)),
                (x + int(s * 0.92), y + int(s * 0.82)),
            ],
            fill=_tint(color, 0.5),
        )
    elif land_id == "coast":
        for row in (0.36, 0.64):
            top = y + int(s * row)
            for start in (0.1, 0.45):
                left = x + int(s * start)
                draw.arc((left, top - 5, left + int(s * 0.42), top + 7), 200, 340, fill=ink, width=3)
    elif land_id == "desert":
        draw.ellipse((x + int(s * 0.52), y + int(s * 0.14), x + int(s * 0.84), y + int(s * 0.46)), fill=ink)
        draw.chord(
            (x + int(s * 0.04), y + int(s * 0.56), x + int(s * 0.96), y + int(s * 1.3)), 180, 360, fill=ink
        )
    elif land_id == "jungle":
        draw.line((x + s // 2, y + int(s * 0.88), x + s // 2, y + int(s * 0.36)), fill=ink, width=3)
        draw.ellipse((x + int(s * 0.12), y + int(s * 0.16), x + int(s * 0.52), y + int(s * 0.42)), fill=ink)
        draw.ellipse((x + int(s * 0.48), y + int(s * 0.16), x + int(s * 0.88), y + int(s * 0.42)), fill=ink)
    elif land_id == "flying_island":
        draw.ellipse((x + int(s * 0.12), y + int(s * 0.36), x + int(s * 0.5), y + int(s * 0.7)), fill=ink)
        draw.ellipse((x + int(s * 0.34), y + int(s * 0.2), x + int(s * 0.74), y + int(s * 0.62)), fill=ink)
        draw.ellipse((x + int(s * 0.56), y + int(s * 0.38), x + int(s * 0.9), y + int(s * 0.7)), fill=ink)
        draw.polygon(
            [
                (x + int(s * 0.24), y + int(s * 0.66)),
                (x + int(s * 0.76), y + int(s * 0.66)),
                (x + s // 2, y + int(s * 0.92)),
            ],
            fill=ink,
        )
    else:
        draw_text(
            draw, (x + s // 2, y + s // 2), land_id[:1].upper(), size=SMALL, bold=True, fill=ink, anchor="mm"
        )
    return size


def _seat_disc(draw: Draw, cx: int, cy: int, seat: int, radius: int = 13, label: str = "") -> None:
    draw.ellipse(
        (cx - radius, cy - radius, cx + radius, cy + radius),
        fill=Palette.seat(seat),
        outline=Palette.ink,
        width=2,
    )
    if label:
        draw_text(draw, (cx, cy), label, size=max(radius + 4, SMALL), bold=True, fill=WHITE, anchor="mm")


Item = tuple[str, str, Color, Color]
"""(kind, text, fill, ink): kind 'badge', 'coin', 'land' (text is the land id), 'chip' (a card name on
a light box, fill = its colour strip, ink = the box) or 'label' (bold text in colour fill)."""
STEP = line_height(SMALL) + 4 + 6
"""Height of one line of a flow of items at SMALL, gap included."""


def _item_width(item: Item, size: int = SMALL) -> int:
    kind, text, _, _ = item
    if kind == "coin":
        return _coin_width(text, size)
    if kind == "land":
        return line_height(size) + 4
    if kind == "chip":
        return text_width(text, size) + 34
    if kind == "label":
        return text_width(text, size, bold=True) + 4
    return _badge_width(text, size)


def _draw_item(draw: Draw, x: int, y: int, item: Item, size: int = SMALL) -> int:
    kind, text, fill, ink = item
    if kind == "coin":
        return _coin(draw, x, y, text, size)
    if kind == "land":
        return _land_icon(draw, x, y, text, line_height(size) + 4)
    height = line_height(size) + 4
    if kind == "chip":
        width = text_width(text, size) + 34
        draw.rounded_rectangle(
            (x, y, x + width, y + height), radius=8, fill=ink, outline=Palette.line, width=2
        )
        draw.rounded_rectangle((x + 6, y + 6, x + 16, y + height - 6), radius=3, fill=fill)
        draw_text(draw, (x + 24, y + height // 2), text, size=size, anchor="lm")
        return width
    if kind == "label":
        draw_text(draw, (x, y + height // 2), text, size=size, bold=True, fill=fill, anchor="lm")
        return text_width(text, size, bold=True) + 4
    return _badge(draw, x, y, text, fill, ink, size)


def _flow(
    items: Sequence[Item], width: int, size: int = SMALL, gap: int = 6, max_lines: int | None = None
) -> list[list[Item]]:
    """Items in lines no wider than `width`; past `max_lines` the rest is counted in a "+N more" badge,
    so a crowded hand or pile shortens instead of running off the picture."""
    lines: list[list[Item]] = [[]]
    used = 0
    for item in items:
        item_width = min(_item_width(item, size), width)
        if lines[-1] and used + gap + item_width > width:
            lines.append([])
            used = 0
        used += (gap if lines[-1] else 0) + item_width
        lines[-1].append(item)
    if not lines[0]:
        return []
    if max_lines is None or len(lines) <= max_lines:
        return lines
    kept = lines[:max_lines]
    last = kept[-1]
    while True:
        hidden = len(items) - sum(len(line) for line in kept)
        more: Item = ("label", f"+{hidden} more", Palette.muted, Palette.ink)
        used = sum(_item_width(item, size) + gap for item in last) + _item_width(more, size)
        if used <= width or not last:
            break
        last.pop()
    last.append(more)
    return kept


def _draw_flow(draw: Draw, x: int, y: int, lines: list[list[Item]], size: int = SMALL, gap: int = 6) -> None:
    step = line_height(size) + 4 + gap
    for number, line in enumerate(lines):
        left = x
        for item in line:
            left += _draw_item(draw, left, y + number * step, item, size) + gap


def _flow_height(lines: list[list[Item]], size: int = SMALL, gap: int = 6) -> int:
    return len(lines) * (line_height(size) + 4 + gap)


def _goods_items(goods: dict[str, int]) -> list[Item]:
    items: list[Item] = []
    for good_id, amount in goods.items():
        label, fill, ink = _good(good_id)
        items.append(("badge", f"{amount} {label}", fill, ink))
    return items


def _yield_badges(income: int, science: int, citizen: int, military: int) -> list[Item]:
    """What a building or a town gives each round, in the same short badges on both (see KEY)."""
    items: list[Item] = []
    if income:
        items.append(("badge", f"+{income} inc", GOLD, Palette.ink))
    if science:
        items.append(("badge", f"+{science}⚗/rd", SCIENCE, WHITE))
    if citizen:
        items.append(("badge", f"+{citizen} cit", CARD_DECKS["citizen"][1], WHITE))
    if military:
        items.append(("badge", f"+{military} mil", CARD_DECKS["military"][1], WHITE))
    return items


def _building_effects(info: BuildingInfo) -> list[Item]:
    items: list[Item] = []
    if info.vp_bonus:
        items.append(("badge", f"+{info.vp_bonus} VP", VP_COLOR, WHITE))
    items += _yield_badges(info.income, info.science_income, info.draws_citizen, info.draws_military)
    if info.capacity:
        items.append(("badge", f"+{info.capacity} sp", Palette.ink, WHITE))
    if info.eyes:
        items.append(("badge", "◉" * info.eyes, Palette.ink, WHITE))
    return items


def _town_effects(info: TownInfo, snyle_good: str | None = None) -> list[Item]:
    items = _goods_items(info.goods)
    if info.choose_good:
        if snyle_good:
            label, fill, ink = _good(snyle_good)
            items.append(("badge", f"{info.choose_good} {label}", fill, ink))
        else:
            items.append(("badge", f"{info.choose_good} of a good you own", Palette.muted, WHITE))
    items += _yield_badges(info.coins, info.science_income, info.draws_citizen, info.draws_military)
    if info.capacity:
        items.extend(("land", land, Palette.ink, WHITE) for land in info.lands)
        items.append(("badge", f"holds {info.capacity} buildings", Palette.ink, WHITE))
    if info.counts_as > 1:
        items.append(("badge", f"counts as {info.counts_as} towns", Palette.ink, WHITE))
    return items


def _skills(info: CardInfo) -> list[Item]:
    items: list[Item] = []
    if info.work:
        items.append(("badge", f"⚒{info.work}", SKILL, WHITE))
    if info.distance:
        items.append(("badge", f"➜{info.distance}", DISTANCE, WHITE))
    if info.attack:
        items.append(("badge", f"⚔{info.attack}", CARD_DECKS["military"][1], WHITE))
    if info.ship:
        items.append(("badge", "⚓ ship", LANDS["coast"][1], WHITE))
    if info.airship:
        items.append(("badge", "☁ airship", LANDS["flying_island"][1], Palette.ink))
    if info.free:
        items.append(("badge", "FREE", Palette.good, WHITE))
    return items


def _cost(coins: int, science: int) -> list[Item]:
    items: list[Item] = [("coin", str(coins), GOLD, Palette.ink)]
    if science:
        items.append(("badge", f"⚗{science}", SCIENCE, WHITE))
    return items


def _first_fitting(layouts: Sequence[Callable[[], Sheet]]) -> Sheet:
    """The first (most detailed) layout no taller than a phone screen, else the last (plainest)."""
    sheet = layouts[0]()
    for layout in layouts[1:]:
        if sheet.height <= max_height():
            break
        sheet = layout()
    return sheet


def _tiles(
    sheet: Sheet,
    count: int,
    columns: int,
    layout: Callable[[int, int], int],
    paint_tile: Callable[[Draw, int, int, int, int, int], None],
) -> None:
    """Tiles in a grid; each grid row is as tall as its tallest tile, and a block of its own (a section
    with many tiles is cut into pages between rows)."""
    width = (INNER - (columns - 1) * GAP) // columns
    heights = [layout(index, width) for index in range(count)]
    rows = [max(heights[start : start + columns]) for start in range(0, count, columns)]
    for row_index, row_height in enumerate(rows):

        def paint(draw: Draw, top: int, row_index: int = row_index, row_height: int = row_height) -> None:
            for column in range(columns):
                index = row_index * columns + column
                if index >= count:
                    break
                paint_tile(draw, index, LEFT + column * (width + GAP), top, width, row_height)

        sheet.block(row_height + GAP, paint)


def _band(draw: Draw, box: tuple[int, int, int, int], color: Color, height: int = 34) -> None:
    """A tile's coloured title band (rounded on top only)."""
    x0, y0, x1, _ = box
    draw.rounded_rectangle((x0, y0, x1, y0 + height), radius=10, fill=color)
    draw.rectangle((x0, y0 + height - 10, x1, y0 + height), fill=color)


def _text_block(sheet: Sheet, text: str, *, size: int = SMALL, color: Color = Palette.muted) -> None:
    """A paragraph wrapped a little inside the margins: `canvas.wrap` measures whole pixels and
    `ellipsize` fractions, so a line wrapped to the exact width can come back cut with an ellipsis."""
    lines = wrap(text, INNER - 4, size)

    def paint(draw: Draw, y: int) -> None:
        for index, line in enumerate(lines):
            draw_text(draw, (LEFT, y + index * line_height(size)), line, size=size, fill=color)

    sheet.block(len(lines) * line_height(size) + 6, paint)


def _section_sheet(view: CityOfIronView, title: str) -> Sheet:
    sheet = Sheet(width=WIDTH)
    sheet.title(
        f"City of Iron — {title}", subtitle=f"Round {view.round} · {PHASES.get(view.phase, view.phase)}"
    )
    sheet.keep_header()
    return sheet


def _seat_legend(sheet: Sheet, view: CityOfIronView) -> None:
    """The seats' colours and initials with their full names, for tables with narrow seat columns."""
    items: list[Item] = []
    for seat, info in enumerate(view.seats):
        name = f"{initial(info.name)} = {player_name(info.name, 300, SMALL, bold=True)}"
        items.append(("badge", name, Palette.seat(seat), WHITE))
    lines = _flow(items, INNER)
    sheet.block(_flow_height(lines) + 4, lambda draw, y: _draw_flow(draw, LEFT, y, lines))


def _status(view: CityOfIronView) -> str:
    """The phase and who acts, in words: the headline without its round, plus the actions left."""
    text = view.headline.split(" - ", 1)[-1] if view.headline.startswith("Round") else view.headline
    if view.phase == "actions" and view.current is not None:
        left = view.seats[view.current].actions_left
        text += f" · {left} action{'s' if left != 1 else ''} left"
    elif view.phase == "purchase":
        choosing = sum(1 for info in view.seats if info.choosing)
        text += f" · {choosing} of {len(view.seats)} still choosing"
    return with_names(text, view.players, BODY, bold=True)


def _top(sheet: Sheet, view: CityOfIronView, title: str = "City of Iron", status: str | None = None) -> None:
    """One header line (title, round, scorings, alerts) and the status under it."""
    pills: list[tuple[str, str, Color, Color]] = [
        ("round", f"Round {view.round}", Palette.ink, WHITE),
        ("scorings", f"Scorings {view.scorings}/3", VP_COLOR, WHITE),
    ]
    if view.score_due and not view.finished:
        pills.append(("score_due", "Scoring due", Palette.highlight, Palette.ink))
    if view.last_round and not view.finished:
        pills.append(("last_round", "LAST ROUND", Palette.bad, WHITE))
    title_size = fit_size(title, INNER // 2, 28, bold=True, minimum=SMALL)
    title_width = text_width(title, title_size, bold=True)
    placed: list[tuple[int, int, tuple[str, str, Color, Color]]] = []
    x, row = LEFT + title_width + 14, 0
    for pill in pills:
        width = _badge_width(pill[1])
        if x + width > RIGHT:
            x, row = LEFT, row + 1
        placed.append((x, row, pill))
        x += width + 8
    status_text = _status(view) if status is None else status
    status_size = fit_size(status_text, INNER - 4, BODY, bold=True, minimum=SMALL)
    status_lines = wrap(status_text, INNER - 4, status_size, bold=True)[:2]
    first = line_height(30) + 6
    height = first + row * STEP + len(status_lines) * line_height(status_size) + 8

    def paint(draw: Draw, y: int) -> None:
        draw_text(draw, (LEFT, y + first // 2), title, size=title_size, bold=True, anchor="lm")
        pill_height = line_height(SMALL) + 4
        for x, row, (key, text, fill, ink) in placed:
            top = y + (first - pill_height) // 2 + row * STEP
            width = _badge(draw, x, top, text, fill, ink)
            sheet.mark(key, (x, top, x + width, top + pill_height))
        top = y + first + row * STEP
        for line in status_lines:
            draw_text(draw, (LEFT, top), line, size=status_size, bold=True, fill=Palette.accent)
            top += line_height(status_size)

    sheet.block(height, paint)


def _order(view: CityOfIronView) -> list[int]:
    """Seats in the order that matters now: turn order in the actions, else bid order, else seat order."""
    seats = list(range(len(view.seats)))
    if view.turn_order and view.phase in ("actions", "snyle", "purchase", "over"):
        order = list(view.turn_order)
    elif view.bid_order:
        order = list(view.bid_order)
    else:
        order = []
    return order + [seat for seat in seats if seat not in order]


def _places(good: GoodInfo) -> tuple[int, int]:
    amounts = sorted({amount for amount in good.amounts if amount > 0}, reverse=True)
    return (amounts[0] if amounts else 0), (amounts[1] if len(amounts) > 1 else 0)


def _leads(view: CityOfIronView) -> list[int]:
    """How many goods each seat has the most of (ties share the lead)."""
    leads = [0] * len(view.seats)
    for good in view.goods:
        first, _ = _places(good)
        for seat, amount in enumerate(good.amounts[: len(leads)]):
            if first and amount == first:
                leads[seat] += 1
    return leads


def _acts(view: CityOfIronView, info: PlayerInfo) -> str:
    if view.phase == "actions":
        return str(info.actions_left)
    if view.phase == "purchase":
        return "…" if info.choosing else "✓"
    return "–"


def _small_heading(sheet: Sheet, text: str, color: Color) -> None:
    text = ellipsize(text, INNER, BODY, bold=True)
    sheet.block(36, lambda draw, y: draw_text(draw, (LEFT, y + 4), text, size=BODY, bold=True, fill=color))
    sheet.keep_with_next()
