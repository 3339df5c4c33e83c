"""Iron Bridge Gorge: the rules of `../shared/rules/iron-bridge-gorge.txt` on the platform's contract.

A round is the text's seven steps. Only two wait for players: the Initiative Step (every seat bids at
once, in secret) and the Turn Step (one player at a time through the six phases; while that player
has a trade proposal open, the partner is asked too). Development, events, revenue, scoring and the
end step run inside `apply` right after the decision that reaches them.

Phases of a turn only move forward. A player may act in the current phase or any later one: taking a
later phase's action ends the phases before it (so 'done' buttons are not needed between phases),
and 'End turn' skips all that is left. Entering the Bank Phase with a loan charges the interest even
when the phase is skipped. Rule decisions are listed in `data/iron_bridge_gorge/README.md`.

This module holds the setup, the round and turn flow and the dispatch; each family of moves is in
`moves/`, the choice list in `choices.py`, the views in `view.py` and the scoring in `scoring.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rules import trade, words
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
from rules.iron_bridge_gorge import choices, scoring
from rules.iron_bridge_gorge.catalogue import entries as catalogue_entries
from rules.iron_bridge_gorge.data import Catalogue, catalogue
from rules.iron_bridge_gorge.moves import bank, bid, build, end, opportunity, revenue
from rules.iron_bridge_gorge.moves import trade as trades
from rules.iron_bridge_gorge.moves.end import HAND_LIMIT
from rules.iron_bridge_gorge.moves.phases import current, current_player, enter, names, phase_open
from rules.iron_bridge_gorge.state import (
    Action,
    Bid,
    Build,
    Discard,
    Draw,
    EndTurn,
    IronBridgeGorgeState,
    Loan,
    PlayerState,
    Propose,
    Repay,
    Sell,
    Take,
)
from rules.iron_bridge_gorge.view import IronBridgeGorgeView, view

State = IronBridgeGorgeState

START_COINS = 10

Move = Callable[[State, Seat, Any, list[Event]], None]
MOVES: dict[type, Move] = {
    Take: opportunity.take,
    Draw: opportunity.draw,
    Propose: trades.propose,
    Build: build.build,
    Loan: bank.loan,
    Repay: bank.repay,
    Sell: bank.sell,
}
"""The Turn Step's moves that leave the turn running, by action type."""
ENDING: dict[type, Move] = {EndTurn: end.end_turn, Discard: end.discard}
"""The moves after which the turn ends (or, above the hand limit, waits for the next discard)."""

__all__ = ["HAND_LIMIT", "START_COINS", "IronBridgeGorge"]


