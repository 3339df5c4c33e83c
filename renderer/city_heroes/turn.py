"""City Heroes' turn picture (public view): header, prestige, score strip, notices and the map; and
`render`, which draws the turn, the final or (for a seat's view) the hand picture."""

from __future__ import annotations

from renderer.canvas import (
    Color,
    Palette,
    Sheet,
    ellipsize,
    fit_name,
    line_height,
    player_name,
    seat_dot,
    to_png,
    wrap,
)
from renderer.city_heroes.final import draw_final
from renderer.city_heroes.hand import render_hand
from renderer.city_heroes.layout import (
    ACTING,
    BODY,
    INNER,
    LARGE,
    LEFT,
    PASSED,
    RIGHT,
    ROW,
    SMALL,
    Draw,
    as_city_heroes,
    draw_footer,
    draw_label,
    fitted_map,
    name_in_text,
    new_sheet,
    status_line,
    tint,
    width_of,
)
from rules.city_heroes.view import CityHeroesView, SeatView
from rules.core import View


def _header(sheet: Sheet, view: CityHeroesView) -> None:
    """One line: the turn and phase, then who acts in their colour."""
    status = status_line(view)

    def paint(draw: Draw, y: int) -> None:
        draw_label(draw, (LEFT, y), status, LARGE, bold=True)
        sheet.mark(
            "phase", (LEFT - 4, y - 2, LEFT + width_of(status, LARGE, True) + 4, y + line_height(LARGE))
        )
        acting = list(view.to_act)
        if not acting or view.finished:
            return
        x = LEFT + width_of(status, LARGE, True) + 24  # clear of the phase's frame
        room = RIGHT - x - 30
        suffix = " to act"
        share = (room - width_of(suffix, BODY, True)) // len(acting) - width_of(", ", BODY, True)
        names = ", ".join(player_name(view.players[seat], max(share, 20), BODY, bold=True) for seat in acting)
        label = ellipsize(names + suffix, room, BODY, bold=True)
        mid = y + line_height(LARGE) // 2
        seat_dot(draw, (x + 11, mid), acting[0])
        draw_label(draw, (x + 28, mid), label, BODY, bold=True, fill=Palette.seat(acting[0]), anchor="lm")

    sheet.block(line_height(LARGE) + 6, paint)


