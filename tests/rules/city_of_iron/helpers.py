"""Shared helpers for the City of Iron tests: rigged setups and quick action shortcuts."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from rules.city_of_iron import GAME
from rules.city_of_iron.moves.setup import deal_cards
from rules.city_of_iron.state import CityState
from rules.core import Game
from rules.policy import policy_for

SAMPLE_PLAYERS = ["Sam", "Julia", "Mark", "Mary"]


def new_game(players: list[str] | None = None, seed: int = 1, **options: Any) -> CityState:
    return GAME.setup(players or SAMPLE_PLAYERS, options, seed)


def act(state: CityState, seat: int, action: dict[str, Any]) -> CityState:
    """Apply through the public API (deep copy, turn checks, parsing) and return the new state."""
    return GAME.apply(state, seat, action).state


def arrange_all(state: CityState) -> CityState:
    """Everyone keeps the starting decks in data order."""
    for seat, player in enumerate(state.players):
        citizen = [uid.rsplit(".", 1)[0] for uid in player.citizen_draw]
        military = [uid.rsplit(".", 1)[0] for uid in player.military_draw]
        state = act(state, seat, {"kind": "arrange", "citizen": citizen, "military": military})
    return state


def rig_row(state: CityState, wanted: list[str]) -> None:
    """Put these building instances on the left of the row, swapping with cards from the deck."""
    for slot, uid in enumerate(wanted):
        current = state.row[slot]
        if current == uid:
            continue
        if uid in state.row:
            other = state.row.index(uid)
            state.row[other], state.row[slot] = current, uid
        else:
            position = state.deck.index(uid)
            state.deck[position] = current  # type: ignore[assignment]
            state.row[slot] = uid


def bid_all(state: CityState, spaces: dict[int, int]) -> CityState:
    """Bid in bid order; `spaces` maps seat -> track space."""
    for seat in list(state.bid_order):
        state = act(state, seat, {"kind": "bid", "space": spaces[seat]})
    return state


def sample_setup() -> CityState:
    """The Sample Round's table: Sam, Julia, Mark, Mary bid in that order, no nation abilities."""
    state = new_game(SAMPLE_PLAYERS, seed=7)
    state.bid_order = [0, 1, 2, 3]
    rig_row(
        state,
        [
            "academy.1",
            "academy.2",
            "srika-pasture.1",
            "srika-pasture-mixed.1",
            "turnip-farm.1",
            "turnip-farm.2",
            "moss-garden.1",
            "mine.1",
        ],
    )
    # Sam keeps the Scholar on top, so his setup draw is the Scholar and his action draw the Cartographer.
    return arrange_all(state)


def all_card_places(state: CityState) -> list[str]:
    """Every building, Score card and town in every place it can be."""
    places: list[str] = [uid for uid in state.row if uid]
    places += state.deck + state.discard + state.box + state.score_area
    for pile in state.town_piles.values():
        places += pile
    places += state.expansion_row + state.expansion_deck
    for buildings in state.town_buildings.values():
        places += buildings
    places += state.lands
    for player in state.players:
        places += player.stored + player.towns
        for city in player.cities:
            places += city.buildings
            places.append(city.land)
    return places


def player_card_places(state: CityState, seat: int) -> list[str]:
    player = state.players[seat]
    return (
        player.hand
        + player.citizen_draw
        + player.citizen_discard
        + player.military_draw
        + player.military_discard
        + player.unpurchased
    )


def start_actions(players: int = 2, seed: int = 3, **options: Any) -> CityState:
    """A game in its first actions step: decks as dealt, everyone bid the first open space."""
    state = arrange_all(new_game([f"P{index}" for index in range(players)], seed=seed, **options))
    while state.phase in ("bid", "rebid"):
        seat = state.current
        state = act(state, seat, GAME.legal_actions(state, seat)[0].action)
    assert state.phase == "actions"
    return state


def give(state: CityState, seat: int, type_id: str) -> str:
    """Move one of the seat's cards of this type into its hand (from wherever it is) and return it."""
    player = state.players[seat]
    for pile in (
        player.unpurchased,
        player.citizen_draw,
        player.military_draw,
        player.citizen_discard,
        player.military_discard,
    ):
        for uid in pile:
            if uid.rsplit(".", 1)[0] == type_id:
                pile.remove(uid)
                player.hand.append(uid)
                return uid
    raise AssertionError(f"seat {seat} has no {type_id}")


def find_building(state: CityState, type_id: str) -> str:
    """Put a building of this type at the left of the row (taking it from the deck if needed)."""
    for uid in [*state.row, *state.deck, *state.discard]:
        if uid and uid.rsplit(".", 1)[0] == type_id:
            if uid in state.discard:
                state.discard.remove(uid)
                state.deck.insert(0, uid)
            rig_row(state, [uid])
            return uid
    raise AssertionError(f"no {type_id} left")


def rejected(state: CityState, seat: int, action: dict[str, Any], words: str = "") -> str:
    """The action raises RuleError (with `words` in its sentence) and leaves the state as it was."""
    from rules.core import RuleError

    before = GAME.dump_state(state)
    try:
        GAME._apply(state, seat, GAME.parse_action(action))
    except RuleError as error:
        assert GAME.dump_state(state) == before, "a refused move must not change the state"
        assert words.lower() in error.message.lower(), error.message
        return error.message
    raise AssertionError(f"{action} was accepted")


def place(state: CityState, seat: int, uids: list[str], city: int = 0) -> None:
    """Build these buildings for free in a seat's city, taking them from wherever they are."""
    for uid in uids:
        if uid in state.deck:
            state.deck.remove(uid)
        elif uid in state.row:
            state.row[state.row.index(uid)] = None
        elif uid in state.box:
            state.box.remove(uid)
        else:
            raise AssertionError(f"{uid} is not free to place")
        state.players[seat].cities[city].buildings.append(uid)


def kinds(uids: list[str]) -> list[str]:
    """Card or building type ids of these uids."""
    return [uid.rsplit(".", 1)[0] for uid in uids]


def end_round(state: CityState) -> CityState:
    """Everyone taxes until the actions step is over."""
    while state.phase == "actions":
        state = act(state, state.current, {"kind": "tax"})
    return state


def nation_game(nation: str, abilities: bool = True) -> CityState:
    """A two-player game with seat 0 playing `nation`, cards dealt."""
    state = new_game(["A", "B"], abilities=abilities)
    state.players[0].nation = nation
    state.players[1].nation = "arc" if nation != "arc" else "om"
    deal_cards(state)
    return state


def heuristic_purchases(players: int, seed: int = 3) -> Iterator[tuple[Game, CityState]]:
    """Each of seat 0's secret-purchase decisions, in order, in a game the shipped heuristic plays at
    `players` (the search's and the purchase prior's tests look at real positions, not built ones)."""
    heuristic = policy_for("city-of-iron")
    rng = random.Random(seed)
    state = GAME.setup([f"p{seat}" for seat in range(players)], {}, seed)
    while GAME.result(state) is None:
        waiting = sorted(GAME.to_act(state))
        seat = waiting[0] if len(waiting) == 1 else rng.choice(waiting)
        if seat == 0 and state.phase == "purchase":
            yield GAME, state
        state = GAME.apply(state, seat, heuristic.choose(GAME, state, seat, rng, 3).action).state
