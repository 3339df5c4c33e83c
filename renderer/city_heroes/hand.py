"""City Heroes' hand picture: what a seat sees beyond the board (a trade offer it is party to and its
own goods to answer it with)."""

from __future__ import annotations

from renderer.canvas import (
    Color,
    Palette,
    Sheet,
    ellipsize,
    line_height,
    player_name,
    seat_dot,
    to_png,
)
from renderer.city_heroes.layout import (
    BODY,
    COIN,
    GOODS,
    INNER,
    LEFT,
    RESOURCES,
    SMALL,
    WHITE,
    Draw,
    chip_row_count,
    draw_chips,
    draw_label,
    name_in_text,
    new_sheet,
    paragraph,
    status_line,
    width_of,
)
from rules.city_heroes.view import CityHeroesView, SeatView


# ---- the hand picture ---------------------------------------------------------------------------
def render_hand(view: CityHeroesView) -> bytes:
    """Only what this seat sees beyond the board: the terms of an offer it is party to, and its own
    stock to weigh them against."""
    assert view.seat is not None
    seat = view.seats[view.seat]
    sheet = new_sheet()
    status = f" · {status_line(view)}"
    room = INNER - width_of("City Heroes · " + status, BODY, True)
    text = ellipsize(
        f"City Heroes · {player_name(seat.name, room, BODY, bold=True)}{status}", INNER, BODY, bold=True
    )
    sheet.block(line_height(BODY) + 8, lambda draw, y: draw_label(draw, (LEFT, y), text, BODY, bold=True))
    proposal = view.proposal
    if proposal is not None and proposal.give is not None and proposal.get is not None:
        _offer(sheet, view, proposal.proposer, proposal.partner, proposal.give, proposal.get)
    else:
        paragraph(
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
        lambda draw, y: draw_label(draw, (LEFT, y), "Trade offer", BODY, bold=True, fill=Palette.accent),
    )
    for who, goods in ((proposer, give), (partner, get)):
        label = f"{name_in_text(view.players[who], SMALL, bold=True)} gives" + (
            " (you)" if who == view.seat else ""
        )
        items = _goods_items(goods) or [("nothing", -1, WHITE, Palette.ink)]
        rows = chip_row_count(items, LEFT + 20)
        label_text = ellipsize(label, INNER, SMALL, bold=True)

        def paint(draw: Draw, y: int, who: int = who, items=items, label_text=label_text) -> None:  # noqa: ANN001
            seat_dot(draw, (LEFT + 11, y + line_height(SMALL) // 2), who)
            draw_label(draw, (LEFT + 28, y), label_text, SMALL, bold=True)
            draw_chips(draw, LEFT + 20, y + line_height(SMALL) + 6, items)

        sheet.block(line_height(SMALL) + 6 + rows * (line_height(SMALL) + 8) + 6, paint)
    note = "You may accept or decline it." if mine else "Waiting for the answer; you may cancel it."
    paragraph(sheet, note, size=SMALL, bold=True, color=Palette.accent)


def stock_items(
    seat: SeatView,
) -> tuple[list[tuple[str, int, Color, Color]], list[tuple[str, int, Color, Color]]]:
    naturals = [
        (label, seat.stock.get(key, 0), fill, ink) for key, (label, _, fill, ink) in RESOURCES.items()
    ]
    goods = [(label, seat.stock.get(key, 0), WHITE, Palette.ink) for key, label in GOODS.items()]
    return [("Ducats", seat.ducats, COIN, Palette.ink), *naturals], goods


def _own_stock(sheet: Sheet, seat: SeatView) -> None:
    naturals, goods = stock_items(seat)
    sheet.block(
        line_height(BODY) + 6,
        lambda draw, y: draw_label(draw, (LEFT, y), "Your stock", BODY, bold=True, fill=Palette.accent),
    )
    for items in (naturals, goods):
        rows = chip_row_count(items, LEFT)
        sheet.block(
            rows * (line_height(SMALL) + 8) + 2, lambda draw, y, items=items: draw_chips(draw, LEFT, y, items)
        )
