"""What changed between two views of one game: framed on the turn post's picture and on the
"since your last turn" picture, and said in words.

Two views of the same viewer (the public view at the player's last move and the public view now)
are compared; nothing else is needed, so a picture of changes can never show more than the views do.
A game's renderer names the parts that changed (`changes(old, new) -> Changes`, with keys it then
frames through `Sheet.changed`); any other game gets the generic answer: the view's fields that
differ, in words only. The words go into the message and the alt text, not onto the picture, which
keeps its phone size.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core import View

NOT_COMPARED = frozenset({"game", "seat", "players", "headline", "to_act", "topic"})
"""Fields every view has that the turn message already tells in words."""
BANNER_SIZE = 24
"""The text size a renderer fits the names in its change lines at (they are words in a message now,
but a name cut to this width reads the same there as on a picture)."""


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
