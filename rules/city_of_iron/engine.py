"""City of Iron: the rules, from the publisher's rulebook (see data/city_of_iron/README.md for decisions).

This module is the game itself: setup, whose turn it is, the menu and the apply dispatch by phase and
kind of move, and the turn flow (rounds, actions spent, End Round, the secret purchase). Each family of
moves (its legality checks, its choices and its apply function) lives in `moves/`; the choice helpers
the families share in `choices.py`; the scoring in `scoring.py`; what a seat sees in `view.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, ClassVar

from rules import words
from rules.city_of_iron import scoring
from rules.city_of_iron.catalogue import entries as catalogue_entries
from rules.city_of_iron.data import GameData, game_data, rules_data
from rules.city_of_iron.moves.attack import apply_attack, attack_choices
from rules.city_of_iron.moves.basic import apply_draw, apply_science, apply_tax, basic_choices
from rules.city_of_iron.moves.bidding import apply_bid, apply_rebid, bid_choices, bid_costs, second_bidder
from rules.city_of_iron.moves.build import (
    apply_build,
    apply_move,
    apply_store,
    build_choices,
    move_choices,
    store_choices,
)
from rules.city_of_iron.moves.cards import apply_play, card_action, play_choices
from rules.city_of_iron.moves.discard import apply_back, apply_order, order_choice, ordering_choices
from rules.city_of_iron.moves.end_round import (
    apply_snyle,
    end_game,
    gain_science,
    pay_income,
    refill,
    round_draws,
    score_due,
    snyle_choices,
    snyle_owner,
)
from rules.city_of_iron.moves.purchase import (
    apply_clear,
    apply_done,
    apply_select,
    purchase_choices,
    reveal_purchases,
    start_purchase,
)
from rules.city_of_iron.moves.setup import (
    apply_arrange,
    apply_nation,
    arrange_choices,
    deal_cards,
    nation_choices,
)
from rules.city_of_iron.state import Action, City, CityState, Player
from rules.city_of_iron.view import CityOfIronView, build_view
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
    View,
    first_declared,
)

OPTIONS = (
    OptionSpec(
        name="nations",
        label="Nations",
        kind="choice",
        default="random",
        choices=["random", "pick"],
        labels={"random": "dealt at random", "pick": "picked in seat order"},
        description="Deal nations at random, or let each player pick one in seat order.",
    ),
    OptionSpec(
        name="abilities",
        label="Nation abilities",
        kind="bool",
        default=False,
        description="Play with each nation's special abilities and cards (off for a first game).",
    ),
    OptionSpec(
        name="expansion",
        label="Town expansion",
        kind="bool",
        default=False,
        description="Add the seven no-star expansion towns, three of them on offer at a time.",
    ),
    OptionSpec(
        name="stored_penalty",
        label="Stored building penalty",
        kind="choice",
        default="per_card",
        choices=["per_card", "per_two"],
        labels={"per_card": "1 VP per stored building", "per_two": "1 VP per 2 stored buildings"},
        description="At game end lose 1 VP per stored building, or 1 VP per 2 stored buildings.",
    ),
)

RULES_TOPICS: dict[str, str] = {
    "nation": "nations",
    "arrange": "setup",
    "bid": "bidding",
    "rebid": "bidding",
    "actions": "actions",
    "snyle": "expansion-towns",
    "purchase": "end-of-round",
    "over": "game-end",
}
"""The `/rules` topic (data/city_of_iron/rules.md) of each phase, for the turn message's link."""


def card_moves(state: CityState, seat: Seat) -> list[Choice]:
    """The seat's card actions and attacks: the moves whose discards go down in an order."""
    return [*play_choices(state, seat), *attack_choices(state, seat)]


def action_choices(state: CityState, seat: Seat) -> list[Choice]:
    """The actions step's menu, family by family in the order it is shown; in the discard-order step,
    the card actions and attacks in each order of their discards."""
    if state.ordering:
        return ordering_choices(card_moves(state, seat))
    cards = card_moves(state, seat)
    menu = [
        *build_choices(state, seat),
        *cards,
        *order_choice(cards),
        *store_choices(state),
        *basic_choices(state, seat),
        *move_choices(state, seat),
    ]
    # An action is compulsory (no pass): the clock plays the menu's first move, as it always has.
    return first_declared(menu, "safe")


