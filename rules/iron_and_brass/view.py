"""What each seat sees of Iron & Brass: the View models and the state -> view step (everything is
public but the viewer's own half-made choice)."""

from __future__ import annotations

import functools
from typing import Any, TypeVar

from pydantic import Field, model_validator

from rules import words
from rules.core import Model, Seat, View, assembled
from rules.iron_and_brass.board import Obstacles, reach_names
from rules.iron_and_brass.moves.common import (
    State,
    attack_of,
    can_attack,
    can_move,
    cards,
    defence_of,
    piece_by_id,
    spec,
    square_of,
)
from rules.iron_and_brass.state import CombatRecord, Piece, from_per_kind, square_name

SIDES = ("Iron", "Brass")
ModelT = TypeVar("ModelT", bound=Model)


class PieceView(Model):
    square: str
    kind: str
    name: str
    code: str
    category: str
    owner: Seat
    disabled: bool
    attack: int
    """Attack modifier now (2 less while disabled)."""
    range: int
    move: int
    defence: int
    """Defence modifier now (2 less while disabled)."""
    can_move: bool
    can_attack: bool
    """May still move / attack this turn (only ever true for the player whose turn it is)."""
    reach: list[str] = Field(default_factory=list)
    """Squares this unit could move to from here by the movement rules (no token), ignoring whether it
    has moved this turn; empty for structures."""


class BuildView(Model):
    square: str
    kind: str
    name: str
    code: str
    owner: Seat


class SeatView(Model):
    seat: Seat
    name: str
    side: str
    """'Iron' (blue) or 'Brass' (crimson)."""
    gold: int
    crew: int
    advantage_tokens: int
    """Advantage tokens left, each playable for any advantage."""
    played: dict[str, int]
    """Advantage tokens played so far, by advantage (`PlayerState.played`)."""
    units: int
    structures: int
    mined: int
    spent: int

    @model_validator(mode="before")
    @classmethod
    def _stored_per_kind(cls, data: Any) -> Any:
        """A view stored before issue 41 (a post still waiting in the outbox) held `tokens`, left of each
        kind: it is drawn with their sum, as its snapshot now loads (`from_per_kind`)."""
        return from_per_kind(data)


class ItemView(Model):
    """One line of the designed stat table (the text's token)."""

    id: str
    name: str
    code: str
    category: str
    token: str
    count: int


class CombatView(Model):
    attacker: Seat
    units: list[str]
    target: str
    attacker_surge: bool
    spotter: bool


class IronAndBrassView(View):
    size: int
    round: int
    max_rounds: int
    current: Seat | None
    first: Seat
    actions_left: int
    gold_left: int
    opening: str
    pieces: list[PieceView]
    builds: list[BuildView]
    seats: list[SeatView]
    items: list[ItemView]
    combat: CombatView | None = None
    last_combat: CombatRecord | None = None
    picking: str | None = None
    """The viewer's own half-made choice (never in the public view)."""
    winner: Seat | None = None
    reason: str = ""

    def piece_at(self, square: str) -> PieceView | None:
        return next((piece for piece in self.pieces if piece.square == square), None)


def _made(model: type[ModelT], **values: Any) -> ModelT:
    """`model(**values)` without validation, for values built here of exactly the declared types and
    given in field order: a view is built for every seat after every move the search tries, and
    validating each piece's view was most of that. The result is what validation returns (the same
    fields, all of them set)."""
    return assembled(model, values)


def _piece_view(state: State, piece: Piece, obstacles: Obstacles, playing: Seat | None) -> PieceView:
    piece_spec = spec(piece)
    moves = reach_names(obstacles, cards(), piece, piece_spec.move) if piece_spec.military else []
    return _made(
        PieceView,
        square=square_name(piece.col, piece.row),
        kind=piece.kind,
        name=piece_spec.name,
        code=piece_spec.code,
        category=piece_spec.category,
        owner=piece.owner,
        disabled=piece.disabled,
        attack=attack_of(piece),
        range=piece_spec.range,
        move=piece_spec.move,
        defence=defence_of(piece),
        can_move=piece.owner == playing and can_move(piece),
        can_attack=piece.owner == playing and can_attack(piece),
        reach=moves,
    )


