"""The trade protocol every game with player-to-player trades shares.

One proposal is open at a time (`state.proposal`); while it is, the partner joins the seats to act. The
partner accepts (the game re-checks the trade and moves the goods) or declines; the proposer may take
the offer back. Every game words the offer and its goods its own way, so this module holds only what
is the same everywhere: the action models (`{"kind": "accept"}` and so on), the proposal's shape, the
answer choices of group "Trade", the answer and cancel flow with its events, and the view that shows
the terms to the two parties only. A game plugs in through `Terms` (its hooks and words).

Pure rules: no Discord, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar

from rules.core import Choice, Event, Model, RuleError, Seat

Items = TypeVar("Items")
"""What one side of a trade holds: a game's own model or a plain dict of goods."""

NO_OFFER = "There is no trade offer to answer."


# ---- actions and shapes ---------------------------------------------------------------------------
class Accept(Model):
    kind: Literal["accept"] = "accept"


class Decline(Model):
    kind: Literal["decline"] = "decline"


class Cancel(Model):
    kind: Literal["cancel"] = "cancel"


ANSWERS = (Accept, Decline, Cancel)
"""The actions that only make sense while a proposal is open."""


class Proposal(Model, Generic[Items]):
    """An open offer: the proposer hands over `give` and asks `get` from the partner."""

    proposer: Seat
    partner: Seat
    give: Items
    get: Items


class ProposalView(Model, Generic[Items]):
    proposer: Seat
    partner: Seat
    give: Items | None = None
    get: Items | None = None
    text: str | None = None
    """Contents (and this sentence saying them) are shown to the two parties only."""


class Trading(Protocol):
    """What the protocol reads and writes of a game's state."""

    players: Any
    proposal: Any


S = TypeVar("S", bound=Trading)
P = TypeVar("P", bound=Proposal[Any])


class Words(Protocol):
    """A proposal's contents in words as one of its two parties sees it."""

    def __call__(self, proposal: Any, seat: Seat, *, done: bool = False) -> str: ...


# ---- a game's hooks -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Terms(Generic[S, P]):
    """How one game trades: its checks, its transfer and its words.

    - `problem(state, proposal)`: why the partner cannot accept now, or None (re-checked on accepting,
      and it hides the Accept choice).
    - `transfer(state, proposal)`: move the goods both ways.
    - `terms(proposal, seat, done=...)`: the trade in words as `seat`, one of the two parties, sees
      it ("you give ...; you get ..."; "you gave ...; you got ..." once `done`).
    - `accepted(state, proposal)`: what the public is told the two gave, or "" for no detail.
    - `after(state, proposal)`: anything else an accepted trade does (e.g. record the action taken).
    - `cancel_label`, `cancel_word`, `cancelled`: the proposer's choice, the verb in the partner's
      "wait or <word> it" and the past tense of the event; `name_partner` names the partner in the
      public cancel text.
    """

    problem: Callable[[S, P], str | None]
    transfer: Callable[[S, P], None]
    terms: Words
    cancel_label: str
    cancel_word: str
    cancelled: str
    accepted: Callable[[S, P], str] | None = None
    after: Callable[[S, P], None] | None = None
    name_partner: bool = False


# ---- seats and words ------------------------------------------------------------------------------
def with_partner(state: Trading, seats: set[Seat]) -> set[Seat]:
    """The seats to act: the partner of an open proposal joins them."""
    if state.proposal is not None:
        return seats | {state.proposal.partner}
    return seats


def waiting(state: Trading) -> str:
    """The headline's tail while a proposal is open ("" otherwise)."""
    if state.proposal is None:
        return ""
    return f" - waiting for {state.players[state.proposal.partner].name} to answer a trade"


V = TypeVar("V", bound=ProposalView[Any])


def view(model: type[V], proposal: P | None, seat: Seat | None, text: Callable[[P], str]) -> V | None:
    """A proposal as `seat` may see it: the terms, and `text(proposal)` saying them, for the two parties
    only (called with the open proposal, so the sentence never has to handle None)."""
    if proposal is None:
        return None
    party = seat in (proposal.proposer, proposal.partner)
    return model(
        proposer=proposal.proposer,
        partner=proposal.partner,
        give=proposal.give if party else None,
        get=proposal.get if party else None,
        text=text(proposal) if party else None,
    )


# ---- choices --------------------------------------------------------------------------------------
ChoiceMaker = Callable[..., Choice]


