"""City of Iron's final picture: the result first (places, VP, the tie-break numbers), then where
the VP came from."""

from __future__ import annotations

from renderer.canvas import Color, Palette, Sheet, draw_text, fit_name, rounded_box, text_width, with_names
from renderer.city_of_iron.layout import (
    BODY,
    INNER,
    LEFT,
    RIGHT,
    SMALL,
    VP_COLOR,
    WHITE,
    WIDTH,
    Draw,
    Item,
    _draw_flow,
    _flow,
    _flow_height,
    _text_block,
    _tint,
    _top,
)
from renderer.city_of_iron.turn import _nations_table
from rules.city_of_iron.view import CityOfIronView, FinalInfo

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
