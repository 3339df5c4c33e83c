"""A tiny game that lives only in the tests, to exercise the platform before and beside real games.

It has what the real games need from the platform: hidden hands, a simultaneous secret step, a
sequential step with a random draw, options and a result with a tie-break. Rules: every round all
players secretly pledge a card from their hand at once; the highest pledge scores a point (ties
score nothing); then, in seat order, each player may draw a card or pass. After `rounds` rounds the
most points win, ties broken by the higher sum of cards left in hand.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from rules.core import Choice, Event, Game, GameInfo, Model, OptionSpec, Result, Rng, RuleError, Seat, View


class Pledge(Model):
    kind: Literal["pledge"] = "pledge"
    card: int


class Draw(Model):
    kind: Literal["draw"] = "draw"


class Pass(Model):
    kind: Literal["pass"] = "pass"


Action = Annotated[Pledge | Draw | Pass, Field(discriminator="kind")]


class HighCardState(Model):
    players: list[str]
    rng: Rng
    rounds: int
    round: int = 1
    phase: Literal["pledge", "draw", "over"] = "pledge"
    deck: list[int]
    hands: list[list[int]]
    pledges: dict[Seat, int] = Field(default_factory=dict)
    drawer: Seat = 0
    points: list[int]


class HighCardView(View):
    round: int
    phase: str
    points: list[int]
    hand_sizes: list[int]
    pledged: list[Seat]
    deck_size: int
    hand: list[int] | None = None
    my_pledge: int | None = None


class HighCard(Game[HighCardState]):
    info: ClassVar[GameInfo] = GameInfo(
        id="test-highcard",
        name="High Card (test game)",
        min_players=1,
        max_players=5,
        summary="Pledge a hidden card each round; highest pledge scores.",
        hidden_information=True,
        randomness=True,
        simultaneous=True,
        options=(
            OptionSpec(name="rounds", label="Rounds", kind="int", default=3, min=1, max=10),
            OptionSpec(name="open_hands", label="Open hands", kind="bool", default=False),
        ),
    )
    state_model = HighCardState
    view_model = HighCardView
    action_type = Action

    def _setup(self, players: list[str], options: dict[str, Any], rng: Rng) -> HighCardState:
        deck = rng.shuffled(list(range(1, 8 * len(players) + 1)))
        hands = [sorted(deck[i * 3 : i * 3 + 3]) for i in range(len(players))]
        return HighCardState(
            players=players,
            rng=rng,
            rounds=options["rounds"],
            deck=deck[3 * len(players) :],
            hands=hands,
            points=[0] * len(players),
        )

    def _to_act(self, state: HighCardState) -> set[Seat]:
        if state.phase == "pledge":
            return {
                seat for seat in range(len(state.players)) if seat not in state.pledges and state.hands[seat]
            }
        if state.phase == "draw":
            return {state.drawer}
        return set()

    def _legal_actions(self, state: HighCardState, seat: Seat) -> list[Choice]:
        if state.phase == "pledge":
            return [
                Choice(
                    key=f"pledge:{card}",
                    label=f"Pledge {card}",
                    action={"kind": "pledge", "card": card},
                    group="Pledge",
                    style="primary",
                    timeout="safe" if index == 0 else None,  # no pass: the clock pledges the first card
                )
                for index, card in enumerate(state.hands[seat])
            ]
        choices = [Choice(key="pass", label="Pass", action={"kind": "pass"}, group="Draw", timeout="pass")]
        if state.deck:
            choices.insert(
                0,
                Choice(
                    key="draw", label="Draw a card", action={"kind": "draw"}, group="Draw", style="success"
                ),
            )
        return choices

    def _apply(self, state: HighCardState, seat: Seat, action: Any) -> list[Event]:
        name = state.players[seat]
        if isinstance(action, Pledge):
            if state.phase != "pledge":
                raise RuleError("Pledges are made at the start of a round.")
            if action.card not in state.hands[seat]:
                raise RuleError(f"You do not hold a {action.card}.")
            state.hands[seat].remove(action.card)
            state.pledges[seat] = action.card
            events = [Event(text=f"{name} pledged a card.", private={seat: f"You pledged {action.card}."})]
            if not self._to_act(state):
                events += self._reveal(state)
            return events
        if state.phase != "draw":
            raise RuleError("You can only draw or pass after the pledges are revealed.")
        events = []
        if isinstance(action, Draw):
            if not state.deck:
                raise RuleError("The deck is empty.")
            card = state.deck.pop(0)
            state.hands[seat].append(card)
            state.hands[seat].sort()
            events.append(
                Event(text=f"{name} drew a card.", private={seat: f"You drew {card}."}, reveals=True)
            )
        else:
            events.append(Event(text=f"{name} passed."))
        state.drawer += 1
        if state.drawer >= len(state.players):
            events += self._next_round(state)
        return events

    def _reveal(self, state: HighCardState) -> list[Event]:
        shown = ", ".join(f"{state.players[s]} {c}" for s, c in sorted(state.pledges.items()))
        events = [Event(text=f"Pledges revealed: {shown}.", reveals=True)]
        best = max(state.pledges.values())
        leaders = [s for s, c in state.pledges.items() if c == best]
        if len(leaders) == 1:
            state.points[leaders[0]] += 1
            events.append(Event(text=f"{state.players[leaders[0]]} scores a point with {best}."))
        else:
            events.append(Event(text="The highest pledges tie: nobody scores."))
        state.pledges = {}
        state.phase = "draw"
        state.drawer = 0
        return events

    def _next_round(self, state: HighCardState) -> list[Event]:
        if state.round >= state.rounds or not any(state.hands):
            state.phase = "over"
            return [Event(text="The game is over.")]
        state.round += 1
        state.phase = "pledge"
        return [Event(text=f"Round {state.round} begins.")]

    def _view(self, state: HighCardState, seat: Seat | None) -> HighCardView:
        if state.phase == "pledge":
            waiting = ", ".join(state.players[s] for s in sorted(self._to_act(state)))
            headline = f"Round {state.round} - pledges - waiting for {waiting}"
        elif state.phase == "draw":
            headline = f"Round {state.round} - {state.players[state.drawer]} draws or passes"
        else:
            headline = "Game over"
        return HighCardView(
            game=self.info.id,
            seat=seat,
            players=state.players,
            to_act=sorted(self._to_act(state)),
            headline=headline,
            finished=state.phase == "over",
            round=state.round,
            phase=state.phase,
            points=state.points,
            hand_sizes=[len(hand) for hand in state.hands],
            pledged=sorted(state.pledges),
            deck_size=len(state.deck),
            hand=None if seat is None else list(state.hands[seat]),
            my_pledge=None if seat is None else state.pledges.get(seat),
        )

    def _result(self, state: HighCardState) -> Result | None:
        if state.phase != "over":
            return None
        keyed = sorted(range(len(state.players)), key=lambda s: (-state.points[s], -sum(state.hands[s])))
        ranking: list[list[Seat]] = []
        for s in keyed:
            if ranking and (state.points[s], sum(state.hands[s])) == (
                state.points[ranking[-1][0]],
                sum(state.hands[ranking[-1][0]]),
            ):
                ranking[-1].append(s)
            else:
                ranking.append([s])
        winner = ", ".join(state.players[s] for s in ranking[0])
        return Result(
            scores=dict(enumerate(state.points)),
            ranking=ranking,
            reason=f"{winner} wins on points, ties broken by the sum of cards in hand.",
        )


GAME = HighCard()
