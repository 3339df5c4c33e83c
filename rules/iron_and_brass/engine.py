"""Iron & Brass: the rules of `../shared/rules/iron-and-brass.txt` on the platform's contract.

Two players take turns of up to 4 actions (mine, hire, build, move, attack, concentrated fire,
repair, heal). The only decision outside the current player's turn is the defender's Surge, asked
between an attack's declaration and its dice. Builds complete at the start of their owner's next
turn, inside `apply` right after the move that ends the previous turn. Rule decisions and the
designed stat table are listed in `data/iron_and_brass/README.md`.

This module holds the turn flow and the dispatch only: each family of moves (its legality, its
choices, its effect) is a module of `moves/`; the end of the game is `scoring`, the views `view`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, ClassVar

from rules import words
from rules.core import CatalogueEntry, Choice, Event, Game, GameInfo, OptionSpec, Result, Rng, RuleError, Seat
from rules.iron_and_brass import choices, scoring
from rules.iron_and_brass import view as views
from rules.iron_and_brass.board import base_row
from rules.iron_and_brass.catalogue import entries as catalogue_entries
from rules.iron_and_brass.data import Catalogue, PieceSpec, rules_catalogue
from rules.iron_and_brass.moves import build, combat, economy, movement, repair
from rules.iron_and_brass.moves.common import d3, place, spec
from rules.iron_and_brass.state import (
    OLD_MIX,
    Action,
    Aim,
    Attack,
    Back,
    BuildAction,
    Concentrate,
    Defend,
    EndTurn,
    Heal,
    Hire,
    IronAndBrassState,
    Mine,
    Move,
    Pick,
    PlayerState,
    Repair,
    per_kind_form,
    square_name,
)
from rules.iron_and_brass.view import IronAndBrassView

State = IronAndBrassState
Apply = Callable[[State, Seat, Any, list[Event]], None]

SPENDING: dict[type, Apply] = {
    Mine: economy.mine,
    Hire: economy.hire,
    BuildAction: build.build,
    Move: movement.move,
    Attack: combat.attack,
    Concentrate: combat.concentrate,
    Repair: repair.repair,
    Heal: repair.heal,
}
"""The actions that spend the turn's actions, by type: each ends any half-made choice and may end
the turn."""

PLAY_CHOICES: tuple[Callable[[State, Seat], list[Choice]], ...] = (
    economy.choices,
    build.pick_choices,
    movement.choices,
    combat.attack_choices,
    combat.aim_choices,
    repair.choices,
)
"""The families' choices, in the menu's order ('End turn' follows)."""

PICKING_CHOICES: dict[str, Callable[[State, Seat, str], list[Choice]]] = {
    "build": build.square_choices,
    "aim": combat.pair_choices,
}
"""The second step of a two-step choice, by the first step's kind ('build:<item>', 'aim:<square>')."""


