"""What changed between two views of one game, for "since your last turn" pictures.

Two views of the same viewer (the public view at the player's last move and the public view now)
are compared; nothing else is needed, so a picture of changes can never show more than the views do.
A game's renderer may name the parts that changed (`changes(old, new) -> Changes`, with keys it then
frames through `Sheet.changed`); any other game gets the generic answer: a banner naming the view's
fields that differ. Either way the picture starts with a banner listing the changes in words.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renderer.canvas import MARGIN, Palette, draw_text, ellipsize, fit_size, line_height, to_png, wrap
from rules.core import View

NOT_COMPARED = frozenset({"game", "seat", "players", "headline", "to_act", "topic"})
"""Fields every view has that the turn message already tells in words."""
BANNER_LINES = 8
BANNER_SIZE = 24
"""Text size of the banner's lines: a renderer fits the names in its lines at this size."""


@dataclass(frozen=True)
class Changes:
    marks: frozenset[str] = frozenset()
    """The renderer's keys of the parts to frame (squares, table cells)."""
    lines: tuple[str, ...] = ()
    """The same changes in words, for the banner and the alt text."""


def field_changes(old: View, new: View) -> Changes:
    """The generic comparison: which of the view's own fields differ, in plain words."""
    before, after = old.model_dump(mode="json"), new.model_dump(mode="json")
    fields = [name for name in after if name not in NOT_COMPARED and before.get(name) != after[name]]
    if not fields:
        return Changes()
    return Changes(lines=("Changed: " + ", ".join(name.replace("_", " ") for name in fields) + ".",))


def change(label: str, before: object, after: object) -> str:
    return f"{label} {before} → {after}"


def with_banner(png: bytes, changes: Changes) -> bytes:
    """The picture with a banner on top saying what changed (and what the frames mean)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    inner = image.width - 2 * MARGIN - 24
    title = "Since your last move"
    if changes.marks:
        title += " — changes are framed in magenta"
    shown = list(changes.lines[:BANNER_LINES])
    if len(changes.lines) > BANNER_LINES:
        shown.append(f"… and {len(changes.lines) - BANNER_LINES} more.")
    if not shown:
        shown = ["Nothing on the board changed."]
    wrapped = [part for line in shown for part in wrap("• " + line, inner, BANNER_SIZE)]
    height = 16 + line_height(28) + len(wrapped) * line_height(BANNER_SIZE) + 16
    out = Image.new("RGB", (image.width, height + image.height), Palette.background)
    draw = ImageDraw.Draw(out)
    draw.rounded_rectangle(
        (MARGIN, 8, image.width - MARGIN, height - 4),
        radius=12,
        fill=Palette.panel,
        outline=Palette.changed,
        width=4,
    )
    # on an 800 px phone picture the title is too wide at 28 px: it shrinks (and is cut if need be)
    title_size = fit_size(title, inner, 28, bold=True, minimum=BANNER_SIZE)
    draw_text(
        draw,
        (MARGIN + 12, 16),
        ellipsize(title, inner, title_size, bold=True),
        size=title_size,
        bold=True,
        fill=Palette.changed,
    )
    for index, line in enumerate(wrapped):
        top = 16 + line_height(28) + index * line_height(BANNER_SIZE)
        draw_text(draw, (MARGIN + 12, top), line, size=BANNER_SIZE)
    out.paste(image, (0, height))
    return to_png(out)
