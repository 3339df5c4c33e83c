"""City Heroes: the quick-start guide of `../shared/rules/city-heroes.txt` on the platform's contract.

A turn is Expansion, Construction, Interaction, then an automatic Cleanup. In each active phase the
players act one at a time, clockwise from the first to pass in the previous phase, until all have
passed. A phase action may take several steps (build several buildings, plant several times, move
weapons around): the player stays on turn with `acted` set until they end the action. Round actions
(bank, rival city, influence) are offered beside the phase actions, before or during one, never
instead of one: not at all while no phase action can be taken this turn (`moves/turn.py`; games
created before that rule keep the earlier one, the `round_actions` option), and after a round action
a player may not pass while a phase action is still possible.
A trade proposal adds the partner to the seats to act (accept or decline; the proposer may cancel).
Rule decisions and designed values: `data/city_heroes/README.md`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rules import words
from rules.city_heroes import board
from rules.city_heroes.catalogue import entries as catalogue_entries
from rules.city_heroes.choices import end_choices, pass_choice, with_safe_move
from rules.city_heroes.data import RESOURCES, Catalogue, catalogue
from rules.city_heroes.moves import build, buy, craft, garrison, market, pillage, plant, trade, works
from rules.city_heroes.moves.cleanup import cleanup
from rules.city_heroes.moves.common import cost as tile_cost
from rules.city_heroes.moves.common import counted, owned
from rules.city_heroes.moves.common import price as tile_price
from rules.city_heroes.moves.turn import round_refusal
from rules.city_heroes.scoring import result as game_result
from rules.city_heroes.state import (
    PHASES,
    Action,
    BankTrade,
    BuildAction,
    Casualty,
    CityHeroesState,
    Craft,
    EndAction,
    Found,
    Garrison,
    InfluenceTrade,
    Loot,
    Pass,
    Pillage,
    Plant,
    PlayerState,
    Produce,
    Propose,
    RivalTrade,
    Stage,
    Tile,
    Token,
    Upgrade,
)
from rules.city_heroes.state import Buy as BuyTile
from rules.city_heroes.view import PHASE_TOPICS, CityHeroesView, rules_topic
from rules.city_heroes.view import view as game_view
from rules.core import (
    CatalogueEntry,
    Choice,
    Event,
    Game,
    GameInfo,
    OptionSpec,
    Result,
    Rng,
    RuleError,
    Seat,
    TradeForm,
)

__all__ = ["PHASE_TOPICS", "CityHeroes", "rules_topic"]

State = CityHeroesState
WITH_PHASE_ACTION = "with_phase_action"
"""'These actions ... must be done alongside another action': refused when no phase action is left."""
ALONE_IF_STUCK = "alone_if_stuck"
"""The earlier rule, which games created before the option keep: a round action, then a pass, when no
phase action was possible."""
Apply = Callable[[State, Seat, Any, list[Event]], None]
Maker = Callable[[State, Seat], list[Choice]]

CONSTRUCTION_CHOICES: dict[str, Maker] = {
    "garrison": garrison.garrison_choices,
    "plant": plant.plant_choices,
    "build": build.build_choices,
    "upgrade": build.upgrade_choices,
    "works": works.works_choices,
    "craft": craft.craft_choices,
}
"""The Construction phase's families, by the action kind they continue, in the menu's order."""

PHASE_ACTIONS: dict[type, Apply] = {
    BuyTile: buy.apply_buy,
    Garrison: garrison.apply_garrison,
    Plant: plant.apply_plant,
    BuildAction: build.apply_build,
    Upgrade: build.apply_upgrade,
    Found: works.apply_found,
    Stage: works.apply_stage,
    Craft: craft.apply_craft,
    Pillage: pillage.apply_pillage,
    Propose: trade.apply_propose,
}
"""Each phase action's family (the family checks the phase itself)."""
OTHER_ACTIONS: dict[type, Apply] = {
    BankTrade: market.apply_round_action,
    RivalTrade: market.apply_round_action,
    InfluenceTrade: market.apply_round_action,
    Token: market.apply_token,
    Produce: craft.apply_produce,
    **PHASE_ACTIONS,
}
"""Every action but Pass and EndAction (the turn's own, below) and the answers inside a trade or a
pillage: its family's apply function."""