CHOICES: dict[str, Callable[[CityState, Seat], list[Choice]]] = {
    "nation": lambda state, _seat: nation_choices(state),
    "arrange": arrange_choices,
    "bid": bid_choices,
    "rebid": bid_choices,
    "actions": action_choices,
    "snyle": snyle_choices,
    "purchase": purchase_choices,
}
"""Each phase's menu."""


def _phase_name(state: CityState) -> str:
    return {
        "nation": "nation choice",
        "arrange": "starting deck",
        "bid": "turn-order bid",
        "rebid": "Toad second bid",
        "actions": "actions",
        "snyle": "Snyle",
        "purchase": "card purchase",
        "over": "finished",
    }[state.phase]


def start_round(state: CityState, events: list[Event]) -> None:
    state.phase = "bid"
    state.track = [None] * len(bid_costs(state))
    state.bid_index = 0
    state.current = state.bid_order[0]
    for player in state.players:
        player.actions_left = rules_data().board.actions_per_round
    order = ", ".join(state.players[seat].name for seat in state.bid_order)
    events.append(Event(text=f"Round {state.round} begins. Bid order: {order}."))


def start_actions(state: CityState, events: list[Event]) -> None:
    state.turn_order = [seat for seat in reversed(state.track) if seat is not None]
    state.phase = "actions"
    state.current = state.turn_order[0]
    order = ", ".join(state.players[seat].name for seat in state.turn_order)
    events.append(Event(text=f"Turn order: {order}."))


def spend_action(state: CityState, seat: Seat, events: list[Event]) -> None:
    state.players[seat].actions_left -= 1
    order = state.turn_order
    start = order.index(seat)
    for step in range(1, len(order) + 1):
        candidate = order[(start + step) % len(order)]
        if state.players[candidate].actions_left > 0:
            state.current = candidate
            return
    end_round(state, events)


def end_round(state: CityState, events: list[Event]) -> None:
    owner = snyle_owner(state)
    if owner is not None:
        state.phase = "snyle"
        state.current = owner
        events.append(
            Event(text=f"End of round {state.round}: {state.players[owner].name} chooses Snyle's good.")
        )
        return
    finish_round(state, events)


def finish_round(state: CityState, events: list[Event]) -> None:
    final = state.last_round
    drawn = [] if final else refill(state, events)
    score_due(state, events)
    state.score_due = drawn
    if final or state.scorings >= 3:
        end_game(state, events)
        return
    pay_income(state, events)
    gain_science(state, events)
    round_draws(state, events)
    start_purchase(state, events)
    if all(player.done for player in state.players):
        _next_round(state, events)


def _next_round(state: CityState, events: list[Event]) -> None:
    """Everyone has chosen their cards: they are revealed and paid for, and the next round begins."""
    reveal_purchases(state, events)
    start_round(state, events)


# ---- what follows a move -------------------------------------------------------------------------
def _after_nation(state: CityState, seat: Seat, action: Any, events: list[Event]) -> None:
    if seat + 1 < len(state.players):
        state.current = seat + 1
    else:
        state.current = 0
        state.phase = "arrange"
        deal_cards(state)


def _after_arrange(state: CityState, seat: Seat, action: Any, events: list[Event]) -> None:
    if all(other.done for other in state.players):
        for other in state.players:
            other.done = False
        start_round(state, events)


def _after_bid(state: CityState, seat: Seat, action: Any, events: list[Event]) -> None:
    state.bid_index += 1
    if state.bid_index < len(state.bid_order):
        state.current = state.bid_order[state.bid_index]
        return
    toad = second_bidder(state)
    if toad is not None:
        state.phase = "rebid"
        state.current = toad
        return
    start_actions(state, events)


def _after_rebid(state: CityState, seat: Seat, action: Any, events: list[Event]) -> None:
    start_actions(state, events)


def _after_action(state: CityState, seat: Seat, action: Any, events: list[Event]) -> None:
    spend_action(state, seat, events)


def _after_play(state: CityState, seat: Seat, action: Any, events: list[Event]) -> None:
    effect = card_action(state, state.players[seat], action.card)
    if effect is not None and not effect.free:
        spend_action(state, seat, events)


