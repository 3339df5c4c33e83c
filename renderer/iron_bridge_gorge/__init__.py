"""Iron Bridge Gorge pictures, drawn from a view only and sized for a phone (`renderer.phone`).

- The turn picture (public view) answers "what do I need to decide?": a header (round, step, who
  acts), the round's event and the innovations in play, one table row per seat with the numbers that
  decide a bid or a build (VP, coins, revenue, cards in hand, bid, resources in play by type, the
  type's leader filled in its colour), the Opportunity row as compact tiles, and an open trade.
- The final picture puts the result first: the winner, then every seat's tie-break numbers.
- A seat's hand picture holds only what that seat sees beyond the board: its hand (full cards), its
  secret bid, and a trade offer it is party to, under a one-line header.
- Sections (`OVERLAYS`) hold the rest: the row's full cards, each player's holdings by name, the
  event and innovation texts, and the key.
Every picture is `PHONE_WIDTH` wide with text of at least `MIN_TEXT`; turn, hand and final pictures
are at most `MAX_HEIGHT` tall at every table size, because whatever does not fit is cut with a
pointer to its section rather than shrunk; a section longer than 4:5 comes in pages.

The package: `layout` (the pieces the pictures share), `turn`, `hand`, `final`, `sections`
(`OVERLAYS`), `marks` (`changes`: what changed), `key` (`KEY` and the short key).
"""

from __future__ import annotations

from renderer.iron_bridge_gorge.final import draw_final
from renderer.iron_bridge_gorge.hand import draw_hand
from renderer.iron_bridge_gorge.key import KEY, SHORT_KEY
from renderer.iron_bridge_gorge.layout import TYPES, game_view
from renderer.iron_bridge_gorge.marks import changes
from renderer.iron_bridge_gorge.sections import (
    OVERLAYS,
    render_cards,
    render_events,
    render_key,
    render_players,
)
from renderer.iron_bridge_gorge.turn import draw_turn
from rules.core import View


def render(view: View, *, marks: frozenset[str] = frozenset()) -> bytes:
    game = game_view(view)
    if game.seat is not None:
        return draw_hand(game, marks)
    if game.finished and game.scoreboard is not None:
        return draw_final(game, marks)
    return draw_turn(game, marks)


__all__ = [
    "KEY",
    "OVERLAYS",
    "SHORT_KEY",
    "TYPES",
    "changes",
    "render",
    "render_cards",
    "render_events",
    "render_key",
    "render_players",
]
