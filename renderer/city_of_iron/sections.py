"""City of Iron's sections on demand (`/board section:<name>`): goods, nations, buildings, towns,
lands and key, as `OVERLAYS`."""

from __future__ import annotations

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
    to_png,
    wrap,
)
from renderer.city_of_iron.key import _key_section
from renderer.city_of_iron.layout import (
    BODY,
    CARD_DECKS,
    DISTANCE,
    GAP,
    GOLD,
    INNER,
    LANDS,
    LEFT,
    RIGHT,
    SCIENCE,
    SMALL,
    SOFT,
    VP_COLOR,
    WHITE,
    Draw,
    Item,
    _band,
    _coin,
    _coin_width,
    _draw_flow,
    _draw_item,
    _flow,
    _flow_height,
    _good,
    _item_width,
    _land,
    _land_icon,
    _order,
    _places,
    _seat_disc,
    _seat_legend,
    _section_sheet,
    _small_heading,
    _text_block,
    _tiles,
    _tint,
    _town_effects,
)
from renderer.city_of_iron.turn import _offer, _offer_heading
from renderer.registry import Overlay
from rules import words
from rules.city_of_iron.view import BuildingInfo, CityOfIronView, TownInfo
from rules.core import View


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


def _building_chip(info: BuildingInfo, box: Color = Palette.panel) -> Item:
    goods = " ".join(f"{amount} {_good(good)[0]}" for good, amount in info.goods.items())
    strip = _good(next(iter(info.goods)))[1] if info.goods else (200, 196, 188)
    text = info.name + (f" ({goods})" if goods else "") + (f" +{info.vp_bonus}VP" if info.vp_bonus else "")
    return "chip", text, strip, box


def _abilities(view: CityOfIronView) -> dict[str, str]:
    """Nation name -> ability text, when abilities are on (the view keys them by nation id)."""
    if not view.nations:
        return {}
    from rules.city_of_iron.data import game_data

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
        ("badge", words.count(info.tokens_left, "city token"), SOFT, Palette.ink),
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
