"""Construction: garrisoning weapons on one's own tiles (a layout of weapons per tile)."""

from __future__ import annotations

from rules import words
from rules.city_heroes.moves.common import owned, pay, start, tile
from rules.city_heroes.state import CityHeroesState, Garrison
from rules.core import Choice, Event, RuleError, Seat, built_choice

State = CityHeroesState


def layout_of(state: State, seat: Seat) -> dict[int, int]:
    return {spot.id: spot.garrison for spot in owned(state, seat) if spot.garrison}


def garrison_choices(state: State, seat: Seat) -> list[Choice]:
    player = state.players[seat]
    if state.acted is None and player.ready < 1:
        return []
    supply = player.stock["weapons"]
    layout = layout_of(state, seat)
    choices = []

    def add(key: str, label: str, new: dict[int, int]) -> None:
        choices.append(
            built_choice(
                key=key,
                label=label,
                action={"kind": "garrison", "layout": {str(t): n for t, n in sorted(new.items()) if n}},
                group="Garrison",
            )
        )

    for spot in owned(state, seat):
        if supply >= 1:
            add(
                f"garrison:{spot.id}:1",
                f"Garrison 1 weapon on T{spot.id}",
                layout | {spot.id: spot.garrison + 1},
            )
        if supply > 1:
            add(
                f"garrison:{spot.id}:all",
                f"Garrison all {supply} supply weapons on T{spot.id}",
                layout | {spot.id: spot.garrison + supply},
            )
        if spot.garrison:
            add(
                f"garrison:{spot.id}:off",
                f"Take the {words.count(spot.garrison, 'weapon')} off T{spot.id}",
                layout | {spot.id: 0},
            )
    return choices


def apply_garrison(state: State, seat: Seat, action: Garrison, events: list[Event]) -> None:
    start(state, "garrison", "construction", "garrison weapons")
    layout = action.layout
    player = state.players[seat]
    for tile_id, count in layout.items():
        spot = tile(state, tile_id)
        if spot.owner != seat:
            raise RuleError(f"You may garrison only your own tiles (T{tile_id} is not yours).")
        if count < 0:
            raise RuleError("A garrison cannot be negative.")
    mine = owned(state, seat)
    available = player.stock["weapons"] + sum(spot.garrison for spot in mine)
    wanted = sum(layout.values())
    if wanted > available:
        raise RuleError(
            f"You have {words.count(available, 'weapon')} in all (supply and garrisons), not {wanted}."
        )
    if {spot.id: spot.garrison for spot in mine if spot.garrison} == {t: n for t, n in layout.items() if n}:
        raise RuleError("That garrison is the one you already have.")
    if state.acted is None:
        if player.ready < 1:
            raise RuleError("A garrison action needs a Ready worker.")
        pay(state, seat, {"workers": 1})
    for spot in mine:
        spot.garrison = layout.get(spot.id, 0)
    player.stock["weapons"] = available - wanted
    state.acted = "garrison"
    where = ", ".join(f"T{t}: {n}" for t, n in sorted(layout.items()) if n) or "no tile"
    events.append(
        Event(text=f"{player.name} garrisoned weapons ({where}; {player.stock['weapons']} in supply).")
    )
