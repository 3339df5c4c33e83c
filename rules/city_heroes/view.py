"""What each seat sees of City Heroes: the View models (public board, seats, rates, the trade and raid
in progress, the final scoreboard) and the state -> view logic."""

from __future__ import annotations

from dataclasses import fields
from functools import cache, lru_cache
from operator import itemgetter
from typing import Any, Literal, TypeVar

from rules import trade, words
from rules.city_heroes.data import Catalogue, catalogue
from rules.city_heroes.moves.cleanup import rival_growth
from rules.city_heroes.moves.common import counts, goods_text, has, name, owned
from rules.city_heroes.moves.market import rate_position, rival_limit
from rules.city_heroes.scoring import result as game_result
from rules.city_heroes.scoring import score
from rules.city_heroes.state import CityHeroesState, Phase, Terrain, Tile
from rules.core import Model, Result, Seat, View, assembled

State = CityHeroesState
M = TypeVar("M", bound=Model)


class TileView(Model):
    id: int
    q: int
    r: int
    terrain: Terrain
    resource: str | None
    owner: Seat | None
    house: str | None
    building: str | None
    mode: str | None
    work: str | None
    stages: int
    stages_needed: int
    garrison: int
    spent: int
    pillaged: bool
    label: str
    """Short building/work name for the map."""


class RateView(Model):
    row: str
    resource: str
    direction: Literal["sell", "buy"]
    give: int
    get: int
    position: int
    used: int
    limit: int


class SeatView(Model):
    seat: Seat
    name: str
    stock: dict[str, int]
    ducats: int
    influence: int
    ready: int
    busy: int
    idle: int
    workers: int
    tiles: int
    pillage_tokens: int
    passed: bool
    sales_prestige: int
    purchase_prestige: int
    rates: list[RateView]
    score: int
    """Influence if the game ended now (influence + resources + goods + ducats // 3)."""


class ProposalView(trade.ProposalView[dict[str, int]]):
    """An open offer as one seat sees it: its terms for the two parties only (rules/trade.py)."""


class RaidView(Model):
    attacker: Seat
    defender: Seat
    tile: int
    loot: int
    casualties: int


class ScoreLine(Model):
    place: int
    seat: Seat
    name: str
    score: int
    influence: int
    naturals: int
    goods: int
    ducats: int


class CityHeroesView(View):
    turn: int
    turns: int
    phase: Phase
    current: Seat | None
    acted: str | None
    radius: int
    tiles: list[TileView]
    seats: list[SeatView]
    prestige: int
    rival_prestige: int
    rival_growth: int
    """What the rival gains at the next Cleanup."""
    bank: dict[str, int]
    bank_ducats: int
    works: dict[str, str]
    """Public work id -> name, for the map's labels."""
    proposal: ProposalView | None = None
    raid: RaidView | None = None
    city_wins: bool | None = None
    scoreboard: list[ScoreLine] | None = None


PHASE_TOPICS: dict[str, str] = {
    "expansion": "expansion",
    "construction": "construction",
    "interaction": "trading",
    "over": "game-end",
}
"""The `/rules` topic (data/city_heroes/rules.md) of each phase."""


def rules_topic(state: State) -> str:
    """The `/rules` topic of the current step, for the turn message's link."""
    if state.phase != "over" and state.raid is not None:
        return "pillaging"
    if state.phase != "over" and state.proposal is not None:
        return "trading"
    return PHASE_TOPICS[state.phase]


def _label(tile: Tile) -> str:
    parts = []
    if tile.house and tile.house != "house":
        parts.append(name(tile.house))
    if tile.building:
        parts.append(name(tile.building))
    if tile.work:
        parts.append(name(tile.work))
    return " / ".join(parts)


def _built(model: type[M], values: dict[str, Any]) -> M:
    """A view model from values the rules computed (all fields, in the model's order) without
    re-validating them: a view is built for every position the computer players look at, and the
    tests validate the views' shapes. Like `choices.choice`."""
    return assembled(model, values)


def _seat_view(state: State, index: int, table: dict) -> SeatView:
    player = state.players[index]
    mine = owned(state, index)
    rival = catalogue().rival
    return _built(
        SeatView,
        {
            "seat": index,
            "name": player.name,
            "stock": dict(player.stock),
            "ducats": player.ducats,
            "influence": player.influence,
            "ready": player.ready,
            "busy": player.busy,
            "idle": player.idle,
            "workers": player.workers,
            "tiles": len(mine),
            "pillage_tokens": player.pillage_tokens,
            "passed": player.passed,
            "sales_prestige": rival.sales_prestige[rate_position(state, index, "sales", table)],
            "purchase_prestige": rival.purchase_prestige[rate_position(state, index, "purchase", table)],
            "rates": list(
                _rates(
                    has(state, index, "grand-bazaar", table),
                    tuple(player.tokens.items()),
                    tuple(player.exchanged.items()),
                    rival_limit(state, index, table),
                )
            ),
            "score": score(state, index, mine)["score"],
        },
    )