def _after_snyle(state: CityState, seat: Seat, action: Any, events: list[Event]) -> None:
    finish_round(state, events)


def _after_done(state: CityState, seat: Seat, action: Any, events: list[Event]) -> None:
    if all(other.done for other in state.players):
        _next_round(state, events)


def _nothing(state: CityState, seat: Seat, action: Any, events: list[Event]) -> None:
    return None


def _apply_order(state: CityState, seat: Seat, action: Any) -> list[Event]:
    return apply_order(state, seat, card_moves(state, seat))


Apply = Callable[[CityState, Seat, Any], list[Event]]
After = Callable[[CityState, Seat, Any, list[Event]], None]
ACTIONS = ("actions",)

MOVES: dict[str, tuple[tuple[str, ...], Apply, After]] = {
    "nation": (("nation",), apply_nation, _after_nation),
    "arrange": (("arrange",), apply_arrange, _after_arrange),
    "bid": (("bid",), apply_bid, _after_bid),
    "rebid": (("rebid",), apply_rebid, _after_rebid),
    "build": (ACTIONS, apply_build, _after_action),
    "store": (ACTIONS, apply_store, _after_action),
    "draw": (ACTIONS, apply_draw, _after_action),
    "tax": (ACTIONS, apply_tax, _after_action),
    "science": (ACTIONS, apply_science, _after_action),
    "attack": (ACTIONS, apply_attack, _after_action),
    "play": (ACTIONS, apply_play, _after_play),
    "order": (ACTIONS, _apply_order, _nothing),
    "back": (ACTIONS, apply_back, _nothing),
    "move": (ACTIONS, apply_move, _nothing),
    "snyle": (("snyle",), apply_snyle, _after_snyle),
    "select": (("purchase",), apply_select, _nothing),
    "clear": (("purchase",), apply_clear, _nothing),
    "done": (("purchase",), apply_done, _after_done),
}
"""Each kind of move: the phases it belongs to, its family's apply function and what follows it in
the turn (the next seat, the next phase). The apply functions refuse (RuleError) before changing
anything; what follows cannot fail."""


@cache
def _holding_towns() -> frozenset[str]:
    """The towns that hold buildings (their capacity), looked up by every move's `_apply`."""
    return frozenset(town_id for town_id, kind in rules_data().towns.items() if kind.capacity)


