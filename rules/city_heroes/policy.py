"""How a computer player judges City Heroes, from its own view only (see `rules/policy.py`).

`evaluate`:
- the seat's influence score as the result counts it (influence + naturals + 2 per good + ducats/3)
  minus half of the best other seat's;
- what the seat's holdings will still bring: tiles, buildings (their per-turn influence for the
  turns left), workers;
- the city against the rival: everybody loses if the city's prestige ends below the rival's, so the
  gap between the city's projected prestige (now + the per-turn prestige of every standing
  building and public work for the turns left) and the rival's (now + its growth for the turns
  left) weighs heavily while it is negative and a little while positive.

`prior`: trade proposals are not made (no partner answers them sensibly); everything else is
looked ahead (the game has no dice after the map, and no hidden information but trade offers).
"""

from __future__ import annotations

from functools import cache

from rules.city_heroes.data import catalogue
from rules.city_heroes.state import CityHeroesView
from rules.core import Choice, Seat

CITY_BEHIND = 3.0
"""Per prestige point the city is projected short of the rival."""
CITY_AHEAD = 0.3


@cache
def _building(building_id: str) -> tuple[int, int]:
    """(prestige, influence) a building gives every turn."""
    spec = catalogue().buildings.get(building_id)
    return (spec.prestige, spec.influence) if spec is not None else (0, 0)


@cache
def _work(work_id: str) -> int:
    spec = catalogue().works.get(work_id)
    return spec.prestige if spec is not None else 0


def evaluate(view: CityHeroesView, seat: Seat) -> float:
    turns_left = max(0, view.turns - view.turn) + (0 if view.phase == "over" else 1)
    me = view.seats[seat]
    others = [entry.score for entry in view.seats if entry.seat != seat]
    value = me.score - 0.5 * max(others, default=0)
    city = view.prestige
    for tile in view.tiles:
        prestige = 0
        influence = 0
        for building_id in (tile.building, tile.house):
            if building_id:
                p, i = _building(building_id)
                prestige += p
                influence += i
        if tile.work and tile.stages >= tile.stages_needed:
            prestige += _work(tile.work)
        city += prestige * turns_left
        if tile.owner == seat:
            value += 1.5 + influence * turns_left
            if tile.building:
                value += 2.0
            if tile.work:
                value += 1.0 + tile.stages
    value += 0.8 * me.workers + 0.3 * me.ready
    growth = view.rival_growth
    rival = view.rival_prestige + growth * turns_left
    gap = city - rival
    value += CITY_BEHIND * gap if gap < 0 else CITY_AHEAD * gap
    return value


def prior(view: CityHeroesView, seat: Seat, choice: Choice) -> float | None:
    kind = choice.action.get("kind")
    if kind == "propose":
        return -50.0
    return None
