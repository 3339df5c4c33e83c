"""Positions of Iron & Brass for the tests, and the checks every test repeats."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core import Rng, RuleError
from rules.iron_and_brass import GAME
from rules.iron_and_brass.state import IronAndBrassState, Piece, parse_square

NAMES = ("Alice", "Bob")


def new_game(seed: int = 1, **options: Any) -> IronAndBrassState:
    return GAME.setup(list(NAMES), options, seed)


def position(
    pieces: list[tuple[str, int, str]],
    *,
    current: int = 0,
    size: int = 10,
    gold: int = 20,
    crew: int = 3,
    disabled: tuple[str, ...] = (),
    keep_setup: bool = False,
) -> IronAndBrassState:
    """A game at `current`'s turn with 4 actions, holding only `pieces` (kind, owner, square) plus, unless
    listed, each side's Headquarters in a far corner (A1 for seat 0, the top-right corner for seat 1)."""
    state = new_game(board_size=size)
    if not keep_setup:
        state.pieces = []
    state.next_id = 100
    kinds = {(kind, owner) for kind, owner, _ in pieces}
    corners = {0: "A1", 1: f"{'ABCDEFGHIJKLMNOP'[size - 1]}{size}"}
    if not keep_setup:
        for seat in (0, 1):
            if ("headquarters", seat) not in kinds and ("fortress", seat) not in kinds:
                pieces = [*pieces, ("headquarters", seat, corners[seat])]
    for kind, owner, square in pieces:
        where = parse_square(square, size)
        assert where is not None
        state.pieces.append(
            Piece(
                id=state.next_id,
                kind=kind,
                owner=owner,
                col=where[0],
                row=where[1],
                disabled=square in disabled,
            )
        )
        state.next_id += 1
    state.current = current
    state.first = 0
    state.actions_left = 4
    for player in state.players:
        player.gold, player.crew = gold, crew
    return state


def dice_rng(*rolls: int) -> Rng:
    """An Rng whose first D3 rolls are `rolls`, found by trying seeds."""
    for seed in range(200_000):
        probe = Rng(seed=seed)
        if all(probe.randint(1, 3) == want for want in rolls):
            return Rng(seed=seed)
    raise AssertionError(f"no seed rolls {rolls}")


def dump(state: IronAndBrassState) -> str:
    return GAME.dump_state(state)


def play(state: IronAndBrassState, seat: int, action: dict[str, Any]) -> tuple[IronAndBrassState, list]:
    applied = GAME.apply(state, seat, action)
    return applied.state, applied.events


def rejected(state: IronAndBrassState, seat: int, action: dict[str, Any], match: str) -> RuleError:
    """The move raises RuleError with a sentence matching `match`; neither the public `apply` nor the
    `_apply` hook (given its own copy) changes anything before refusing."""
    before = dump(state)
    with pytest.raises(RuleError, match=match) as raised:
        GAME.apply(state, seat, action)
    assert dump(state) == before
    working = GAME.copy_state(state)
    if seat in GAME.to_act(working):
        with pytest.raises(RuleError, match=match):
            GAME._apply(working, seat, GAME.parse_action(action))
        assert dump(working) == before
    return raised.value


def keys(state: IronAndBrassState, seat: int) -> list[str]:
    return [choice.key for choice in GAME.legal_actions(state, seat)]


def at(state: IronAndBrassState, square: str) -> Piece | None:
    where = parse_square(square, state.size)
    return next((p for p in state.pieces if (p.col, p.row) == where), None)


def moves_of(state: IronAndBrassState, square: str) -> set[str]:
    """Destinations the choice list offers the unit on `square` (without Open Road)."""
    return {
        choice.action["to"]
        for choice in GAME.legal_actions(state, state.current)
        if choice.action["kind"] == "move"
        and choice.action["unit"] == square
        and not choice.action["open_road"]
    }


def texts(events: list) -> str:
    return "\n".join(event.text for event in events)
