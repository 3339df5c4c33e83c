"""Seeded random playouts on the shared harness (tests/support/playouts.py): thousands of complete games,
invariants after every move, exact replays. This game keeps its random player's weights, its random
illegal move maker, its invariants and the event phrases the games must reach."""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from rules.city_heroes import GAME
from rules.city_heroes.data import RESOURCES, catalogue
from rules.city_heroes.state import CityHeroesState
from rules.core import Event
from tests.support.playouts import Playout, key_weights, random_game, replays

from .helpers import NAMES

WEIGHTS = {
    "buy": 3.0,
    "pass": 2.0,
    "end": 2.0,
    "end-pass": 3.0,
    "garrison": 0.6,
    "plant": 0.6,
    "build": 4.0,
    "upgrade": 4.0,
    "stage": 4.0,
    "found": 4.0,
    "craft": 1.0,
    "produce": 0.3,
    "token": 1.0,
    "bank-buy": 0.15,
    "bank-sell": 0.1,
    "rival": 0.2,
    "influence-sell": 0.05,
    "influence-buy": 0.05,
    "gift": 0.02,
    "ask": 0.03,
    "accept": 1.0,
    "decline": 1.0,
    "cancel": 0.3,
    "pillage": 6.0,
    "loot": 1.0,
    "casualty": 1.0,
}
"""A random player that builds and pillages more than it trades with the bank, so games look like games."""

MARKERS = (
    "bought T",
    "garrisoned",
    "planted",
    "built a",
    "upgraded",
    "crafted",
    "foundation",
    "pillaged",
    "looted",
    "pillage token",
    "accepted",
    "declined",
    "cancelled",
    "from the bank",
    "rival city",
    "influence for",
    "exchange token",
    "tile tax",
    "wheat fed",
    "for new tiles",
    "everybody loses",
)
"""Event phrases the random games must all reach, so the playouts are known to cover the rules."""


def _random_action(rng: random.Random, state: CityHeroesState) -> dict[str, Any]:
    """Any move at all, legal or not, for the 'refused moves change nothing' check."""
    tile = rng.randint(0, len(state.tiles) + 1)
    building = rng.choice([*catalogue().buildings, "castle-of-dreams"])
    resource = rng.choice([*RESOURCES, "ducats", "gems"])
    return rng.choice(
        [
            {"kind": "buy", "tile": tile},
            {"kind": "pass"},
            {"kind": "end"},
            {"kind": "garrison", "layout": {str(tile): rng.randint(0, 5)}},
            {"kind": "plant", "tile": tile, "resource": rng.choice(["wheat", "timber"])},
            {"kind": "build", "tile": tile, "building": building},
            {"kind": "upgrade", "tile": tile, "building": building},
            {"kind": "found", "tile": tile, "work": rng.choice([*catalogue().works, "pyramid"])},
            {"kind": "stage", "tile": tile},
            {"kind": "craft", "good": rng.choice(["planks", "jewellery"]), "count": rng.randint(1, 9)},
            {"kind": "bank", "resource": resource, "count": rng.randint(1, 60), "sell": rng.random() < 0.5},
            {"kind": "rival", "row": rng.choice([*catalogue().rows, "sell-gems"]), "lots": rng.randint(1, 3)},
            {"kind": "influence", "amount": rng.randint(1, 30), "sell": rng.random() < 0.5},
            {
                "kind": "propose",
                "partner": rng.randint(0, 5),
                "give": {resource: rng.randint(0, 9)},
                "get": {},
            },
            {"kind": "accept"},
            {"kind": "pillage", "tile": tile, "weapons": {str(rng.randint(1, 37)): rng.randint(0, 6)}},
            {"kind": "loot", "resource": resource},
            {"kind": "casualty", "tile": tile},
            {"kind": "token", "row": rng.choice([*catalogue().rows, "sales", "nowhere"])},
        ]
    )


def totals(state: CityHeroesState) -> tuple[dict[str, int], int]:
    """Each resource and the ducats counted everywhere they can be, plus what left the game."""
    counted = {}
    for resource in RESOURCES:
        total = state.bank[resource] + state.outside[resource]
        total += sum(player.stock[resource] for player in state.players)
        if resource == "weapons":
            total += sum(tile.garrison + tile.spent for tile in state.tiles)
        counted[resource] = total
    ducats = state.bank_ducats + sum(player.ducats for player in state.players) - state.outside_ducats
    return counted, ducats


