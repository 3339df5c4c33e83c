"""The determinizer of City Heroes (issue 21): worlds look the same to the seat, hide the Rng and the
terms of other players' trade offers, depend only on what the seat sees, play on, and repeat."""

from __future__ import annotations

import functools
import random

from rules.city_heroes import GAME
from rules.city_heroes.determinize import determinize, trade_offers
from rules.city_heroes.moves import trade
from rules.city_heroes.state import CityHeroesState
from rules.search import SearchPolicy
from tests.support.playouts import positions

from .test_playouts import check_invariants, totals

GAMES = ((1, 1), (5, 2), (5, 3), (3, 4))
"""(players, seed): the smallest and the largest table, and a middle one."""


@functools.cache
def _played() -> tuple[CityHeroesState, ...]:
    states: list[CityHeroesState] = []
    for players, seed in GAMES:
        states += [p.state for p in positions(GAME, players, seed, every=35)]
    return tuple(states)


def _offers() -> list[CityHeroesState]:
    """Positions with a trade offer waiting, at tables with a third seat."""
    return [s for s in _played() if s.proposal is not None and len(s.players) >= 3]


def _third(state: CityHeroesState) -> list[int]:
    assert state.proposal is not None
    return [
        s for s in range(len(state.players)) if s not in (state.proposal.proposer, state.proposal.partner)
    ]


def test_positions_have_offers_seen_by_a_third_seat():
    assert len(_offers()) >= 5


def test_a_world_looks_the_same_to_the_seat_and_to_the_table():
    for state in _played():
        before = GAME.dump_state(state)
        for seat in range(len(state.players)):
            world = determinize(state, seat, random.Random(seat + 7))
            assert world is not state
            assert GAME.view(world, seat) == GAME.view(state, seat)
            assert GAME.view(world, None) == GAME.view(state, None)
        assert GAME.dump_state(state) == before, "the true state was changed"


def test_the_rng_and_other_players_terms_are_resampled():
    for state in _offers():
        proposal = state.proposal
        for seat in _third(state):
            worlds = [determinize(state, seat, random.Random(k)) for k in range(20)]
            assert all(world.rng != state.rng for world in worlds)
            terms = {(str(w.proposal.give), str(w.proposal.get)) for w in worlds}
            assert terms != {(str(proposal.give), str(proposal.get))}
            for world in worlds:
                assert trade.trade_problem(world, world.proposal) is None
        for seat in (proposal.proposer, proposal.partner):
            world = determinize(state, seat, random.Random(1))
            assert (world.proposal.give, world.proposal.get) == (proposal.give, proposal.get)


def _other_terms(state: CityHeroesState) -> CityHeroesState | None:
    """A true state differing from `state` only in the offer's terms."""
    proposal = state.proposal
    offers = trade_offers(state.players[proposal.proposer], state.players[proposal.partner])
    other = next((o for o in offers if o != (proposal.give, proposal.get)), None)
    if other is None:
        return None
    twin = GAME.copy_state(state)
    twin.proposal.give, twin.proposal.get = other
    return twin


def test_a_world_depends_only_on_what_the_seat_sees():
    swapped = 0
    for state in _offers():
        twin = _other_terms(state)
        if twin is None:
            continue
        for seat in _third(state):
            swapped += 1
            assert GAME.view(twin, seat) == GAME.view(state, seat)
            for k in range(4):
                assert GAME.dump_state(determinize(state, seat, random.Random(k))) == GAME.dump_state(
                    determinize(twin, seat, random.Random(k))
                )
    assert swapped
    for state in _played()[::5]:
        for seat in range(len(state.players)):
            other = determinize(state, seat, random.Random(99))
            for k in range(3):
                assert GAME.dump_state(determinize(state, seat, random.Random(k))) == GAME.dump_state(
                    determinize(other, seat, random.Random(k))
                )


def test_the_search_decides_the_same_when_only_hidden_facts_differ():
    policy = SearchPolicy(budgets={1: 20, 2: 20, 3: 20}, tables=frozenset({2}))
    checked = 0
    for state in _played()[::6]:
        if GAME.result(state) is not None:
            continue
        seat = min(GAME.to_act(state))
        other = determinize(state, seat, random.Random(99))
        first = policy.choose(GAME, state, seat, random.Random(3), 1)
        assert policy.choose(GAME, other, seat, random.Random(3), 1).key == first.key
        checked += 1
    assert checked >= 5


def test_worlds_play_on_to_the_end_with_resources_conserved():
    rng = random.Random(4)
    samples = [*_played()[2::9], *_offers()[::2]]
    for index, state in enumerate(samples):
        seat = _third(state)[0] if state.proposal is not None else index % len(state.players)
        world = determinize(state, seat, random.Random(index))
        world.turns = min(world.turns, world.turn + 1)  # a short ending keeps the test quick
        start, workers = totals(world), [player.workers for player in world.players]
        moves = 0
        while GAME.result(world) is None:
            actor = min(GAME.to_act(world))
            choice = rng.choice(GAME.legal_actions(world, actor))
            GAME._apply(world, actor, GAME.parse_action(choice.action))
            check_invariants(world, start, workers)
            moves += 1
            assert moves < 20_000, "the world does not end"


def test_the_same_seed_gives_the_same_world():
    for state in _played()[::3]:
        for seat in range(len(state.players)):
            first = determinize(state, seat, random.Random(11))
            assert GAME.dump_state(first) == GAME.dump_state(determinize(state, seat, random.Random(11)))
