"""The final picture's own part: the result, first and larger than the rest (the turn picture draws
it above the sides' strips once the game is over).
"""

from __future__ import annotations

from renderer.canvas import Palette, Sheet, with_names
from renderer.iron_and_brass.layout import paragraphs
from rules.iron_and_brass.view import IronAndBrassView


def result(sheet: Sheet, view: IronAndBrassView) -> int:
    """A finished game's result, first and larger than the rest; nothing (0 px) before the end."""
    if not view.finished:
        return 0
    reason = with_names(view.reason, view.players, 26, bold=True)
    return paragraphs(sheet, [(reason + ".", True, "")], size=26, color=Palette.accent)
