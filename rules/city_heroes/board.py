"""The City Heroes map: a hexagon of hex tiles numbered T1, T2, ... row by row, generated from a seed.

Axial coordinates (q, r); rows run r = -R .. R, each left to right. With radius 3 the rows hold
4, 5, 6, 7, 6, 5, 4 tiles (37 in all), which keeps the guide's examples true: T15 is next to T22,
T28 is one tile away from T15 (T15 - T22 - T28), T11 and T12 both touch T18, T12 touches T19.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from rules.city_heroes.data import MapSpec
from rules.city_heroes.state import Tile
from rules.core import Rng

DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
HILL_ONLY = ("iron", "gold", "stone")
REQUIRED = ("iron", "stone", "timber")
"""'Every map will have at least 1 Iron, Stone and Timber.'"""


@functools.cache
def coordinates(radius: int) -> tuple[tuple[int, int], ...]:
    """(q, r) of T1, T2, ... in numbering order."""
    cells = []
    for r in range(-radius, radius + 1):
        for q in range(max(-radius, -r - radius), min(radius, -r + radius) + 1):
            cells.append((q, r))
    return tuple(cells)


@functools.cache
def neighbours(radius: int) -> dict[int, tuple[int, ...]]:
    """Tile id -> ids of the adjacent tiles."""
    ids = {cell: index + 1 for index, cell in enumerate(coordinates(radius))}
    return {
        ids[(q, r)]: tuple(ids[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in ids)
        for (q, r) in coordinates(radius)
    }


@functools.cache
def distances(radius: int) -> dict[tuple[int, int], int]:
    cells = coordinates(radius)
    table = {}
    for a, (qa, ra) in enumerate(cells):
        for b, (qb, rb) in enumerate(cells):
            dq, dr = qa - qb, ra - rb
            table[(a + 1, b + 1)] = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
    return table


def distance(radius: int, a: int, b: int) -> int:
    return distances(radius)[(a, b)]


def _weighted(rng: Rng, weights: Iterable[tuple[str, int]]) -> str | None:
    names = [name for name, weight in weights for _ in range(weight)]
    pick = rng.choice(names)
    return None if pick == "none" else pick


def generate(spec: MapSpec, rng: Rng) -> list[Tile]:
    """Hills and Plains with their resources: Wheat only on Plains; Iron, Gold and Stone only on Hills;
    Timber anywhere; at least one Iron, Stone and Timber on every map."""
    tiles = []
    for index, (q, r) in enumerate(coordinates(spec.radius)):
        hill = rng.randint(0, 999) < int(spec.hill_share * 1000)
        weights = spec.hill_resources if hill else spec.plain_resources
        tiles.append(
            Tile(
                id=index + 1,
                q=q,
                r=r,
                terrain="hill" if hill else "plain",
                resource=_weighted(rng, weights.items()),
            )
        )
    for needed in REQUIRED:
        if any(tile.resource == needed for tile in tiles):
            continue
        counts = {name: sum(1 for tile in tiles if tile.resource == name) for name in REQUIRED}
        spare = [
            tile
            for tile in tiles
            if (tile.terrain == "hill" or needed not in HILL_ONLY)
            and not (tile.resource in REQUIRED and counts[tile.resource] <= 1)
        ]
        if not spare:
            spare = [tile for tile in tiles if not (tile.resource in REQUIRED and counts[tile.resource] <= 1)]
        tile = rng.choice(spare)
        if needed in HILL_ONLY:
            tile.terrain = "hill"
        tile.resource = needed
    return tiles
