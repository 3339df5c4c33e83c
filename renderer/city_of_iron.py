"""City of Iron pictures, drawn from a view only: the public board, a seat's hand, the final scoreboard.

Public board (view.seat None), top to bottom: headline and status pills (round, scorings, Score card due,
last round); the nations table (turn position, VP bar, income + 1st-place bonus, coins, science, hand,
actions left); the turn-order track with bid costs and the bid/turn order; the building row as tiles
(cost, science, land, goods, effects) with deck, next Score card and discard counts; the goods table
(every seat's amount, leader and 2nd place, VP, coin bonus, shield); one panel per nation (cities with
land types, capacity and buildings, towns, stored buildings, card piles, draws); the towns that may be
attacked (neutral piles top first, expansion towns) and the land boards that may be settled.

A seat's view puts its own cards first (hand with skills and actions, piles, and during the secret
purchase step the cards it may buy, chosen ones marked), then the public parts it needs to decide
(nations table, track, building row, goods, its own panel, towns and lands): never other seats' panels.

A finished game adds the final scoreboard (places, VP by source, tie-breaks) at the top.
Everything drawn comes from the view, so nothing hidden can leak.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

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
from rules.city_of_iron.view import (
    BuildingInfo,
    CardInfo,
    CityOfIronView,
    FinalInfo,
    GoodInfo,
    PlayerInfo,
    ScoreLine,
    TownInfo,
)
from rules.core import View

Draw = ImageDraw.ImageDraw

INNER = 1080 - 2 * MARGIN
LEFT = MARGIN
RIGHT = 1080 - MARGIN
GAP = 12
BODY = 24
SMALL = 22

WHITE: Color = (255, 255, 255)
GOLD: Color = (240, 188, 40)
GOLD_EDGE: Color = (150, 110, 10)
SCIENCE: Color = (70, 70, 170)
VP_COLOR: Color = (140, 30, 40)
SOFT: Color = (236, 229, 214)
"""Panel tint for secondary areas."""

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


def _good(good_id: str) -> tuple[str, Color, Color]:
    return GOODS.get(good_id, (good_id.replace("_", " ").title(), Palette.muted, WHITE))


def _land(land_id: str) -> tuple[str, Color]:
    return LANDS.get(land_id, (land_id.replace("_", " ").title(), Palette.muted))


def _tint(color: Color, amount: float = 0.78) -> Color:
    """A light version of `color` (mixed with white) for backgrounds."""
    return tuple(int(channel + (255 - channel) * amount) for channel in color)  # type: ignore[return-value]


# ---- small icons -------------------------------------------------------------------------------


def _badge(draw: Draw, x: int, y: int, text: str, fill: Color, ink: Color = WHITE, size: int = SMALL) -> int:
    """A pill like canvas.pill (height line_height + 4) with any ink; returns its width."""
    pad = size // 2
    width = text_width(text, size, bold=True) + 2 * pad
    height = line_height(size) + 4
    draw.rounded_rectangle((x, y, x + width, y + height), radius=height // 2, fill=fill)
    draw_text(draw, (x + width // 2, y + height // 2), text, size=size, bold=True, fill=ink, anchor="mm")
    return width


def _badge_width(text: str, size: int = SMALL) -> int:
    return text_width(text, size, bold=True) + 2 * (size // 2)


def _coin(draw: Draw, x: int, y: int, amount: int | str, size: int = SMALL) -> int:
    """A gold coin with the amount on it; top-left at (x, y), as tall as a badge of `size`."""
    height = line_height(size) + 4
    text = str(amount)
    width = max(height, text_width(text, size, bold=True) + 12)
    draw.rounded_rectangle(
        (x, y, x + width, y + height), radius=height // 2, fill=GOLD, outline=GOLD_EDGE, width=2
    )
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
        draw_text(draw, (cx, cy), label, size=max(radius + 4, 18), bold=True, fill=WHITE, anchor="mm")


# ---- pill flows --------------------------------------------------------------------------------

Item = tuple[str, str, Color, Color]
"""(kind, text, fill, ink): kind 'badge', 'coin', 'land' (text is the land id), 'chip' (a card name on
a light box, fill = its colour strip, ink = the box) or 'label' (bold text in colour fill)."""


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


def _flow(items: Sequence[Item], width: int, size: int = SMALL, gap: int = 6) -> list[list[Item]]:
    lines: list[list[Item]] = [[]]
    used = 0
    for item in items:
        item_width = _item_width(item, size)
        if lines[-1] and used + gap + item_width > width:
            lines.append([])
            used = 0
        used += (gap if lines[-1] else 0) + item_width
        lines[-1].append(item)
    return lines if lines[0] else []


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
    """What a building or a town gives each round, in the same badges on both."""
    items: list[Item] = []
    if income:
        items.append(("badge", f"+{income}● income", GOLD, Palette.ink))
    if science:
        items.append(("badge", f"+{science}⚗/round", SCIENCE, WHITE))
    if citizen:
        items.append(("badge", f"+{citizen} citizen", CARD_DECKS["citizen"][1], WHITE))
    if military:
        items.append(("badge", f"+{military} military", CARD_DECKS["military"][1], WHITE))
    return items


def _building_effects(info: BuildingInfo) -> list[Item]:
    items: list[Item] = []
    if info.vp_bonus:
        items.append(("badge", f"+{info.vp_bonus} VP", VP_COLOR, WHITE))
    items += _yield_badges(info.income, info.science_income, info.draws_citizen, info.draws_military)
    if info.capacity:
        items.append(("badge", f"+{info.capacity} spaces", Palette.ink, WHITE))
    if info.eyes:
        items.append(("badge", "◉" * info.eyes + (" eyes" if info.eyes > 1 else " eye"), Palette.ink, WHITE))
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
        items.append(("badge", f"⚒ {info.work} work", (90, 90, 96), WHITE))
    if info.distance:
        items.append(("badge", f"➜ {info.distance} dist.", (60, 110, 150), WHITE))
    if info.attack:
        items.append(("badge", f"⚔ {info.attack} attack", CARD_DECKS["military"][1], WHITE))
    if info.ship:
        items.append(("badge", "⚓ ship", LANDS["coast"][1], WHITE))
    if info.airship:
        items.append(("badge", "☁ airship", LANDS["flying_island"][1], Palette.ink))
    return items


def _cost(coins: int, science: int) -> list[Item]:
    items: list[Item] = [("coin", str(coins), GOLD, Palette.ink)]
    if science:
        items.append(("badge", f"⚗{science}", SCIENCE, WHITE))
    return items


# ---- headline ----------------------------------------------------------------------------------


def _header(sheet: Sheet, view: CityOfIronView, title: str, color: Color = Palette.ink) -> None:
    subtitle_lines = wrap(with_names(view.headline, view.players, 26), INNER, 26)
    pills: list[Item] = [("badge", f"Round {view.round}", Palette.ink, WHITE)]
    pills.append(("badge", f"Scorings {view.scorings}/3", VP_COLOR, WHITE))
    if view.score_due and not view.finished:
        pills.append(("badge", "Score card drawn: scored this End Round", Palette.highlight, Palette.ink))
    if view.last_round and not view.finished:
        pills.append(("badge", "LAST ROUND", Palette.bad, WHITE))
    for key, label in (("abilities", "nation abilities"), ("expansion", "expansion")):
        if view.options.get(key):
            pills.append(("badge", label, SOFT, Palette.ink))
    lines = _flow(pills, INNER, 24)
    height = line_height(40) + len(subtitle_lines) * line_height(26) + 8 + _flow_height(lines, 24) + 4

    def paint(draw: Draw, y: int) -> None:
        size = fit_size(title, INNER, 40, bold=True, minimum=30)
        draw_text(draw, (LEFT, y), ellipsize(title, INNER, size, bold=True), size=size, bold=True, fill=color)
        top = y + line_height(40)
        for line in subtitle_lines:
            draw_text(draw, (LEFT, top), line, size=26, fill=Palette.muted)
            top += line_height(26)
        _draw_flow(draw, LEFT, top + 8, lines, 24)

    sheet.block(height, paint)


# ---- nations table -----------------------------------------------------------------------------


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


def _players_table(sheet: Sheet, view: CityOfIronView) -> None:
    order = _order(view)
    columns = [("VP", 190), ("Income", 130), ("Coins", 100), ("Science", 112), ("Hand", 84), ("Acts", 76)]
    name_width = INNER - sum(width for _, width in columns)
    head = line_height(SMALL) + 6
    row = 68
    height = head + row * len(order) + 10
    top_vp = max([info.vp for info in view.seats] + [1])
    waiting = set(view.to_act)
    in_actions = view.phase == "actions"

    def paint(draw: Draw, y: int) -> None:
        x = LEFT + name_width
        for label, width in columns:
            draw_text(
                draw, (x + width // 2, y), label, size=SMALL, bold=True, fill=Palette.muted, anchor="ma"
            )
            x += width
        draw_text(
            draw,
            (LEFT + 8, y),
            "Nations (in turn order)" if view.turn_order else "Nations",
            size=SMALL,
            bold=True,
            fill=Palette.muted,
        )
        for index, seat in enumerate(order):
            info = view.seats[seat]
            top = y + head + index * row
            acting = seat in waiting and not view.finished
            fill = _tint(Palette.highlight, 0.35) if acting else (Palette.panel if index % 2 == 0 else SOFT)
            draw.rounded_rectangle((LEFT, top, RIGHT, top + row - 4), radius=10, fill=fill)
            draw.rounded_rectangle((LEFT, top, LEFT + 10, top + row - 4), radius=4, fill=Palette.seat(seat))
            mid = top + (row - 4) // 2
            _seat_disc(draw, LEFT + 36, mid, seat, 16, str(index + 1))
            suffix = "  ◀ you" if view.seat == seat else ""
            name, size = fit_name(info.name, name_width - 76, 26, suffix=suffix, bold=True, minimum=SMALL)
            draw_text(draw, (LEFT + 60, top + 4), name, size=size, bold=True)
            status = info.nation or ""
            if acting:
                status = ("▶ choosing cards" if info.choosing else "▶ to act") + (
                    f" · {status}" if status else ""
                )
            draw_text(
                draw,
                (LEFT + 60, top + 6 + line_height(26)),
                ellipsize(status, name_width - 76, SMALL),
                size=SMALL,
                fill=Palette.accent if acting else Palette.muted,
            )
            x = LEFT + name_width
            # VP with a bar, like the score track
            bar = int((columns[0][1] - 70) * info.vp / top_vp)
            draw.rounded_rectangle(
                (x + 6, mid - 12, x + 6 + max(bar, 6), mid + 12), radius=6, fill=Palette.seat(seat)
            )
            draw_text(
                draw,
                (x + columns[0][1] - 8, mid),
                str(info.vp),
                size=30,
                bold=True,
                fill=VP_COLOR,
                anchor="rm",
            )
            x += columns[0][1]
            income = f"{info.income}" + (f"+{info.income_bonus}" if info.income_bonus else "")
            draw_text(
                draw,
                (x + columns[1][1] // 2, mid),
                income,
                size=28,
                bold=True,
                fill=Palette.good,
                anchor="mm",
            )
            x += columns[1][1]
            width = _coin_width(info.coins, 26)
            _coin(draw, x + (columns[2][1] - width) // 2, mid - (line_height(26) + 4) // 2, info.coins, 26)
            x += columns[2][1]
            draw_text(
                draw,
                (x + columns[3][1] // 2, mid),
                f"⚗{info.science}",
                size=28,
                bold=True,
                fill=SCIENCE,
                anchor="mm",
            )
            x += columns[3][1]
            draw_text(
                draw, (x + columns[4][1] // 2, mid), str(info.hand_size), size=28, bold=True, anchor="mm"
            )
            x += columns[4][1]
            cell_left = LEFT + name_width
            for key, (_, cell_width) in zip(PLAYER_FIELDS, columns, strict=True):
                sheet.mark(f"{key}:{seat}", (cell_left, top, cell_left + cell_width, top + row - 4))
                cell_left += cell_width
            acts = str(info.actions_left) if in_actions else ("…" if info.choosing else "–")
            draw_text(
                draw,
                (x + columns[5][1] // 2, mid),
                acts,
                size=28,
                bold=True,
                fill=Palette.ink if in_actions else Palette.muted,
                anchor="mm",
            )

    sheet.block(height, paint)


def _track(sheet: Sheet, view: CityOfIronView) -> None:
    """The turn-order track: spaces with their bid cost and who took them; turn order runs right to left."""
    costs = view.bid_costs
    spaces = view.track if view.track else [None] * len(costs)
    box = 64
    label = "Turn order track"
    height = line_height(SMALL) + 4 + box + 14
    if view.phase in ("bid", "rebid"):
        sequence, caption = list(view.bid_order), "Bid order:"
    else:
        sequence, caption = list(view.turn_order), "Turn order:"
    names = [(seat, player_name(view.seats[seat].name, NAME_WIDTH, 24, bold=True)) for seat in sequence]
    pill_lines = _flow(
        [("badge", name, Palette.seat(seat), WHITE) for seat, name in names], INNER - 170, 24, 30
    )
    if names:
        height += _flow_height(pill_lines, 24, 30) + 6

    def paint(draw: Draw, y: int) -> None:
        draw_text(
            draw,
            (LEFT, y),
            label + "   (turn order runs ◀ right to left)",
            size=SMALL,
            bold=True,
            fill=Palette.muted,
        )
        top = y + line_height(SMALL) + 4
        for index, cost in enumerate(costs):
            x = LEFT + index * (box + 10)
            who = spaces[index] if index < len(spaces) else None
            rounded_box(
                draw,
                (x, top, x + box, top + box),
                fill=Palette.panel,
                outline=Palette.ink if who is None else Palette.seat(who),
                width=3,
            )
            if who is None:
                _coin(
                    draw, x + (box - _coin_width(cost)) // 2, top + (box - line_height(SMALL) - 4) // 2, cost
                )
            else:
                _seat_disc(draw, x + box // 2, top + box // 2, who, 24, initial(view.seats[who].name))
                draw_text(
                    draw,
                    (x + box - 4, top + box - 2),
                    str(cost),
                    size=20,
                    bold=True,
                    fill=Palette.ink,
                    anchor="rd",
                )
        if names:
            line_y = top + box + 14
            draw_text(draw, (LEFT, line_y + 4), caption, size=24, bold=True)
            x0 = LEFT + 170
            step = line_height(24) + 4 + 30
            for number, line in enumerate(pill_lines):
                x = x0
                for position, item in enumerate(line):
                    seat = names[sum(len(row) for row in pill_lines[:number]) + position][0]
                    width = _badge(draw, x, line_y + number * step, item[1], item[2], WHITE, 24)
                    if view.current == seat and not view.finished:
                        draw.rounded_rectangle(
                            (
                                x - 4,
                                line_y + number * step - 4,
                                x + width + 4,
                                line_y + number * step + line_height(24) + 8,
                            ),
                            radius=20,
                            outline=Palette.ink,
                            width=3,
                        )
                    x += width
                    if position < len(line) - 1 or number < len(pill_lines) - 1:
                        draw_text(
                            draw,
                            (x + 15, line_y + number * step + (line_height(24) + 4) // 2),
                            "›",
                            size=28,
                            bold=True,
                            fill=Palette.muted,
                            anchor="mm",
                        )
                    x += 30

    sheet.block(height, paint)


# ---- building row ------------------------------------------------------------------------------


def _building_tile_layout(info: BuildingInfo, width: int) -> tuple[list[list[Item]], int]:
    items = _cost(info.coins, info.science) + _goods_items(info.goods) + _building_effects(info)
    lines = _flow(items, width - 20)
    return lines, 48 + _flow_height(lines) + 6


def _building_tile(draw: Draw, x: int, y: int, width: int, height: int, info: BuildingInfo | None) -> None:
    if info is None:
        draw.rounded_rectangle(
            (x, y, x + width, y + height), radius=12, outline=Palette.line, width=3, fill=SOFT
        )
        draw_text(
            draw, (x + width // 2, y + height // 2), "taken", size=SMALL, fill=Palette.muted, anchor="mm"
        )
        return
    band = DECKS.get(info.deck, Palette.ink)
    rounded_box(draw, (x, y, x + width, y + height), fill=Palette.panel, outline=band, width=3)
    draw.rounded_rectangle((x, y, x + width, y + 42), radius=12, fill=band)
    draw.rectangle((x, y + 30, x + width, y + 42), fill=band)
    room = width - 20 - (38 if info.land else 0)
    size = fit_size(info.name, room, 24, bold=True, minimum=SMALL)
    draw_text(
        draw,
        (x + 10, y + 21),
        ellipsize(info.name, room, size, bold=True),
        size=size,
        bold=True,
        fill=WHITE,
        anchor="lm",
    )
    if info.land:
        _land_icon(draw, x + width - 40, y + 5, info.land, 32)
    lines, _ = _building_tile_layout(info, width)
    _draw_flow(draw, x + 10, y + 50, lines)


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


def _building_row(sheet: Sheet, view: CityOfIronView) -> None:
    parts = [f"deck {view.deck_count}"]
    if view.cards_to_next_score is not None:
        parts.append(f"Score card in {view.cards_to_next_score + 1}")
    elif not view.finished:
        parts.append("no Score card left")
    parts.append(f"discard {view.discard_count}")
    sheet.heading("Buildings  ·  " + "  ·  ".join(parts))
    row = view.row

    def layout(index: int, width: int) -> int:
        info = row[index]
        return 90 if info is None else _building_tile_layout(info, width)[1]

    def paint(draw: Draw, index: int, x: int, y: int, width: int, height: int) -> None:
        _building_tile(draw, x, y, width, height, row[index])
        sheet.mark(f"row:{index}", (x, y, x + width, y + height))

    _tiles(sheet, len(row), 4 if len(row) > 6 else 3, layout, paint)


# ---- goods -------------------------------------------------------------------------------------


def _places(good: GoodInfo) -> tuple[int, int]:
    amounts = sorted({amount for amount in good.amounts if amount > 0}, reverse=True)
    return (amounts[0] if amounts else 0), (amounts[1] if len(amounts) > 1 else 0)


def _goods_table(sheet: Sheet, view: CityOfIronView, goods: Sequence[GoodInfo] | None = None) -> None:
    goods = list(view.goods if goods is None else goods)
    seats = len(view.seats)
    fixed = [("Good", 250), ("VP 1st/2nd", 130), ("Lead", 84), ("+1 VP", 86)]
    seat_width = (INNER - sum(width for _, width in fixed)) // max(seats, 1)
    row = 42
    head = 42
    height = head + row * len(goods) + 8

    def paint(draw: Draw, y: int) -> None:
        x = LEFT
        for label, width in fixed:
            draw_text(
                draw,
                (x + (8 if label == "Good" else width // 2), y + 8),
                label,
                size=SMALL,
                bold=True,
                fill=Palette.muted,
                anchor="la" if label == "Good" else "ma",
            )
            x += width
        for seat in range(seats):
            left = x + seat * seat_width
            _seat_disc(draw, left + 18, y + 20, seat, 12)
            name = player_name(view.seats[seat].name, seat_width - 40, SMALL, bold=True)
            draw_text(draw, (left + 36, y + 8), name, size=SMALL, bold=True, fill=Palette.seat(seat))
        for index, good in enumerate(goods):
            top = y + head + index * row
            if index % 2 == 0:
                draw.rectangle((LEFT, top, RIGHT, top + row), fill=Palette.panel)
            label, fill, ink = _good(good.id)
            draw.rounded_rectangle(
                (LEFT + 4, top + 7, LEFT + 32, top + row - 7),
                radius=6,
                fill=fill,
                outline=Palette.ink,
                width=1,
            )
            draw_text(
                draw,
                (LEFT + 42, top + row // 2),
                ellipsize(good.name, fixed[0][1] - 46, 24, bold=True),
                size=24,
                bold=True,
                anchor="lm",
            )
            x = LEFT + fixed[0][1]
            draw_text(
                draw,
                (x + fixed[1][1] // 2, top + row // 2),
                f"{good.vp_first}/{good.vp_second}",
                size=24,
                bold=True,
                fill=VP_COLOR,
                anchor="mm",
            )
            x += fixed[1][1]
            if good.coin_bonus:
                width = _coin_width(f"+{good.coin_bonus}")
                _coin(draw, x + (fixed[2][1] - width) // 2, top + 4, f"+{good.coin_bonus}")
            x += fixed[2][1]
            draw_text(
                draw,
                (x + fixed[3][1] // 2, top + row // 2),
                f"≥{good.shield}",
                size=24,
                bold=True,
                fill=Palette.muted,
                anchor="mm",
            )
            x += fixed[3][1]
            first, second = _places(good)
            for seat, amount in enumerate(good.amounts):
                left = x + seat * seat_width
                cell = (left + 6, top + 4, left + seat_width - 6, top + row - 4)
                sheet.mark(f"good:{good.id}:{seat}", cell)
                color = Palette.seat(seat)
                if amount and amount == first:
                    draw.rounded_rectangle(cell, radius=8, fill=color)
                    text, ink = f"♛ {amount}", WHITE
                elif amount and amount == second:
                    draw.rounded_rectangle(cell, radius=8, fill=_tint(color, 0.6), outline=color, width=2)
                    text, ink = f"2nd {amount}", Palette.ink
                else:
                    text, ink = (str(amount) if amount else "·"), (Palette.ink if amount else Palette.muted)
                if amount >= good.shield:
                    text += " +1"
                draw_text(
                    draw,
                    ((cell[0] + cell[2]) // 2, top + row // 2),
                    text,
                    size=24,
                    bold=True,
                    fill=ink,
                    anchor="mm",
                )

    sheet.block(height, paint)
    sheet.paragraph(
        "♛ most (VP 1st + the Lead coins at income), 2nd = 2nd place; +1 = the +1 VP shield amount reached.",
        size=SMALL,
        color=Palette.muted,
    )


# ---- nation panels -----------------------------------------------------------------------------


def _building_chip(info: BuildingInfo, box: Color = Palette.panel) -> Item:
    goods = " ".join(f"{amount} {_good(good)[0]}" for good, amount in info.goods.items())
    strip = _good(next(iter(info.goods)))[1] if info.goods else (200, 196, 188)
    text = info.name + (f" ({goods})" if goods else "") + (f" +{info.vp_bonus}VP" if info.vp_bonus else "")
    return "chip", text, strip, box


def _panel(sheet: Sheet, view: CityOfIronView, seat: int) -> None:
    """One nation: counters, a line of lesser counters, then a line per city, towns and stored buildings."""
    info = view.seats[seat]
    color = Palette.seat(seat)
    inner = INNER - 28
    counters: list[Item] = [
        ("coin", str(info.coins), GOLD, Palette.ink),
        ("badge", f"⚗{info.science}", SCIENCE, WHITE),
        (
            "badge",
            f"income {info.income}" + (f"+{info.income_bonus}" if info.income_bonus else ""),
            Palette.good,
            WHITE,
        ),
        ("badge", f"hand {info.hand_size}", Palette.ink, WHITE),
        ("badge", f"citizen {info.citizen_draw}·{info.citizen_discard}", CARD_DECKS["citizen"][1], WHITE),
        ("badge", f"military {info.military_draw}·{info.military_discard}", CARD_DECKS["military"][1], WHITE),
    ]
    note = (
        f"draws a round: {info.draws_citizen} citizen, {info.draws_military} military · distance {info.distance}"
        f" · tokens {info.tokens_left} · unbought {info.unpurchased}"
    )
    note_lines = wrap(note, inner, SMALL)
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
    body = sum(_flow_height(lines) for lines in groups) + len(note_lines) * line_height(SMALL) + 8
    height = 54 + body + 18
    acting = seat in view.to_act and not view.finished

    def paint(draw: Draw, y: int) -> None:
        rounded_box(
            draw,
            (LEFT, y, RIGHT, y + height - 12),
            fill=Palette.panel,
            outline=color,
            width=5 if acting else 3,
        )
        draw.rounded_rectangle((LEFT, y, RIGHT, y + 46), radius=12, fill=color)
        draw.rectangle((LEFT, y + 30, RIGHT, y + 46), fill=color)
        vp = f"{info.vp} VP"
        suffix = (f" — {info.nation}" if info.nation else "") + ("  (you)" if view.seat == seat else "")
        room = INNER - 40 - text_width(vp, 28, bold=True)
        title, size = fit_name(info.name, room, 28, suffix=suffix, bold=True, minimum=SMALL)
        draw_text(draw, (LEFT + 14, y + 23), title, size=size, bold=True, fill=WHITE, anchor="lm")
        draw_text(draw, (RIGHT - 14, y + 23), vp, size=28, bold=True, fill=WHITE, anchor="rm")
        top = y + 54
        _draw_flow(draw, LEFT + 14, top, groups[0])
        top += _flow_height(groups[0])
        for line in note_lines:
            draw_text(draw, (LEFT + 14, top), line, size=SMALL, fill=Palette.muted)
            top += line_height(SMALL)
        top += 8
        for lines in groups[1:]:
            _draw_flow(draw, LEFT + 14, top, lines)
            top += _flow_height(lines)

    sheet.block(height, paint)


# ---- towns and lands ---------------------------------------------------------------------------


def _towns(sheet: Sheet, view: CityOfIronView, shown: int = 3) -> None:
    """Each neutral pile as a row of its top cards (the top one may be attacked; eyes reach deeper)."""
    piles = [(stars, view.town_piles.get(stars, [])) for stars in sorted(view.town_piles)]
    sheet.heading("Towns to attack  ·  top card first  ·  ⚔ defence ➜ distance")
    label_width = 92
    width = (INNER - label_width - (shown - 1) * GAP) // shown
    row = 82

    def paint(draw: Draw, y: int) -> None:
        for index, (stars, pile) in enumerate(piles):
            top = y + index * row
            draw_text(draw, (LEFT, top + 4), "★" * int(stars), size=24, bold=True, fill=Palette.accent)
            draw_text(draw, (LEFT, top + 36), f"{len(pile)} left", size=SMALL, fill=Palette.muted)
            if not pile:
                draw_text(draw, (LEFT + label_width, top + 20), "empty", size=SMALL, fill=Palette.muted)
            for position, town in enumerate(pile[:shown]):
                x = LEFT + label_width + position * (width + GAP)
                first = position == 0
                draw.rounded_rectangle(
                    (x, top, x + width, top + row - 10),
                    radius=10,
                    fill=Palette.panel if first else SOFT,
                    outline=Palette.ink if first else Palette.line,
                    width=3 if first else 2,
                )
                stats = f"⚔{town.defense} ➜{town.distance}"
                draw_text(draw, (x + width - 8, top + 6), stats, size=SMALL, bold=True, anchor="ra")
                room = width - 24 - text_width(stats, SMALL, bold=True)
                draw_text(
                    draw,
                    (x + 8, top + 6),
                    ellipsize(town.name, room, SMALL, bold=True),
                    size=SMALL,
                    bold=True,
                )
                _draw_flow(draw, x + 8, top + 36, _flow(_town_effects(town), width - 16)[:1])

    if piles:
        sheet.block(row * len(piles) + 4, paint)
    if view.expansion_row:
        sheet.space(6)
        towns = view.expansion_row

        def layout(index: int, width: int) -> int:
            lines = _flow(_town_effects(towns[index]), width - 20)
            return 48 + _flow_height(lines) + 4

        def paint_tile(draw: Draw, index: int, x: int, y: int, width: int, height: int) -> None:
            town = towns[index]
            rounded_box(
                draw, (x, y, x + width, y + height), fill=Palette.panel, outline=Palette.accent, width=3
            )
            stats = f"⚔{town.defense} ➜{town.distance}"
            draw_text(draw, (x + width - 10, y + 8), stats, size=SMALL, bold=True, anchor="ra")
            room = width - 30 - text_width(stats, SMALL, bold=True)
            draw_text(draw, (x + 10, y + 8), ellipsize(town.name, room, 24, bold=True), size=24, bold=True)
            _draw_flow(draw, x + 10, y + 46, _flow(_town_effects(town), width - 20))

        caption = f"Expansion towns (deck {view.expansion_deck_count})"
        sheet.block(
            34,
            lambda draw, y: draw_text(draw, (LEFT + 4, y), caption, size=24, bold=True, fill=Palette.accent),
        )
        _tiles(sheet, len(towns), 3, layout, paint_tile)


def _lands(sheet: Sheet, view: CityOfIronView) -> None:
    if not view.lands:
        return
    sheet.heading(f"Lands to settle ({len(view.lands)})  ·  ➜ distance")
    lands = view.lands
    columns = 2
    width = (INNER - GAP) // columns
    row = 50
    rows = (len(lands) + columns - 1) // columns
    height = rows * row + 6

    def paint(draw: Draw, y: int) -> None:
        for index, land in enumerate(lands):
            x = LEFT + (index % columns) * (width + GAP)
            top = y + (index // columns) * row
            draw.rounded_rectangle(
                (x, top, x + width, top + row - 8),
                radius=8,
                fill=Palette.panel,
                outline=Palette.line,
                width=2,
            )
            left = x + 6
            for land_type in land.lands:
                left += _land_icon(draw, left, top + 5, land_type, 32) + 4
            tail: list[Item] = [("badge", f"➜{land.distance}", (60, 110, 150), WHITE)]
            if land.requires == "ship":
                tail.insert(0, ("badge", "⚓ ship", LANDS["coast"][1], WHITE))
            elif land.requires == "airship":
                tail.insert(0, ("badge", "☁ airship", LANDS["flying_island"][1], Palette.ink))
            tail_width = sum(_item_width(item) + 6 for item in tail)
            right = x + width - 6 - tail_width
            room = right - left - 10
            draw_text(
                draw,
                (left + 4, top + (row - 8) // 2),
                ellipsize(land.name, room, 24, bold=True),
                size=24,
                bold=True,
                anchor="lm",
            )
            for item in tail:
                right += _draw_item(draw, right, top + 4, item) + 6

    sheet.block(height, paint)


def _legend(sheet: Sheet) -> None:
    sheet.space(6)
    sheet.paragraph(
        "● coins   ⚗ science   ⚒ work   ➜ distance   ⚔ attack / defence   ◉ eye",
        size=SMALL,
        color=Palette.muted,
    )

    def paint(draw: Draw, y: int) -> None:
        x = LEFT
        for land_id, (label, _) in LANDS.items():
            x += _land_icon(draw, x, y, land_id, 30) + 6
            draw_text(draw, (x, y + 15), label, size=SMALL, fill=Palette.muted, anchor="lm")
            x += text_width(label, SMALL) + 18

    sheet.block(40, paint)


# ---- a seat's cards ----------------------------------------------------------------------------


def _card_tile_layout(card: CardInfo, width: int, *, cost: bool) -> tuple[list[list[Item]], list[str], int]:
    items = (_cost(card.coins, card.science) if cost else []) + _skills(card)
    if card.free:
        items.append(("badge", "FREE action", Palette.good, WHITE))
    lines = _flow(items, width - 20)
    text = wrap(card.action, width - 20, SMALL) if card.action else []
    height = 48 + _flow_height(lines) + len(text) * line_height(SMALL) + 8
    return lines, text, height


def _card_tile(
    draw: Draw,
    x: int,
    y: int,
    width: int,
    height: int,
    card: CardInfo,
    *,
    cost: bool,
    count: int = 1,
    chosen: int = 0,
    muted: bool = False,
) -> None:
    label, band = CARD_DECKS.get(card.deck, (card.deck, Palette.ink))
    if muted:
        band = (150, 146, 140)
    outline = Palette.ink if chosen else band
    rounded_box(
        draw,
        (x, y, x + width, y + height),
        fill=_tint(Palette.highlight, 0.5) if chosen else Palette.panel,
        outline=outline,
        width=5 if chosen else 3,
    )
    draw.rounded_rectangle((x, y, x + width, y + 42), radius=12, fill=band)
    draw.rectangle((x, y + 30, x + width, y + 42), fill=band)
    tag = f"×{count}" if count > 1 else ""
    if chosen:
        tag = f"✓ {chosen} chosen" + (f" of {count}" if count > 1 else "")
    tag_width = text_width(tag, SMALL, bold=True) if tag else 0
    room = width - 24 - tag_width
    size = fit_size(card.name, room, 24, bold=True, minimum=SMALL)
    draw_text(
        draw,
        (x + 10, y + 21),
        ellipsize(card.name, room, size, bold=True),
        size=size,
        bold=True,
        fill=WHITE,
        anchor="lm",
    )
    if tag:
        draw_text(
            draw,
            (x + width - 10, y + 21),
            tag,
            size=SMALL,
            bold=True,
            fill=Palette.highlight if chosen else WHITE,
            anchor="rm",
        )
    lines, text, _ = _card_tile_layout(card, width, cost=cost)
    _draw_flow(draw, x + 10, y + 50, lines)
    top = y + 50 + _flow_height(lines)
    for line in text:
        draw_text(draw, (x + 10, top), line, size=SMALL, fill=Palette.muted if muted else Palette.ink)
        top += line_height(SMALL)


def _hand(sheet: Sheet, view: CityOfIronView, *, compact: bool = False) -> None:
    """The seat's hand as tiles (skills and action), or as name chips when `compact`; then its piles."""
    private = view.private
    assert private is not None
    seat = view.seat or 0
    hand = private.hand
    sheet.heading(f"Your hand ({len(hand)})", color=Palette.seat(seat))
    if not hand:
        sheet.paragraph("No cards in hand.", color=Palette.muted)
    elif compact:
        chips: list[Item] = [("chip", card.name, CARD_DECKS[card.deck][1], Palette.panel) for card in hand]
        hand_lines = _flow(chips, INNER)
        sheet.block(_flow_height(hand_lines) + 4, lambda draw, y: _draw_flow(draw, LEFT, y, hand_lines))
    else:

        def layout(index: int, width: int) -> int:
            return _card_tile_layout(hand[index], width, cost=False)[2]

        def paint(draw: Draw, index: int, x: int, y: int, width: int, height: int) -> None:
            _card_tile(draw, x, y, width, height, hand[index], cost=False)

        _tiles(sheet, len(hand), 2, layout, paint)
    half = (INNER - GAP) // 2
    columns: list[list[list[Item]]] = []
    for deck, draw_pile, discard in (
        ("citizen", private.citizen_draw, private.citizen_discard),
        ("military", private.military_draw, private.military_discard),
    ):
        label, color = CARD_DECKS[deck]
        items: list[Item] = [("label", f"{label} draw pile ({len(draw_pile)}):", color, Palette.ink)]
        items.extend(("chip", card.name, color, Palette.panel) for card in draw_pile)
        lines = _flow(items, half)
        items = [("label", f"discard ({len(discard)}):", color, Palette.ink)]
        items.extend(("chip", card.name, color, SOFT) for card in discard)
        columns.append(lines + _flow(items, half))
    height = max(_flow_height(lines) for lines in columns) + 4

    def paint_piles(draw: Draw, y: int) -> None:
        for index, lines in enumerate(columns):
            _draw_flow(draw, LEFT + index * (half + GAP), y, lines)

    sheet.heading("Your piles  ·  draw pile top first", color=Palette.seat(seat))
    sheet.block(height, paint_piles)


