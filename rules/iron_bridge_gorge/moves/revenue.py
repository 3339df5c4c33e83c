"""The Event Step and the Revenue Step: the event of the round (and the innovations), what each
resource earns this round and whom its missing requirements pay.

REVENUE STEP: 'Each Resource produces a number of coins (from the Bank) equal to its Revenue value.
If you do not own a Requirement of a resource, you must pay an opponent that controls that
requirement 1 coin, or the Bank if no one owns it.'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules import words
from rules.core import Event, Seat
from rules.iron_bridge_gorge.data import Catalogue, rules_catalogue
from rules.iron_bridge_gorge.state import EventId, InnovationId, IronBridgeGorgeState

State = IronBridgeGorgeState

CHARCOAL = "charcoal-maker"
COKE = "coke-maker"

EVENTS: dict[EventId, tuple[str, str]] = {
    "nothing": ("Nothing", "Nothing noteworthy occurs this Round"),
    "worker-shortage": ("Worker Shortage", "All Revenues reduced by half this Round"),
    "drought": ("Drought or Freeze", "Water Power Reduced; Blast Furnace generates no Revenue"),
    "charcoal-shortage": ("Charcoal Shortage", "All Resources requiring Charcoal generate no Revenue"),
    "flooding": ("Flooding", "All Mines generate no Revenue"),
    "innovation": ("Innovation", "Roll on Innovation Table"),
}
"""EVENT TABLE, by die roll 1-6 in this order."""
EVENT_BY_ROLL: tuple[EventId, ...] = tuple(EVENTS)

INNOVATIONS: dict[InnovationId, tuple[str, str]] = {
    "steam-pumping-engines": ("Steam Pumping Engines", "Iron Mines +1 Revenue; Ignore Flooding Events"),
    "reverberatory-furnace": ("Reverberatory Furnace", "Works requiring Charcoal can now use Coke instead"),
    "long-wall-mining": ("Long Wall Mining", "Iron Mines +1 Revenue"),
}
"""INNOVATION TABLE: 1-2, 3-4, 5-6."""
INNOVATION_BY_ROLL: tuple[InnovationId, ...] = (
    "steam-pumping-engines",
    "steam-pumping-engines",
    "reverberatory-furnace",
    "reverberatory-furnace",
    "long-wall-mining",
    "long-wall-mining",
)
IRON_MINE_BONUS = ("steam-pumping-engines", "long-wall-mining")


def card_revenue(cards: Catalogue, card_id: str, innovations: Sequence[str]) -> int:
    """A card's revenue value with the lasting innovations ('Iron Mines +1 Revenue')."""
    spec = cards[card_id]
    value = spec.revenue
    if "iron-mine" in spec.tags:
        value += sum(1 for name in IRON_MINE_BONUS if name in innovations)
    return value


@dataclass
class Line:
    """One resource's part of the revenue step."""

    card: str
    earned: int
    stopped: str | None = None
    """The event that stopped it; a stopped resource earns nothing and uses no requirements."""
    kept: list[str] = field(default_factory=list)
    """Requirements the owner has in play (the coin stays with the owner)."""
    payments: list[tuple[str, Seat | None]] = field(default_factory=list)
    """(requirement card id, payee seat or None for the bank) for each missing requirement."""


@dataclass
class Report:
    seat: Seat
    lines: list[Line]
    gross: int
    """Revenue after events (halved by Worker Shortage), before requirement payments."""
    halved: bool = False

    @property
    def payments(self) -> list[tuple[str, Seat | None]]:
        return [payment for line in self.lines for payment in line.payments]


def _stopped_by(cards: Catalogue, card_id: str, event: str, innovations: Sequence[str]) -> str | None:
    spec = cards[card_id]
    if event == "flooding" and "mine" in spec.tags and "steam-pumping-engines" not in innovations:
        return "Flooding"
    if event == "drought" and "water-powered" in spec.tags:
        return "Drought or Freeze"
    if (
        event == "charcoal-shortage"
        and CHARCOAL in spec.requires
        and "reverberatory-furnace" not in innovations
    ):
        return "Charcoal Shortage"
    return None


def requirement_options(requirement: str, event: str, innovations: Sequence[str]) -> tuple[str, ...]:
    """Cards that satisfy a requirement: Charcoal may be Coke after the Reverberatory Furnace, and must
    be Coke during a Charcoal Shortage."""
    if requirement == CHARCOAL and "reverberatory-furnace" in innovations:
        return (COKE,) if event == "charcoal-shortage" else (CHARCOAL, COKE)
    return (requirement,)


