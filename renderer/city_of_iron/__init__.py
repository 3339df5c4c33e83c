"""City of Iron pictures for a phone, drawn from a view only (issue 19, "Pictures made for a phone").

Discord shows a picture about 400 px wide on a phone, so every picture is `PHONE_WIDTH` (800) wide with
no text under `MIN_TEXT` (22 px, 11 px as shown), and the turn and hand pictures are at most 4:5.

- Turn picture (public view): one header line (round, scorings, alerts) and a status line (phase, who
  acts, actions left); the nations table in turn order (VP, income, coins, science, cards in hand,
  actions left, goods led; the seats to act highlighted); the turn-order track as one strip; the
  building row on offer as compact tiles (name, cost, land, goods and effects); a short key as footer.
- Final picture: the result first (places, VP, the tie-break numbers), then where the VP came from.
- Hand picture (a seat's view): only what that seat alone sees (its hand, its piles, and during the
  secret purchase what it can buy and has chosen) under a one-line header; never a copy of the board.
- Sections on demand (`/board section:<name>`): `goods`, `nations`, `buildings`, `towns`, `lands`, `key`.

Each picture is laid out at full detail first and with less detail only when it would not fit a phone
screen, so a two-player game keeps what a four-player one has to leave to the sections. Everything
drawn comes from the view, so nothing hidden can leak.

The package: `layout` (shared drawing pieces), `turn`, `hand`, `final` (the three pictures), `sections`
(`OVERLAYS`), `marks` (`changes`) and `key` (`KEY`); `render` here picks the picture a view calls for.
"""

from __future__ import annotations

from functools import partial

from renderer.canvas import to_png
from renderer.city_of_iron.final import _final
from renderer.city_of_iron.hand import _seat
from renderer.city_of_iron.key import KEY
from renderer.city_of_iron.layout import GOODS, _first_fitting
from renderer.city_of_iron.marks import changes
from renderer.city_of_iron.sections import OVERLAYS
from renderer.city_of_iron.turn import FRAMED, _turn
from rules.city_of_iron.view import CityOfIronView
from rules.core import View


def render(view: View, *, marks: frozenset[str] = frozenset()) -> bytes:
    """The turn picture, the final picture, or a seat's hand picture; `marks` are the parts to frame
    as changed (the keys `changes` gives)."""
    assert isinstance(view, CityOfIronView), "renderer.city_of_iron draws City of Iron views"
    if view.seat is not None:
        sheet = _first_fitting([partial(_seat, view, level) for level in range(4)])
    elif view.finished and view.final is not None:
        sheet = _first_fitting([partial(_final, view, marks, level) for level in range(3)])
    else:
        sheet = _first_fitting([partial(_turn, view, marks, level) for level in range(5)])
    return to_png(sheet.image())


__all__ = ["FRAMED", "GOODS", "KEY", "OVERLAYS", "changes", "render"]
