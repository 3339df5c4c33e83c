"""State and actions of Iron Bridge Gorge, JSON round-trippable (the views are in `view.py`): the state as
`Record` pydantic dataclasses (the rules read its fields thousands of times a game; see `rules.core.Record`), the
actions as pydantic models."""

from __future__ import annotations

from dataclasses import field
from typing import Annotated, Literal

from pydantic import Field
from pydantic.dataclasses import dataclass

from rules import trade
from rules.core import Event, Model, Record, Rng, Seat
from rules.trade import Accept, Cancel, Decline

Step = Literal["initiative", "turn", "over"]
"""The round steps that wait for players; development, events, revenue, scoring and the end step run
on their own inside `apply`."""
Phase = Literal["decision", "expansion", "trade", "build", "bank", "discard"]
"""The six phases of a turn; 'discard' is the End Phase while the hand is over the limit."""
PHASES: tuple[Phase, ...] = ("decision", "expansion", "trade", "build", "bank", "discard")

EventId = Literal["nothing", "worker-shortage", "drought", "charcoal-shortage", "flooding", "innovation"]
InnovationId = Literal["steam-pumping-engines", "reverberatory-furnace", "long-wall-mining"]


@dataclass(kw_only=True)
class PlayerState(Record):
    name: str
    coins: int = 10
    vp: int = 0
    loan: bool = False
    hand: list[str] = field(default_factory=list)
    in_play: list[str] = field(default_factory=list)
    bid: int | None = None
    """The secret initiative bid, only while the bidding is open."""
    income: int = 0
    """Net coins from this round's revenue step (revenue minus requirement payments made and received)."""


@dataclass(kw_only=True)
class TradeItems(Record):
    """One side of a trade (also the payload of a `Propose` action: pydantic checks the bounds when it
    parses one)."""

    coins: Annotated[int, Field(ge=0, le=10_000)] = 0
    vp: Annotated[int, Field(ge=0, le=10_000)] = 0
    hand: Annotated[list[str], Field(max_length=20)] = field(default_factory=list)
    """Card ids from that player's hand."""
    in_play: Annotated[list[str], Field(max_length=40)] = field(default_factory=list)
    """Card ids of that player's resources in play."""

    def empty(self) -> bool:
        return not (self.coins or self.vp or self.hand or self.in_play)


class Proposal(trade.Proposal[TradeItems]):
    """An open trade offer: `give` is what the proposer hands over, `get` what it asks from the partner."""


@dataclass(kw_only=True)
class IronBridgeGorgeState(Record):
    players: list[PlayerState]
    rng: Rng
    rounds: int
    round: int = 0
    step: Step = "initiative"
    phase: Phase = "decision"
    deck: list[str]
    discard: list[str] = field(default_factory=list)
    row: list[str] = field(default_factory=list)
    """The Opportunity cards of this round."""
    event: EventId = "nothing"
    innovation_roll: InnovationId | None = None
    """The innovation rolled this round when the event was Innovation (new or already in play)."""
    innovations: list[InnovationId] = field(default_factory=list)
    order: list[Seat] = field(default_factory=list)
    """This round's turn order, set when the bids are revealed."""
    turn: int = 0
    """Index into `order` of the player whose turn it is."""
    last_bids: list[int] | None = None
    """The bids of this round once revealed (public)."""
    proposal: Proposal | None = None
    bank: int = 0
    """Coins the bank has taken in minus what it paid out; the bank itself never runs out."""
    opening: list[Event] = field(default_factory=list)
    """What `setup` rolled for round 1 (Development and Event steps), kept because setup has no events:
    `opening_events` hands them to the bot for the first post. States saved before it load as empty."""


# ---- actions ---------------------------------------------------------------------------------
class Bid(Model):
    kind: Literal["bid"] = "bid"
    amount: int = Field(ge=0, le=10_000)


class Take(Model):
    """Decision Phase: take one Opportunity card into the hand."""

    kind: Literal["take"] = "take"
    card: str


class Draw(Model):
    """Expansion Phase: pay 10 to draw the top card of the deck."""

    kind: Literal["draw"] = "draw"


class Propose(Model):
    """Trade Phase: offer `give` for `get` to `partner`."""

    kind: Literal["propose"] = "propose"
    partner: Seat
    give: TradeItems = Field(default_factory=TradeItems)
    get: TradeItems = Field(default_factory=TradeItems)


class Build(Model):
    kind: Literal["build"] = "build"
    card: str


class Loan(Model):
    kind: Literal["loan"] = "loan"


class Repay(Model):
    kind: Literal["repay"] = "repay"


class Sell(Model):
    kind: Literal["sell"] = "sell"
    card: str
    source: Literal["hand", "play"] = "hand"


class EndTurn(Model):
    """Stop: skip whatever phases remain (the loan interest is still due) and end the turn."""

    kind: Literal["end_turn"] = "end_turn"


class Discard(Model):
    """End Phase: discard one card while the hand is over the limit of 5."""

    kind: Literal["discard"] = "discard"
    card: str


Action = Annotated[
    Bid | Take | Draw | Propose | Accept | Decline | Cancel | Build | Loan | Repay | Sell | EndTurn | Discard,
    Field(discriminator="kind"),
]
