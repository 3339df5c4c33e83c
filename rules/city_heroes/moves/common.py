"""What every family of moves asks of the map and the purses: tiles, owners, building counts, prices,
discounts, costs and payments."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TypeVar

from rules import words
from rules.city_heroes import board
from rules.city_heroes.data import rules_catalogue
from rules.city_heroes.state import ActionKind, CityHeroesState, PlayerState, Tile
from rules.core import RuleError, Seat

State = CityHeroesState
Counts = dict[Seat | None, Counter[str]]
Key = TypeVar("Key", bound=str)
"""The keys of a read-only count: any str, or a data file's narrower set of names (`CostKey`, `Good`)."""

_NONE: Counter[str] = Counter()
"""The counts of a seat without buildings (only read: a Counter's missing keys read 0 without being stored)."""

_memo: list[tuple[State, Counts] | None] = [None]
"""The building counts of the state whose legal actions are being listed (which never mutates it)."""


@contextmanager
def counted(state: State) -> Iterator[None]:
    """Count the buildings once while `state`'s choices are built."""
    _memo[0] = (state, counts(state))
    try:
        yield
    finally:
        _memo[0] = None


def goods_text(items: Mapping[Key, int]) -> str:
    parts = [f"{words.count(count, name)}" for name, count in items.items() if count]
    return ", ".join(parts) or "nothing"


def tile(state: State, tile_id: int) -> Tile:
    if not 1 <= tile_id <= len(state.tiles):
        raise RuleError(f"There is no tile T{tile_id}.")
    return state.tiles[tile_id - 1]


def adjacent(state: State, tile_id: int) -> tuple[int, ...]:
    return board.neighbours(state.radius)[tile_id]


def owned(state: State, seat: Seat) -> list[Tile]:
    return [tile for tile in state.tiles if tile.owner == seat]


def counts(state: State) -> Counts:
    """Buildings per owner (House track and main slot), in one pass over the map (computed once per
    `legal_actions` call, which never mutates the state)."""
    memo = _memo[0]
    if memo is not None and memo[0] is state:
        return memo[1]
    plain: dict[Seat | None, dict[str, int]] = {}
    for tile in state.tiles:
        if tile.owner is None:
            continue
        counter = plain.get(tile.owner)
        if counter is None:
            counter = plain[tile.owner] = {}
        if tile.house:
            counter[tile.house] = counter.get(tile.house, 0) + 1
        if tile.building:
            counter[tile.building] = counter.get(tile.building, 0) + 1
    # Counted in plain dicts (a Counter's `+=` is slower), handed out as Counters (missing keys read 0).
    return {owner: Counter(counter) for owner, counter in plain.items()}


def has(state: State, seat: Seat, building: str, table: Counts | None = None) -> int:
    """How many of `building` the seat owns (House track or main slot)."""
    table = table if table is not None else counts(state)
    mine = table.get(seat)
    return mine[building] if mine else 0


def work_done(state: State, tile: Tile) -> bool:
    return tile.work is not None and tile.stages >= rules_catalogue().works[tile.work].stages


def name(key: str) -> str:
    cat = rules_catalogue()
    if key in cat.buildings:
        return cat.buildings[key].name
    if key in cat.works:
        return cat.works[key].name
    return key


def price(state: State, seat: Seat, tile_id: int) -> int:
    """'1 Ducat + 1 Ducat for each tile between the selected tile and the closest tile you own ...
    Purchasing a Hill costs an extra 1 Ducat'; the first tile is free."""
    mine = [tile.id for tile in owned(state, seat)]
    if not mine:
        return 0
    nearest = min(board.distance(state.radius, tile_id, other) for other in mine)
    return 1 + (nearest - 1) + (1 if state.tiles[tile_id - 1].terrain == "hill" else 0)


def guild_bonus(table: Counts, seat: Seat, guild: str) -> int:
    """'by either 2 more if the player built a ... Guild or by 1 more if another player has built one'."""
    if table.get(seat, _NONE)[guild]:
        return 2
    return 1 if any(counter[guild] for counter in table.values()) else 0


def discounts(state: State, seat: Seat) -> dict[str, int]:
    """Workshop, Carpenter and Stonemason discounts (a guild counts as its Carpenter/Stonemason);
    several copies of one building do not add up."""
    table = counts(state)
    mine = table.get(seat, _NONE)
    workshop = 1 if mine["workshop"] else 0
    discount = {"stone": workshop, "planks": workshop, "sculptures": 0, "scaffolds": 0}
    if mine["carpenter"] or mine["carpenters-guild"]:
        bonus = guild_bonus(table, seat, "carpenters-guild")
        discount["planks"] += 2 + bonus
        discount["scaffolds"] += 1 + bonus
    if mine["stonemason"] or mine["masons-guild"]:
        bonus = guild_bonus(table, seat, "masons-guild")
        discount["stone"] += 2 + bonus
        discount["sculptures"] += 1 + bonus
    return discount


def cost(
    state: State,
    seat: Seat,
    base: Mapping[Key, int],
    target: str | None = None,
    discount: dict[str, int] | None = None,
) -> dict[str, int]:
    """A building's or public work stage's cost after the Workshop, Carpenter and Stonemason
    discounts (and the Biblioteka's 3 ducats off colleges and universities)."""
    total: dict[str, int] = dict(base.items())
    for key, off in (discount if discount is not None else discounts(state, seat)).items():
        if key in total:
            total[key] = max(0, total[key] - off)
    if target in ("college", "university") and any(
        tile.work == "biblioteka-marciana" and work_done(state, tile) for tile in state.tiles
    ):
        total["ducats"] = max(0, total.get("ducats", 0) - 3)
    return {key: value for key, value in total.items() if value}


def shortfall(player: PlayerState, price: dict[str, int]) -> str | None:
    for key, need in price.items():
        have = player.ducats if key == "ducats" else player.ready if key == "workers" else player.stock[key]
        if have < need:
            what = "ready workers" if key == "workers" else key
            return f"you need {words.count(need, what)} and have {have}"
    return None


def pay(state: State, seat: Seat, price: dict[str, int]) -> None:
    player = state.players[seat]
    for key, need in price.items():
        if key == "ducats":
            player.ducats -= need
            state.bank_ducats += need
        elif key == "workers":
            player.ready -= need
            player.busy += need
        else:
            player.stock[key] -= need
            state.bank[key] += need


def cost_text(price: Mapping[Key, int]) -> str:
    return ", ".join(f"{words.count(count, key)}" for key, count in price.items()) or "nothing"


def give(state: State, seat: Seat, resource: str, count: int) -> int:
    """Move up to `count` of `resource` from the bank to the seat; returns what was given."""
    given = max(0, min(count, state.bank[resource]))
    state.bank[resource] -= given
    state.players[seat].stock[resource] += given
    return given


def pay_ducats(state: State, seat: Seat, count: int) -> int:
    given = max(0, min(count, state.bank_ducats))
    state.bank_ducats -= given
    state.players[seat].ducats += given
    return given


def start(state: State, kind: ActionKind, allowed_phase: str, doing: str) -> None:
    """Check a phase action may start (or go on) now."""
    if state.phase != allowed_phase:
        raise RuleError(f"You can {doing} only in the {allowed_phase.title()} phase.")
    if state.acted is not None and state.acted != kind:
        raise RuleError(f"Finish your {state.acted} action first.")
