"""A plain sheet for a game that has no renderer of its own yet: headline, players, who acts."""

from __future__ import annotations

from renderer.canvas import Sheet
from rules.core import View


def render(view: View) -> bytes:
    sheet = Sheet()
    sheet.title(view.headline, subtitle=view.game)
    waiting = set(view.to_act)
    sheet.heading("Players")
    sheet.rows(
        [(name, "to act" if seat in waiting else "") for seat, name in enumerate(view.players)],
        seat_colors=list(range(len(view.players))),
    )
    return sheet.png()
