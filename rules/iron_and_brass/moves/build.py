"""Building: picking what to commission or train (a two-step choice), where it may go, and placing
the order; the piece is ready at its owner's next turn (the engine's turn flow places it)."""

from __future__ import annotations

from rules import words
from rules.core import Choice, Event, RuleError, Seat, built_choice, first_declared
from rules.iron_and_brass.board import Square, structure_squares, unit_squares
from rules.iron_and_brass.choices import cost
from rules.iron_and_brass.data import FACTORY, PieceSpec
from rules.iron_and_brass.moves.common import State, cards
from rules.iron_and_brass.state import Build, BuildAction, Pick, PlayerState, parse_square, square_name


def _cost_problem(spec: PieceSpec, player: PlayerState) -> str | None:
    if not spec.buildable:
        return f"The {spec.name} is placed at setup and cannot be built."
    if player.gold < spec.gold:
        return f"The {spec.name} costs {spec.gold} gold; you have {player.gold}."
    if player.crew < spec.crew:
        return f"The {spec.name} needs {spec.crew} crew; you have none."
    return None


def _unit_problem(spec: PieceSpec, player: PlayerState, owned: set[str]) -> str | None:
    if player.trained.get(spec.id, 0) >= spec.count:
        return (
            f"All {spec.count} of your {spec.name} tokens have been used (destroyed units are gone for good)."
        )
    factory = FACTORY[spec.category]
    if factory not in owned:
        return f"A new {spec.name} is placed next to your {cards()[factory].name}: build it first."
    return None


def _structure_problem(state: State, seat: Seat, spec: PieceSpec, owned: set[str]) -> str | None:
    existing = sum(1 for p in state.pieces if p.owner == seat and p.kind == spec.id) + sum(
        1 for b in state.builds if b.owner == seat and b.kind == spec.id
    )
    if existing >= spec.count:
        return f"You already have {words.count(spec.count, spec.name)} built or under way."
    if spec.upgrades is not None and spec.upgrades not in owned:
        return f"The {spec.name} is built on your {cards()[spec.upgrades].name}."
    return None


def _room_problem(state: State, seat: Seat, spec: PieceSpec, room: dict[str, bool] | None) -> str | None:
    """No free square for the piece; `room` caches the answer by category (or upgrade) across items."""
    where = spec.category if spec.upgrades is None else spec.id
    if room is None or where not in room:
        free = bool(build_squares(state, seat, spec.id))
        if room is not None:
            room[where] = free
    else:
        free = room[where]
    if free:
        return None
    if spec.military:
        return f"There is no free square for a new {spec.name}."
    return f"There is no free square to build {words.a(spec.name)} on."


def build_problem(
    state: State,
    seat: Seat,
    item: str,
    owned: set[str] | None = None,
    room: dict[str, bool] | None = None,
) -> str | None:
    """Why `seat` cannot build `item` now (on any square), or None."""
    if item not in cards():
        return f"There is no piece called {item!r}."
    spec = cards()[item]
    player = state.players[seat]
    problem = _cost_problem(spec, player)
    if problem:
        return problem
    if owned is None:
        owned = {piece.kind for piece in state.pieces if piece.owner == seat}
    for needed in spec.requires:
        if needed not in owned:
            return f"The {spec.name} needs your {cards()[needed].name} first."
    if spec.military:
        problem = _unit_problem(spec, player, owned)
    else:
        problem = _structure_problem(state, seat, spec, owned)
    return problem or _room_problem(state, seat, spec, room)


def build_squares(state: State, seat: Seat, item: str) -> list[Square]:
    spec = cards()[item]
    if spec.upgrades is not None:
        return [
            (p.col, p.row)
            for p in state.pieces
            if p.owner == seat
            and p.kind == spec.upgrades
            and not any(b.owner == seat and b.kind == item for b in state.builds)
        ]
    if spec.category == "structure":
        return structure_squares(state, cards(), seat)
    return unit_squares(state, cards(), seat, spec.category)


def pick_choices(state: State, seat: Seat) -> list[Choice]:
    """'Train …' / 'Commission …' for every piece the seat can build now: the first step."""
    out: list[Choice] = []
    owned = {piece.kind for piece in state.pieces if piece.owner == seat}
    room: dict[str, bool] = {}
    for item in cards().order:
        if build_problem(state, seat, item, owned, room) is None:
            spec = cards()[item]
            verb = "Train" if spec.crew == 0 else "Commission"
            out.append(
                built_choice(
                    key=f"pick:{item}",
                    label=f"{verb} {spec.name} ({cost(spec)})…",
                    action={"kind": "pick", "item": item},
                    group="Build",
                )
            )
    return out


def square_choices(state: State, seat: Seat, item: str) -> list[Choice]:
    """The second step: the squares the picked piece may go on."""
    spec = cards()[item]
    out: list[Choice] = []
    for square in build_squares(state, seat, item):
        there = square_name(*square)
        out.append(
            built_choice(
                key=f"build:{item}:{there}",
                label=f"{spec.name} at {there}",
                action={"kind": "build", "item": item, "square": there},
                group=f"Where to place the {spec.name}",
                style="success",
            )
        )
    return first_declared(out, "safe")  # no pass here ('Back' steps back): the clock takes the first square


def pick(state: State, seat: Seat, action: Pick, events: list[Event]) -> None:
    if state.picking is not None:
        raise RuleError("Choose where to place the piece you picked first, or go Back.")
    problem = build_problem(state, seat, action.item)
    if problem:
        raise RuleError(problem)
    state.picking = f"build:{action.item}"


def build(state: State, seat: Seat, action: BuildAction, events: list[Event]) -> None:
    problem = build_problem(state, seat, action.item)
    if problem:
        raise RuleError(problem)
    spec = cards()[action.item]
    where = parse_square(action.square, state.size)
    if where is None or where not in build_squares(state, seat, action.item):
        raise RuleError(_placement_rule(spec, action.square))
    player = state.players[seat]
    player.gold -= spec.gold
    player.crew -= spec.crew
    player.spent += spec.gold
    if spec.military:
        player.trained[spec.id] = player.trained.get(spec.id, 0) + 1
    state.builds.append(Build(kind=spec.id, owner=seat, col=where[0], row=where[1]))
    state.actions_left -= 1
    verb = "trained" if spec.crew == 0 else "commissioned"
    events.append(
        Event(
            text=f"{player.name} {verb} {words.a(spec.name)} at {square_name(*where)} for {cost(spec)}; "
            "it is ready at the start of their next turn."
        )
    )


def _placement_rule(spec: PieceSpec, square: str) -> str:
    if spec.upgrades is not None:
        return f"The {spec.name} is built on your {cards()[spec.upgrades].name}'s square."
    if spec.category == "structure":
        return (
            f"A {spec.name} cannot go on {square.upper()}: structures go on a free square of your base "
            "row or orthogonally next to one of your structures."
        )
    factory = cards()[FACTORY[spec.category]]
    return (
        f"A new {spec.name} cannot go on {square.upper()}: it is placed on a free square as close as "
        f"possible to your {factory.name}."
    )
