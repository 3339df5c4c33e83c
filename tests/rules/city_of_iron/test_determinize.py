"""City of Iron's determinizer: worlds look the same to the deciding seat, hide nothing it cannot see,
depend only on what it sees, can be played to the end, and come out the same from the same rng."""

from __future__ import annotations

import random
from functools import cache

import pytest

from rules.city_of_iron import GAME
from rules.city_of_iron.data import game_data
from rules.city_of_iron.determinize import determinize
from rules.city_of_iron.state import CityState
from rules.search import SearchPolicy
from tests.support.playouts import positions, table_sizes

from .helpers import all_card_places, player_card_places

OPTIONS = ({}, {"abilities": True, "expansion": True}, {"nations": "pick", "abilities": True})
PILES = ("hand", "citizen_draw", "citizen_discard", "military_draw", "military_discard")


@cache
def states() -> tuple[CityState, ...]:
    """Positions of played games at the smallest and largest table, with every option set."""
    found = []
    for players in table_sizes(GAME):
        for seed, options in enumerate(OPTIONS, start=1):
            found += [position.state for position in positions(GAME, players, seed, every=6, options=options)]
    return tuple(found)


def seats(state: CityState) -> range:
    return range(len(state.players))


def test_worlds_show_the_seat_exactly_what_it_sees() -> None:
    for number, state in enumerate(states()):
        before = GAME.dump_state(state)
        for seat in seats(state):
            world = determinize(state, seat, random.Random(number * 10 + seat))
            assert GAME.view(world, seat) == GAME.view(state, seat)
            assert GAME.view(world, None) == GAME.view(state, None)
            assert GAME.to_act(world) == GAME.to_act(state)
        assert GAME.dump_state(state) == before, "the true state is never changed"


def _hidden_parts(state: CityState, seat: int) -> list[tuple]:
    """Each fact `seat` cannot see that could come out otherwise: a run of the deck with 2+ cards, an
    expansion deck of 2+, an opponent with 2+ cards of one deck among its hand and piles, an
    opponent's secret purchases while it can pay for some unpurchased card."""
    parts: list[tuple] = []
    runs = "".join("|" if uid.startswith("score-") else "." for uid in state.deck).split("|")
    if any(len(run) >= 2 for run in runs):
        parts.append(("deck",))
    if len(state.expansion_deck) >= 2:
        parts.append(("expansion",))
    for index, player in enumerate(state.players):
        if index == seat:
            continue
        owned = [_deck_of(uid) for pile in PILES for uid in getattr(player, pile)]
        if max(owned.count("citizen"), owned.count("military")) >= 2:
            parts.append(("piles", index))
        if state.phase == "purchase" and any(
            _cost(uid) <= (player.coins, player.science) for uid in player.unpurchased
        ):
            parts.append(("selected", index))
    return parts


def _cost(uid: str) -> tuple[int, int]:
    kind = game_data().cards[uid.rsplit(".", 1)[0]]
    return kind.coins, kind.science


def _reading(state: CityState, part: tuple) -> tuple:
    if part[0] == "deck":
        return tuple(state.deck)
    if part[0] == "expansion":
        return tuple(state.expansion_deck)
    player = state.players[part[1]]
    piles = PILES if part[0] == "piles" else ("selected",)
    return tuple(tuple(getattr(player, pile)) for pile in piles)


def test_worlds_do_not_simply_reveal_the_truth() -> None:
    checked = set()
    for state in states():
        for seat in seats(state):
            worlds = [determinize(state, seat, random.Random(k)) for k in range(20)]
            for part in _hidden_parts(state, seat):
                truth = _reading(state, part)
                assert any(_reading(world, part) != truth for world in worlds), (part, state.phase)
                checked.add(part[0])
    assert checked == {"deck", "expansion", "piles", "selected"}


