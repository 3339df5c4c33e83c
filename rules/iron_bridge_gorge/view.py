"""What a seat sees of Iron Bridge Gorge: the view models and the state -> view step. Hands and
unrevealed bids stay with their owners; a trade's terms with its two parties."""

from __future__ import annotations

from typing import Any

from rules import trade, words
from rules.core import Game, Model, Seat, View
from rules.iron_bridge_gorge.data import catalogue
from rules.iron_bridge_gorge.moves import trade as trades
from rules.iron_bridge_gorge.moves.build import build_cost
from rules.iron_bridge_gorge.moves.end import HAND_LIMIT
from rules.iron_bridge_gorge.moves.phases import current, current_player
from rules.iron_bridge_gorge.moves.revenue import EVENTS, INNOVATIONS, card_revenue, revenue_report
from rules.iron_bridge_gorge.scoring import result as game_result
from rules.iron_bridge_gorge.state import IronBridgeGorgeState, Phase, PlayerState, Step, TradeItems

State = IronBridgeGorgeState


class CardView(Model):
    id: str
    name: str
    type: str
    """F, I, C, L, T or O."""
    revenue: int
    """Revenue with the innovations in play."""
    cost: int
    """Build cost; in the viewer's own hand it includes the viewer's Land Lease discount."""
    requires: list[str]
    """Requirement names as the card list writes them ('Charcoal', 'Iron Ore')."""
    note: str = ""


class SeatView(Model):
    seat: Seat
    name: str
    coins: int
    vp: int
    loan: bool
    hand_count: int
    resources: list[CardView]
    revenue: int
    """Revenue of the resources in play with no event, before requirement payments."""
    income: int
    """Net coins from this round's revenue step."""
    bid_placed: bool
    bid: int | None
    """This round's bid once revealed (or the viewer's own pending bid)."""


class ProposalView(trade.ProposalView[TradeItems]):
    """An open proposal; its contents (and the sentence saying them) are shown to the two parties only."""


class ScoreLine(Model):
    place: int
    seat: Seat
    name: str
    vp: int
    coins: int
    resources: int


class TableEntry(Model):
    id: str
    name: str
    note: str


class IronBridgeGorgeView(View):
    round: int
    rounds: int
    step: Step
    phase: Phase | None
    current: Seat | None
    order: list[Seat]
    row: list[CardView]
    event: TableEntry
    innovation_roll: TableEntry | None
    innovations: list[TableEntry]
    deck_count: int
    discard_count: int
    bank: int
    seats: list[SeatView]
    hand: list[CardView] | None = None
    my_bid: int | None = None
    proposal: ProposalView | None = None
    scoreboard: list[ScoreLine] | None = None


# ---- state -> view ---------------------------------------------------------------------------------
def card_view(state: State, card: str, owner: PlayerState | None = None) -> CardView:
    cards = catalogue()
    spec = cards[card]
    return CardView(
        id=card,
        name=spec.name,
        type=spec.type,
        revenue=card_revenue(cards, card, state.innovations),
        cost=build_cost(owner, card) if owner is not None else spec.base_cost,
        requires=[cards[requirement].label for requirement in spec.requires],
        note=spec.note,
    )


def _seat_bid(state: State, index: int, player: PlayerState, seat: Seat | None) -> int | None:
    """This round's bid once revealed, or the viewer's own pending bid."""
    if state.step != "initiative":
        return state.last_bids[index] if state.last_bids is not None else None
    return player.bid if index == seat else None


def _seats(state: State, seat: Seat | None) -> list[SeatView]:
    cards = catalogue()
    in_play = [player.in_play for player in state.players]
    return [
        SeatView(
            seat=index,
            name=player.name,
            coins=player.coins,
            vp=player.vp,
            loan=player.loan,
            hand_count=len(player.hand),
            resources=[card_view(state, card) for card in player.in_play],
            revenue=revenue_report(cards, in_play, index, "nothing", state.innovations).gross,
            income=player.income,
            bid_placed=state.step == "initiative" and player.bid is not None,
            bid=_seat_bid(state, index, player, seat),
        )
        for index, player in enumerate(state.players)
    ]


def _scoreboard(state: State, ranking: list[list[Seat]]) -> list[ScoreLine]:
    players = state.players
    return [
        ScoreLine(
            place=place + 1,
            seat=index,
            name=players[index].name,
            vp=players[index].vp,
            coins=players[index].coins,
            resources=len(players[index].in_play),
        )
        for place, group in enumerate(ranking)
        for index in group
    ]


def _table(state: State) -> dict[str, Any]:
    """The event of the round, the innovation rolled and those in play."""
    roll = state.innovation_roll
    return {
        "event": TableEntry(id=state.event, name=EVENTS[state.event][0], note=EVENTS[state.event][1]),
        "innovation_roll": (
            TableEntry(id=roll, name=INNOVATIONS[roll][0], note=INNOVATIONS[roll][1]) if roll else None
        ),
        "innovations": [
            TableEntry(id=name, name=INNOVATIONS[name][0], note=INNOVATIONS[name][1])
            for name in state.innovations
        ],
    }


def view(game: Game[Any], state: State, seat: Seat | None) -> IronBridgeGorgeView:
    players = state.players
    own = players[seat] if seat is not None else None
    result = game_result(state)
    proposal = trade.view(
        ProposalView, state.proposal, seat, lambda proposal: trades.offer_text(state, proposal)
    )
    return IronBridgeGorgeView(
        game=game.info.id,
        seat=seat,
        players=[player.name for player in players],
        to_act=sorted(game.to_act(state)),
        headline=headline(state, result.reason if result else None),
        finished=result is not None,
        topic=rules_topic(state),
        round=state.round,
        rounds=state.rounds,
        step=state.step,
        phase=state.phase if state.step == "turn" else None,
        current=current(state) if state.step == "turn" else None,
        order=state.order,
        row=[card_view(state, card) for card in state.row],
        **_table(state),
        deck_count=len(state.deck),
        discard_count=len(state.discard),
        bank=state.bank,
        seats=_seats(state, seat),
        hand=[card_view(state, card, own) for card in own.hand] if own is not None else None,
        my_bid=own.bid if own is not None and state.step == "initiative" else None,
        proposal=proposal,
        scoreboard=_scoreboard(state, result.ranking) if result is not None else None,
    )


def headline(state: State, reason: str | None) -> str:
    if reason is not None:
        return f"Game over - {words.clause(reason)}"
    where = f"Round {state.round}/{state.rounds}"
    if state.step == "initiative":
        waiting = [player.name for player in state.players if player.bid is None]
        return f"{where} - Initiative bids - waiting for {', '.join(waiting)}"
    player = current_player(state)
    text = f"{where} - {player.name}'s turn - {state.phase.title()} Phase"
    if state.phase == "discard":
        text = f"{where} - {player.name}'s turn - End Phase (discard to {HAND_LIMIT})"
    return text + trade.waiting(state)


PHASE_TOPICS: dict[str, str] = {
    "decision": "decision-and-expansion",
    "expansion": "decision-and-expansion",
    "trade": "trading",
    "build": "building",
    "bank": "bank-and-end-phase",
    "discard": "bank-and-end-phase",
}
"""The `/rules` topic (data/iron_bridge_gorge/rules.md) of each turn phase."""


def rules_topic(state: State) -> str:
    """The `/rules` topic of the current step, for the turn message's link."""
    if state.step == "over":
        return "game-end"
    if state.step == "initiative":
        return "initiative"
    if state.proposal is not None:
        return "trading"
    return PHASE_TOPICS[state.phase]
