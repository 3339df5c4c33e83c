"""The turn picture (the public view) and `render`, which picks the turn or the hand picture."""

from __future__ import annotations

from renderer.canvas import MARGIN, Palette, Sheet, line_height, to_png
from renderer.iron_and_brass import final
from renderer.iron_and_brass.hand import render_hand
from renderer.iron_and_brass.layout import (
    BODY,
    WIDTH,
    battle_line,
    cell_for,
    draw_map,
    game_view,
    header,
    header_text,
    opening_line,
    paragraphs,
    strips,
    wrap_inner,
)
from renderer.phone import max_height
from rules.core import View
from rules.iron_and_brass.view import IronAndBrassView

FOOTER = (
    "Disc = unit · square = structure · dashed = ready next turn\n"
    "yellow = disabled · black = last battle · key: /board section:key"
)
MIN_CELL_WITH_FOOTER = 46
"""A map whose squares would shrink below this to make room for the footer key goes without it (the
key is in the alt text and the `key` section)."""


# ---- pictures -------------------------------------------------------------------------------------------
def render_turn(view: IronAndBrassView, marks: frozenset[str]) -> bytes:
    """The turn (or final) picture: numbers on top, the map filling what the height leaves."""
    sheet = Sheet(width=WIDTH, changed=marks)
    used = header(sheet, header_text(view))
    used += final.result(sheet, view)
    used += strips(sheet, view)
    notes: list[tuple[str, bool, str]] = []
    battle = battle_line(view)
    if battle:
        notes.append((battle, view.combat is not None, "battle"))
    if view.round == 1 and not view.finished:
        notes.append((opening_line(view), False, "opening"))
    notes.append((f"Gold Mined marker: {view.gold_left} left to mine.", False, "gold-left"))
    used += paragraphs(sheet, notes)
    room = max_height() - 2 * MARGIN - used
    footer = wrap_inner(FOOTER, BODY)
    footer_height = len(footer) * line_height(BODY) + 6
    with_footer = cell_for(view.size, room - footer_height)
    cell = (
        with_footer
        if with_footer >= min(MIN_CELL_WITH_FOOTER, cell_for(view.size, room))
        else cell_for(view.size, room)
    )
    draw_map(sheet, view, cell)
    if cell == with_footer:
        paragraphs(sheet, [(FOOTER, False, "")], color=Palette.muted)
    return to_png(sheet.image())


def render(view: View, *, marks: frozenset[str] = frozenset()) -> bytes:
    """The turn picture (public view) or a seat's hand picture; `marks` name what changed since the
    previous turn post (squares such as "C5", "gold:1", "tokens:0", "battle", "gold-left")."""
    game = game_view(view)
    if game.seat is not None:
        return render_hand(game)
    return render_turn(game, frozenset(marks))
