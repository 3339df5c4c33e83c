"""The final picture: the result first (the winner, each seat's tie-break numbers), then the resources
in play by type."""

from __future__ import annotations

from renderer.canvas import (
    MARGIN,
    Palette,
    draw_text,
    ellipsize,
    player_name,
    rounded_box,
    to_png,
    wrap,
)
from renderer.iron_bridge_gorge.layout import (
    BODY,
    INNER,
    LOAN,
    Cell,
    Column,
    Draw,
    Row,
    Table,
    draw_table,
    header_block,
    heading,
    lines_block,
    new_flow,
    seat_table,
)
from renderer.phone import PHONE_WIDTH
from rules.iron_bridge_gorge.view import IronBridgeGorgeView


def draw_final(view: IronBridgeGorgeView, marks: frozenset[str]) -> bytes:
    """The result first: the winner and each seat's VP and tie-break numbers, then the seat table."""
    flow = new_flow(marks)
    header_block(flow, title=f"Iron Bridge Gorge · Game over after {view.round} rounds", subtitle="")
    board = view.scoreboard or []
    winners = [line for line in board if line.place == 1]
    if winners:
        names = " and ".join(player_name(line.name, 300, 30, bold=True) for line in winners)
        verb = "wins" if len(winners) == 1 else "share first place"
        result = ellipsize(f"{names} {verb} with {winners[0].vp} VP", INNER - 24, 30, bold=True)

        def banner(draw: Draw, y: int) -> None:
            rounded_box(
                draw,
                (MARGIN, y, PHONE_WIDTH - MARGIN, y + 52),
                fill=Palette.highlight,
                outline=Palette.accent,
            )
            draw_text(draw, (MARGIN + 12, y + 26), result, size=30, bold=True, anchor="lm")

        flow.add(62, banner)
    table = Table([Column("Place"), Column("VP"), Column("Coins"), Column("In play")])
    for line in board:
        seat = view.seats[line.seat]
        coins = f"{line.coins} {LOAN}" if seat.loan else str(line.coins)
        table.rows.append(
            Row(
                line.seat,
                line.name,
                [
                    Cell(str(line.place), bold=True),
                    Cell(str(line.vp), mark=f"vp:{line.seat}", bold=True),
                    Cell(coins, mark=f"coins:{line.seat}", ink=Palette.bad if seat.loan else Palette.ink),
                    Cell(str(line.resources)),
                ],
                highlight=line.place == 1,
            )
        )
    draw_table(flow, table)
    lines_block(
        flow,
        wrap(
            f'Ties are broken by coins (less 10 for an unpaid loan, "{LOAN}"), then by resources in play.',
            INNER,
            BODY,
        ),
        color=Palette.muted,
    )
    flow.space(6)
    heading(flow, "Resources in play by type")
    seat_table(flow, view, [view.seats[line.seat] for line in board])
    return to_png(flow.sheet.image())
