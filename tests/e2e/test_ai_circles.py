"""A computer seat never goes round in a circle (issue 21): a position it meets again in one run of
`drive_ai` bars the moves it already made from there, whatever the game and whatever the search."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import pytest
from pydantic import Field

from bot.interface.table import base as table_base
from rules import registry
from rules.core import Choice, Event, GameInfo, Model, RuleError
from tests.e2e.harness import is_over, open_game, take_turn, world
from tests.support import highcard


class Toggle(Model):
    kind: Literal["toggle"] = "toggle"


class CircleState(highcard.HighCardState):
    lamp: bool = False


class Circle(highcard.HighCard):
    """High Card with a lamp the drawing player may switch on or off as often as they like: two
    switches bring the game back to where it was, a circle a careless computer player could run forever."""

    info: ClassVar[GameInfo] = highcard.HighCard.info.model_copy(
        update={"id": "test-circle", "name": "Circle (test game)"}
    )
    state_model = CircleState
    action_type = Annotated[
        highcard.Pledge | highcard.Draw | highcard.Pass | Toggle, Field(discriminator="kind")
    ]

    def _setup(self, players: list[str], options: dict[str, Any], rng: Any) -> CircleState:
        return CircleState(**super()._setup(players, options, rng).model_dump())

    def _legal_actions(self, state: Any, seat: int) -> list[Choice]:
        choices = super()._legal_actions(state, seat)
        if state.phase == "draw":
            choices.append(
                Choice(key="toggle", label="Switch the lamp", action={"kind": "toggle"}, group="Draw")
            )
        return choices

    def _apply(self, state: Any, seat: int, action: Any) -> list[Event]:
        if isinstance(action, Toggle):
            if state.phase != "draw":
                raise RuleError("The lamp is switched while drawing.")
            state.lamp = not state.lamp
            return [Event(text=f"{state.players[seat]} switched the lamp {'on' if state.lamp else 'off'}.")]
        return super()._apply(state, seat, action)


def _careless(game, state, seat, seed, strength, avoid=frozenset()) -> str:
    """A computer player that always switches the lamp when it may and is not barred from it."""
    keys = [choice.key for choice in game.legal_actions(state, seat) if choice.key not in avoid]
    return "toggle" if "toggle" in keys else keys[0]


@pytest.fixture
def circle_game():
    game = registry.register(Circle())
    yield game
    registry.unregister(game.info.id)


async def test_a_computer_seat_back_at_a_position_plays_another_move(tmp_path, circle_game, monkeypatch):
    monkeypatch.setattr(table_base, "decide", _careless)
    async with world(tmp_path) as w:
        alice = w.users["alice"]
        await open_game(w, "table", alice, [], game="test-circle", seed=1, ai=1, options="rounds=1")
        await take_turn(w, "table", alice, lambda c: c[0])  # pledge; the computer pledges too
        await w.settle()
        await take_turn(w, "table", alice, lambda c: next(x for x in c if x[0] == "Pass"))
        await w.settle()
        game = await w.bot.service.store.latest_game_in(w.channels["table"])
        log = await w.bot.service.store.actions(game.id)
        computer = [record.action["kind"] for record in log if record.seat == 1]
        assert computer == ["pledge", "toggle", "toggle", "draw"]
        assert is_over(w)
        assert not w.server.errors, w.server.errors
