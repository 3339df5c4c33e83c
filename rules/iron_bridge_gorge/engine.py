"""Iron Bridge Gorge: the rules of `../shared/rules/iron-bridge-gorge.txt` on the platform's contract.

A round is the text's seven steps. Only two wait for players: the Initiative Step (every seat bids at
once, in secret) and the Turn Step (one player at a time through the six phases; while that player
has a trade proposal open, the partner is asked too). Development, events, revenue, scoring and the
end step run inside `apply` right after the decision that reaches them.

Phases of a turn only move forward. A player may act in the current phase or any later one: taking a
later phase's action ends the phases before it (so 'done' buttons are not needed between phases),
and 'End turn' skips all that is left. Entering the Bank Phase with a loan charges the interest even
when the phase is skipped. Rule decisions are listed in `data/iron_bridge_gorge/README.md`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from rules import words
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
    TradeGood,
    TradePartner,
)
from rules.iron_bridge_gorge.data import TYPE_NAMES, Catalogue, catalogue
from rules.iron_bridge_gorge.catalogue import entries as catalogue_entries
from rules.iron_bridge_gorge.revenue import (
    EVENT_BY_ROLL,
    EVENTS,
    INNOVATION_BY_ROLL,
    INNOVATIONS,
    card_revenue,
    revenue_report,
)
from rules.iron_bridge_gorge.state import (
    PHASES,
    Accept,
    Action,
    Bid,
    Build,
    Cancel,
    CardView,
    Decline,
    Discard,
    Draw,
    EndTurn,
    IronBridgeGorgeState,
    IronBridgeGorgeView,
    Loan,
    Phase,
    PlayerState,
    Proposal,
    ProposalView,
    Propose,
    Repay,
    ScoreLine,
    SeatView,
    Sell,
    TableEntry,
    Take,
    TradeItems,
)

State = IronBridgeGorgeState

START_COINS = 10
DRAW_COST = 10
LOAN = 10
INTEREST = 1
SALE_PRICE = 5
HAND_LIMIT = 5
OFFER_PRICE = 5
"""The coin amount of the ready-made trade offers in the choice list (any amount can be proposed)."""
MAJORITY_VP: dict[str, int] = {"F": 2, "I": 2, "T": 2, "C": 1, "L": 1}
"""SCORING STEP: most Fuel, Iron, Transportation 2 VP each; most Clay, Limestone 1 VP each."""


def _names(cards: Catalogue, ids: list[str]) -> str:
    return words.listed(cards[card_id].name for card_id in ids)


def _contains(pool: list[str], wanted: list[str]) -> bool:
    have = Counter(pool)
    return all(have[card] >= count for card, count in Counter(wanted).items())


def _remove(pool: list[str], cards: list[str]) -> None:
    for card in cards:
        pool.remove(card)


def _describe(cards: Catalogue, items: TradeItems, *, hidden_hand: bool = False) -> str:
    parts: list[str] = []
    if items.coins:
        parts.append(words.count(items.coins, "coin"))
    if items.vp:
        parts.append(f"{items.vp} VP")
    if items.hand:
        if hidden_hand:
            parts.append(f"{words.count(len(items.hand), 'card')} from hand")
        else:
            parts.append(f"{_names(cards, items.hand)} (from hand)")
    if items.in_play:
        parts.append(f"{_names(cards, items.in_play)} (in play)")
    return ", ".join(parts) or "nothing"


def _terms(cards: Catalogue, proposal: Proposal, seat: Seat, *, done: bool = False) -> str:
    """A proposal's contents in words, as `seat` (one of its two parties) sees its own side first. Both
    parties saw the whole offer when it was made, so naming it to either of them hides nothing."""
    give, get = (proposal.give, proposal.get) if seat == proposal.proposer else (proposal.get, proposal.give)
    verbs = ("gave", "got") if done else ("give", "get")
    return f"you {verbs[0]} {_describe(cards, give)}; you {verbs[1]} {_describe(cards, get)}"


def _items(
    *, coins: int = 0, hand: list[str] | None = None, in_play: list[str] | None = None
) -> dict[str, Any]:
    """One side of a trade as JSON (the choice list holds many offers: plain dicts are cheaper)."""
    return {"coins": coins, "vp": 0, "hand": hand or [], "in_play": in_play or []}


class IronBridgeGorge(Game[IronBridgeGorgeState]):
    info: ClassVar[GameInfo] = GameInfo(
        id="iron-bridge-gorge",
        name="Iron Bridge Gorge",
        min_players=2,
        max_players=6,
        summary=(
            "Ironmasters of the Severn Gorge: bid for initiative, take opportunity cards, build mines and "
            "works that pay each other for their requirements, trade, and score majorities over 25 rounds."
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

    def _deal(self, state: State, events: list[Event]) -> str | None:
        """The top card of the deck; 'If the deck runs out, shuffle the discard and draw from it.'"""
        if not state.deck and state.discard:
            state.deck = state.rng.shuffled(state.discard)
            state.discard = []
            events.append(
                Event(text="The deck ran out: the discard pile was shuffled into a new deck.", reveals=True)
            )
        return state.deck.pop() if state.deck else None

    def _start_round(self, state: State, events: list[Event]) -> None:
        state.round += 1
        state.step = "initiative"
        state.order = []
        state.last_bids = None
        # DEVELOPMENT STEP: 'Flip over the top X + 1D6 cards of the deck. X = the number of players.'
        roll = state.rng.die()
        wanted = len(state.players) + roll
        for _ in range(wanted):
            card = self._deal(state, events)
            if card is None:
                break
            state.row.append(card)
        short = "" if len(state.row) == wanted else f" (only {len(state.row)} left to flip)"
        events.append(
            Event(
                text=f"Round {state.round}: development roll {roll}, {wanted} opportunity cards{short}: "
                f"{_names(self.cards, state.row) or 'none'}.",
                reveals=True,
            )
        )
        # EVENT STEP: 'Roll 1D6 once on the Event Table.'
        roll = state.rng.die()
        state.event = EVENT_BY_ROLL[roll - 1]  # type: ignore[assignment]
        state.innovation_roll = None
        name, note = EVENTS[state.event]
        text = f"Event roll {roll}: {name}"
        if state.event == "innovation":
            roll = state.rng.die()
            innovation = INNOVATION_BY_ROLL[roll - 1]
            state.innovation_roll = innovation  # type: ignore[assignment]
            title = INNOVATIONS[innovation][0]
            if innovation in state.innovations:
                # 'If you reroll an Innovation already in existence, nothing happens.'
                text += f"; innovation roll {roll}: {title} is already in use, nothing happens."
            else:
                state.innovations.append(innovation)  # type: ignore[arg-type]
                text += f"; innovation roll {roll}: {title} ({INNOVATIONS[innovation][1]}) for the rest of the game."
        else:
            text += f" ({note})."
        events.append(Event(text=text, reveals=True))
        self._revenue(state, events)
        self._open_bidding(state, events)

    def _revenue(self, state: State, events: list[Event]) -> None:
        in_play = [player.in_play for player in state.players]
        reports = [
            revenue_report(self.cards, in_play, seat, state.event, state.innovations)
            for seat in range(len(state.players))
        ]
        for report in reports:
            player = state.players[report.seat]
            player.coins += report.gross
            player.income = report.gross
            state.bank -= report.gross
        for report in reports:
            player = state.players[report.seat]
            if not report.lines:
                continue
            parts = [
                f"{player.name} earned {report.gross}"
                + (" (halved by Worker Shortage)" if report.halved else "")
            ]
            stopped = [line for line in report.lines if line.stopped]
            if stopped:
                parts.append(
                    "stopped: "
                    + ", ".join(f"{self.cards[line.card].name} ({line.stopped})" for line in stopped)
                )
            for requirement, payee in report.payments:
                label = self.cards[requirement].label
                if player.coins < 1:
                    parts.append(f"could not pay for {label}")
                    continue
                player.coins -= 1
                player.income -= 1
                if payee is None:
                    state.bank += 1
                    parts.append(f"paid the bank 1 for {label}")
                else:
                    state.players[payee].coins += 1
                    state.players[payee].income += 1
                    parts.append(f"paid {state.players[payee].name} 1 for {label}")
            events.append(Event(text="Revenue: " + words.sentences(parts)))

    def _open_bidding(self, state: State, events: list[Event]) -> None:
        for player in state.players:
            player.bid = 0 if player.coins == 0 else None
        if all(player.bid is not None for player in state.players):
            self._reveal_bids(state, events)

    def _reveal_bids(self, state: State, events: list[Event]) -> None:
        """INITIATIVE STEP: highest bid goes first, the others clockwise; ties roll high on 1D6; all bid
        money is lost."""
        bids = [player.bid or 0 for player in state.players]
        state.last_bids = bids
        for player, bid in zip(state.players, bids, strict=True):
            player.coins -= bid
            player.bid = None
            state.bank += bid
        events.append(
            Event(
                text="Bids revealed: "
                + ", ".join(f"{player.name} {bid}" for player, bid in zip(state.players, bids, strict=True))
                + ".",
                reveals=True,
                urgent=True,  # the secret bids come out together and set the turn order
            )
        )
        top = max(bids)
        tied = [seat for seat, bid in enumerate(bids) if bid == top]
        while len(tied) > 1:
            rolls = {seat: state.rng.die() for seat in tied}
            events.append(
                Event(
                    text=f"Tie at {top}: "
                    + ", ".join(f"{state.players[seat].name} rolls {roll}" for seat, roll in rolls.items())
                    + ".",
                    reveals=True,
                )
            )
            best = max(rolls.values())
            tied = [seat for seat in tied if rolls[seat] == best]
        first = tied[0]
        count = len(state.players)
        state.order = [(first + step) % count for step in range(count)]
        events.append(
            Event(text="Turn order: " + ", ".join(state.players[seat].name for seat in state.order) + ".")
        )
        state.step = "turn"
        state.turn = 0
        self._begin_turn(state, events)

    def _begin_turn(self, state: State, events: list[Event]) -> None:
        state.phase = "decision"
        if not state.row:
            state.phase = "expansion"
            events.append(Event(text=f"No opportunity card is left for {self._current_player(state).name}."))

    def _current(self, state: State) -> Seat:
        return state.order[state.turn]

    def _current_player(self, state: State) -> PlayerState:
        return state.players[self._current(state)]

    def _enter(self, state: State, phase: Phase, events: list[Event]) -> None:
        """Move the turn forward to `phase`; passing into the Bank Phase charges the loan interest."""
        start, end = PHASES.index(state.phase), PHASES.index(phase)
        player = self._current_player(state)
        if start < PHASES.index("bank") <= end and player.loan:
            # BANK PHASE: 'If you have a Loan, you must pay the Bank 1 coin interest.'
            if player.coins >= INTEREST:
                player.coins -= INTEREST
                state.bank += INTEREST
                events.append(Event(text=f"{player.name} paid {INTEREST} coin interest on the loan."))
            else:
                events.append(
                    Event(text=f"{player.name} has no coin to pay the loan interest; the bank waives it.")
                )
        state.phase = phase

    def _finish_turn(self, state: State, events: list[Event]) -> None:
        """END PHASE: 'Max hand size is 5 cards. Discard excess cards.' Then the next turn or step."""
        self._enter(state, "discard", events)
        if len(self._current_player(state).hand) > HAND_LIMIT:
            return
        state.turn += 1
        if state.turn < len(state.order):
            self._begin_turn(state, events)
            return
        self._score(state, events)
        # END STEP: 'Discard all remaining Opportunity cards.'
        if state.row:
            events.append(Event(text=f"Discarded opportunity cards: {_names(self.cards, state.row)}."))
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
        """SCORING STEP: the player with the most resources of a type scores; a tie for most scores nothing."""
        parts: list[str] = []
        scored = False
        for card_type, points in MAJORITY_VP.items():
            counts = [
                sum(1 for card in player.in_play if self.cards[card].type == card_type)
                for player in state.players
            ]
            best = max(counts)
            if best == 0:
                continue
            leaders = [seat for seat, count in enumerate(counts) if count == best]
            if len(leaders) > 1:
                parts.append(f"{TYPE_NAMES[card_type]} tied, no one scores")
                continue
            state.players[leaders[0]].vp += points
            scored = True
            parts.append(f"{state.players[leaders[0]].name} +{points} VP for most {TYPE_NAMES[card_type]}")
        # VP handed out at the round's end are news for everyone (the next round's cards, event, revenue
        # and bids follow in the same move); a step where nobody scores is not.
        events.append(
            Event(
                text=f"Scoring: {'; '.join(parts) if parts else 'no one has resources yet'}.",
                urgent=scored,
            )
        )

    # ---- whose turn, what they may do -------------------------------------------------------------
    def _to_act(self, state: State) -> set[Seat]:
        if state.step == "initiative":
            return {seat for seat, player in enumerate(state.players) if player.bid is None}
        if state.step == "turn":
            seats = {self._current(state)}
            if state.proposal is not None:
                seats.add(state.proposal.partner)
            return seats
        return set()

    def build_cost(self, player: PlayerState, card_id: str) -> int:
        """BUILD PHASE costs; 'If you have a Land Lease resource in play other resources cost 1 less'."""
        spec = self.cards[card_id]
        cost = spec.base_cost
        discount = spec.cost is None and "build-discount" not in spec.tags
        if discount and any("build-discount" in self.cards[card].tags for card in player.in_play):
            cost -= 1
        return cost

    def _phase_open(self, state: State, phase: Phase) -> bool:
        """The current player may still act in `phase` (the decision must be made first)."""
        return state.phase != "decision" and PHASES.index(state.phase) <= PHASES.index(phase) <= PHASES.index(
            "bank"
        )

    def _coins_at_bank(self, state: State, player: PlayerState) -> int:
        """The player's coins once in the Bank Phase (the interest is charged on entering it)."""
        if player.loan and state.phase != "bank" and player.coins >= INTEREST:
            return player.coins - INTEREST
        return player.coins

    def _legal_actions(self, state: State, seat: Seat) -> list[Choice]:
        cards = self.cards
        player = state.players[seat]
        if state.step == "initiative":
            return [
                Choice(
                    key=f"bid:{amount}",
                    label=f"Bid {amount} coin{'s' if amount != 1 else ''}",
                    action={"kind": "bid", "amount": amount},
                    group="Bid",
                    style="primary" if amount == 0 else "secondary",
                )
                for amount in range(player.coins + 1)
            ]
        if state.step != "turn":
            return []
        proposal = state.proposal
        if proposal is not None:
            if seat == proposal.partner:
                choices = []
                if self._trade_problem(state, proposal, accepting=True) is None:
                    choices.append(
                        Choice(
                            key="accept",
                            label="Accept the trade",
                            action={"kind": "accept"},
                            group="Trade",
                            style="success",
                        )
                    )
                choices.append(
                    Choice(
                        key="decline",
                        label="Decline the trade",
                        action={"kind": "decline"},
                        group="Trade",
                        style="danger",
                    )
                )
                return choices
            return [
                Choice(
                    key="cancel", label="Withdraw the trade offer", action={"kind": "cancel"}, group="Trade"
                )
            ]
        if state.phase == "decision":
            return [
                Choice(
                    key=f"take:{card}",
                    label=f"Take {cards[card].name} ({TYPE_NAMES[cards[card].type]}, "
                    f"revenue {card_revenue(cards, card, state.innovations)})",
                    action={"kind": "take", "card": card},
                    group="Take",
                    style="primary",
                )
                for card in dict.fromkeys(state.row)
            ]
        if state.phase == "discard":
            return [
                Choice(
                    key=f"discard:{card}",
                    label=f"Discard {cards[card].name}",
                    action={"kind": "discard", "card": card},
                    group="Discard",
                    style="danger",
                )
                for card in dict.fromkeys(player.hand)
            ]
        choices: list[Choice] = []
        if (
            self._phase_open(state, "expansion")
            and player.coins >= DRAW_COST
            and (state.deck or state.discard)
        ):
            choices.append(
                Choice(
                    key="draw",
                    label=f"Draw a card from the deck for {DRAW_COST}",
                    action={"kind": "draw"},
                    group="Expand",
                )
            )
        if self._phase_open(state, "trade"):
            choices.extend(self._offer_choices(state, seat))
        if self._phase_open(state, "build"):
            for card in dict.fromkeys(player.hand):
                if self._build_problem(player, card) is None:
                    choices.append(
                        Choice(
                            key=f"build:{card}",
                            label=f"Build {cards[card].name} for {self.build_cost(player, card)}",
                            action={"kind": "build", "card": card},
                            group="Build",
                            style="success",
                        )
                    )
        coins = self._coins_at_bank(state, player)
        if not player.loan:
            choices.append(
                Choice(key="loan", label=f"Take a loan of {LOAN}", action={"kind": "loan"}, group="Bank")
            )
        elif coins >= LOAN:
            choices.append(
                Choice(key="repay", label=f"Repay the loan ({LOAN})", action={"kind": "repay"}, group="Bank")
            )
        for source, pool in (("hand", player.hand), ("play", player.in_play)):
            where = "card" if source == "hand" else "resource"
            for card in dict.fromkeys(pool):
                choices.append(
                    Choice(
                        key=f"sell:{source}:{card}",
                        label=f"Sell {cards[card].name} ({where}) for {SALE_PRICE}",
                        action={"kind": "sell", "card": card, "source": source},
                        group="Bank",
                    )
                )
        choices.append(
            Choice(
                key="end-turn", label="End turn", action={"kind": "end_turn"}, group="Turn", style="primary"
            )
        )
        return choices

    def turn_key(self, state: State) -> tuple[object, ...]:
        """'Each player gets a turn. A turn has 6 phases': undo rewinds to its start, trade answers
        included; each secret bid stands alone."""
        if state.step == "turn":
            return ("turn", state.round, state.turn)
        bids = sum(player.bid is not None for player in state.players)
        return (state.step, state.round, bids)

    def trade_form(self, state: State, seat: Seat) -> TradeForm | None:
        """'You may trade coins, cards in hand, resources in play, VP's, and non-binding promises.' The
        proposer sees their
        own hand and everyone's resources in play, but only the names of cards another player might
        hold, never how many (a hand is private until the trade is accepted)."""
        if (
            state.step != "turn"
            or state.proposal is not None
            or seat not in self._to_act(state)
            or not self._phase_open(state, "trade")
        ):
            return None
        cards = self.cards
        player = state.players[seat]

        def public(owner: PlayerState) -> list[TradeGood]:
            listed = [
                TradeGood(key="coins", label="coins", most=owner.coins),
                TradeGood(key="vp", label="VP", most=owner.vp),
            ]
            in_play = Counter(owner.in_play)
            return listed + [
                TradeGood(key=f"in_play:{card}", label=f"{cards[card].name} (in play)", most=count)
                for card, count in in_play.items()
            ]

        in_hand = Counter(player.hand)
        gives = public(player) + [
            TradeGood(key=f"hand:{card}", label=f"{cards[card].name} (from hand)", most=count)
            for card, count in in_hand.items()
        ]
        return TradeForm(
            gives=gives,
            partners=[
                TradePartner(
                    seat=other,
                    name=owner.name,
                    asks=public(owner)
                    + [
                        TradeGood(key=f"hand:{card}", label=f"{cards[card].name} (from hand)")
                        for card in cards.order
                    ],
                )
                for other, owner in enumerate(state.players)
                if other != seat
            ],
            note="Promises are just chat: only what is listed moves, when the partner accepts.",
        )

    def trade_action(
        self, state: State, seat: Seat, partner: Seat, give: dict[str, int], get: dict[str, int]
    ) -> dict[str, Any]:
        def side(bundle: dict[str, int]) -> dict[str, Any]:
            items: dict[str, Any] = {"coins": 0, "vp": 0, "hand": [], "in_play": []}
            for key, count in bundle.items():
                where, _, card = key.partition(":")
                if card:
                    items[where] += [card] * count
                else:
                    items[where] += count
            return items

        return {"kind": "propose", "partner": partner, "give": side(give), "get": side(get)}

    def _offer_choices(self, state: State, seat: Seat) -> list[Choice]:
        """Ready-made single-item offers; any other trade is a structured `propose` action."""
        cards = self.cards
        player = state.players[seat]
        choices: list[Choice] = []
        for partner, other in enumerate(state.players):
            if partner == seat:
                continue
            if other.coins >= OFFER_PRICE:
                for card in dict.fromkeys(player.hand):
                    action = {
                        "kind": "propose",
                        "partner": partner,
                        "give": _items(hand=[card]),
                        "get": _items(coins=OFFER_PRICE),
                    }
                    choices.append(
                        Choice(
                            key=f"offer:{partner}:{card}",
                            label=f"Offer {other.name} your {cards[card].name} card for {words.count(OFFER_PRICE, 'coin')}",
                            action=action,
                            group="Trade",
                        )
                    )
            if player.coins >= OFFER_PRICE:
                for card in dict.fromkeys(other.in_play):
                    action = {
                        "kind": "propose",
                        "partner": partner,
                        "give": _items(coins=OFFER_PRICE),
                        "get": _items(in_play=[card]),
                    }
                    choices.append(
                        Choice(
                            key=f"ask:{partner}:{card}",
                            label=f"Offer {other.name} {words.count(OFFER_PRICE, 'coin')} for their {cards[card].name}",
                            action=action,
                            group="Trade",
                        )
                    )
        return choices

    # ---- checks shared by the choice list and apply ---------------------------------------------
    def _build_problem(self, player: PlayerState, card: str) -> str | None:
        cards = self.cards
        if card not in player.hand:
            return f"You have no {cards[card].name} in your hand."
        spec = cards[card]
        for needed in spec.needs_in_play:
            if needed not in player.in_play:
                return f"{spec.name} needs {cards[needed].name} in play first."
        cost = self.build_cost(player, card)
        if player.coins < cost:
            return f"Building {spec.name} costs {cost}; you have {player.coins}."
        return None

    def _trade_problem(self, state: State, proposal: Proposal, *, accepting: bool) -> str | None:
        """Why the trade cannot happen, or None. The partner's hand is checked only when accepting,
        so a proposal never tells the proposer what the partner holds."""
        cards = self.cards
        if proposal.partner == proposal.proposer or not 0 <= proposal.partner < len(state.players):
            return "Choose another player to trade with."
        if proposal.give.empty() and proposal.get.empty():
            return "A trade must move something."
        for items in (proposal.give, proposal.get):
            for card in items.hand + items.in_play:
                if card not in cards:
                    return f"There is no card called {card!r}."
        actor = proposal.partner if accepting else proposal.proposer
        sides = ((proposal.proposer, proposal.give), (proposal.partner, proposal.get))
        for seat, items in sides:
            owner = state.players[seat]
            who = "You have" if seat == actor else f"{owner.name} has"
            if items.coins > owner.coins:
                return f"{who} only {words.count(owner.coins, 'coin')}."
            if items.vp > owner.vp:
                return f"{who} only {owner.vp} VP."
            if not _contains(owner.in_play, items.in_play):
                return f"{who} not got {_names(cards, items.in_play)} in play."
            if (seat == proposal.proposer or accepting) and not _contains(owner.hand, items.hand):
                return f"{who} not got {_names(cards, items.hand)} in hand."
        return None

    # ---- apply ------------------------------------------------------------------------------------
    def _apply(self, state: State, seat: Seat, action: Any) -> list[Event]:
        events: list[Event] = []
        if state.step == "initiative":
            if not isinstance(action, Bid):
                raise RuleError("Everyone is bidding for initiative now: choose a bid.")
            return self._bid(state, seat, action, events)
        if isinstance(action, Bid):
            raise RuleError("The bidding is over for this round.")
        proposal = state.proposal
        if proposal is not None:
            if seat == proposal.partner and isinstance(action, Accept | Decline):
                return self._answer(state, proposal, accept=isinstance(action, Accept), events=events)
            if seat == proposal.proposer and isinstance(action, Cancel):
                state.proposal = None
                name = state.players[seat].name
                events.append(
                    Event(
                        text=f"{name} withdrew the trade offer.",
                        private={
                            proposal.partner: f"{name} withdrew the trade offer to you "
                            f"({_terms(self.cards, proposal, proposal.partner)})."
                        },
                    )
                )
                return events
            if seat == proposal.partner:
                raise RuleError("Accept or decline the trade you were offered.")
            raise RuleError(
                f"Wait for {state.players[proposal.partner].name} to answer your offer, or withdraw it."
            )
        if isinstance(action, Accept | Decline | Cancel):
            raise RuleError("There is no trade offer to answer.")
        player = state.players[seat]
        cards = self.cards
        if state.phase == "decision" and not isinstance(action, Take):
            raise RuleError("First take one opportunity card (Decision Phase).")
        if state.phase == "discard" and not isinstance(action, Discard):
            raise RuleError(f"Your hand is over {words.count(HAND_LIMIT, 'card')}: discard first.")
        match action:
            case Take(card=card):
                if state.phase != "decision":
                    raise RuleError("You already took your opportunity card this turn.")
                if card not in state.row:
                    raise RuleError("That card is not in the opportunity row.")
                state.row.remove(card)
                player.hand.append(card)
                state.phase = "expansion"
                events.append(Event(text=f"{player.name} took {cards[card].name} from the opportunity row."))
            case Draw():
                self._require_phase(state, "expansion", "draw from the deck")
                if player.coins < DRAW_COST:
                    raise RuleError(f"Drawing a card costs {DRAW_COST}; you have {player.coins}.")
                if not state.deck and not state.discard:
                    raise RuleError("There are no cards left to draw.")
                self._enter(state, "expansion", events)
                player.coins -= DRAW_COST
                state.bank += DRAW_COST
                card = self._deal(state, events)
                assert card is not None
                player.hand.append(card)
                events.append(
                    Event(
                        text=f"{player.name} paid {DRAW_COST} to draw a card.",
                        private={seat: f"You drew {cards[card].name}."},
                        reveals=True,
                    )
                )
            case Propose():
                self._require_phase(state, "trade", "propose a trade")
                offer = Proposal(proposer=seat, partner=action.partner, give=action.give, get=action.get)
                problem = self._trade_problem(state, offer, accepting=False)
                if problem:
                    raise RuleError(problem)
                self._enter(state, "trade", events)
                state.proposal = offer
                partner = state.players[action.partner].name
                line = f"Offer: you give {_describe(cards, action.give)}; you get {_describe(cards, action.get)}."
                events.append(
                    Event(
                        text=f"{player.name} proposed a trade to {partner}.",
                        private={
                            seat: line,
                            action.partner: f"{player.name} offers {_describe(cards, action.give)} "
                            f"for your {_describe(cards, action.get)}.",
                        },
                        urgent=True,  # the partner must answer it
                    )
                )
            case Build(card=card):
                self._require_phase(state, "build", "build")
                if card not in cards:
                    raise RuleError(f"There is no card called {card!r}.")
                problem = self._build_problem(player, card)
                if problem:
                    raise RuleError(problem)
                self._enter(state, "build", events)
                cost = self.build_cost(player, card)
                player.coins -= cost
                state.bank += cost
                player.hand.remove(card)
                player.in_play.append(card)
                award = cards[card].award_vp
                player.vp += award
                extra = f" and gained {award} VP" if award else ""
                events.append(Event(text=f"{player.name} built {cards[card].name} for {cost}{extra}."))
            case Loan():
                self._require_phase(state, "bank", "take a loan")
                if player.loan:
                    raise RuleError("You may only have one loan at a time.")
                self._enter(state, "bank", events)
                player.loan = True
                player.coins += LOAN
                state.bank -= LOAN
                events.append(Event(text=f"{player.name} took a loan of {LOAN}."))
            case Repay():
                self._require_phase(state, "bank", "repay a loan")
                if not player.loan:
                    raise RuleError("You have no loan to repay.")
                if self._coins_at_bank(state, player) < LOAN:
                    raise RuleError(
                        f"Repaying the loan takes {words.count(LOAN, 'coin')} (after the interest)."
                    )
                self._enter(state, "bank", events)
                player.loan = False
                player.coins -= LOAN
                state.bank += LOAN
                events.append(Event(text=f"{player.name} repaid the loan."))
            case Sell(card=card, source=source):
                self._require_phase(state, "bank", "sell to the bank")
                pool = player.hand if source == "hand" else player.in_play
                if card not in pool:
                    where = "in your hand" if source == "hand" else "in play"
                    raise RuleError(f"You have no such card {where}.")
                self._enter(state, "bank", events)
                pool.remove(card)
                state.discard.append(card)
                player.coins += SALE_PRICE
                state.bank -= SALE_PRICE
                what = "card" if source == "hand" else "resource"
                events.append(
                    Event(
                        text=f"{player.name} sold {cards[card].name} ({what}) to the bank for {SALE_PRICE}."
                    )
                )
            case EndTurn():
                events.append(Event(text=f"{player.name} ended the turn."))
                self._finish_turn(state, events)
            case Discard(card=card):
                if state.phase != "discard":
                    raise RuleError("You only discard at the end of your turn, above the hand limit.")
                if card not in player.hand:
                    raise RuleError("You have no such card in your hand.")
                player.hand.remove(card)
                state.discard.append(card)
                events.append(
                    Event(text=f"{player.name} discarded {cards[card].name} (hand limit {HAND_LIMIT}).")
                )
                self._finish_turn(state, events)
            case _:
                raise RuleError("That is not something you can do now.")
        return events

    def _require_phase(self, state: State, phase: Phase, doing: str) -> None:
        if not self._phase_open(state, phase):
            raise RuleError(
                f"It is too late in your turn to {doing} (you are in the {state.phase.title()} Phase)."
            )

    def _bid(self, state: State, seat: Seat, action: Bid, events: list[Event]) -> list[Event]:
        player = state.players[seat]
        if action.amount > player.coins:
            raise RuleError(f"You cannot bid {action.amount}: you have {words.count(player.coins, 'coin')}.")
        player.bid = action.amount
        events.append(
            Event(text=f"{player.name} placed a secret bid.", private={seat: f"You bid {action.amount}."})
        )
        if all(other.bid is not None for other in state.players):
            self._reveal_bids(state, events)
        return events

    def _answer(self, state: State, proposal: Proposal, *, accept: bool, events: list[Event]) -> list[Event]:
        proposer, partner = state.players[proposal.proposer], state.players[proposal.partner]
        cards = self.cards
        if not accept:
            state.proposal = None
            events.append(
                Event(
                    text=f"{partner.name} declined {proposer.name}'s trade.",
                    private={
                        proposal.proposer: f"{partner.name} declined your trade offer "
                        f"({_terms(cards, proposal, proposal.proposer)})."
                    },
                    urgent=True,  # the answer the proposer was waiting for
                )
            )
            return events
        problem = self._trade_problem(state, proposal, accepting=True)
        if problem:
            raise RuleError(problem)
        for giver, taker, items in ((proposer, partner, proposal.give), (partner, proposer, proposal.get)):
            giver.coins -= items.coins
            taker.coins += items.coins
            giver.vp -= items.vp
            taker.vp += items.vp
            _remove(giver.hand, items.hand)
            taker.hand.extend(items.hand)
            _remove(giver.in_play, items.in_play)
            taker.in_play.extend(items.in_play)
        state.proposal = None
        events.append(
            Event(
                text=f"{partner.name} accepted {proposer.name}'s trade: {proposer.name} gave "
                f"{_describe(cards, proposal.give, hidden_hand=True)}; {partner.name} gave "
                f"{_describe(cards, proposal.get, hidden_hand=True)}.",
                private={
                    proposal.proposer: f"{partner.name} accepted your trade offer "
                    f"({_terms(cards, proposal, proposal.proposer, done=True)}).",
                    proposal.partner: f"You accepted {proposer.name}'s trade offer "
                    f"({_terms(cards, proposal, proposal.partner, done=True)}).",
                },
                urgent=True,  # goods changed hands between two players, in public
            )
        )
        return events

    # ---- views and result ----------------------------------------------------------------------
    def _card_view(self, state: State, card: str, owner: PlayerState | None = None) -> CardView:
        spec = self.cards[card]
        return CardView(
            id=card,
            name=spec.name,
            type=spec.type,
            revenue=card_revenue(self.cards, card, state.innovations),
            cost=self.build_cost(owner, card) if owner is not None else spec.base_cost,
            requires=[self.cards[requirement].label for requirement in spec.requires],
            note=spec.note,
        )

    def _view(self, state: State, seat: Seat | None) -> IronBridgeGorgeView:
        players = state.players
        in_play = [player.in_play for player in players]
        seats = [
            SeatView(
                seat=index,
                name=player.name,
                coins=player.coins,
                vp=player.vp,
                loan=player.loan,
                hand_count=len(player.hand),
                resources=[self._card_view(state, card) for card in player.in_play],
                revenue=revenue_report(self.cards, in_play, index, "nothing", state.innovations).gross,
                income=player.income,
                bid_placed=state.step == "initiative" and player.bid is not None,
                bid=(state.last_bids[index] if state.last_bids is not None else None)
                if state.step != "initiative"
                else (player.bid if index == seat else None),
            )
            for index, player in enumerate(players)
        ]
        current = self._current(state) if state.step == "turn" else None
        proposal = None
        if state.proposal is not None:
            party = seat in (state.proposal.proposer, state.proposal.partner)
            proposal = ProposalView(
                proposer=state.proposal.proposer,
                partner=state.proposal.partner,
                give=state.proposal.give if party else None,
                get=state.proposal.get if party else None,
                text=self._offer_text(state, state.proposal) if party else None,
            )
        own = players[seat] if seat is not None else None
        result = self._result(state)
        scoreboard = None
        if result is not None:
            scoreboard = [
                ScoreLine(
                    place=place + 1,
                    seat=index,
                    name=players[index].name,
                    vp=players[index].vp,
                    coins=players[index].coins,
                    resources=len(players[index].in_play),
                )
                for place, group in enumerate(result.ranking)
                for index in group
            ]
        return IronBridgeGorgeView(
            game=self.info.id,
            seat=seat,
            players=[player.name for player in players],
            to_act=sorted(self.to_act(state)),
            headline=self._headline(state, result.reason if result else None),
            finished=result is not None,
            topic=rules_topic(state),
            round=state.round,
            rounds=state.rounds,
            step=state.step,
            phase=state.phase if state.step == "turn" else None,
            current=current,
            order=state.order,
            row=[self._card_view(state, card) for card in state.row],
            event=TableEntry(id=state.event, name=EVENTS[state.event][0], note=EVENTS[state.event][1]),
            innovation_roll=(
                TableEntry(
                    id=state.innovation_roll,
                    name=INNOVATIONS[state.innovation_roll][0],
                    note=INNOVATIONS[state.innovation_roll][1],
                )
                if state.innovation_roll
                else None
            ),
            innovations=[
                TableEntry(id=name, name=INNOVATIONS[name][0], note=INNOVATIONS[name][1])
                for name in state.innovations
            ],
            deck_count=len(state.deck),
            discard_count=len(state.discard),
            bank=state.bank,
            seats=seats,
            hand=[self._card_view(state, card, own) for card in own.hand] if own is not None else None,
            my_bid=own.bid if own is not None and state.step == "initiative" else None,
            proposal=proposal,
            scoreboard=scoreboard,
        )

    def _offer_text(self, state: State, proposal: Proposal) -> str:
        proposer, partner = state.players[proposal.proposer].name, state.players[proposal.partner].name
        return (
            f"{proposer} gives {_describe(self.cards, proposal.give)}; "
            f"{partner} gives {_describe(self.cards, proposal.get)}."
        )

    def _headline(self, state: State, reason: str | None) -> str:
        if reason is not None:
            return f"Game over - {words.clause(reason)}"
        where = f"Round {state.round}/{state.rounds}"
        if state.step == "initiative":
            waiting = [player.name for player in state.players if player.bid is None]
            return f"{where} - Initiative bids - waiting for {', '.join(waiting)}"
        player = self._current_player(state)
        text = f"{where} - {player.name}'s turn - {state.phase.title()} Phase"
        if state.phase == "discard":
            text = f"{where} - {player.name}'s turn - End Phase (discard to {HAND_LIMIT})"
        if state.proposal is not None:
            text += f" - waiting for {state.players[state.proposal.partner].name} to answer a trade"
        return text

    def _result(self, state: State) -> Result | None:
        """Most VP wins; ties are broken by coins minus an unpaid loan, then by resources in play."""
        if state.step != "over":
            return None
        players = state.players

        def key(seat: Seat) -> tuple[int, int, int]:
            player = players[seat]
            return (player.vp, player.coins - (LOAN if player.loan else 0), len(player.in_play))

        seats = sorted(range(len(players)), key=key, reverse=True)
        ranking: list[list[Seat]] = []
        for seat in seats:
            if ranking and key(ranking[-1][0]) == key(seat):
                ranking[-1].append(seat)
            else:
                ranking.append([seat])
        winners = ranking[0]
        top = players[winners[0]]
        names = words.listed(players[seat].name for seat in winners)
        best = key(winners[0])
        coins = f"{words.count(best[1], 'coin')} after any loan"
        resources = f"{words.count(best[2], 'resource')} in play"
        if len(winners) > 1:
            reason = f"{names} share the win with {top.vp} VP, {coins} and {resources} each."
        else:
            rivals = [seat for seat in seats[1:] if players[seat].vp == top.vp]
            tied = words.listed(players[seat].name for seat in [winners[0], *rivals])
            if not rivals:
                second = seats[1] if len(seats) > 1 else None
                reason = f"{names} wins with {top.vp} VP."
                if second is not None:
                    reason = f"{names} wins with the most VP, {top.vp} to {players[second].name}'s {players[second].vp}."
            elif any(key(seat)[1] == best[1] for seat in rivals):
                most = max(key(seat)[2] for seat in rivals)
                reason = (
                    f"{tied} tie on {top.vp} VP and {coins}; {names} wins with more resources in play, "
                    f"{best[2]} to {most}."
                )
            else:
                most = max(key(seat)[1] for seat in rivals)
                reason = (
                    f"{tied} tie on {top.vp} VP; {names} wins on coins after any loan, {best[1]} to {most}."
                )
        return Result(
            scores={seat: player.vp for seat, player in enumerate(players)},
            ranking=ranking,
            reason=reason,
            breakdown={
                seat: {
                    "vp": player.vp,
                    "coins": player.coins,
                    "loan": LOAN if player.loan else 0,
                    "resources": len(player.in_play),
                }
                for seat, player in enumerate(players)
            },
        )


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
