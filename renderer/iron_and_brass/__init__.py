"""Iron & Brass pictures for a phone: drawn from a view only (the game has no hidden information).

Most players read the turn post on a phone, where Discord shows a picture about 400 px wide, so
every picture is `PHONE_WIDTH` (800) wide with no text under `MIN_TEXT` (22 px), and the turn
picture is no taller than 4:5 at every board size (10x10 to 16x16): the map's squares shrink to
what the height leaves, not the text.

`render(view)` draws the turn picture: one header line (round, whose turn, actions left), a strip
per side (gold, crew, army, advantage tokens), what the last battle did (and the opening roll in
round 1), then the map (A1 bottom-left; units as discs and structures as rounded squares in the
side's colour, Iron blue and Brass crimson, with their two-letter code; a yellow ring and corner
for disabled pieces, dashed outlines for builds that appear next turn, the last battle's squares
framed black). A finished game puts the result first. A seat's view (`view.seat` set) differs from
the public one only by its half-made choice (`picking`), so its hand picture shows just that.

The detail the turn picture leaves out is in sections (`OVERLAYS`): `key` (every symbol and the
pieces' stat tokens), `game` (opening roll, turn limit, the last battle's dice), `players` (each
side's numbers and pieces by square); `range` shows the reach of the unit on a square.

The package: `layout` (the shared drawing pieces), `turn` (the turn picture and `render`), `hand`,
`final` (the result), `sections` (`OVERLAYS`), `marks` (`changes`), `key` (`KEY` and the key section).
"""

from renderer.iron_and_brass.key import KEY
from renderer.iron_and_brass.layout import BASE_ROWS, CRIMSON, DARK, DISABLED, LIGHT, MOVE, side_color
from renderer.iron_and_brass.marks import changes
from renderer.iron_and_brass.sections import OVERLAYS, render_range
from renderer.iron_and_brass.turn import render

__all__ = [
    "BASE_ROWS",
    "CRIMSON",
    "DARK",
    "DISABLED",
    "KEY",
    "LIGHT",
    "MOVE",
    "OVERLAYS",
    "changes",
    "render",
    "render_range",
    "side_color",
]
