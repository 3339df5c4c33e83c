"""A plain sheet for a game that has no renderer of its own yet: headline, players, who acts, and
every other field of the view as a line, so a seat's picture shows what only that seat may see."""

from __future__ import annotations

from renderer.canvas import Sheet, player_name, with_names
from rules.core import View


def render(view: View, *, marks: frozenset[str] = frozenset()) -> bytes:
    del marks  # the generic sheet frames nothing
    sheet = Sheet()
    sheet.title(with_names(view.headline, view.players, 40, bold=True), subtitle=view.game)
    waiting = set(view.to_act)
    sheet.heading("Players")
    sheet.rows(
        [(player_name(name), "to act" if seat in waiting else "") for seat, name in enumerate(view.players)],
        seat_colors=list(range(len(view.players))),
    )
    base = set(View.model_fields)
    details = [
        (name.replace("_", " "), _shown(value))
        for name, value in view.model_dump(mode="json").items()
        if name not in base and value not in (None, [], {})
    ]
    if details:
        sheet.heading("Your view" if view.seat is not None else "Table")
        sheet.rows(details)
    return sheet.png()


def _shown(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    return str(value)