class CityOfIron(Game[CityState]):
    info: ClassVar[GameInfo] = GameInfo(
        id="city-of-iron",
        name="City of Iron",
        min_players=2,
        max_players=4,
        summary="Build cities, corner rare goods, conquer towns and outbid rivals for turn order.",
        hidden_information=True,
        randomness=True,
        simultaneous=True,
        options=OPTIONS,
    )
    state_model = CityState
    view_model = CityOfIronView
    action_type = Action

    # ---- setup -----------------------------------------------------------------------------
    def _setup(self, players: list[str], options: dict[str, Any], rng: Rng) -> CityState:
        data = rules_data()
        count = len(players)
        board = data.board
        box: list[str] = []

        decks: dict[str, list[str]] = {"A": [], "B": [], "C": []}
        for kind in data.buildings.values():
            for index, mark in enumerate(kind.copies):
                uid = f"{kind.id}.{index + 1}"
                removed = (mark == 3 and count <= 3) or (mark == 2 and count <= 2)
                (box if removed else decks[kind.deck]).append(uid)
        deck: list[str] = []
        for letter in ("A", "B", "C"):
            deck.extend(rng.shuffled(decks[letter]))
            deck.append(f"score-{letter}")
        slots = board.row_slots[count]
        row: list[str | None] = [deck.pop(0) for _ in range(slots)]

        piles: dict[str, list[str]] = {"1": [], "2": [], "3": []}
        expansion: list[str] = []
        for town_data in data.towns.values():
            demons = "bottled_demons" in town_data.goods
            ore = "ore" in town_data.goods
            if town_data.stars == 0:
                (expansion if options["expansion"] else box).append(town_data.id)
            elif (count <= 3 and demons) or (count <= 2 and ore):
                box.append(town_data.id)
            else:
                piles[str(town_data.stars)].append(town_data.id)
        piles = {stars: rng.shuffled(pile) for stars, pile in piles.items()}
        expansion = rng.shuffled(expansion)
        row_size = board.expansion_row if options["expansion"] else 0
        expansion_row, expansion_deck = expansion[:row_size], expansion[row_size:]

        starts = [land.id for land in data.lands.values() if land.start]
        lands: list[str] = []
        for land in data.lands.values():
            if land.start:
                if land.id not in starts[:count]:
                    box.append(land.id)
            elif count == 2 and not land.two_player:
                box.append(land.id)
            else:
                lands.append(land.id)

        start_token = next(token.id for token in board.tokens if token.start)
        others = [token.id for token in board.tokens if not token.start]
        seats = [
            Player(
                name=name,
                coins=board.starting_coins,
                cities=[City(id=f"{seat}-1", land=starts[seat], token=start_token)],
                tokens=list(others),
            )
            for seat, name in enumerate(players)
        ]
        state = CityState(
            players=seats,
            rng=rng,
            nations_mode=options["nations"],
            abilities=options["abilities"],
            expansion=options["expansion"],
            stored_penalty=options["stored_penalty"],
            phase="nation" if options["nations"] == "pick" else "arrange",
            row=row,
            deck=deck,
            box=box,
            town_piles=piles,
            expansion_row=expansion_row,
            expansion_deck=expansion_deck,
            lands=lands,
            bid_order=rng.shuffled(range(count)),
        )
        if state.phase == "arrange":
            nations = rng.shuffled(list(data.nations))
            for seat, player in enumerate(state.players):
                player.nation = nations[seat]
            deal_cards(state)
        return state

    def opening_events(self, state: CityState) -> list[Event]:
        """Setup 9, 'Randomly determine beginning bid order', and the nations dealt at random happen in
        `setup` (read from the state it returned): told in the first post."""
        names = [player.name for player in state.players]
        events = [
            Event(
                text="Bid order, drawn at random (left to right on the bid track): "
                + words.listed(names[seat] for seat in state.bid_order)
                + ".",
                reveals=True,
            )
        ]
        if state.nations_mode == "random":
            nations = rules_data().nations
            dealt = words.listed(
                f"the {nations[player.nation].name} to {player.name}"
                for player in state.players
                if player.nation
            )
            events.append(Event(text=f"Nations dealt at random: {dealt}.", reveals=True))
        return events

    def _to_act(self, state: CityState) -> set[Seat]:
        if state.phase in ("arrange", "purchase"):
            return {seat for seat, player in enumerate(state.players) if not player.done}
        if state.phase == "over":
            return set()
        return {state.current}

    # ---- legal actions -----------------------------------------------------------------------------
    def _legal_actions(self, state: CityState, seat: Seat) -> list[Choice]:
        menu = CHOICES.get(state.phase)
        return menu(state, seat) if menu else []

    # ---- apply ---------------------------------------------------------------------------------------
    def _apply(self, state: CityState, seat: Seat, action: Any) -> list[Event]:
        # Towns that hold buildings get their (possibly empty) list here, in the move, never in a read:
        # legal_actions must not change the state (the snapshot must equal the replay of the log).
        holding = _holding_towns()
        for player in state.players:
            for town_id in player.towns:
                if town_id in holding:
                    state.town_buildings.setdefault(town_id, [])
        phases, move, after = MOVES[action.kind]
        if state.phase not in phases:
            raise RuleError(f"That move is not possible now: the game is in the {_phase_name(state)} step.")
        events = move(state, seat, action)
        if state.ordering and action.kind != "order":
            state.ordering = False  # the discard-order step ends with the move played from it
        after(state, seat, action, events)
        return events

    # ---- views and result ------------------------------------------------------------------------------
    def _view(self, state: CityState, seat: Seat | None) -> View:
        view = build_view(self, state, seat)
        view.topic = RULES_TOPICS[state.phase]
        return view

    def _result(self, state: CityState) -> Result | None:
        if state.phase != "over":
            return None
        return scoring.result(state)

    def data(self) -> GameData:
        return game_data()

    def catalogue(self) -> list[CatalogueEntry]:
        """Every good, building, town, land, card and nation of the data, for `/card`."""
        return list(catalogue_entries())
