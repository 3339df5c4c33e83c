"""City Heroes pictures, drawn for a phone from a view only (issue 19, "Pictures made for a phone").

Every picture is `PHONE_WIDTH` (800) px wide with no text under `MIN_TEXT` (22) px, so it stays readable
when Discord shows it 400 px wide; every picture is at most `MAX_HEIGHT` (4:5) tall (a long section,
such as the key, comes in pages).

`render(view)` draws:
- the turn picture (public view): one header line (turn, phase, who acts), the city's prestige against
  the rival's, a score strip with one row per city (state, score if the game ended now, influence,
  ducats, Ready workers / workers, tiles), an open trade offer or pillage, and the hex map scaled into
  what height is left. Tiles carry symbols rather than words (the number, a resource letter, building
  codes, the stages of a public work, a sword with the garrison) explained in `KEY` and the `key`
  section. What changed since the last turn post (`changes`) is framed in magenta, around the text it
  marks and never over it; a changed tile gets a magenta ring in the gap around it, so its owner's band
  still shows.
- the final picture: the verdict (the city against the rival decides whether anybody wins), the
  influence breakdown per player, then the final map.
- a seat's hand picture (`view.seat` set): a one-line header and only what that seat sees beyond the
  board: the terms of a trade offer it is party to, and its own goods to answer it with.

Sections shown on demand (`OVERLAYS`): `cities` (each city's full panel: workers, ducats, influence,
pillage tokens, resources, goods, buildings), `buyable` (the map with the tiles a player could buy now
and their price), `key` (every code, letter, colour and mark).

Everything comes from the view (plus the static names and levels of `data/city_heroes`), so nothing
hidden can leak. Badges and chips recur on every board, so their bitmaps are cached and pasted.


The package: `layout` (shared drawing pieces), `turn` (the turn picture and `render`), `hand`, `final`,
`sections` (`OVERLAYS`), `marks` (`changes`) and `key` (`KEY`).
"""

from renderer.city_heroes.final import SCORE_COLUMNS
from renderer.city_heroes.key import KEY, render_key
from renderer.city_heroes.layout import ACTING, BUY, CODES, PASSED, RESOURCES, SWORD
from renderer.city_heroes.marks import changes
from renderer.city_heroes.sections import OVERLAYS, buy_prices, render_buyable, render_cities
from renderer.city_heroes.turn import STRIP, render

__all__ = [
    "ACTING",
    "BUY",
    "CODES",
    "KEY",
    "OVERLAYS",
    "PASSED",
    "RESOURCES",
    "SCORE_COLUMNS",
    "STRIP",
    "SWORD",
    "buy_prices",
    "changes",
    "render",
    "render_buyable",
    "render_cities",
    "render_key",
]