def _purchase(sheet: Sheet, view: CityOfIronView) -> None:
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
    dear = [(key, cards) for key, cards in entries if not buyable(key, cards[0])]
    status = "done choosing" if not me.choosing else "choosing"
    sheet.heading("Buy cards (secret)  ·  " + status, color=Palette.seat(view.seat))

    def summary(draw: Draw, y: int) -> None:
        x = LEFT
        draw_text(draw, (x, y + 4), "Chosen:", size=24, bold=True)
        x += text_width("Chosen:", 24, bold=True) + 10
        x += _coin(draw, x, y, chosen_coins, 24) + 6
        x += _badge(draw, x, y, f"⚗{chosen_science}", SCIENCE, WHITE, 24) + 24
        draw_text(draw, (x, y + 4), "left:", size=24, bold=True)
        x += text_width("left:", 24, bold=True) + 10
        x += _coin(draw, x, y, coins_left, 24) + 6
        _badge(draw, x, y, f"⚗{science_left}", SCIENCE, WHITE, 24)

    sheet.block(line_height(24) + 16, summary)
    if not entries:
        sheet.paragraph("No cards left to buy.", color=Palette.muted)
        return

    def layout(index: int, width: int) -> int:
        return _card_tile_layout(shown[index][1][0], width, cost=True)[2]

    def paint(draw: Draw, index: int, x: int, y: int, width: int, height: int) -> None:
        key, cards = shown[index]
        _card_tile(
            draw, x, y, width, height, cards[0], cost=True, count=len(cards), chosen=chosen_names.get(key, 0)
        )

    _tiles(sheet, len(shown), 3, layout, paint)
    if dear:
        items: list[Item] = [("label", "Too dear now:", Palette.muted, Palette.ink)]
        for _, cards in dear:
            card = cards[0]
            items.append(
                (
                    "chip",
                    card.name + (f" ×{len(cards)}" if len(cards) > 1 else ""),
                    CARD_DECKS[card.deck][1],
                    SOFT,
                )
            )
            items.append(("coin", str(card.coins), GOLD, Palette.ink))
            if card.science:
                items.append(("badge", f"⚗{card.science}", SCIENCE, WHITE))
        dear_lines = _flow(items, INNER)
        sheet.block(_flow_height(dear_lines) + 4, lambda draw, y: _draw_flow(draw, LEFT, y, dear_lines))


