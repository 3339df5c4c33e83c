"""City Heroes' final picture: the verdict and the influence breakdown per player (the map follows)."""

from __future__ import annotations

from renderer.canvas import (
    Palette,
    Sheet,
    fit_name,
    line_height,
    seat_dot,
)
from renderer.city_heroes.layout import (
    BODY,
    LARGE,
    LEFT,
    RIGHT,
    ROW,
    SMALL,
    Draw,
    draw_label,
    paragraph,
    tint,
    width_of,
)
from rules.city_heroes.view import CityHeroesView

# ---- the final result ---------------------------------------------------------------------------
SCORE_COLUMNS = (("Infl", 392), ("Res", 470), ("Goods×2", 592), ("Duc÷3", 688), ("Total", RIGHT - 2))


def _result(sheet: Sheet, view: CityHeroesView) -> None:
    wins = bool(view.city_wins)
    verdict = (
        f"The city ({view.prestige} prestige) beat the rival ({view.rival_prestige}): the most influence wins."
        if wins
        else f"The city's prestige {view.prestige} is below the rival's {view.rival_prestige}: everybody loses."
    )
    paragraph(sheet, verdict, size=BODY, bold=True, color=Palette.good if wins else Palette.bad)
    lines = view.scoreboard or []
    if not lines:
        return
    name_right = SCORE_COLUMNS[0][1] - width_of("Infl", SMALL, True) - 14

    def paint(draw: Draw, y: int) -> None:
        draw_label(
            draw,
            (LEFT, y),
            "Final influence" if wins else "Influence (nobody wins)",
            SMALL,
            bold=True,
            fill=Palette.accent,
        )
        for label, right in SCORE_COLUMNS:
            draw_label(draw, (right, y), label, SMALL, bold=True, fill=Palette.muted, anchor="ra")
        for index, line in enumerate(lines):
            top = y + ROW + index * ROW
            winner = wins and line.place == 1
            color = Palette.seat(line.seat)
            fill = tint(color, 0.75) if winner else (Palette.panel if index % 2 == 0 else Palette.background)
            draw.rectangle((LEFT - 6, top, RIGHT + 6, top + ROW - 2), fill=fill)
            mid = top + ROW // 2 - 1
            draw_label(draw, (LEFT, mid), f"{line.place}.", SMALL, bold=True, anchor="lm")
            seat_dot(draw, (LEFT + 44, mid), line.seat)
            tag = " wins" if winner else ""
            name, _ = fit_name(line.name, name_right - LEFT - 62, SMALL, suffix=tag, bold=True)
            draw_label(draw, (LEFT + 62, mid), name, SMALL, bold=True, anchor="lm")
            values = (
                str(line.influence),
                str(line.naturals),
                str(2 * line.goods),
                str(line.ducats // 3),
                str(line.score),
            )
            for (_, right), value in zip(SCORE_COLUMNS, values, strict=True):
                draw_label(draw, (right, mid), value, SMALL, bold=True, anchor="rm")

    sheet.block(ROW * (1 + len(lines)) + 8, paint)


def draw_final(sheet: Sheet, view: CityHeroesView) -> None:
    """The final picture's title, verdict and influence breakdown (the map follows)."""
    sheet.block(
        line_height(LARGE) + 6,
        lambda draw, y: draw_label(draw, (LEFT, y), "City Heroes · Game over", LARGE, bold=True),
    )
    _result(sheet, view)
