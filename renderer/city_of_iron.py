"""City of Iron pictures for a phone, drawn from a view only (issue 19, "Pictures made for a phone").

Discord shows a picture about 400 px wide on a phone, so every picture is `PHONE_WIDTH` (800) wide with
no text under `MIN_TEXT` (22 px, 11 px as shown), and the turn and hand pictures are at most 4:5.

- Turn picture (public view): one header line (round, scorings, alerts) and a status line (phase, who
  acts, actions left); the nations table in turn order (VP, income, coins, science, cards in hand,
  actions left, goods led; the seats to act highlighted); the turn-order track as one strip; the
  building row on offer as compact tiles (name, cost, land, goods and effects); a short key as footer.
- Final picture: the result first (places, VP, the tie-break numbers), then where the VP came from.
- Hand picture (a seat's view): only what that seat alone sees (its hand, its piles, and during the
  secret purchase what it can buy and has chosen) under a one-line header; never a copy of the board.
- Sections on demand (`/board section:<name>`): `goods`, `nations`, `buildings`, `towns`, `lands`, `key`.

Each picture is laid out at full detail first and with less detail only when it would not fit a phone
screen, so a two-player game keeps what a four-player one has to leave to the sections. Everything
drawn comes from the view, so nothing hidden can leak.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

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
    initial,
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
from rules.city_of_iron.view import (
    BuildingInfo,
    CardInfo,
    CityOfIronView,
    FinalInfo,
    GoodInfo,
    PlayerInfo,
    TownInfo,
)
from rules.core import View

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

KEY = (
    "● coins, ⚗ science, ♛ goods led (the most of a good; 2nd second most; +1 the amount for 1 more VP "
    "reached), Income 3+1 = income track + coins for leading, Acts = actions left (… choosing, ✓ done), "
    "▶ to act, disc numbers = turn order, track: bid costs, turn order runs ◀ right to left, ×2 copies. "
    "Tiles: cost, land (coloured square), goods, +VP at scorings, +inc income, +⚗/rd science, +cit/+mil "
    "cards drawn a round, +sp spaces, ◉ eye (a town deeper); cards: ⚒ work, ➜ distance, ⚔ attack or "
    "defence, ⚓ ship, ☁ airship, FREE action; citizen 1·4 = 1 to draw, 4 discarded; ★ town stars."
)
"""What every symbol and abbreviation on the pictures means, short enough for the alt text (the bot
cuts it at 1000 characters); the `key` section says the same at length."""


def _good(good_id: str) -> tuple[str, Color, Color]:
    return GOODS.get(good_id, (good_id.replace("_", " ").title(), Palette.muted, WHITE))


def _land(land_id: str) -> tuple[str, Color]:
    return LANDS.get(land_id, (land_id.replace("_", " ").title(), Palette.muted))


def _tint(color: Color, amount: float = 0.78) -> Color:
    """A light version of `color` (mixed with white) for backgrounds."""
    return tuple(int(channel + (255 - channel) * amount) for channel in color)  # type: ignore[return-value]


# ---- small icons -------------------------------------------------------------------------------


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
    draw.draw.draw_bitmap((x, y), mask.im, draw.draw.draw_ink(fill))  # type: ignore[attr-defined]


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


# ---- pill flows --------------------------------------------------------------------------------

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


# ---- layout helpers ----------------------------------------------------------------------------


def _first_fitting(layouts: Sequence[Callable[[], Sheet]]) -> Sheet:
    """The first (most detailed) layout no taller than a phone screen, else the last (plainest)."""
    sheet = layouts[0]()
    for layout in layouts[1:]:
        if sheet.height <= MAX_HEIGHT:
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
    """Tiles in a grid; each grid row is as tall as its tallest tile."""
    width = (INNER - (columns - 1) * GAP) // columns
    heights = [layout(index, width) for index in range(count)]
    rows = [max(heights[start : start + columns]) for start in range(0, count, columns)]
    total = sum(rows) + GAP * len(rows)

    def paint(draw: Draw, y: int) -> None:
        top = y
        for row_index, row_height in enumerate(rows):
            for column in range(columns):
                index = row_index * columns + column
                if index >= count:
                    break
                paint_tile(draw, index, LEFT + column * (width + GAP), top, width, row_height)
            top += row_height + GAP

    if count:
        sheet.block(total, paint)


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
    return sheet


def _seat_legend(sheet: Sheet, view: CityOfIronView) -> None:
    """The seats' colours and initials with their full names, for tables with narrow seat columns."""
    items: list[Item] = []
    for seat, info in enumerate(view.seats):
        name = f"{initial(info.name)} = {player_name(info.name, 300, SMALL, bold=True)}"
        items.append(("badge", name, Palette.seat(seat), WHITE))
    lines = _flow(items, INNER)
    sheet.block(_flow_height(lines) + 4, lambda draw, y: _draw_flow(draw, LEFT, y, lines))


# ---- turn picture: header ----------------------------------------------------------------------


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


# ---- turn picture: nations table ---------------------------------------------------------------

COLUMNS: tuple[tuple[str, str, int], ...] = (
    ("vp", "VP", 70),
    ("income", "Income", 96),
    ("coins", "Coins", 80),
    ("science", "⚗", 60),
    ("hand", "Hand", 70),
    ("acts", "Acts", 62),
    ("lead", "♛", 56),
)
"""The nations table's number columns: mark key prefix, header, width."""
PLAYER_FIELDS = tuple(key for key, _, _ in COLUMNS)
"""The keys its changed cells are marked by (`vp:2` is seat 2's VP cell)."""
FRAMED = (*PLAYER_FIELDS, "track", "row", "deck", "round", "scorings", "score_due", "last_round")
"""What `changes` marks that the turn picture frames (a key is `part` or `part:index`); its other
marks (`good:<good>:<seat>`) name goods cells, which only the `goods` section shows, so the banner's
lines say those changes in words."""


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


def _cells(view: CityOfIronView, info: PlayerInfo, leads: int) -> dict[str, tuple[str, Color]]:
    income = f"{info.income}" + (f"+{info.income_bonus}" if info.income_bonus else "")
    return {
        "vp": (str(info.vp), VP_COLOR),
        "income": (income, Palette.good),
        "coins": (str(info.coins), Palette.ink),
        "science": (str(info.science), SCIENCE),
        "hand": (str(info.hand_size), Palette.ink),
        "acts": (_acts(view, info), Palette.ink if view.phase == "actions" else Palette.muted),
        "lead": (f"{leads}" if leads else "–", Palette.ink if leads else Palette.muted),
    }


