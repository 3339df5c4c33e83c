"""City Heroes' sections shown on demand (`OVERLAYS`): each city in full, the tiles for sale, the key."""

from __future__ import annotations

from renderer.canvas import (
    Color,
    Palette,
    Sheet,
    fit_name,
    line_height,
    to_png,
    with_names,
    wrap,
)
from renderer.city_heroes.hand import stock_items
from renderer.city_heroes.key import render_key
from renderer.city_heroes.layout import (
    BODY,
    INNER,
    LARGE,
    LEFT,
    RIGHT,
    SMALL,
    Draw,
    Geometry,
    as_city_heroes,
    building_name,
    chip_row_count,
    draw_chips,
    draw_label,
    draw_map,
    draw_pill,
    name_in_text,
    new_sheet,
    paragraph,
    seat_state,
    status_line,
    width_of,
    work_name,
)
from renderer.phone import MAX_HEIGHT
from renderer.registry import Overlay
from rules import words
from rules.city_heroes.view import CityHeroesView, SeatView, TileView
from rules.core import View


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
                where.setdefault(building_name(key), []).append(f"T{tile.id}")
        if tile.work:
            name = f"{work_name(view, tile.work)} {tile.stages}/{tile.stages_needed}"
            where.setdefault(name, []).append(f"T{tile.id}")
    return ", ".join(f"{name} {' '.join(tiles)}" for name, tiles in where.items()) or "only Houses"


def _city_panel(sheet: Sheet, view: CityHeroesView, seat: SeatView) -> None:
    """A city's full panel: state, workers by pool, ducats, influence, tokens, stock and buildings."""
    color = Palette.seat(seat.seat)
    state, state_color = seat_state(view, seat)
    facts = (
        f"Workers {seat.workers}: Ready {seat.ready}, Busy {seat.busy}, Idle {seat.idle} · Ducats {seat.ducats}"
        f" · Influence {seat.influence} · Score now {seat.score} · Tiles {seat.tiles}"
        + (f" · Pillage tokens {seat.pillage_tokens}" if seat.pillage_tokens else "")
    )
    fact_lines = wrap(facts, INNER - 20, SMALL)
    naturals, goods = stock_items(seat)
    naturals = naturals[1:]  # the ducats are in the facts line
    building_lines = wrap("Buildings: " + _buildings(view, seat.seat), INNER - 20, SMALL)[:4]
    chip_rows = chip_row_count(naturals, LEFT + 20) + chip_row_count(goods, LEFT + 20)
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
        state_width = width_of(state, SMALL, True) + SMALL
        name, size = fit_name(seat.name, INNER - state_width - 40, LARGE, bold=True, minimum=SMALL)
        draw_label(draw, (x, y + 6), name, size, bold=True)
        draw_pill(draw, x + width_of(name, size, True) + 12, y + 8, state, state_color)
        top = y + line_height(LARGE) + 8
        for line in fact_lines:
            draw_label(draw, (x, top), line, SMALL)
            top += line_height(SMALL)
        top += 6
        top += draw_chips(draw, LEFT + 20, top, naturals)
        top += draw_chips(draw, LEFT + 20, top, goods)
        for line in building_lines:
            draw_label(draw, (x, top), line, SMALL, fill=Palette.muted)
            top += line_height(SMALL)

    sheet.block(height, paint)


def render_cities(view: View) -> Sheet:
    """Every city's full panel: what the turn picture's score strip leaves out (a panel a block, so a
    big table's cities are cut into pages between them)."""
    game = as_city_heroes(view)
    sheet = new_sheet()
    sheet.title("City Heroes · cities", subtitle=status_line(game))
    sheet.keep_header()
    for seat in game.seats:
        _city_panel(sheet, game, seat)
    return sheet


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


def _fitted_map(sheet: Sheet, view: CityHeroesView, below: int) -> Geometry:
    """The map as large as a phone screen allows once the blocks so far and `below` px after it are
    drawn: one picture, never taller than 4:5."""
    return Geometry.fitting(view.radius, MAX_HEIGHT - sheet.used - below)


def render_buyable(view: View, seat: int | None = None) -> bytes:
    """The map with the tiles `seat` (default: the view's seat, else the acting player) could buy now."""
    game = as_city_heroes(view)
    if seat is None:
        seat = game.seat if game.seat is not None else game.current
    sheet = new_sheet()
    headline = with_names(game.headline, game.players, 24)
    if seat is None or not 0 <= seat < len(game.seats):
        sheet.title("City Heroes · tiles for sale", subtitle=headline)
        paragraph(sheet, "Nobody is buying: the game is over.", size=BODY, bold=True)
        draw_map(sheet, game, _fitted_map(sheet, game, 0))
        return to_png(sheet.image())
    player = game.seats[seat]
    prices = buy_prices(game, seat)
    affordable = {tile: price for tile, price in prices.items() if price <= player.ducats}
    name = name_in_text(player.name, BODY, bold=True)
    sheet.title(f"City Heroes · tiles {name_in_text(player.name, 40)} can buy", subtitle=headline)
    for text, color in _buy_notes(game, seat, prices, affordable):
        paragraph(sheet, text.format(name=name), size=BODY, bold=True, color=color)
    legend = (
        "Yellow outline + gold coin: a tile this player can buy now, at that price in ducats; grey coin: "
        "the price is more than they have; faded: not for sale to them. Symbols: /board section:key."
    )
    below = len(wrap(legend, INNER, SMALL)) * line_height(SMALL) + 6
    draw_map(sheet, game, _fitted_map(sheet, game, below), prices=prices, budget=player.ducats, buyer=seat)
    paragraph(sheet, legend, size=SMALL, color=Palette.muted)
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


def _buyable_overlay(view: View, target: str | None) -> bytes:
    return render_buyable(view)


OVERLAYS = (
    Overlay(
        name="buyable",
        description="The tiles the acting player could buy now, with their price",
        paint=_buyable_overlay,
    ),
    Overlay(
        name="cities",
        description="Each city in full: workers, ducats, influence, resources, goods, buildings",
        paint=lambda view, target: render_cities(view),
    ),
    Overlay(
        name="key",
        description="What every letter, code, colour and mark on the pictures means",
        paint=lambda view, target: render_key(view),
    ),
)