def test_opponents_hands_are_dealt_from_their_own_cards() -> None:
    """Another player's cards stay theirs (their instance ids carry their seat), pile sizes kept, the
    draw and discard piles keep to their own deck, unpurchased cards are not touched."""
    for state in states():
        for seat in seats(state):
            world = determinize(state, seat, random.Random(seat))
            for index, (true, dealt) in enumerate(zip(state.players, world.players, strict=True)):
                assert sorted(player_card_places(world, index)) == sorted(player_card_places(state, index))
                assert [len(getattr(dealt, pile)) for pile in PILES] == [
                    len(getattr(true, pile)) for pile in PILES
                ]
                assert dealt.unpurchased == true.unpurchased
                assert set(dealt.selected) <= set(dealt.unpurchased)
                if index == seat:
                    assert all(getattr(dealt, pile) == getattr(true, pile) for pile in (*PILES, "selected"))
            assert sorted(all_card_places(world)) == sorted(all_card_places(state))


def _swapped(state: CityState, seat: int) -> CityState:
    """The same position with hidden facts changed by hand: two deck cards of one run, an opponent's
    hand order, a citizen card swapped between its hand and draw pile, its secret purchases."""
    other = GAME.copy_state(state)
    run_end = next((i for i, uid in enumerate(other.deck) if uid.startswith("score-")), len(other.deck))
    if run_end >= 2:
        other.deck[0], other.deck[run_end - 1] = other.deck[run_end - 1], other.deck[0]
    opponent = other.players[(seat + 1) % len(other.players)]
    citizen = [i for i, uid in enumerate(opponent.hand) if _deck_of(uid) == "citizen"]
    if citizen and opponent.citizen_draw:
        i = citizen[0]
        opponent.hand[i], opponent.citizen_draw[0] = opponent.citizen_draw[0], opponent.hand[i]
    opponent.hand.reverse()
    opponent.selected = []
    return other


def _deck_of(uid: str) -> str:
    return game_data().cards[uid.rsplit(".", 1)[0]].deck


def test_worlds_depend_only_on_what_the_seat_sees() -> None:
    for number, state in enumerate(states()[::3]):
        for seat in seats(state):
            twins = (determinize(state, seat, random.Random(99 + number)), _swapped(state, seat))
            for other in twins:
                assert GAME.view(other, seat) == GAME.view(state, seat)
                for k in range(3):
                    assert GAME.dump_state(determinize(state, seat, random.Random(k))) == GAME.dump_state(
                        determinize(other, seat, random.Random(k))
                    )


def test_the_search_decides_the_same_when_only_hidden_facts_differ() -> None:
    search = SearchPolicy(budgets={1: 20, 2: 20, 3: 20})
    tried = 0
    for state in states()[::4]:
        for seat in sorted(GAME.to_act(state)):
            if len(GAME.legal_actions(state, seat)) < 2:
                continue
            other = determinize(state, seat, random.Random(99))
            first = search.choose(GAME, state, seat, random.Random(3), 1).key
            assert search.choose(GAME, other, seat, random.Random(3), 1).key == first
            tried += 1
    assert tried >= 5


@pytest.mark.parametrize("index", range(0, 60, 7))
def test_worlds_play_to_the_end_with_every_card_kept(index: int) -> None:
    state = states()[index % len(states())]
    dealt = state.phase != "nation"
    everything = sorted(all_card_places(state))
    cards = sorted(uid for seat in seats(state) for uid in player_card_places(state, seat)) if dealt else []
    for seat in seats(state):
        world = determinize(state, seat, random.Random(index + seat))
        rng = random.Random(index)
        for _ in range(5000):
            if GAME.result(world) is not None:
                break
            actor = rng.choice(sorted(GAME.to_act(world)))
            choices = GAME.legal_actions(world, actor)
            assert choices
            world = GAME.apply(world, actor, rng.choice(choices).action).state
            assert sorted(all_card_places(world)) == everything
            if dealt:
                assert sorted(uid for s in seats(world) for uid in player_card_places(world, s)) == cards
        assert GAME.result(world) is not None


def test_the_same_rng_gives_the_same_world() -> None:
    for state in states()[::5]:
        for seat in seats(state):
            worlds = [GAME.dump_state(determinize(state, seat, random.Random(7))) for _ in range(2)]
            assert worlds[0] == worlds[1]