def _nations_table(sheet: Sheet, view: CityOfIronView, row: int = 50) -> None:
    order = _order(view)
    name_width = INNER - sum(width for _, _, width in COLUMNS)
    head = line_height(SMALL) + 6
    height = head + row * len(order) + 6
    waiting = set(view.to_act)
    leads = _leads(view)
    title = "Nations"
    if view.phase in ("bid", "rebid") and view.bid_order:
        title = "In bid order"
    elif view.turn_order and order[: len(view.turn_order)] == view.turn_order:
        title = "In turn order"

    def paint(draw: Draw, y: int) -> None:
        draw_text(
            draw,
            (LEFT + 4, y),
            ellipsize(title, name_width - 8, SMALL, bold=True),
            size=SMALL,
            bold=True,
            fill=Palette.muted,
        )
        x = LEFT + name_width
        for _, label, width in COLUMNS:
            draw_text(
                draw, (x + width // 2, y), label, size=SMALL, bold=True, fill=Palette.muted, anchor="ma"
            )
            x += width
        for index, seat in enumerate(order):
            info = view.seats[seat]
            top = y + head + index * row
            acting = seat in waiting and not view.finished
            fill = _tint(Palette.highlight, 0.35) if acting else (Palette.panel if index % 2 == 0 else SOFT)
            draw.rounded_rectangle(
                (LEFT, top, RIGHT, top + row - 4),
                radius=10,
                fill=fill,
                outline=Palette.ink if acting else None,
                width=2,
            )
            draw.rounded_rectangle((LEFT, top, LEFT + 8, top + row - 4), radius=4, fill=Palette.seat(seat))
            mid = top + (row - 4) // 2
            _seat_disc(draw, LEFT + 32, mid, seat, 17, str(index + 1))
            prefix = "▶ " if acting else ""
            name, size = fit_name(prefix + info.name, name_width - 64, BODY, bold=True, minimum=SMALL)
            draw_text(draw, (LEFT + 56, mid), name, size=size, bold=True, anchor="lm")
            x = LEFT + name_width
            for key, (text, color) in _cells(view, info, leads[seat]).items():
                width = next(width for column, _, width in COLUMNS if column == key)
                if key == "coins":
                    coin = _coin_width(text, BODY)
                    _coin(draw, x + (width - coin) // 2, mid - (line_height(BODY) + 4) // 2, text, BODY)
                else:
                    draw_text(
                        draw,
                        (x + width // 2, mid),
                        text,
                        size=26 if key == "vp" else BODY,
                        bold=True,
                        fill=color,
                        anchor="mm",
                    )
                sheet.mark(f"{key}:{seat}", (x + 2, top + 2, x + width - 2, top + row - 6))
                x += width

    sheet.block(height, paint)


# ---- turn picture: track and building row ------------------------------------------------------


def _track(sheet: Sheet, view: CityOfIronView) -> None:
    """The turn-order track as one strip: each space's bid cost and who took it."""
    costs = view.bid_costs
    spaces = view.track if view.track else [None] * len(costs)
    label = "Track"
    box, step = 52, 60
    start = LEFT + text_width(label, SMALL, bold=True) + 14
    hint = "◀ right plays first"
    height = box + 8

    def paint(draw: Draw, y: int) -> None:
        draw_text(draw, (LEFT, y + box // 2), label, size=SMALL, bold=True, fill=Palette.muted, anchor="lm")
        for index, cost in enumerate(costs):
            x = start + index * step
            who = spaces[index] if index < len(spaces) else None
            rounded_box(
                draw,
                (x, y, x + box, y + box),
                fill=Palette.panel,
                outline=Palette.line if who is None else Palette.seat(who),
                width=3,
            )
            if who is None:
                width = _coin_width(cost)
                _coin(draw, x + (box - width) // 2, y + (box - line_height(SMALL) - 4) // 2, cost)
            else:
                _seat_disc(draw, x + 20, y + box // 2, who, 15, initial(view.seats[who].name))
                draw_text(draw, (x + box - 5, y + box // 2), str(cost), size=SMALL, bold=True, anchor="rm")
            sheet.mark(f"track:{index}", (x, y, x + box, y + box))
        end = start + len(costs) * step
        if end + text_width(hint, SMALL) <= RIGHT:
            draw_text(draw, (end + 4, y + box // 2), hint, size=SMALL, fill=Palette.muted, anchor="lm")

    sheet.block(height, paint)


def _deck_note(view: CityOfIronView) -> str:
    parts = [f"deck {view.deck_count}"]
    if view.cards_to_next_score is not None:
        parts.append(f"Score card in {view.cards_to_next_score + 1}")
    elif not view.finished:
        parts.append("no Score card left")
    return " · ".join(parts)


def _offer_heading(sheet: Sheet, view: CityOfIronView, title: str = "Buildings on offer") -> None:
    note = _deck_note(view)
    note_width = text_width(note, SMALL)

    def paint(draw: Draw, y: int) -> None:
        room = INNER - note_width - 12
        draw_text(
            draw,
            (LEFT, y + 18),
            ellipsize(title, room, BODY, bold=True),
            size=BODY,
            bold=True,
            fill=Palette.accent,
            anchor="lm",
        )
        draw_text(draw, (RIGHT, y + 18), note, size=SMALL, fill=Palette.muted, anchor="rm")
        sheet.mark("deck", (RIGHT - note_width - 4, y + 2, RIGHT + 2, y + 34))

    sheet.block(40, paint)


def _building_items(info: BuildingInfo, *, goods_first: bool = False) -> list[Item]:
    """A building's badges: cost, land, goods, effects; with `goods_first` (for a tile cut to one
    line) the coins, then what it gives, then the science cost and land, which the cut hides first."""
    land: list[Item] = [("land", info.land, Palette.ink, WHITE)] if info.land else []
    gives = _goods_items(info.goods) + _building_effects(info)
    if goods_first:
        return [*_cost(info.coins, 0), *gives, *_cost(0, info.science)[1:], *land]
    return _cost(info.coins, info.science) + land + gives


TILE_BAND = 32
"""Height of a building tile's name band."""


def _building_tile(
    draw: Draw,
    box: tuple[int, int, int, int],
    info: BuildingInfo | None,
    lines: list[list[Item]],
    text: list[str] = (),
) -> None:
    x, y, x1, y1 = box
    if info is None:
        draw.rounded_rectangle(box, radius=10, outline=Palette.line, width=3, fill=SOFT)
        draw_text(draw, ((x + x1) // 2, (y + y1) // 2), "taken", size=SMALL, fill=Palette.muted, anchor="mm")
        return
    band = DECKS.get(info.deck, Palette.ink)
    rounded_box(draw, box, fill=Palette.panel, outline=band, width=3, radius=10)
    _band(draw, box, band, TILE_BAND)
    name = ellipsize(info.name, x1 - x - 16, SMALL, bold=True)
    draw_text(draw, (x + 8, y + TILE_BAND // 2), name, size=SMALL, bold=True, fill=WHITE, anchor="lm")
    _draw_flow(draw, x + 8, y + TILE_BAND + 5, lines)
    top = y + TILE_BAND + 5 + _flow_height(lines)
    for line in text:
        draw_text(draw, (x + 8, top), line, size=SMALL)
        top += line_height(SMALL)


def _offer(
    sheet: Sheet, view: CityOfIronView, *, max_lines: int | None = None, columns: int = 3, text: bool = False
) -> None:
    """The building row as tiles: name on the deck's colour, then cost, land, goods and effects."""
    row = view.row

    def layout(index: int, width: int) -> tuple[list[list[Item]], list[str]]:
        info = row[index]
        if info is None:
            return [], []
        lines = _flow(
            _building_items(info, goods_first=max_lines is not None), width - 16, max_lines=max_lines
        )
        words = wrap(info.text, width - 16, SMALL) if text and info.text else []
        return lines, words

    def tile_height(index: int, width: int) -> int:
        lines, words = layout(index, width)
        return max(TILE_BAND + 5 + _flow_height(lines) + len(words) * line_height(SMALL) + 2, 70)

    def paint(draw: Draw, index: int, x: int, y: int, width: int, height: int) -> None:
        lines, words = layout(index, width)
        _building_tile(draw, (x, y, x + width, y + height), row[index], lines, words)
        sheet.mark(f"row:{index}", (x, y, x + width, y + height))

    _tiles(sheet, len(row), columns, tile_height, paint)


def _footer(sheet: Sheet, lines: int) -> None:
    """A short key on the picture itself; the full one is the `key` section and the alt text."""
    texts = [
        "● coins · ⚗ science · ♛ goods led · Income 3+1 = track + coins for leading goods · Acts = actions left",
        "More: /board section: goods · nations · buildings · towns · lands · key",
    ]
    if lines == 1:
        texts = ["Key and more: /board section: key · goods · nations · towns"]
    wrapped = [part for text in texts for part in wrap(text, INNER, SMALL)]

    def paint(draw: Draw, y: int) -> None:
        for index, line in enumerate(wrapped):
            draw_text(draw, (LEFT, y + index * line_height(SMALL)), line, size=SMALL, fill=Palette.muted)

    sheet.space(4)
    sheet.block(len(wrapped) * line_height(SMALL) + 2, paint)


def _turn(view: CityOfIronView, marks: frozenset[str], level: int) -> Sheet:
    """The turn picture at a detail level: 0 full, 1 a one-line footer, 2 no footer, 3 building
    tiles cut to one line of badges (the `buildings` section has them whole), 4 no track (which no
    section repeats, hence last)."""
    sheet = Sheet(width=WIDTH, changed=marks)
    _top(sheet, view)
    _nations_table(sheet, view, row=46)
    if level < 4:
        sheet.space(4)
        _track(sheet, view)
    _offer_heading(sheet, view)
    _offer(sheet, view, max_lines=1 if level >= 3 else None)
    if level < 2:
        _footer(sheet, 2 if level == 0 else 1)
    return sheet


# ---- final picture -----------------------------------------------------------------------------

MEDALS: dict[int, Color] = {1: (212, 160, 20), 2: (150, 150, 160), 3: (170, 100, 50)}


def _scoreboard(sheet: Sheet, view: CityOfIronView, final: FinalInfo, *, detail: bool) -> None:
    """One box per seat, best first: place, name, VP and the tie-breaks; with `detail` the VP sources."""
    blocks: list[tuple[int, list[list[Item]]]] = []
    for line in final.lines:
        items: list[Item] = [("badge", f"{line.scorings} VP from Score cards", VP_COLOR, WHITE)]
        if detail:
            items.append(("label", "last:", Palette.muted, Palette.ink))
            for source, value in line.last_scoring.items():
                items.append(("badge", f"{source} {value}", _tint(VP_COLOR, 0.7), Palette.ink))
            if not line.last_scoring:
                items.append(("badge", "nothing", _tint(VP_COLOR, 0.7), Palette.ink))
        for source, value in line.bonuses.items():
            items.append(("badge", f"{source} {value:+d}", Palette.good if value > 0 else Palette.bad, WHITE))
        blocks.append((line.seat, _flow(items, INNER - 30, max_lines=None if detail else 1)))
    heights = [56 + _flow_height(lines) + 6 for _, lines in blocks]

    def paint(draw: Draw, y: int) -> None:
        top = y
        for line, (seat, lines), block_height in zip(final.lines, blocks, heights, strict=True):
            color = Palette.seat(seat)
            rounded_box(
                draw,
                (LEFT, top, RIGHT, top + block_height),
                fill=_tint(color, 0.85),
                outline=color,
                width=4 if line.place == 1 else 2,
            )
            draw.ellipse(
                (LEFT + 10, top + 6, LEFT + 54, top + 50),
                fill=MEDALS.get(line.place, Palette.muted),
                outline=Palette.ink,
                width=2,
            )
            draw_text(
                draw, (LEFT + 32, top + 28), str(line.place), size=28, bold=True, fill=WHITE, anchor="mm"
            )
            vp = f"{line.vp} VP"
            tie = f"{line.coins}● · {line.goods} goods"
            vp_width = text_width(vp, 32, bold=True)
            tie_width = text_width(tie, SMALL, bold=True)
            room = INNER - 80 - vp_width - tie_width - 30
            name, size = fit_name(view.seats[seat].name, room, 28, bold=True, minimum=SMALL)
            draw_text(draw, (LEFT + 66, top + 28), name, size=size, bold=True, anchor="lm")
            draw_text(draw, (RIGHT - 12, top + 28), vp, size=32, bold=True, fill=VP_COLOR, anchor="rm")
            draw_text(
                draw,
                (RIGHT - 26 - vp_width, top + 30),
                tie,
                size=SMALL,
                bold=True,
                fill=Palette.muted,
                anchor="rm",
            )
            _draw_flow(draw, LEFT + 14, top + 56, lines)
            top += block_height + 8

    sheet.block(sum(heights) + 8 * len(heights), paint)


def _final(view: CityOfIronView, marks: frozenset[str], level: int) -> Sheet:
    assert view.final is not None
    sheet = Sheet(width=WIDTH, changed=marks)
    reason = with_names(view.final.reason, view.players, BODY, bold=True)
    _top(sheet, view, "City of Iron — final scores", status=reason)
    _scoreboard(sheet, view, view.final, detail=level < 2)
    _text_block(sheet, "Ties are broken by coins (●), then goods.", size=SMALL, color=Palette.muted)
    if level == 0:
        sheet.space(4)
        _nations_table(sheet, view, row=46)
    return sheet


# ---- hand picture ------------------------------------------------------------------------------


def _hand_header(sheet: Sheet, view: CityOfIronView) -> None:
    """One line: game, the seat's name, round and phase."""
    seat = view.seat or 0
    tail = f" · Round {view.round} · {PHASES.get(view.phase, view.phase)}"
    head = "City of Iron · "
    room = INNER - text_width(head + tail, 26, bold=True)
    name = player_name(view.seats[seat].name, max(room, 80), 26, bold=True)
    text = ellipsize(head + name + tail, INNER, 26, bold=True)

    def paint(draw: Draw, y: int) -> None:
        draw.rounded_rectangle((LEFT, y, RIGHT, y + 44), radius=10, fill=Palette.seat(seat))
        draw_text(
            draw,
            (LEFT + 12, y + 22),
            ellipsize(text, INNER - 24, 26, bold=True),
            size=26,
            bold=True,
            fill=WHITE,
            anchor="lm",
        )

    sheet.block(54, paint)


def _card_layout(
    card: CardInfo, width: int, *, cost: bool, action: bool
) -> tuple[list[list[Item]], list[str], int]:
    items = (_cost(card.coins, card.science) if cost else []) + _skills(card)
    lines = _flow(items, width - 16)
    text = wrap(card.action, width - 16, SMALL)[:3] if action and card.action else []
    height = 40 + _flow_height(lines) + len(text) * line_height(SMALL) + 4
    return lines, text, max(height, 76)


def _card_tile(
    draw: Draw,
    box: tuple[int, int, int, int],
    card: CardInfo,
    *,
    cost: bool,
    action: bool,
    count: int = 1,
    chosen: int = 0,
) -> None:
    x, y, x1, y1 = box
    width = x1 - x
    _, band = CARD_DECKS.get(card.deck, (card.deck, Palette.ink))
    rounded_box(
        draw,
        box,
        fill=_tint(Palette.highlight, 0.5) if chosen else Palette.panel,
        outline=Palette.ink if chosen else band,
        width=5 if chosen else 3,
        radius=10,
    )
    _band(draw, box, band)
    tag = f"×{count}" if count > 1 else ""
    if chosen:
        tag = f"✓{chosen}" if count > 1 else "✓"
    tag_width = text_width(tag, SMALL, bold=True) + 8 if tag else 0
    room = width - 16 - tag_width
    draw_text(
        draw,
        (x + 8, y + 17),
        ellipsize(card.name, room, SMALL, bold=True),
        size=SMALL,
        bold=True,
        fill=WHITE,
        anchor="lm",
    )
    if tag:
        draw_text(
            draw,
            (x1 - 8, y + 17),
            tag,
            size=SMALL,
            bold=True,
            fill=Palette.highlight if chosen else WHITE,
            anchor="rm",
        )
    lines, text, _ = _card_layout(card, width, cost=cost, action=action)
    _draw_flow(draw, x + 8, y + 40, lines)
    top = y + 40 + _flow_height(lines)
    for line in text:
        draw_text(draw, (x + 8, top), line, size=SMALL)
        top += line_height(SMALL)


def _card_grid(
    sheet: Sheet,
    cards: Sequence[CardInfo],
    columns: int,
    *,
    cost: bool,
    action: bool,
    counts: Sequence[int] = (),
    chosen: Sequence[int] = (),
) -> None:
    def layout(index: int, width: int) -> int:
        return _card_layout(cards[index], width, cost=cost, action=action)[2]

    def paint(draw: Draw, index: int, x: int, y: int, width: int, height: int) -> None:
        _card_tile(
            draw,
            (x, y, x + width, y + height),
            cards[index],
            cost=cost,
            action=action,
            count=counts[index] if counts else 1,
            chosen=chosen[index] if chosen else 0,
        )

    _tiles(sheet, len(cards), columns, layout, paint)


def _chips(sheet: Sheet, items: list[Item], max_lines: int | None) -> None:
    lines = _flow(items, INNER, max_lines=max_lines)
    if lines:
        sheet.block(_flow_height(lines) + 2, lambda draw, y: _draw_flow(draw, LEFT, y, lines))


def _small_heading(sheet: Sheet, text: str, color: Color) -> None:
    text = ellipsize(text, INNER, BODY, bold=True)
    sheet.block(36, lambda draw, y: draw_text(draw, (LEFT, y + 4), text, size=BODY, bold=True, fill=color))


def _hand(sheet: Sheet, view: CityOfIronView, level: int) -> None:
    """The hand: tiles with the card's action (level 0), tiles with skills only (1), or name chips."""
    private = view.private
    assert private is not None
    hand = private.hand
    _small_heading(sheet, f"Your hand ({words.count(len(hand), 'card')})", Palette.seat(view.seat or 0))
    if not hand:
        _text_block(sheet, "No cards in hand.", size=SMALL, color=Palette.muted)
    elif level == 0:
        _card_grid(sheet, hand, 2, cost=False, action=True)
    elif level == 1:
        _card_grid(sheet, hand, 3, cost=False, action=False)
    else:
        chips: list[Item] = [("chip", card.name, CARD_DECKS[card.deck][1], Palette.panel) for card in hand]
        _chips(sheet, chips, 3 if level >= 3 else None)


def _piles(sheet: Sheet, view: CityOfIronView, *, contents: bool) -> None:
    """The seat's draw and discard piles: counts, and with `contents` the draw piles top first."""
    private = view.private
    assert private is not None
    _small_heading(sheet, "Your piles", Palette.seat(view.seat or 0))
    counts: list[Item] = []
    for deck, draw_pile, discard in (
        ("citizen", private.citizen_draw, private.citizen_discard),
        ("military", private.military_draw, private.military_discard),
    ):
        label, color = CARD_DECKS[deck]
        counts.append(("badge", f"{label}: draw {len(draw_pile)} · discard {len(discard)}", color, WHITE))
    _chips(sheet, counts, None)
    if not contents:
        return
    for deck, draw_pile in (("citizen", private.citizen_draw), ("military", private.military_draw)):
        if not draw_pile:
            continue
        label, color = CARD_DECKS[deck]
        items: list[Item] = [("label", f"{label} draws next:", color, Palette.ink)]
        items.extend(("chip", card.name, color, Palette.panel) for card in draw_pile)
        _chips(sheet, items, 2)


def _skills_text(card: CardInfo) -> str:
    """A card's skills in one short string for a chip ("⚒1 ➜2"), the same symbols as its badges."""
    return " ".join(text for _, text, _, _ in _skills(card))


def _purchase(sheet: Sheet, view: CityOfIronView, *, tiles: bool, limit: bool) -> None:
    """The secret purchase: what is chosen, what is left to spend, and the cards still affordable, as
    tiles (cost and skills as badges) or as chips (the same in one line each), `limit`ed to 4 lines."""
    private = view.private
    assert private is not None and view.seat is not None
    me = view.seats[view.seat]
    chosen_coins = sum(card.coins for card in private.selected)
    chosen_science = sum(card.science for card in private.selected)
    coins_left, science_left = me.coins - chosen_coins, me.science - chosen_science
    groups: dict[str, list[CardInfo]] = {}
    for card in private.unpurchased:
        groups.setdefault(card.name + "/" + card.deck, []).append(card)
    chosen_names: dict[str, int] = {}
    for card in private.selected:
        key = card.name + "/" + card.deck
        chosen_names[key] = chosen_names.get(key, 0) + 1
    entries = sorted(
        groups.items(), key=lambda entry: (entry[1][0].deck, entry[1][0].coins, entry[1][0].name)
    )

    def buyable(key: str, card: CardInfo) -> bool:
        return bool(chosen_names.get(key)) or (card.coins <= coins_left and card.science <= science_left)

    shown = [(key, cards) for key, cards in entries if buyable(key, cards[0])]
    dear = len(entries) - len(shown)
    status = "choosing" if me.choosing else "done choosing"
    _small_heading(sheet, f"Buy cards in secret · {status}", Palette.seat(view.seat))
    summary: list[Item] = [
        ("label", "Chosen", Palette.ink, Palette.ink),
        *_cost(chosen_coins, chosen_science),
    ]
    summary += [("label", "  left", Palette.ink, Palette.ink), ("coin", str(coins_left), GOLD, Palette.ink)]
    summary.append(("badge", f"⚗{science_left}", SCIENCE, WHITE))
    _chips(sheet, summary, None)
    if not entries:
        _text_block(sheet, "No cards left to buy.", size=SMALL, color=Palette.muted)
        return
    if tiles:
        cards = [cards[0] for _, cards in shown]
        _card_grid(
            sheet,
            cards,
            3,
            cost=True,
            action=False,
            counts=[len(cards) for _, cards in shown],
            chosen=[chosen_names.get(key, 0) for key, _ in shown],
        )
    else:
        items: list[Item] = []
        for key, cards in shown:
            card = cards[0]
            mark = "✓ " if chosen_names.get(key) else ""
            count = f" ×{len(cards)}" if len(cards) > 1 else ""
            price = f" {card.coins}●" + (f" ⚗{card.science}" if card.science else "")
            skills = _skills_text(card)
            text = mark + card.name + count + price + (f" · {skills}" if skills else "")
            box = _tint(Palette.highlight, 0.5) if mark else Palette.panel
            items.append(("chip", text, CARD_DECKS[card.deck][1], box))
        _chips(sheet, items, 4 if limit else None)
    if dear:
        _text_block(
            sheet,
            f"{dear} more kind{'s' if dear != 1 else ''} of card cost more than you have left.",
            size=SMALL,
            color=Palette.muted,
        )


def _seat(view: CityOfIronView, level: int) -> Sheet:
    """The hand picture at a detail level. Outside the purchase: 0 cards with actions and the draw
    piles' contents, 1 cards with skills, 2 name chips, 3 chips cut to a few lines and pile counts
    only. In the purchase, what to buy comes first: 0 buyable cards as tiles, 1 the same with pile
    counts only, 2 buyable cards as chips, 3 chips cut to a few lines."""
    sheet = Sheet(width=WIDTH)
    _hand_header(sheet, view)
    if view.private is None:
        _text_block(sheet, "Nothing private to show: everything you see is on the turn picture.", size=SMALL)
        return sheet
    if view.phase == "purchase":
        _purchase(sheet, view, tiles=level <= 1, limit=level >= 3)
        _hand(sheet, view, 3 if level >= 3 else 2)
        _piles(sheet, view, contents=level in (0, 2))
    else:
        _hand(sheet, view, level)
        _piles(sheet, view, contents=level < 3)
    return sheet


def render(view: View, *, marks: frozenset[str] = frozenset()) -> bytes:
    """The turn picture, the final picture, or a seat's hand picture; `marks` are the parts to frame
    as changed (the keys `changes` gives)."""
    assert isinstance(view, CityOfIronView), "renderer.city_of_iron draws City of Iron views"
    if view.seat is not None:
        sheet = _first_fitting([lambda level=level: _seat(view, level) for level in range(4)])
    elif view.finished and view.final is not None:
        sheet = _first_fitting([lambda level=level: _final(view, marks, level) for level in range(3)])
    else:
        sheet = _first_fitting([lambda level=level: _turn(view, marks, level) for level in range(5)])
    return to_png(sheet.image())


# ---- sections: goods ---------------------------------------------------------------------------


def _goods_cell(amount: int, first: int, second: int, shield: int) -> tuple[str, str]:
    """A seat's amount of a good as drawn, and its rank: 'first', 'second' or ''."""
    rank = "first" if amount and amount == first else ("second" if amount and amount == second else "")
    text = (f"♛{amount}" if rank == "first" else str(amount)) if amount else "·"
    if amount and amount >= shield:
        text += " +1"
    return text, rank


def _goods_table(sheet: Sheet, view: CityOfIronView) -> None:
    goods = view.goods
    seats = len(view.seats)
    fixed = [("Good", 150), ("VP", 78), ("Lead", 70), ("+1 VP", 80)]
    seat_width = (INNER - sum(width for _, width in fixed)) // max(seats, 1)
    row, head = 42, 40
    height = head + row * len(goods) + 6

    def paint(draw: Draw, y: int) -> None:
        x = LEFT
        for label, width in fixed:
            anchor = "la" if label == "Good" else "ma"
            draw_text(
                draw,
                (x + (6 if label == "Good" else width // 2), y + 6),
                label,
                size=SMALL,
                bold=True,
                fill=Palette.muted,
                anchor=anchor,
            )
            x += width
        for seat in range(seats):
            left = x + seat * seat_width
            # the seat's colour and initial over its column; the legend above gives the full names
            _seat_disc(draw, left + seat_width // 2, y + 18, seat, 15, initial(view.seats[seat].name))
        for index, good in enumerate(goods):
            top = y + head + index * row
            if index % 2 == 0:
                draw.rectangle((LEFT, top, RIGHT, top + row), fill=Palette.panel)
            _, fill, _ = _good(good.id)
            draw.rounded_rectangle(
                (LEFT + 4, top + 8, LEFT + 26, top + row - 8),
                radius=5,
                fill=fill,
                outline=Palette.ink,
                width=1,
            )
            name = ellipsize(_good(good.id)[0], fixed[0][1] - 38, SMALL, bold=True)
            draw_text(draw, (LEFT + 34, top + row // 2), name, size=SMALL, bold=True, anchor="lm")
            x = LEFT + fixed[0][1]
            draw_text(
                draw,
                (x + fixed[1][1] // 2, top + row // 2),
                f"{good.vp_first}/{good.vp_second}",
                size=SMALL,
                bold=True,
                fill=VP_COLOR,
                anchor="mm",
            )
            x += fixed[1][1]
            if good.coin_bonus:
                text = f"+{good.coin_bonus}"
                _coin(draw, x + (fixed[2][1] - _coin_width(text)) // 2, top + 5, text)
            x += fixed[2][1]
            draw_text(
                draw,
                (x + fixed[3][1] // 2, top + row // 2),
                f"≥{good.shield}",
                size=SMALL,
                bold=True,
                fill=Palette.muted,
                anchor="mm",
            )
            x += fixed[3][1]
            first, second = _places(good)
            for seat, amount in enumerate(good.amounts):
                left = x + seat * seat_width
                cell = (left + 4, top + 4, left + seat_width - 4, top + row - 4)
                color = Palette.seat(seat)
                text, rank = _goods_cell(amount, first, second, good.shield)
                ink = Palette.ink if amount else Palette.muted
                if rank == "first":
                    draw.rounded_rectangle(cell, radius=8, fill=color)
                    ink = WHITE
                elif rank == "second":
                    draw.rounded_rectangle(cell, radius=8, fill=_tint(color, 0.6), outline=color, width=2)
                if text_width(text, SMALL, bold=True) > cell[2] - cell[0] - 4:
                    text = text.replace(" ", "")
                draw_text(
                    draw,
                    ((cell[0] + cell[2]) // 2, top + row // 2),
                    text,
                    size=SMALL,
                    bold=True,
                    fill=ink,
                    anchor="mm",
                )

    sheet.block(height, paint)


def _goods_section(view: View, target: str | None = None) -> bytes:
    assert isinstance(view, CityOfIronView)
    sheet = _section_sheet(view, "goods")
    _seat_legend(sheet, view)
    _goods_table(sheet, view)
    _text_block(
        sheet,
        "VP 4/2: VP at each scoring for the most / the second most. Lead: coins at every income for the "
        "most. ♛ (seat colour) = the most, light seat colour = second. +1 VP ≥6: that amount scores 1 VP "
        "more; cells marked +1 reached it.",
    )
    return to_png(sheet.image())


# ---- sections: nations -------------------------------------------------------------------------


def _building_chip(info: BuildingInfo, box: Color = Palette.panel) -> Item:
    goods = " ".join(f"{amount} {_good(good)[0]}" for good, amount in info.goods.items())
    strip = _good(next(iter(info.goods)))[1] if info.goods else (200, 196, 188)
    text = info.name + (f" ({goods})" if goods else "") + (f" +{info.vp_bonus}VP" if info.vp_bonus else "")
    return "chip", text, strip, box


def _abilities(view: CityOfIronView) -> dict[str, str]:
    """Nation name -> ability text, when abilities are on (the view keys them by nation id)."""
    if not view.nations:
        return {}
    from rules.city_of_iron.cards import game_data

    return {
        nation.name: view.nations[nation.id]
        for nation in game_data().nations.values()
        if nation.id in view.nations
    }


def _panel(sheet: Sheet, view: CityOfIronView, seat: int, abilities: dict[str, str]) -> None:
    """One nation: counters, its draws, a line per city, towns and stored buildings."""
    info = view.seats[seat]
    color = Palette.seat(seat)
    inner = INNER - 28
    income = f"income {info.income}" + (f"+{info.income_bonus}" if info.income_bonus else "")
    counters: list[Item] = [
        ("coin", str(info.coins), GOLD, Palette.ink),
        ("badge", f"⚗{info.science}", SCIENCE, WHITE),
        ("badge", income, Palette.good, WHITE),
        ("badge", f"hand {info.hand_size}", Palette.ink, WHITE),
        ("badge", f"citizen {info.citizen_draw}·{info.citizen_discard}", CARD_DECKS["citizen"][1], WHITE),
        ("badge", f"military {info.military_draw}·{info.military_discard}", CARD_DECKS["military"][1], WHITE),
    ]
    counters += [
        ("badge", f"draws {info.draws_citizen} cit {info.draws_military} mil", SOFT, Palette.ink),
        ("badge", f"➜{info.distance}", DISTANCE, WHITE),
        ("badge", f"{info.tokens_left} city tokens", SOFT, Palette.ink),
        ("badge", f"{info.unpurchased} not bought", SOFT, Palette.ink),
    ]
    ability = abilities.get(info.nation or "", "")
    text_lines = wrap("Ability: " + ability, inner, SMALL) if ability else []
    groups: list[list[list[Item]]] = [_flow(counters, inner)]
    for city in info.cities:
        used, capacity = len(city.buildings), city.capacity
        name = city.land.name + (f" +{city.districts}D" if city.districts else "")
        items: list[Item] = [("land", land, Palette.ink, WHITE) for land in city.land.lands]
        items.append(
            ("badge", f"{name} {used}/{capacity}", Palette.bad if used >= capacity else Palette.ink, WHITE)
        )
        items.extend(_building_chip(building) for building in city.buildings)
        if capacity > used:
            items.append(("badge", f"{capacity - used} free", SOFT, Palette.muted))
        groups.append(_flow(items, inner))
    if info.towns:
        items = [("label", "Towns", Palette.accent, Palette.ink)]
        for town in info.towns:
            goods = town.goods
            if town.choose_good and info.snyle_good:
                goods = {info.snyle_good: town.choose_good}
            text = "★" * town.stars + (" " if town.stars else "") + town.name
            text += "".join(f" {amount} {_good(good)[0]}" for good, amount in goods.items())
            text += f" ⚔{town.defense + view.owned_town_defense}"
            strip = _good(next(iter(goods)))[1] if goods else (200, 196, 188)
            items.append(("chip", text, strip, Palette.panel))
        groups.append(_flow(items, inner))
    if info.stored:
        items = [("label", f"Stored ({len(info.stored)})", Palette.bad, Palette.ink)]
        items.extend(_building_chip(building, SOFT) for building in info.stored)
        groups.append(_flow(items, inner))
    body = sum(_flow_height(lines) for lines in groups) + len(text_lines) * line_height(SMALL) + 8
    height = 50 + body + 16

    def paint(draw: Draw, y: int) -> None:
        rounded_box(draw, (LEFT, y, RIGHT, y + height - 10), fill=Palette.panel, outline=color, width=3)
        _band(draw, (LEFT, y, RIGHT, y + height - 10), color, 42)
        vp = f"{info.vp} VP"
        suffix = f" — {info.nation}" if info.nation else ""
        room = INNER - 40 - text_width(vp, 26, bold=True)
        title, size = fit_name(info.name, room, 26, suffix=suffix, bold=True, minimum=SMALL)
        draw_text(draw, (LEFT + 14, y + 21), title, size=size, bold=True, fill=WHITE, anchor="lm")
        draw_text(draw, (RIGHT - 14, y + 21), vp, size=26, bold=True, fill=WHITE, anchor="rm")
        top = y + 50
        _draw_flow(draw, LEFT + 14, top, groups[0])
        top += _flow_height(groups[0])
        for line in text_lines:
            draw_text(draw, (LEFT + 14, top), line, size=SMALL, fill=Palette.muted)
            top += line_height(SMALL)
        top += 8
        for lines in groups[1:]:
            _draw_flow(draw, LEFT + 14, top, lines)
            top += _flow_height(lines)

    sheet.block(height, paint)


def _nations_section(view: View, target: str | None = None) -> bytes:
    assert isinstance(view, CityOfIronView)
    sheet = _section_sheet(view, "nations")
    abilities = _abilities(view)
    for seat in _order(view):
        _panel(sheet, view, seat, abilities)
    _text_block(
        sheet,
        "citizen 1·4 = 1 card in the citizen draw pile, 4 in its discard pile; draws 2 cit 1 mil = "
        "cards drawn each End Round; ➜3 = the nation's distance; 3/5 = buildings in a city / its spaces; "
        "+1D = districts; ⚔ a town's defence.",
    )
    return to_png(sheet.image())


# ---- sections: buildings, towns, lands, key ----------------------------------------------------


def _buildings_section(view: View, target: str | None = None) -> bytes:
    assert isinstance(view, CityOfIronView)
    sheet = _section_sheet(view, "buildings on offer")
    _offer_heading(sheet, view, f"Row ({sum(1 for info in view.row if info)} on offer)")
    _offer(sheet, view, columns=2, text=True)
    _text_block(
        sheet,
        f"Building discard pile: {view.discard_count}. Tiles: cost, land needed, goods, effects (see the key).",
    )
    return to_png(sheet.image())


def _town_tile(draw: Draw, box: tuple[int, int, int, int], town: TownInfo, *, top_card: bool) -> None:
    x, y, x1, _ = box
    draw.rounded_rectangle(
        box,
        radius=10,
        fill=Palette.panel if top_card else SOFT,
        outline=Palette.ink if top_card else Palette.line,
        width=3 if top_card else 2,
    )
    stats = f"⚔{town.defense} ➜{town.distance}"
    draw_text(draw, (x1 - 8, y + 6), stats, size=SMALL, bold=True, anchor="ra")
    room = x1 - x - 24 - text_width(stats, SMALL, bold=True)
    draw_text(draw, (x + 8, y + 6), ellipsize(town.name, room, SMALL, bold=True), size=SMALL, bold=True)
    _draw_flow(draw, x + 8, y + 38, _flow(_town_effects(town), x1 - x - 16, max_lines=2))


def _town_height(town: TownInfo, width: int) -> int:
    return 40 + _flow_height(_flow(_town_effects(town), width - 16, max_lines=2)) + 2


def _towns_section(view: View, target: str | None = None) -> bytes:
    """Each neutral pile's top two cards (the top one may be attacked; eyes reach deeper), then the
    expansion towns."""
    assert isinstance(view, CityOfIronView)
    sheet = _section_sheet(view, "towns")
    _text_block(sheet, "Top card first · ⚔ defence · ➜ distance", size=SMALL, color=Palette.muted)
    label_width = 84
    width = (INNER - label_width - GAP) // 2
    for stars in sorted(view.town_piles):
        pile = view.town_piles[stars]
        shown = pile[:2]
        height = max([_town_height(town, width) for town in shown] + [70])

        def paint(draw: Draw, y: int, stars: str = stars, pile=pile, shown=shown, height=height) -> None:  # noqa: ANN001
            draw_text(draw, (LEFT, y + 4), "★" * int(stars), size=BODY, bold=True, fill=Palette.accent)
            draw_text(draw, (LEFT, y + 36), f"{len(pile)} left", size=SMALL, fill=Palette.muted)
            if not pile:
                draw_text(draw, (LEFT + label_width, y + 20), "empty", size=SMALL, fill=Palette.muted)
            for position, town in enumerate(shown):
                x = LEFT + label_width + position * (width + GAP)
                _town_tile(draw, (x, y, x + width, y + height), town, top_card=position == 0)

        sheet.block(height + GAP, paint)
    if view.expansion_row:
        towns = view.expansion_row
        _small_heading(sheet, f"Expansion towns (deck {view.expansion_deck_count})", Palette.accent)

        def layout(index: int, width: int) -> int:
            return _town_height(towns[index], width)

        def paint_tile(draw: Draw, index: int, x: int, y: int, width: int, height: int) -> None:
            _town_tile(draw, (x, y, x + width, y + height), towns[index], top_card=True)

        _tiles(sheet, len(towns), 2, layout, paint_tile)
    return to_png(sheet.image())


def _lands_section(view: View, target: str | None = None) -> bytes:
    assert isinstance(view, CityOfIronView)
    sheet = _section_sheet(view, "lands to settle")
    lands = view.lands
    if not lands:
        _text_block(sheet, "No land boards are left to settle.", size=SMALL, color=Palette.muted)
        return to_png(sheet.image())
    row = 48

    def paint(draw: Draw, y: int) -> None:
        for index, land in enumerate(lands):
            top = y + index * row
            draw.rounded_rectangle(
                (LEFT, top, RIGHT, top + row - 6), radius=8, fill=Palette.panel, outline=Palette.line, width=2
            )
            left = LEFT + 6
            for land_type in land.lands:
                left += _land_icon(draw, left, top + 5, land_type, 32) + 4
            tail: list[Item] = [("badge", f"➜{land.distance}", DISTANCE, WHITE)]
            if land.requires == "ship":
                tail.insert(0, ("badge", "⚓ ship", LANDS["coast"][1], WHITE))
            elif land.requires == "airship":
                tail.insert(0, ("badge", "☁ airship", LANDS["flying_island"][1], Palette.ink))
            right = RIGHT - 6 - sum(_item_width(item) + 6 for item in tail)
            names = ", ".join(_land(land_type)[0] for land_type in land.lands)
            text = ellipsize(f"{land.name} ({names})", right - left - 10, SMALL, bold=True)
            draw_text(draw, (left + 4, top + (row - 6) // 2), text, size=SMALL, bold=True, anchor="lm")
            for item in tail:
                right += _draw_item(draw, right, top + 4, item) + 6

    _text_block(
        sheet,
        "Land types (coloured squares), the distance to settle (➜) and a ship or airship if needed.",
        size=SMALL,
        color=Palette.muted,
    )
    sheet.block(row * len(lands) + 4, paint)
    return to_png(sheet.image())


KEY_LINES: tuple[tuple[Item, str], ...] = (
    (("coin", "3", GOLD, Palette.ink), "coins: a cost, or an amount owned"),
    (("badge", "⚗1", SCIENCE, WHITE), "science: a cost, or an amount owned"),
    (("badge", "♛", Palette.seat(0), WHITE), "goods a nation has the most of (ties share it)"),
    (("label", "3+1", Palette.good, Palette.ink), "income: 3 from the track + 1 coin for leading goods"),
    (("label", "Acts", Palette.muted, Palette.ink), "actions left this round (… choosing cards, ✓ done)"),
    (("badge", "+3 VP", VP_COLOR, WHITE), "VP at each scoring while 1st or 2nd in its good"),
    (("badge", "+1 inc", GOLD, Palette.ink), "income: coins at every income"),
    (("badge", "+1⚗/rd", SCIENCE, WHITE), "science at every End Round"),
    (("badge", "+1 cit", CARD_DECKS["citizen"][1], WHITE), "citizen cards drawn every round (mil: military)"),
    (("badge", "+2 sp", Palette.ink, WHITE), "building spaces in its city"),
    (("badge", "◉", Palette.ink, WHITE), "eye: attack one card deeper into a town pile"),
    (("badge", "⚒1", SKILL, WHITE), "work skill"),
    (("badge", "➜2", DISTANCE, WHITE), "distance skill (on towns and lands: distance)"),
    (("badge", "⚔2", CARD_DECKS["military"][1], WHITE), "attack (on towns: defence)"),
    (("badge", "⚓ ship", LANDS["coast"][1], WHITE), "ship, or ☁ airship, needed for some lands"),
    (("badge", "FREE", Palette.good, WHITE), "a free action, played before your action"),
    (("badge", "citizen 1·4", CARD_DECKS["citizen"][1], WHITE), "1 card in the draw pile, 4 discarded"),
    (("badge", "Track", Palette.muted, WHITE), "bid costs; turn order runs right to left"),
    (("label", "★★", Palette.accent, Palette.ink), "a town's stars (its pile)"),
)
"""The key section's rows: a sample of the symbol as drawn, and what it means."""


def _key_section(view: View, target: str | None = None) -> bytes:
    assert isinstance(view, CityOfIronView)
    sheet = _section_sheet(view, "key")
    sample = 170
    rows = [(item, wrap(text, INNER - sample, SMALL)) for item, text in KEY_LINES]

    def paint(draw: Draw, y: int) -> None:
        top = y
        for item, lines in rows:
            _draw_item(draw, LEFT, top, item)
            for index, line in enumerate(lines):
                draw_text(draw, (LEFT + sample, top + 4 + index * line_height(SMALL)), line, size=SMALL)
            top += max(STEP, len(lines) * line_height(SMALL) + 8)

    sheet.block(sum(max(STEP, len(lines) * line_height(SMALL) + 8) for _, lines in rows), paint)
    lands = list(LANDS.items())

    def paint_lands(draw: Draw, y: int) -> None:
        for index, (land_id, (label, _)) in enumerate(lands):
            x = LEFT + (index % 3) * (INNER // 3)
            top = y + (index // 3) * 40
            _land_icon(draw, x, top, land_id, 32)
            draw_text(draw, (x + 40, top + 16), label, size=SMALL, anchor="lm")

    _small_heading(sheet, "Land types", Palette.accent)
    sheet.block(((len(lands) + 2) // 3) * 40 + 4, paint_lands)
    _text_block(
        sheet,
        "Building tiles: A, B, C decks by band colour. Magenta frames: what changed since the last turn post.",
        size=SMALL,
        color=Palette.muted,
    )
    return to_png(sheet.image())


OVERLAYS = (
    Overlay(
        name="goods",
        description="Goods: every nation's amounts, who leads, VP and coin bonuses",
        draw=_goods_section,
    ),
    Overlay(
        name="nations",
        description="Nations: cities, buildings, towns, stored buildings, card piles",
        draw=_nations_section,
    ),
    Overlay(
        name="buildings",
        description="The building row in full, with each building's text",
        draw=_buildings_section,
    ),
    Overlay(
        name="towns",
        description="Towns to attack: each pile's top cards and the expansion towns",
        draw=_towns_section,
    ),
    Overlay(
        name="lands",
        description="Land boards left to settle: land types, distance, ship needs",
        draw=_lands_section,
    ),
    Overlay(
        name="key", description="What every symbol and abbreviation on the pictures means", draw=_key_section
    ),
)


# ---- changes -----------------------------------------------------------------------------------


def _numbers(view: CityOfIronView, info: PlayerInfo, leads: int) -> dict[str, int | str]:
    return {
        "vp": info.vp,
        "income": info.income + info.income_bonus,
        "coins": info.coins,
        "science": info.science,
        "hand": info.hand_size,
        "lead": leads,
    }


def _banner_name(name: str) -> str:
    return player_name(name, NAME_WIDTH, BANNER_SIZE)


def _built(info: PlayerInfo) -> list[str]:
    return sorted(
        [building.name for city in info.cities for building in city.buildings]
        + [town.name for town in info.towns]
    )


def _gained(before: list[str], after: list[str]) -> tuple[list[str], list[str]]:
    """What is in `after` and not `before`, and the other way round (as multisets)."""
    rest = list(before)
    gained = []
    for name in after:
        if name in rest:
            rest.remove(name)
        else:
            gained.append(name)
    return gained, rest


def changes(old: View, new: View) -> Changes:
    """The parts of the turn picture that changed between two views of the same viewer (nations table
    cells, track spaces, building tiles, round, scorings, deck), with those and the goods section's
    changes in words."""
    assert isinstance(old, CityOfIronView) and isinstance(new, CityOfIronView)
    marks: set[str] = set()
    lines: list[str] = []
    labels = {
        "vp": "VP",
        "income": "income",
        "coins": "coins",
        "science": "science",
        "hand": "cards in hand",
        "lead": "goods led",
    }
    old_leads, new_leads = _leads(old), _leads(new)
    for seat, (before, after) in enumerate(zip(old.seats, new.seats, strict=True)):
        name = _banner_name(after.name)
        was, now = _numbers(old, before, old_leads[seat]), _numbers(new, after, new_leads[seat])
        for key, label in labels.items():
            if was[key] != now[key]:
                marks.add(f"{key}:{seat}")
                lines.append(change(f"{name}: {label}", was[key], now[key]))
        if _acts(old, before) != _acts(new, after) and new.phase in ("actions", "purchase"):
            marks.add(f"acts:{seat}")
        gained, lost = _gained(_built(before), _built(after))
        if gained:
            lines.append(f"{name} gained {', '.join(gained)} (nations section)")
        if lost:
            lines.append(f"{name} lost {', '.join(lost)} (nations section)")
    goods_before = {good.id: good.amounts for good in old.goods}
    for good in new.goods:
        amounts = goods_before.get(good.id, [0] * len(good.amounts))
        for seat, (was_amount, now_amount) in enumerate(zip(amounts, good.amounts, strict=False)):
            if was_amount != now_amount:
                marks.add(f"good:{good.id}:{seat}")
                lines.append(
                    change(
                        f"Goods section: {_banner_name(new.seats[seat].name)}'s {good.name}",
                        was_amount,
                        now_amount,
                    )
                )
    old_row = [info.uid if info else None for info in old.row]
    for index, info in enumerate(new.row):
        if (old_row[index] if index < len(old_row) else None) != (info.uid if info else None):
            marks.add(f"row:{index}")
            lines.append(f"Building row: {info.name if info else 'an empty space'} in space {index + 1}")
    for index, who in enumerate(new.track):
        was = old.track[index] if index < len(old.track) else None
        if was != who:
            marks.add(f"track:{index}")
            if who is not None:
                lines.append(
                    f"Track: {_banner_name(new.seats[who].name)} bid {new.bid_costs[index]} (space {index + 1})"
                )
    if old.deck_count != new.deck_count or old.cards_to_next_score != new.cards_to_next_score:
        marks.add("deck")
    if old.scorings != new.scorings:
        marks.add("scorings")
        lines.insert(0, f"Scoring {new.scorings} of 3 done")
    for key, flag, text in (
        ("score_due", new.score_due, "A Score card was drawn"),
        ("last_round", new.last_round, "This is the last round"),
    ):
        if flag and not getattr(old, key):
            marks.add(key)
            lines.insert(0, text)
    if old.round != new.round:
        marks.add("round")
        lines.insert(0, f"Round {old.round} → {new.round}")
    return Changes(marks=frozenset(marks), lines=tuple(lines))
