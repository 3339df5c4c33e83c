"""The hand picture: a seat's own view, which differs from the public one only by its half-made
choice.
"""

from __future__ import annotations

from renderer.canvas import Sheet, to_png
from renderer.iron_and_brass.layout import WIDTH, header, name_of, paragraphs, token_words
from rules.iron_and_brass.view import IronAndBrassView


def render_hand(view: IronAndBrassView) -> bytes:
    """A seat's own view: only its half-made choice (the rest of its view is the public board)."""
    seat = view.seats[view.seat] if view.seat is not None and view.seat < len(view.seats) else None
    sheet = Sheet(width=WIDTH)
    who = f"{name_of(view, seat.seat, 24, bold=True)} ({seat.side})" if seat else "Spectator"
    header(sheet, f"Iron & Brass · {who} · Round {view.round}", size=24)
    lines: list[tuple[str, bool, str]] = []
    what, _, value = (view.picking or "").partition(":")
    if what == "build":
        item = next((item for item in view.items if item.id == value), None)
        if item is not None:
            lines.append((f"You are placing: {item.name} ({item.code}).", True, ""))
            lines.extend((line, False, "") for line in token_words(item))
        lines.append(("Choose its square in the menu (Take my turn), or go back.", False, ""))
    elif what == "aim":
        target = view.piece_at(value)
        named = f"{name_of(view, target.owner)}'s {target.name} on {value}" if target else value
        lines.append((f"You are aiming concentrated fire at {named}.", True, ""))
        lines.append(("Choose the two units that fire together in the menu, or go back.", False, ""))
    else:
        lines.append(("Nothing private: every piece, build and token is on the board.", False, ""))
    if seat is not None:
        lines.append((f"You have {seat.gold} gold and {seat.crew} crew.", False, ""))
    paragraphs(sheet, lines, size=24)
    return to_png(sheet.image())
