"""A plain sheet for a game that has no renderer of its own yet: headline, players, who acts."""

from __future__ import annotations

from renderer.canvas import Sheet, player_name, with_names
from rules.core import View


def render(view: View) -> bytes:
    sheet = Sheet()
    sheet.title(with_names(view.headline, view.players, 40, bold=True), subtitle=view.game)
    waiting = set(view.to_act)
    sheet.heading("Players")
    sheet.rows(
        [(player_name(name), "to act" if seat in waiting else "") for seat, name in enumerate(view.players)],
        seat_colors=list(range(len(view.players))),
    )
    return sheet.png()