class IronBridgeGorge(Game[IronBridgeGorgeState]):
    info: ClassVar[GameInfo] = GameInfo(
        id="iron-bridge-gorge",
        name="Iron Bridge Gorge",
        min_players=2,
        max_players=6,
        summary=(
            "Ironmasters of the Severn Gorge: bid for initiative, take opportunity cards, build mines and "
            "works that pay each other for their requirements, trade, and score majorities round after round."
        ),
        hidden_information=True,
        randomness=True,
        simultaneous=True,
        options=(
            OptionSpec(
                name="rounds",
                label="Rounds",
                kind="int",
                default=25,
                min=1,
                max=40,
                description="The game ends after this many rounds (the rules say 25).",
            ),
        ),
    )
    state_model = IronBridgeGorgeState
    view_model = IronBridgeGorgeView
    action_type = Action

    @property
    def cards(self) -> Catalogue:
        return catalogue()

    def catalogue(self) -> list[CatalogueEntry]:
        """Every card of the card list, for `/card`."""
        return list(catalogue_entries())

    # ---- setup and the automatic steps -----------------------------------------------------------
    def _setup(self, players: list[str], options: dict[str, Any], rng: Rng) -> State:
        state = State(
            players=[PlayerState(name=name, coins=START_COINS) for name in players],
            rng=rng,
            rounds=options["rounds"],
            deck=rng.shuffled(self.cards.deck()),
        )
        opening: list[Event] = []
        self._start_round(state, opening)
        state.opening = opening
        return state

    def opening_events(self, state: State) -> list[Event]:
        """Round 1's Development and Event rolls happen inside `setup`: told here, in the words every
        later round's rolls are told in."""
        return [event.model_copy(deep=True) for event in state.opening]

    def _start_round(self, state: State, events: list[Event]) -> None:
        state.round += 1
        state.step = "initiative"
        state.order = []
        state.last_bids = None
        opportunity.develop(state, events)
        revenue.roll_event(state, events)
        self._revenue(state, events)
        if bid.open_bidding(state):
            self._reveal_bids(state, events)

    def _revenue(self, state: State, events: list[Event]) -> None:
        revenue.collect(state, events)

    def _reveal_bids(self, state: State, events: list[Event]) -> None:
        bid.reveal(state, events)
        self._begin_turn(state, events)

    def _begin_turn(self, state: State, events: list[Event]) -> None:
        state.phase = "decision"
        if not state.row:
            state.phase = "expansion"
            events.append(Event(text=f"No opportunity card is left for {current_player(state).name}."))

    def _finish_turn(self, state: State, events: list[Event]) -> None:
        """END PHASE: 'Max hand size is 5 cards. Discard excess cards.' Then the next turn or step."""
        enter(state, "discard", events)
        if len(current_player(state).hand) > HAND_LIMIT:
            return
        state.turn += 1
        if state.turn < len(state.order):
            self._begin_turn(state, events)
            return
        self._score(state, events)
        # END STEP: 'Discard all remaining Opportunity cards.'
        if state.row:
            events.append(Event(text=f"Discarded opportunity cards: {names(state.row)}."))
        state.discard.extend(state.row)
        state.row = []
        if state.round >= state.rounds:
            state.step = "over"
            result = self._result(state)
            assert result is not None
            events.append(
                Event(
                    text=f"Game over after {words.count(state.round, 'round')}. {result.reason}", urgent=True
                )
            )
            return
        self._start_round(state, events)

    def _score(self, state: State, events: list[Event]) -> None:
        scoring.score(state, events)

    # ---- whose turn, what they may do -------------------------------------------------------------
    def _to_act(self, state: State) -> set[Seat]:
        if state.step == "initiative":
            return {seat for seat, player in enumerate(state.players) if player.bid is None}
        if state.step == "turn":
            return trade.with_partner(state, {current(state)})
        return set()

    def _legal_actions(self, state: State, seat: Seat) -> list[Choice]:
        if state.step == "initiative":
            return bid.choices(state, seat)
        if state.step != "turn":
            return []
        if state.proposal is not None:
            return trade.answer_choices(state, seat, trades.TERMS)
        return choices.turn_choices(state, seat)

    def turn_key(self, state: State) -> tuple[object, ...]:
        """'Each player gets a turn. A turn has 6 phases': undo rewinds to its start, trade answers
        included; each secret bid stands alone."""
        if state.step == "turn":
            return ("turn", state.round, state.turn)
        bids = sum(player.bid is not None for player in state.players)
        return (state.step, state.round, bids)

    def trade_form(self, state: State, seat: Seat) -> TradeForm | None:
        """'You may trade coins, cards in hand, resources in play, VP's, and non-binding promises.'"""
        if (
            state.step != "turn"
            or state.proposal is not None
            or seat not in self._to_act(state)
            or not phase_open(state, "trade")
        ):
            return None
        return trades.form(state, seat)

    def trade_action(
        self, state: State, seat: Seat, partner: Seat, give: dict[str, int], get: dict[str, int]
    ) -> dict[str, Any]:
        return trades.action(partner, give, get)

    # ---- apply ------------------------------------------------------------------------------------
    def _apply(self, state: State, seat: Seat, action: Any) -> list[Event]:
        events: list[Event] = []
        if state.step == "initiative":
            if not isinstance(action, Bid):
                raise RuleError("Everyone is bidding for initiative now: choose a bid.")
            if bid.bid(state, seat, action, events):
                self._reveal_bids(state, events)
            return events
        if isinstance(action, Bid):
            raise RuleError("The bidding is over for this round.")
        if state.proposal is not None:
            return trade.answer(state, seat, action, trades.TERMS, events)
        if isinstance(action, trade.ANSWERS):
            raise RuleError(trade.NO_OFFER)
        self._check_phase(state, action)
        move = MOVES.get(type(action))
        if move is not None:
            move(state, seat, action, events)
            return events
        ending = ENDING.get(type(action))
        if ending is None:
            raise RuleError("That is not something you can do now.")
        ending(state, seat, action, events)
        self._finish_turn(state, events)
        return events

    def _check_phase(self, state: State, action: Any) -> None:
        """The Decision Phase takes a card first; the End Phase discards first."""
        if state.phase == "decision" and not isinstance(action, Take):
            raise RuleError("First take one opportunity card (Decision Phase).")
        if state.phase == "discard" and not isinstance(action, Discard):
            raise RuleError(f"Your hand is over {words.count(HAND_LIMIT, 'card')}: discard first.")

    # ---- views and result ----------------------------------------------------------------------
    def _view(self, state: State, seat: Seat | None) -> IronBridgeGorgeView:
        return view(self, state, seat)

    def _result(self, state: State) -> Result | None:
        return scoring.result(state)
