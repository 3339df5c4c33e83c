"""What changed between two City Heroes views: the marks framed on the pictures and the same in words."""

from __future__ import annotations

from renderer.canvas import (
    NAME_WIDTH,
    player_name,
)
from renderer.changes import BANNER_SIZE, Changes, change
from renderer.city_heroes.layout import RESOURCES, as_city_heroes, building_name, status_line, work_name
from rules.city_heroes.view import CityHeroesView, SeatView, TileView
from rules.core import View


# ---- what changed -------------------------------------------------------------------------------
def changes(old: View, new: View) -> Changes:
    """The tiles and score-strip cells that differ between two views, and the same in words."""
    before, after = as_city_heroes(old), as_city_heroes(new)
    marks: set[str] = set()
    lines: list[str] = []
    if (before.turn, before.phase) != (after.turn, after.phase):
        marks.add("phase")
        lines.append(change("Now", status_line(before), status_line(after)))
    if before.prestige != after.prestige:
        marks.add("prestige")
        lines.append(change("City prestige", before.prestige, after.prestige))
    if before.rival_prestige != after.rival_prestige or before.rival_growth != after.rival_growth:
        marks.add("rival")
        if before.rival_prestige != after.rival_prestige:
            lines.append(change("Rival prestige", before.rival_prestige, after.rival_prestige))
    for seat_before, seat_after in zip(before.seats, after.seats, strict=False):
        _seat_changes(seat_before, seat_after, marks, lines)
    olds = {tile.id: tile for tile in before.tiles}
    for tile in after.tiles:
        old_tile = olds.get(tile.id)
        if old_tile is not None and old_tile != tile:
            marks.add(f"tile:{tile.id}")
            lines.extend(_tile_lines(after, old_tile, tile))
    if before.proposal != after.proposal:
        marks.add("offer")
        lines.append("A trade offer is open." if after.proposal is not None else "The trade offer is closed.")
    if before.raid != after.raid and after.raid is not None:
        marks.add("raid")
        lines.append(f"A pillage of T{after.raid.tile} is being resolved.")
    return Changes(marks=frozenset(marks), lines=tuple(lines))


def _who(name: str) -> str:
    return player_name(name, NAME_WIDTH, BANNER_SIZE)


def _seat_changes(old: SeatView, new: SeatView, marks: set[str], lines: list[str]) -> None:
    name = _who(new.name)
    said: list[str] = []
    for key, label, a, b in (
        ("score", "score", old.score, new.score),
        ("influence", "influence", old.influence, new.influence),
        ("ducats", "ducats", old.ducats, new.ducats),
        ("workers", "workers", f"{old.ready}/{old.workers}", f"{new.ready}/{new.workers}"),
        ("tiles", "tiles", old.tiles, new.tiles),
    ):
        if a != b:
            marks.add(f"{key}:{new.seat}")
            said.append(change(label, a, b))
    if old.passed != new.passed:
        marks.add(f"state:{new.seat}")
        said.append("passed" if new.passed else "back in play")
    if said:
        lines.append(f"{name}: " + ", ".join(said) + ".")


def _tile_lines(view: CityHeroesView, old: TileView, new: TileView) -> list[str]:
    where = f"T{new.id}"
    lines: list[str] = []
    if old.owner != new.owner:
        lines.append(
            f"{where} now belongs to {_who(view.players[new.owner])}."
            if new.owner is not None
            else f"{where} is neutral again."
        )
    for key_old, key_new in ((old.house, new.house), (old.building, new.building)):
        if key_new and key_new != key_old and key_new != "house":
            lines.append(f"{where}: {building_name(key_new)} built.")
    if new.work and (old.work != new.work or old.stages != new.stages):
        lines.append(f"{where}: {work_name(view, new.work)} {new.stages}/{new.stages_needed} stages.")
    if old.garrison != new.garrison or old.spent != new.spent:
        lines.append(
            change(f"{where} garrison", old.garrison, new.garrison)
            + (f" ({new.spent} spent)" if new.spent else "")
        )
    if new.pillaged and not old.pillaged:
        lines.append(f"{where} was pillaged.")
    if old.resource != new.resource and new.resource:
        lines.append(f"{where}: {RESOURCES.get(new.resource, (new.resource,))[0]} planted.")
    return lines
