"""City of Iron's turn picture (the public view): the header, the nations table in turn order, the
turn-order track and the building row on offer, each laid out with less detail only when it must."""

from __future__ import annotations

from collections.abc import Sequence

from renderer.canvas import (
    Color,
    Palette,
    Sheet,
    draw_text,
    ellipsize,
    fit_name,
    initial,
    line_height,
    rounded_box,
    text_width,
    wrap,
)
from renderer.city_of_iron.key import _footer
from renderer.city_of_iron.layout import (
    BODY,
    DECKS,
    INNER,
    LEFT,
    RIGHT,
    SCIENCE,
    SMALL,
    SOFT,
    VP_COLOR,
    WHITE,
    WIDTH,
    Draw,
    Item,
    _acts,
    _band,
    _building_effects,
    _coin,
    _coin_width,
    _cost,
    _draw_flow,
    _flow,
    _flow_height,
    _goods_items,
    _leads,
    _order,
    _seat_disc,
    _tiles,
    _tint,
    _top,
)
from rules.city_of_iron.view import BuildingInfo, CityOfIronView, PlayerInfo

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


def _track(sheet: Sheet, view: CityOfIronView) -> None:
    """The turn-order track as one strip: each space's bid cost and who took it."""
    costs = view.bid_costs
    spaces = view.track if view.track else [None] * len(costs)
    label = "Track"
    box, wide, step = 52, 68, 76
    """A space is `wide`: a taken one holds its taker's disc and, clear of it, the bid's cost."""
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
                (x, y, x + wide, y + box),
                fill=Palette.panel,
                outline=Palette.line if who is None else Palette.seat(who),
                width=3,
            )
            if who is None:
                width = _coin_width(cost)
                _coin(draw, x + (wide - width) // 2, y + (box - line_height(SMALL) - 4) // 2, cost)
            else:
                _seat_disc(draw, x + 19, y + box // 2, who, 14, initial(view.seats[who].name))
                draw_text(draw, (x + wide - 7, y + box // 2), str(cost), size=SMALL, bold=True, anchor="rm")
            sheet.mark(f"track:{index}", (x, y, x + wide, y + box))
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
        sheet.mark("deck", (RIGHT - note_width - 6, y + 2, RIGHT + 8, y + 34))  # clear of the last letter

    sheet.block(40, paint)
    sheet.keep_with_next()


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
    text: Sequence[str] = (),
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