def check_invariants(state: CityHeroesState, start: tuple[dict[str, int], int], workers: list[int]) -> None:
    assert all(count >= 0 for count in state.bank.values()) and state.bank_ducats >= 0
    for seat, player in enumerate(state.players):
        assert all(count >= 0 for count in player.stock.values()), player.stock
        assert player.ducats >= 0 and player.influence >= 0 and player.pillage_tokens >= 0
        assert min(player.ready, player.busy, player.idle) >= 0
        # Workers are conserved across the pools; only the rules that add workers add them.
        assert player.ready + player.busy + player.idle == player.workers
        assert player.workers >= workers[seat]
        assert sum(1 for tile in state.tiles if tile.owner == seat) <= player.workers
    assert totals(state) == start, "resources or ducats appeared or vanished"
    assert all(tile.garrison >= 0 and tile.spent >= 0 for tile in state.tiles)
    assert len(state.log_pillaged) == len(set(state.log_pillaged)), "a tile was pillaged twice in a turn"
    assert all(state.tiles[tile - 1].pillaged for tile in state.log_pillaged)


def check_views(state: CityHeroesState) -> None:
    public = GAME.view(state, None)
    dumped = public.model_dump_json()
    assert '"rng"' not in dumped
    if state.proposal is not None:
        assert public.proposal is not None and public.proposal.give is None and public.proposal.text is None
    # Everything public is shown: stocks, workers, tiles, prestige.
    for seat_view, player in zip(public.seats, state.players, strict=True):
        assert seat_view.stock == player.stock and seat_view.ducats == player.ducats
        assert (seat_view.ready, seat_view.busy, seat_view.idle) == (player.ready, player.busy, player.idle)
    assert [(tile.owner, tile.building, tile.garrison) for tile in public.tiles] == [
        (tile.owner, tile.building, tile.garrison) for tile in state.tiles
    ]
    assert (public.prestige, public.rival_prestige) == (state.prestige, state.rival_prestige)
    for seat in range(len(state.players)):
        view = GAME.view(state, seat)
        if state.proposal is None:
            assert view.proposal is None
        elif seat in (state.proposal.proposer, state.proposal.partner):
            assert view.proposal.give == state.proposal.give and view.proposal.get == state.proposal.get
        else:
            assert view.proposal.give is None and view.proposal.get is None


def run_game(
    seed: int,
    players: int,
    turns: int = 0,
    *,
    public_apply: bool = False,
    fuzz: float = 0.03,
    views: float = 0.005,
    seen: Counter[str] | None = None,
) -> Playout:
    """One game with a seeded random player, the invariants checked after every move."""
    options = {"turns": turns}
    setup = GAME.setup(list(NAMES[:players]), options, seed)
    start = totals(setup)
    workers = [player.workers for player in setup.players]  # before the move being checked

    def check(state: CityHeroesState, _events: list[Event], _action: Any) -> None:
        check_invariants(state, start, workers)
        workers[:] = [player.workers for player in state.players]

    playout = random_game(
        GAME,
        NAMES[:players],
        seed,
        options=options,
        weight=key_weights(WEIGHTS),
        public_apply=public_apply,
        fuzz=fuzz,
        random_action=_random_action,
        check=check,
        views=views,
        check_views=check_views,
        markers=MARKERS,
        seen=seen,
        max_steps=20_000,
    )
    if seed % 10 == 0:
        check_views(playout.state)
    return playout


def test_two_thousand_random_games_reach_a_result_with_the_invariants_kept():
    """2,000 complete games, 1 to 5 players. Most last 1 or 2 turns (the `turns` option) to stay fast; every
    200th is a full-length game (12 solo, 10, 10, 9, 8 turns). After every move: no negative stock, ducats,
    influence or bank; resources and ducats conserved (bank, players, garrisons, what left the game);
    workers conserved across the pools except by the rules that add them; no tile pillaged twice in a turn;
    listed choices always apply; random illegal moves are refused without touching the state; views show
    every public fact and hide trade contents from third parties."""
    started = time.perf_counter()
    moves = 0
    seen: Counter[str] = Counter()
    for seed in range(2000):
        turns = 0 if seed % 200 == 0 else 2 if seed % 5 == 0 else 1
        playout = run_game(seed, players=1 + seed % 5, turns=turns, public_apply=seed % 50 == 1, seen=seen)
        state = playout.state
        moves += playout.steps
        result = GAME.result(state)
        assert result is not None
        assert sorted(seat for place in result.ranking for seat in place) == list(range(len(state.players)))
    elapsed = time.perf_counter() - started
    assert {marker for marker in MARKERS if not seen[marker]} == set(), "the random games missed a rule"
    print(f"\n2000 games, {moves} moves in {elapsed:.1f}s")


def test_replay_reproduces_the_final_state_byte_for_byte():
    """setup(seed) + the action log, through the public `apply`, gives the same final state JSON."""
    for seed, players, turns in [(11, 1, 0), (12, 3, 3), (13, 5, 0)]:
        replays(GAME, NAMES[:players], seed, run_game(seed, players, turns), {"turns": turns})