# ---- final scoreboard --------------------------------------------------------------------------


def _scoreboard(sheet: Sheet, view: CityOfIronView, final: FinalInfo) -> None:
    sheet.paragraph(with_names(final.reason, view.players, 26, bold=True), size=26, bold=True)
    sheet.space(4)
    inner = INNER - 28
    blocks: list[tuple[ScoreLine, list[list[Item]]]] = []
    for line in final.lines:
        items: list[Item] = [("badge", f"{line.scorings} VP from Score cards", VP_COLOR, WHITE)]
        items.append(("badge", "last Score card:", SOFT, Palette.ink))
        for source, value in line.last_scoring.items():
            items.append(("badge", f"{source} {value}", _tint(VP_COLOR, 0.7), Palette.ink))
        if not line.last_scoring:
            items.append(("badge", "nothing", _tint(VP_COLOR, 0.7), Palette.ink))
        for source, value in line.bonuses.items():
            items.append(("badge", f"{source} {value:+d}", Palette.good if value > 0 else Palette.bad, WHITE))
        blocks.append((line, _flow(items, inner - 90)))
    medals = {1: (212, 160, 20), 2: (150, 150, 160), 3: (170, 100, 50)}
    heights = [64 + _flow_height(lines) + 10 for _, lines in blocks]
    height = sum(heights) + 10 * len(heights)

    def paint(draw: Draw, y: int) -> None:
        top = y
        for (line, lines), block_height in zip(blocks, heights, strict=True):
            seat = line.seat
            place = line.place
            color = Palette.seat(seat)
            rounded_box(
                draw,
                (LEFT, top, RIGHT, top + block_height),
                fill=_tint(color, 0.85),
                outline=color,
                width=4 if place == 1 else 2,
            )
            medal = medals.get(place, Palette.muted)
            draw.ellipse((LEFT + 12, top + 10, LEFT + 64, top + 62), fill=medal, outline=Palette.ink, width=2)
            draw_text(draw, (LEFT + 38, top + 36), str(place), size=30, bold=True, fill=WHITE, anchor="mm")
            vp = f"{line.vp} VP"
            tie = f"{line.coins}● · {line.goods} goods"
            vp_width = text_width(vp, 36, bold=True)
            tie_width = text_width(tie, SMALL, bold=True)
            room = INNER - 110 - vp_width - tie_width - 30
            name, size = fit_name(view.seats[seat].name, room, 32, bold=True, minimum=SMALL)
            draw_text(draw, (LEFT + 80, top + 36), name, size=size, bold=True, fill=Palette.ink, anchor="lm")
            draw_text(draw, (RIGHT - 14, top + 36), vp, size=36, bold=True, fill=VP_COLOR, anchor="rm")
            draw_text(
                draw,
                (RIGHT - 28 - vp_width, top + 38),
                tie,
                size=SMALL,
                bold=True,
                fill=Palette.muted,
                anchor="rm",
            )
            _draw_flow(draw, LEFT + 80, top + 66, lines)
            top += block_height + 10

    sheet.block(height, paint)
    sheet.paragraph("Ties are broken by coins, then goods.", size=SMALL, color=Palette.muted)