def _combat_view(state: State) -> CombatView | None:
    if state.combat is None:
        return None
    return CombatView(
        attacker=state.combat.attacker,
        units=[square_name(p.col, p.row) for p in (piece_by_id(state, pid) for pid in state.combat.units)],
        target=square_of(state, state.combat.target),
        attacker_surge=state.combat.attacker_surge,
        spotter=state.combat.spotter,
    )


def _seat_views(state: State) -> list[SeatView]:
    return [
        _made(
            SeatView,
            seat=index,
            name=player.name,
            side=SIDES[index],
            gold=player.gold,
            crew=player.crew,
            advantage_tokens=player.advantage_tokens,
            played=dict(player.played),
            units=sum(1 for p in state.pieces if p.owner == index and spec(p).military),
            structures=sum(1 for p in state.pieces if p.owner == index and not spec(p).military),
            mined=player.mined,
            spent=player.spent,
        )
        for index, player in enumerate(state.players)
    ]


@functools.cache
def _item_fields() -> tuple[dict[str, Any], ...]:
    """The designed stat table's lines, read once from the catalogue."""
    return tuple(
        {
            "id": item.id,
            "name": item.name,
            "code": item.code,
            "category": item.category,
            "token": item.token,
            "count": item.count,
        }
        for item in (cards()[name] for name in cards().order)
    )


def _item_views() -> list[ItemView]:
    return [_made(ItemView, **fields) for fields in _item_fields()]


def view(
    state: State, seat: Seat | None, *, game: str, to_act: list[Seat], finished: bool
) -> IronAndBrassView:
    """The view of `seat` (None: the public view); the engine passes what the contract computes."""
    obstacles = Obstacles(state, cards())
    playing = state.current if state.step == "play" else None
    return IronAndBrassView(
        game=game,
        seat=seat,
        players=[player.name for player in state.players],
        to_act=to_act,
        headline=headline(state),
        finished=finished,
        topic=rules_topic(state),
        size=state.size,
        round=state.round,
        max_rounds=state.max_rounds,
        current=state.current if state.step != "over" else None,
        first=state.first,
        actions_left=state.actions_left,
        gold_left=state.gold_left,
        opening=state.opening,
        pieces=[
            _piece_view(state, piece, obstacles, playing)
            for piece in sorted(state.pieces, key=lambda p: (p.row, p.col))
        ],
        builds=[
            _made(
                BuildView,
                square=square_name(build.col, build.row),
                kind=build.kind,
                name=spec(build).name,
                code=spec(build).code,
                owner=build.owner,
            )
            for build in state.builds
        ],
        seats=_seat_views(state),
        items=_item_views(),
        combat=_combat_view(state),
        last_combat=state.last_combat,
        picking=state.picking
        if seat is not None and seat == state.current and state.step == "play"
        else None,
        winner=state.winner,
        reason=state.reason,
    )


def headline(state: State) -> str:
    if state.step == "over":
        return f"Game over - {state.reason}"
    name = state.players[state.current].name
    if state.step == "defend":
        defender = state.players[1 - state.current].name
        return f"Round {state.round} - {defender} decides on Surge against {name}'s attack"
    return f"Round {state.round} - {name}: {words.count(state.actions_left, 'action')} left"


def rules_topic(state: State) -> str:
    """The `/rules` topic (data/iron_and_brass/rules.md) of the current step, for the turn message."""
    if state.step == "over":
        return "winning"
    if state.step == "defend":
        return "attacking"
    if state.picking is not None and state.picking.startswith("build:"):
        return "building"
    if state.picking is not None and state.picking.startswith("aim:"):
        return "concentrated-fire"
    return "actions"