@lru_cache(maxsize=4096)
def _rates(
    bazaars: int, tokens: tuple[tuple[str, int], ...], exchanged: tuple[tuple[str, int], ...], limit: int
) -> tuple[RateView, ...]:
    """A seat's rival exchange rows: the same few token positions recur in every view, so each set
    is built once (views share these objects and never change them). The position is
    `rate_position`'s (tokens + Grand Bazaars, at most 4), the terms those `rival_terms` reads."""
    cat = catalogue()
    steps, used = dict(tokens), dict(exchanged)
    rates = []
    for row, spec in cat.rows.items():
        position = min(4, steps.get(row, 0) + bazaars)
        give, get = spec.rates[position]
        rates.append(
            _built(
                RateView,
                {
                    "row": row,
                    "resource": spec.resource,
                    "direction": "sell" if row.startswith("sell-") else "buy",
                    "give": give,
                    "get": get,
                    "position": position,
                    "used": used.get(row, 0),
                    "limit": limit,
                },
            )
        )
    return tuple(rates)


_TILE_NAMES = tuple(f.name for f in fields(Tile))
_TILE_FIELDS = itemgetter(*_TILE_NAMES)
"""A tile's field values in the record's order: the key of its cached view."""


def _tile_view(tile: Tile) -> TileView:
    return _tile_view_of(_TILE_FIELDS(tile.__dict__))


@lru_cache(maxsize=8192)
def _tile_view_of(values: tuple) -> TileView:
    """A tile's view from its field values: a position changes a few tiles, so the other views are
    reused (views share these objects and never change them)."""
    tile = Tile(**dict(zip(_TILE_NAMES, values, strict=True)))
    stages_needed = _work_tables(catalogue())[0]
    return _built(
        TileView,
        {
            "id": tile.id,
            "q": tile.q,
            "r": tile.r,
            "terrain": tile.terrain,
            "resource": tile.resource,
            "owner": tile.owner,
            "house": tile.house,
            "building": tile.building,
            "mode": tile.mode,
            "work": tile.work,
            "stages": tile.stages,
            "stages_needed": stages_needed[tile.work] if tile.work else 0,
            "garrison": tile.garrison,
            "spent": tile.spent,
            "pillaged": tile.pillaged,
            "label": _label(tile),
        },
    )


@cache
def _work_tables(cat: Catalogue) -> tuple[dict[str, int], dict[str, str]]:
    """Each public work's stages and name (static data)."""
    return {key: spec.stages for key, spec in cat.works.items()}, {
        key: spec.name for key, spec in cat.works.items()
    }


def _proposal_view(state: State, seat: Seat | None) -> ProposalView | None:
    """An open offer, its terms and their sentence for the two parties only (rules/trade.py)."""
    proposal = state.proposal
    return trade.view(
        ProposalView,
        proposal,
        seat,
        lambda proposal: (
            f"{state.players[proposal.proposer].name} gives {goods_text(proposal.give)}; "
            f"{state.players[proposal.partner].name} gives {goods_text(proposal.get)}."
        ),
    )


def _raid_view(state: State) -> RaidView | None:
    if not state.raid:
        return None
    return RaidView(
        attacker=state.raid.attacker,
        defender=state.raid.defender,
        tile=state.raid.tile,
        loot=state.raid.loot,
        casualties=state.raid.casualties,
    )


def _scoreboard(state: State, result: Result | None) -> list[ScoreLine] | None:
    if result is None:
        return None
    return [
        ScoreLine(place=place + 1, seat=index, name=state.players[index].name, **score(state, index))
        for place, group in enumerate(result.ranking)
        for index in group
    ]


def headline(state: State, result: Result | None) -> str:
    if result is not None:
        return f"Game over - {words.clause(result.reason)}"
    current = state.players[state.current].name
    text = f"Turn {state.turn}/{state.turns} - {state.phase.title()} - {current} to act"
    if state.proposal is not None:
        text += f" - waiting for {state.players[state.proposal.partner].name} to answer a trade"
    if state.raid is not None:
        text += " - resolving a pillage"
    return f"{text} - prestige {state.prestige} vs rival {state.rival_prestige}"


def view(state: State, seat: Seat | None, game: str, to_act: set[Seat]) -> CityHeroesView:
    """What `seat` (None: the table) sees; `game` is the game's id, `to_act` the seats to act."""
    work_names = _work_tables(catalogue())[1]
    table = counts(state)
    seats = [_seat_view(state, index, table) for index in range(len(state.players))]
    tiles = [_tile_view(tile) for tile in state.tiles]
    proposal = _proposal_view(state, seat)
    raid = _raid_view(state)
    result = game_result(state)
    return _built(
        CityHeroesView,
        {
            "game": game,
            "seat": seat,
            "players": [player.name for player in state.players],
            "to_act": sorted(to_act),
            "headline": headline(state, result),
            "finished": result is not None,
            "topic": rules_topic(state),
            "turn": state.turn,
            "turns": state.turns,
            "phase": state.phase,
            "current": state.current if state.phase != "over" else None,
            "acted": state.acted,
            "radius": state.radius,
            "tiles": tiles,
            "seats": seats,
            "prestige": state.prestige,
            "rival_prestige": state.rival_prestige,
            "rival_growth": rival_growth(state) if state.phase != "over" else 0,
            "bank": dict(state.bank),
            "bank_ducats": state.bank_ducats,
            "works": dict(work_names),
            "proposal": proposal,
            "raid": raid,
            "city_wins": (state.prestige >= state.rival_prestige) if result is not None else None,
            "scoreboard": _scoreboard(state, result),
        },
    )