# ---- the pictures ------------------------------------------------------------------------------


def _public(view: CityOfIronView, marks: frozenset[str]) -> Sheet:
    sheet = Sheet(changed=marks)
    if view.finished and view.final is not None:
        _header(sheet, view, "City of Iron — final scores")
        _scoreboard(sheet, view, view.final)
        sheet.heading("Nations")
        _players_table(sheet, view)
        sheet.heading("Goods")
        _goods_table(sheet, view)
        for seat in _order(view):
            _panel(sheet, view, seat)
        _legend(sheet)
        return sheet
    _header(sheet, view, "City of Iron")
    _players_table(sheet, view)
    sheet.space(6)
    _track(sheet, view)
    _building_row(sheet, view)
    sheet.heading("Goods")
    _goods_table(sheet, view)
    sheet.heading("Nations")
    for seat in _order(view):
        _panel(sheet, view, seat)
    _towns(sheet, view)
    _lands(sheet, view)
    _legend(sheet)
    return sheet


def _seat_sheet(view: CityOfIronView, marks: frozenset[str]) -> Sheet:
    seat = view.seat
    assert seat is not None
    sheet = Sheet(changed=marks)
    me = view.seats[seat]
    name = player_name(me.name, NAME_WIDTH, 40, bold=True)
    _header(sheet, view, f"City of Iron — {name}'s cards", Palette.seat(seat))
    if view.finished and view.final is not None:
        _scoreboard(sheet, view, view.final)
    if view.phase == "purchase" and view.private is not None:
        _purchase(sheet, view)
    if view.private is not None:
        _hand(sheet, view, compact=view.phase == "purchase")
    sheet.heading("Your nation", color=Palette.seat(seat))
    _panel(sheet, view, seat)
    sheet.heading("Board")
    _players_table(sheet, view)
    sheet.space(6)
    _track(sheet, view)
    if not view.finished:
        _building_row(sheet, view)
    sheet.heading("Goods")
    _goods_table(sheet, view)
    if not view.finished:
        _towns(sheet, view)
        _lands(sheet, view)
    _legend(sheet)
    return sheet