class CityHeroes(Game[CityHeroesState]):
    info: ClassVar[GameInfo] = GameInfo(
        id="city-heroes",
        name="City Heroes",
        min_players=1,
        max_players=5,
        summary=(
            "Build an Italian city together and compete for influence: buy tiles, plant, build and upgrade, "
            "raise public works, trade and pillage. If the city ends below its rival's prestige, all lose."
        ),
        hidden_information=True,
        randomness=True,
        simultaneous=False,
        options=(
            OptionSpec(
                name="map_seed",
                label="Map seed",
                kind="int",
                default=0,
                min=0,
                max=999_999_999,
                description=(
                    "A number for the map: the same number always gives the same map; 0 (the default): a "
                    "random map, drawn from the game's own seed."
                ),
                zero="random map",
            ),
            OptionSpec(
                name="turns",
                label="Turns",
                kind="int",
                default=0,
                min=0,
                max=20,
                description=(
                    "How many turns the game lasts; 0 (the default): the guide's length (12 solo, 10 for "
                    "2–3 players, 9 for 4, 8 for 5)."
                ),
                zero="the guide's length (12 solo, 10 for 2–3 players, 9 for 4, 8 for 5)",
            ),
            OptionSpec(
                name="round_actions",
                label="Round actions",
                kind="choice",
                default=WITH_PHASE_ACTION,
                choices=[WITH_PHASE_ACTION, ALONE_IF_STUCK],
                before=ALONE_IF_STUCK,
                labels={
                    WITH_PHASE_ACTION: "only alongside a phase action",
                    ALONE_IF_STUCK: "also alone when no phase action is left",
                },
                description=(
                    "Bank, rival city and influence trades only alongside a phase action, as the guide "
                    "says; or also alone, then pass, when no phase action is left (the bot's rule before)."
                ),
            ),
        ),
    )
    state_model = CityHeroesState
    view_model = CityHeroesView
    action_type = Action

    @property
    def cat(self) -> Catalogue:
        return catalogue()

    def catalogue(self) -> list[CatalogueEntry]:
        """Every building, public work, rival exchange row and recipe, for `/card`."""
        return list(catalogue_entries())

    # ---- setup ----------------------------------------------------------------------------------
    def _setup(self, players: list[str], options: dict[str, Any], rng: Rng) -> State:
        setup = self.cat.setup
        map_rng = Rng(seed=options["map_seed"]) if options["map_seed"] else rng
        tiles = board.generate(setup.map, map_rng)
        start = setup.start
        given: dict[str, int] = dict(start.items())  # read by any resource's name
        stock = {name: given.get(name, 0) for name in RESOURCES}
        turns_by_count: dict[str, int] = dict(setup.turns.items())  # "2": turns for two players
        state = State(
            players=[
                PlayerState(
                    name=name,
                    stock=dict(stock),
                    ducats=start["ducats"],
                    ready=start["workers"],
                    workers=start["workers"],
                )
                for name in players
            ],
            rng=rng,
            tiles=tiles,
            radius=setup.map.radius,
            turns=options["turns"] or turns_by_count[str(len(players))],
            bank={name: setup.bank["each"] for name in RESOURCES},
            bank_ducats=setup.bank["ducats"],
            rival_prestige=self.cat.rival.rival.start,
            outside={name: 0 for name in RESOURCES},
            alongside=options["round_actions"] == WITH_PHASE_ACTION,
        )
        return state

    # ---- what the tests, the policy and the help ask of the rules ---------------------------------
    def adjacent(self, state: State, tile_id: int) -> tuple[int, ...]:
        return board.neighbours(state.radius)[tile_id]

    def price(self, state: State, seat: Seat, tile_id: int) -> int:
        return tile_price(state, seat, tile_id)

    def bank_price(self, resource: str) -> tuple[int, int]:
        return market.bank_price(resource)

    def rival_terms(
        self, state: State, seat: Seat, row: str, counts: dict | None = None
    ) -> tuple[int, int, int]:
        return market.rival_terms(state, seat, row, counts)

    def cost(
        self,
        state: State,
        seat: Seat,
        base: dict[str, int],
        target: str | None = None,
        discount: dict[str, int] | None = None,
    ) -> dict[str, int]:
        return tile_cost(state, seat, base, target, discount)

    def defence(self, state: State, target: Tile) -> int:
        return pillage.defence(state, target)

    def _carrariae(self, state: State, tile: Tile) -> str:
        return works.carrariae(state, tile)

    # ---- whose turn -------------------------------------------------------------------------------
    def _to_act(self, state: State) -> set[Seat]:
        if state.phase == "over":
            return set()
        if state.proposal is not None:
            return {state.proposal.proposer, state.proposal.partner}
        return {state.current}

    def trade_form(self, state: State, seat: Seat) -> TradeForm | None:
        return trade.trade_form(state, seat)

    def trade_action(
        self, state: State, seat: Seat, partner: Seat, give: dict[str, int], get: dict[str, int]
    ) -> dict[str, Any]:
        return trade.trade_action(partner, give, get)

    def turn_key(self, state: State) -> int:
        """'The Undo button moves to the start of a players' turn': a turn runs from one player getting
        the move to the next; a trade answer or a pillage's loot inside it belong to the same turn."""
        return state.turns_begun

    def _next_turn(self, state: State, events: list[Event]) -> None:
        state.turns_begun += 1
        state.acted = None
        state.round_used = False
        count = len(state.players)
        for step in range(1, count + 1):
            seat = (state.current + step) % count
            if not state.players[seat].passed:
                state.current = seat
                return
        self._end_phase(state, events)

    def _end_phase(self, state: State, events: list[Event]) -> None:
        starter = state.first_passer if state.first_passer is not None else 0
        for player in state.players:
            player.passed = False
            player.exchanged = {}
        state.first_passer = None
        state.current = starter
        state.acted = None
        state.round_used = False
        if state.phase == "interaction":
            cleanup(state, events)
            if state.turn >= state.turns:
                state.phase = "over"
                result = self._result(state)
                assert result is not None
                events.append(
                    Event(
                        text=f"Game over after {words.count(state.turns, 'turn')}. {result.reason}",
                        urgent=True,
                    )
                )
                return
            state.turn += 1
            state.phase = "expansion"
        else:
            state.phase = PHASES[PHASES.index(state.phase) + 1]
        events.append(
            Event(
                text=f"Turn {state.turn}: {state.phase.title()} phase, "
                f"{state.players[starter].name} goes first."
            )
        )

    # ---- the choices ------------------------------------------------------------------------------
    def _legal_actions(self, state: State, seat: Seat) -> list[Choice]:
        with counted(state):
            return self._choices(state, seat)

    def _choices(self, state: State, seat: Seat) -> list[Choice]:
        if state.proposal is not None:
            return trade.answer_choices(state, seat)
        if state.raid is not None:
            return pillage.raid_choices(state)
        phase = self._phase_choices(state, seat)
        choices = list(phase)
        may_pass = state.acted is not None or self._may_pass(state, seat, bool(phase))
        if state.acted is not None:
            choices += end_choices()
        elif may_pass:
            choices.append(pass_choice(state, bool(phase)))
        if choices and (not state.alongside or phase or round_refusal(state, seat) is None):
            choices += market.round_choices(state, seat)
            choices += market.token_choices(state, seat)
            if state.phase == "construction":
                choices += craft.produce_choices(state, seat)
        return choices if may_pass else with_safe_move(choices)

    def _may_pass(self, state: State, seat: Seat, can_act: bool) -> bool:
        if state.phase == "expansion" and not owned(state, seat):
            return not can_act  # 'If a player has no tiles, they must select a tile.'
        # Round actions 'must be done alongside another action (you may not make only a Round
        # Action and pass the phase)': once one is taken, pass only when no phase action is left.
        return not (state.round_used and can_act)

    def _phase_choices(self, state: State, seat: Seat) -> list[Choice]:
        kind = state.acted
        if state.phase == "expansion":
            return [] if kind is not None else buy.buy_choices(state, seat)
        if state.phase == "construction":
            if kind is not None:
                return CONSTRUCTION_CHOICES[kind](state, seat) if kind in CONSTRUCTION_CHOICES else []
            return [choice for maker in CONSTRUCTION_CHOICES.values() for choice in maker(state, seat)]
        if state.phase == "interaction" and kind is None:
            return pillage.pillage_choices(state, seat) + trade.offer_choices(state, seat)
        return []

    # ---- apply ------------------------------------------------------------------------------------
    def _apply(self, state: State, seat: Seat, action: Any) -> list[Event]:
        events: list[Event] = []
        if state.proposal is not None:
            return trade.answer(state, seat, action, events)
        trade.refuse_stray_answer(action)
        if state.raid is not None:
            return pillage.raid_step(state, seat, action, events)
        if isinstance(action, Loot | Casualty):
            raise RuleError("There is no pillage to resolve.")
        if isinstance(action, Pass):
            self._pass_action(state, seat, events)
        elif isinstance(action, EndAction):
            self._end_action(state, seat, action, events)
        else:
            apply = OTHER_ACTIONS.get(type(action))
            if apply is None:
                raise RuleError("That is not something you can do now.")
            apply(state, seat, action, events)
        return events

    def _pass_action(self, state: State, seat: Seat, events: list[Event]) -> None:
        if state.acted is not None:
            raise RuleError("Finish your action first (end it, or end it and pass).")
        if not self._may_pass(state, seat, bool(self._phase_choices(state, seat))):
            if state.phase == "expansion" and not owned(state, seat):
                raise RuleError("You have no tile yet: you must select one (the first is free).")
            raise RuleError("A round action must go with a phase action: take one before passing.")
        self._pass(state, seat, events)

    def _end_action(self, state: State, seat: Seat, action: EndAction, events: list[Event]) -> None:
        if state.acted is None:
            raise RuleError("You have no action in progress.")
        if action.and_pass:
            state.acted = None
            self._pass(state, seat, events)
        else:
            self._next_turn(state, events)

    def _pass(self, state: State, seat: Seat, events: list[Event]) -> None:
        state.players[seat].passed = True
        if state.first_passer is None:
            state.first_passer = seat
        events.append(Event(text=f"{state.players[seat].name} passed the {state.phase} phase."))
        self._next_turn(state, events)

    # ---- views and result ---------------------------------------------------------------------------
    def _view(self, state: State, seat: Seat | None) -> CityHeroesView:
        return game_view(state, seat, self.info.id, self.to_act(state))

    def _result(self, state: State) -> Result | None:
        return game_result(state)