def answer_choices(
    state: Trading, seat: Seat, terms: Terms[Any, Any], make: ChoiceMaker = Choice
) -> list[Choice]:
    """While a proposal is open: the partner's Accept (when the trade can happen) and Decline, the
    proposer's cancel. `make` builds a Choice from keywords (a game may pass a faster constructor).
    None is declared a timeout choice: the clock never answers or withdraws a trade for a player, the
    table keeps waiting (what it always did; `tests/rules/test_timeouts.py`)."""
    proposal = state.proposal
    if seat == proposal.partner:
        choices = []
        if terms.problem(state, proposal) is None:
            choices.append(
                make(
                    key="accept",
                    label="Accept the trade",
                    action={"kind": "accept"},
                    group="Trade",
                    style="success",
                )
            )
        choices.append(
            make(
                key="decline",
                label="Decline the trade",
                action={"kind": "decline"},
                group="Trade",
                style="danger",
            )
        )
        return choices
    return [make(key="cancel", label=terms.cancel_label, action={"kind": "cancel"}, group="Trade")]


# ---- the flow -------------------------------------------------------------------------------------
def propose(
    state: Trading, proposal: Proposal[Any], events: list[Event], text: str, private: dict[Seat, str]
) -> None:
    """Open `proposal` (already checked): the partner is told privately and must answer."""
    state.proposal = proposal
    events.append(Event(text=text, private=private, urgent=True))  # the partner must answer it


def answer(state: S, seat: Seat, action: Any, terms: Terms[S, Any], events: list[Event]) -> list[Event]:
    """Apply an action while a proposal is open: the partner accepts or declines, the proposer cancels;
    anything else is refused."""
    proposal = state.proposal
    if seat == proposal.partner and isinstance(action, Accept):
        return accept(state, terms, events)
    if seat == proposal.partner and isinstance(action, Decline):
        return decline(state, terms, events)
    if seat == proposal.proposer and isinstance(action, Cancel):
        return cancel(state, terms, events)
    if seat == proposal.partner:
        raise RuleError("Accept or decline the trade you were offered.")
    raise RuleError(
        f"Wait for {state.players[proposal.partner].name} to answer your offer, or {terms.cancel_word} it."
    )


def _names(state: Trading, proposal: Proposal[Any]) -> tuple[str, str]:
    return state.players[proposal.proposer].name, state.players[proposal.partner].name


def decline(state: S, terms: Terms[S, Any], events: list[Event]) -> list[Event]:
    proposal = state.proposal
    proposer, partner = _names(state, proposal)
    state.proposal = None
    events.append(
        Event(
            text=f"{partner} declined {proposer}'s trade.",
            private={
                proposal.proposer: f"{partner} declined your trade offer "
                f"({terms.terms(proposal, proposal.proposer)})."
            },
            urgent=True,  # the answer the proposer was waiting for
        )
    )
    return events


def accept(state: S, terms: Terms[S, Any], events: list[Event]) -> list[Event]:
    """Re-check the trade (a hand or a stock may have changed), move the goods, tell both parties."""
    proposal = state.proposal
    problem = terms.problem(state, proposal)
    if problem:
        raise RuleError(problem)
    proposer, partner = _names(state, proposal)
    terms.transfer(state, proposal)
    state.proposal = None
    if terms.after is not None:
        terms.after(state, proposal)
    detail = terms.accepted(state, proposal) if terms.accepted is not None else ""
    events.append(
        Event(
            text=f"{partner} accepted {proposer}'s trade{': ' + detail if detail else ''}.",
            private={
                proposal.proposer: f"{partner} accepted your trade offer "
                f"({terms.terms(proposal, proposal.proposer, done=True)}).",
                proposal.partner: f"You accepted {proposer}'s trade offer "
                f"({terms.terms(proposal, proposal.partner, done=True)}).",
            },
            urgent=True,  # goods changed hands between two players
        )
    )
    return events


def cancel(state: S, terms: Terms[S, Any], events: list[Event]) -> list[Event]:
    proposal = state.proposal
    proposer, partner = _names(state, proposal)
    state.proposal = None
    to = f" to {partner}" if terms.name_partner else ""
    events.append(
        Event(
            text=f"{proposer} {terms.cancelled} the trade offer{to}.",
            private={
                proposal.partner: f"{proposer} {terms.cancelled} the trade offer to you "
                f"({terms.terms(proposal, proposal.partner)})."
            },
        )
    )
    return events