def render(view: View, *, marks: frozenset[str] = frozenset()) -> bytes:
    """The board (or a seat's sheet); `marks` are cells to frame as changed since the viewer's move."""
    assert isinstance(view, CityOfIronView), "renderer.city_of_iron draws City of Iron views"
    sheet = _public(view, marks) if view.seat is None else _seat_sheet(view, marks)
    return to_png(sheet.image())


PLAYER_FIELDS = ("vp", "income", "coins", "science", "hand", "acts")
"""The nations table's number columns, in drawing order: the keys its changed cells are marked by."""


def _numbers(info: PlayerInfo) -> dict[str, int]:
    return {
        "vp": info.vp,
        "income": info.income + info.income_bonus,
        "coins": info.coins,
        "science": info.science,
        "hand": info.hand_size,
    }


def _banner_name(name: str) -> str:
    return player_name(name, NAME_WIDTH, BANNER_SIZE)


def changes(old: View, new: View) -> Changes:
    """Cells of the nations table, the goods table and the building row that changed between two views
    of the same viewer, with the changes in words."""
    assert isinstance(old, CityOfIronView) and isinstance(new, CityOfIronView)
    marks: set[str] = set()
    lines: list[str] = []
    labels = {"vp": "VP", "income": "income", "coins": "coins", "science": "science", "hand": "cards in hand"}
    for seat, (before, after) in enumerate(zip(old.seats, new.seats, strict=True)):
        was, now = _numbers(before), _numbers(after)
        for key, label in labels.items():
            if was[key] != now[key]:
                marks.add(f"{key}:{seat}")
                lines.append(change(f"{_banner_name(after.name)}: {label}", was[key], now[key]))
        if before.actions_left != after.actions_left and new.phase == "actions":
            marks.add(f"acts:{seat}")
    goods_before = {good.id: good.amounts for good in old.goods}
    for good in new.goods:
        amounts = goods_before.get(good.id, [0] * len(good.amounts))
        for seat, (was_amount, now_amount) in enumerate(zip(amounts, good.amounts, strict=False)):
            if was_amount != now_amount:
                marks.add(f"good:{good.id}:{seat}")
                lines.append(
                    change(f"{_banner_name(new.seats[seat].name)}: {good.name}", was_amount, now_amount)
                )
    old_row = [info.uid if info else None for info in old.row]
    for index, info in enumerate(new.row):
        if (old_row[index] if index < len(old_row) else None) != (info.uid if info else None):
            marks.add(f"row:{index}")
            lines.append(f"Building row: {info.name if info else 'an empty space'} in space {index + 1}")
    if old.round != new.round:
        lines.insert(0, f"Round {old.round} → {new.round}")
    return Changes(marks=frozenset(marks), lines=tuple(lines))
