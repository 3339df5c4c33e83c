"""What every colour, letter and number on the pictures means: `KEY` for the alt text, the short key
under the turn picture (the `key` section draws all of it)."""

from __future__ import annotations

from renderer.canvas import (
    Palette,
    ellipsize,
    line_height,
)
from renderer.iron_bridge_gorge.layout import BODY, INNER, LOAN, Flow, lines_block

KEY_ITEMS = (
    "F Fuel, I Iron, C Clay, L Limestone, T Transport, O Other industry: the resource types, each in its colour",
    "the table's type columns count each seat's resources in play; a count filled in the type's colour "
    "leads that type (each round the most F, I or T scores 2 VP, the most C or L 1 VP; a tie scores nothing)",
    f'VP victory points; Coins, with "{LOAN}" after them for an unpaid loan of 10 coins; Rev revenue a round before events and '
    "requirements; Hand cards in hand; Bid the initiative bid (✓ placed but secret, – not yet)",
    "a yellow row must act, ▶ marks the player whose turn it is",
    "on a card, 5c is its build cost and +2 its revenue a round",
    "magenta frames mark what changed since the last turn post",
)

KEY = "Key: " + "; ".join(KEY_ITEMS) + "."
"""What every symbol on the pictures means, for the alt text (also drawn in the `key` section)."""

SHORT_KEY = (
    "F Fuel · I Iron · C Clay · L Limestone · T Transport · O Other",
    f"filled: leads the type · {LOAN}: owes 10 · 5c cost · +2 revenue",
)
"""The key drawn under the turn picture when there is room; the rest is in the `key` section."""


def short_key(flow: Flow) -> None:
    """As many lines of the short key as there is room for (the `key` section has all of it)."""
    lines = [line for index, line in enumerate(SHORT_KEY) if (index + 1) * line_height(BODY) + 4 <= flow.room]
    if lines:
        lines_block(flow, [ellipsize(line, INNER, BODY) for line in lines], color=Palette.muted)