def _prestige(sheet: Sheet, view: CityHeroesView) -> None:
    """The city's prestige against the rival's on one line: it decides whether anybody can win."""
    wins = view.prestige >= view.rival_prestige
    city_color = Palette.good if wins else Palette.bad
    growth = f" (+{view.rival_growth} at Cleanup)" if view.rival_growth and not view.finished else ""
    parts = [
        ("Prestige:", Palette.muted, False, ""),
        (f"city {view.prestige}", city_color, True, "prestige"),
        ("vs", Palette.muted, False, ""),
        (f"rival {view.rival_prestige}{growth}", Palette.ink, True, "rival"),
    ]
    gap = 16
    """Between the parts: wider than a frame's edge, so a frame never touches the next word."""
    verdict = "" if view.finished else ("a winner possible" if wins else "behind: all lose")

    def paint(draw: Draw, y: int) -> None:
        x = LEFT
        for text, color, bold, key in parts:
            if key == "rival" and growth:  # the rival's number bold, its coming gain muted
                number = f"rival {view.rival_prestige}"
                draw_label(draw, (x, y), number, BODY, bold=True, fill=color)
                draw_label(draw, (x + width_of(number, BODY, True), y), growth, BODY, fill=Palette.muted)
                width = width_of(number, BODY, True) + width_of(growth, BODY)
            else:
                draw_label(draw, (x, y), text, BODY, bold=bold, fill=color)
                width = width_of(text, BODY, bold)
            if key:
                sheet.mark(key, (x - 4, y - 2, x + width + 4, y + line_height(BODY)))
            x += width + gap
        room = RIGHT - x + gap - 12
        if verdict and width_of(verdict, SMALL, True) <= room:
            draw_label(draw, (RIGHT, y + 2), verdict, SMALL, bold=True, fill=city_color, anchor="ra")

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
    name_right = STRIP[0][1] - width_of("Score", SMALL, True) - 16

    def paint(draw: Draw, y: int) -> None:
        for label, right in STRIP:
            draw_label(draw, (right, y), label, SMALL, bold=True, fill=Palette.muted, anchor="ra")
        for index, seat in enumerate(view.seats):
            top = y + ROW + index * ROW
            acting = seat.seat in view.to_act and not view.finished
            color = Palette.seat(seat.seat)
            fill = tint(color, 0.8) if acting else (Palette.panel if index % 2 == 0 else Palette.background)
            draw.rectangle((LEFT - 6, top, RIGHT + 6, top + ROW - 2), fill=fill)
            mid = top + ROW // 2 - 1
            seat_dot(draw, (LEFT + 11, mid), seat.seat)
            x = LEFT + 28
            if acting:
                draw_label(draw, (x, mid), ACTING, SMALL, bold=True, fill=Palette.ink, anchor="lm")
            x += width_of(ACTING, SMALL, True) + 6
            suffix = f" {PASSED}" if seat.passed and not view.finished else ""
            name, _ = fit_name(seat.name, name_right - x, SMALL, suffix=suffix, bold=True)
            draw_label(
                draw,
                (x, mid),
                name,
                SMALL,
                bold=True,
                fill=Palette.muted if suffix else Palette.ink,
                anchor="lm",
            )
            # Frames inside the row (rows are ROW apart: a frame must not reach the next row's) and
            # around the value alone (so two changed cells side by side keep a gap between frames).
            inner = (top + 3, top + ROW - 5)
            sheet.mark(f"state:{seat.seat}", (x - 6, inner[0], x + width_of(name, SMALL, True) + 6, inner[1]))
            for (_, right), value, key in zip(STRIP, _strip_values(seat), STRIP_KEYS, strict=True):
                draw_label(draw, (right, mid), value, SMALL, bold=True, anchor="rm")
                left = right - width_of(value, SMALL, True)
                sheet.mark(f"{key}:{seat.seat}", (left - 8, inner[0], right + 6, inner[1]))

    sheet.block(ROW * (1 + len(view.seats)) + 6, paint)


def _notices(sheet: Sheet, view: CityHeroesView) -> None:
    """An open trade offer (the turn picture is public: its terms are in the parties' hand pictures)
    and a pillage being resolved."""
    lines: list[tuple[str, Color, str]] = []
    if view.proposal is not None:
        proposer = name_in_text(view.players[view.proposal.proposer], SMALL, bold=True)
        partner = name_in_text(view.players[view.proposal.partner], SMALL, bold=True)
        lines.append(
            (f"Trade offer: {proposer} → {partner}, waiting for an answer.", Palette.accent, "offer")
        )
    if view.raid is not None:
        raid = view.raid
        lines.append(
            (
                f"{name_in_text(view.players[raid.attacker], SMALL, bold=True)} pillages T{raid.tile} of "
                f"{name_in_text(view.players[raid.defender], SMALL, bold=True)}: "
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
                draw_label(
                    draw, (LEFT, y + 6 + index * line_height(SMALL)), line, SMALL, bold=True, fill=color
                )
            sheet.mark(key, (LEFT - 8, y, RIGHT + 8, y + len(wrapped) * line_height(SMALL) + 10))

        sheet.block(len(wrapped) * line_height(SMALL) + 14, paint)


def render(view: View, *, marks: frozenset[str] = frozenset()) -> bytes:
    """The turn picture, the final picture, or (for a seat's view) the hand picture."""
    game = as_city_heroes(view)
    if game.seat is not None:
        return render_hand(game)
    sheet = new_sheet(marks)
    if game.finished:
        draw_final(sheet, game)
    else:
        _header(sheet, game)
        _prestige(sheet, game)
        _strip(sheet, game)
        _notices(sheet, game)
    footer = line_height(SMALL) + 2
    fitted_map(sheet, game, below=footer)
    draw_footer(sheet)
    return to_png(sheet.image())