def revenue_report(
    cards: Catalogue, in_play: Sequence[Sequence[str]], seat: Seat, event: str, innovations: Sequence[str]
) -> Report:
    """The revenue of `seat`'s resources this round. A missing requirement is paid to the first opponent
    clockwise from the payer who has it in play, else to the bank."""
    own = set(in_play[seat])
    count = len(in_play)
    opponents = [(seat + step) % count for step in range(1, count)]
    lines: list[Line] = []
    gross = 0
    for card_id in in_play[seat]:
        stopped = _stopped_by(cards, card_id, event, innovations)
        if stopped:
            lines.append(Line(card_id, 0, stopped))
            continue
        line = Line(card_id, card_revenue(cards, card_id, innovations))
        gross += line.earned
        for requirement in cards[card_id].requires:
            options = requirement_options(requirement, event, innovations)
            if any(option in own for option in options):
                line.kept.append(requirement)
                continue
            payee = next((other for other in opponents if any(o in in_play[other] for o in options)), None)
            line.payments.append((requirement, payee))
        lines.append(line)
    halved = event == "worker-shortage" and not any(
        "ignores-worker-shortage" in cards[card_id].tags for card_id in own
    )
    if halved:
        gross //= 2
    return Report(seat, lines, gross, halved)


# ---- the steps -----------------------------------------------------------------------------------
def roll_event(state: State, events: list[Event]) -> None:
    """EVENT STEP: 'Roll 1D6 once on the Event Table.' An Innovation rolls again on its own table."""
    roll = state.rng.die()
    state.event = EVENT_BY_ROLL[roll - 1]
    state.innovation_roll = None
    name, note = EVENTS[state.event]
    text = f"Event roll {roll}: {name}"
    if state.event == "innovation":
        roll = state.rng.die()
        innovation = INNOVATION_BY_ROLL[roll - 1]
        state.innovation_roll = innovation
        title = INNOVATIONS[innovation][0]
        if innovation in state.innovations:
            # 'If you reroll an Innovation already in existence, nothing happens.'
            text += f"; innovation roll {roll}: {title} is already in use, nothing happens."
        else:
            state.innovations.append(innovation)
            text += (
                f"; innovation roll {roll}: {title} ({INNOVATIONS[innovation][1]}) for the rest of the game."
            )
    else:
        text += f" ({note})."
    events.append(Event(text=text, reveals=True))


def collect(state: State, events: list[Event]) -> None:
    """REVENUE STEP: every seat is paid its gross revenue first, then each pays its missing requirements
    (to the owner, else the bank) as far as its coins go."""
    cards = rules_catalogue()
    in_play = [player.in_play for player in state.players]
    reports = [
        revenue_report(cards, in_play, seat, state.event, state.innovations)
        for seat in range(len(state.players))
    ]
    for report in reports:
        player = state.players[report.seat]
        player.coins += report.gross
        player.income = report.gross
        state.bank -= report.gross
    for report in reports:
        if report.lines:
            events.append(Event(text="Revenue: " + words.sentences(_report_parts(state, cards, report))))


def _report_parts(state: State, cards: Catalogue, report: Report) -> list[str]:
    player = state.players[report.seat]
    parts = [
        f"{player.name} earned {words.count(report.gross, 'coin')}"
        + (" (halved by Worker Shortage)" if report.halved else "")
    ]
    stopped = [line for line in report.lines if line.stopped]
    if stopped:
        parts.append("stopped: " + ", ".join(f"{cards[line.card].name} ({line.stopped})" for line in stopped))
    for requirement, payee in report.payments:
        parts.append(_pay(state, report.seat, cards[requirement].label, payee))
    return parts


def _pay(state: State, seat: Seat, label: str, payee: Seat | None) -> str:
    """One missing requirement's coin, to its owner or the bank; the words for the revenue line."""
    player = state.players[seat]
    if player.coins < 1:
        return f"could not pay for {label}"
    player.coins -= 1
    player.income -= 1
    if payee is None:
        state.bank += 1
        return f"paid the bank 1 coin for {label}"
    state.players[payee].coins += 1
    state.players[payee].income += 1
    return f"paid {state.players[payee].name} 1 coin for {label}"