class IronAndBrass(Game[IronAndBrassState]):
    info: ClassVar[GameInfo] = GameInfo(
        id="iron-and-brass",
        name="Iron & Brass",
        min_players=2,
        max_players=2,
        summary=(
            "Two rival towns of the colony of Dugbirch mine a shared vein of gold, hire crews, raise "
            "structures and armies on a square grid, and fight with dice until a Headquarters falls."
        ),
        hidden_information=False,
        randomness=True,
        simultaneous=False,
        options=(
            OptionSpec(
                name="board_size",
                label="Board size",
                kind="int",
                default=12,
                min=10,
                max=16,
                description="The square grid is 10x10 to 16x16.",
            ),
            OptionSpec(
                name="max_rounds",
                label="Turn limit (rounds)",
                kind="int",
                default=100,
                min=1,
                max=500,
                description=(
                    "A safety net: after this many rounds the player with more gold worth of pieces on "
                    "the map wins (a tie is a draw)."
                ),
            ),
        ),
    )
    state_model = IronAndBrassState
    view_model = IronAndBrassView
    action_type = Action

    @property
    def cards(self) -> Catalogue:
        """The pieces as the rules read them: read-only records (`rules_catalogue`)."""
        return rules_catalogue()

    def catalogue(self) -> list[CatalogueEntry]:
        """Every unit, structure and advantage token, for `/card`."""
        return list(catalogue_entries())

    # ---- setup and turns -------------------------------------------------------------------
    def _setup(self, players: list[str], options: dict[str, Any], rng: Rng) -> State:
        setup = self.cards.setup
        size = options["board_size"]
        # SET-UP: 'Each player roll 2 dice, highest result is Player 1.' Ties roll again.
        lines: list[str] = []
        while True:
            rolls = [(d3(rng), d3(rng)) for _ in players]
            sums = [sum(pair) for pair in rolls]
            lines.append(
                ", ".join(f"{name} {a}+{b} = {a + b}" for name, (a, b) in zip(players, rolls, strict=True))
            )
            if sums[0] != sums[1]:
                break
        first = 0 if sums[0] > sums[1] else 1
        opening = (
            f"Opening roll: {'; tie, again: '.join(lines)}. {players[first]} is Player 1 and plays first."
        )
        state = State(
            size=size,
            max_rounds=options["max_rounds"],
            players=[
                PlayerState(
                    name=name,
                    gold=setup.gold,
                    crew=setup.crew,
                    advantage_tokens=setup.advantage_tokens,
                )
                for name in players
            ],
            rng=rng,
            first=first,
            opening=opening,
            gold_left=setup.gold_mined,
            current=first,
            actions_left=setup.actions,
        )
        # 'Place your Headquarters and Barracks structures along your edge of the game board':
        # side by side in the middle of the base row, the two camps point-symmetric.
        middle = size // 2
        for seat in (0, 1):
            row = base_row(state, seat)
            hq, barracks = (middle - 1, middle) if seat == 0 else (middle, middle - 1)
            place(state, "headquarters", seat, (hq, row))
            place(state, "barracks", seat, (barracks, row))
        return state

    def opening_events(self, state: State) -> list[Event]:
        """SET-UP's roll for Player 1 happens inside `setup`: the first post tells it."""
        return [Event(text=state.opening, reveals=True)]

    def _start_turn(self, state: State, seat: Seat, events: list[Event]) -> None:
        state.current = seat
        state.actions_left = self.cards.setup.actions
        state.concentrated = False
        state.picking = None
        for piece in state.pieces:
            if piece.owner == seat:
                piece.moved = piece.attacked = False
        ready = [build for build in state.builds if build.owner == seat]
        state.builds = [build for build in state.builds if build.owner != seat]
        for order in ready:
            item = spec(order)
            if item.upgrades is not None:
                old = next((p for p in state.pieces if p.owner == seat and p.kind == item.upgrades), None)
                if old is not None:
                    state.pieces.remove(old)
            place(state, order.kind, seat, (order.col, order.row))
            events.append(
                Event(
                    text=f"{state.players[seat].name}'s {item.name} is ready at "
                    f"{square_name(order.col, order.row)}."
                )
            )

    def _end_turn(self, state: State, events: list[Event]) -> None:
        following = 1 - state.current
        if following == state.first:
            if state.round >= state.max_rounds:
                scoring.finish_at_limit(state, events)
                return
            state.round += 1
        self._start_turn(state, following, events)

    def _after_action(self, state: State, events: list[Event]) -> None:
        """A turn with no action left ends by itself (no decision remains but 'end turn')."""
        if state.step == "play" and state.actions_left <= 0:
            self._end_turn(state, events)

    def turn_key(self, state: State) -> tuple[int, int]:
        """'Each round, each player can take up to 4 actions in their turn': undo rewinds to its start
        (dice rolled on the way still forbid it)."""
        return (state.round, state.current)

    def _to_act(self, state: State) -> set[Seat]:
        if state.step == "play":
            return {state.current}
        if state.step == "defend":
            return {1 - state.current}
        return set()

    # ---- queries other code asks of the game ----------------------------------------------------
    def spec(self, piece: Any) -> PieceSpec:
        return spec(piece)

    def build_problem(
        self,
        state: State,
        seat: Seat,
        item: str,
        owned: set[str] | None = None,
        room: dict[str, bool] | None = None,
    ) -> str | None:
        """Why `seat` cannot build `item` now (on any square), or None."""
        return build.build_problem(state, seat, item, owned, room)

    def _worth(self, state: State, seat: Seat) -> int:
        return scoring.worth(state, seat)

    # ---- the choice list ----------------------------------------------------------------------
    def _legal_actions(self, state: State, seat: Seat) -> list[Choice]:
        if state.step == "defend":
            return combat.defend_choices(state)
        if state.step != "play":
            return []
        if state.picking is not None:
            what, _, value = state.picking.partition(":")
            return [*PICKING_CHOICES[what](state, seat, value), choices.back()]
        return [
            *(choice for family in PLAY_CHOICES for choice in family(state, seat)),
            choices.end_turn(state),
        ]

    # ---- apply ------------------------------------------------------------------------------------
    def _apply(self, state: State, seat: Seat, action: Any) -> list[Event]:
        events: list[Event] = []
        if state.step == "defend":
            if not isinstance(action, Defend):
                raise RuleError(
                    "Decide first whether to play an advantage token for Surge against the attack."
                )
            combat.defend(state, seat, action, events)
            self._after_action(state, events)
            return events
        match action:
            case Defend():
                raise RuleError("There is no attack to answer.")
            case Pick():
                build.pick(state, seat, action, events)
            case Aim():
                combat.aim(state, seat, action, events)
            case Back():
                if state.picking is None:
                    raise RuleError("There is nothing to go back from.")
                state.picking = None
            case EndTurn():
                self._end_turn_now(state, seat, events)
            case _:
                self._spend(state, seat, action, events)
        return events

    def _end_turn_now(self, state: State, seat: Seat, events: list[Event]) -> None:
        state.picking = None
        left = state.actions_left
        events.append(
            Event(
                text=f"{state.players[seat].name} ended the turn"
                + (f" ({words.count(left, 'action')} unused)." if left else ".")
            )
        )
        self._end_turn(state, events)

    def _spend(self, state: State, seat: Seat, action: Any, events: list[Event]) -> None:
        """An action that uses up the turn's actions: its family applies it, then the turn may end."""
        apply = SPENDING.get(type(action))
        if apply is None:
            raise RuleError("That is not something you can do now.")
        apply(state, seat, action, events)
        state.picking = None
        self._after_action(state, events)

    # ---- logs and files written before issue 41 ---------------------------------------------------
    def implied(self, state: State, seat: Seat | None, action: Any) -> list[tuple[Seat, Any]]:
        """Before issue 41 the defender was asked about Surge only while holding one of the 2 Surge tokens
        of the designed mix; now any advantage token may be played for Surge, so the question comes more
        often. While these rules wait for an answer the old rule never asked (the defender has played
        Surge twice), a logged move that is not the answer was written then: the old rule rolled the dice
        at once, without Surge. Today the question admits no other move, so a live move never implies
        one. The same holds where such a log ends (`seat` None)."""
        if state.step != "defend" or state.players[1 - state.current].played["surge"] < OLD_MIX:
            return []
        kind = action.get("kind") if isinstance(action, dict) else getattr(action, "kind", None)
        if seat is not None and kind == "defend":
            return []
        return [(1 - state.current, {"kind": "defend", "surge": False})]

    def earlier_dumps(self, state: State) -> list[str]:
        """The position as the rules wrote it before issue 41 (`per_kind_form`), for files saved then."""
        form = per_kind_form(json.loads(self.dump_state(state)))
        return [] if form is None else [json.dumps(form, ensure_ascii=False, separators=(",", ":"))]

    # ---- views and result ------------------------------------------------------------------------
    def _view(self, state: State, seat: Seat | None) -> IronAndBrassView:
        return views.view(
            state,
            seat,
            game=self.info.id,
            to_act=sorted(self.to_act(state)),
            finished=self._result(state) is not None,
        )

    def _result(self, state: State) -> Result | None:
        return scoring.result(state)
