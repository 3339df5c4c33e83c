"""Computer players (`rules/policy.py`): complete games without an illegal move, determinism, and no
peeking at other seats' hidden information or at the state's future randomness.

`POLICY_GAMES=200 pytest tests/rules/test_policies.py` plays 200 games per game (the issue's long
run); by default a few games per game keep this file under a minute on two shared cores. Win rates
against a random player are measured by `python -m bench --only policies` (printed, not asserted);
the one strength test here is City Heroes' city, which a policy must defend or nobody wins.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from rules import registry
from rules.core import Choice, Game, Rng, RuleError
from rules.policy import GreedyPolicy, Policy, RandomPolicy, play, policy_for

GAMES = int(os.environ.get("POLICY_GAMES", "0"))

SETTINGS: dict[str, tuple[int, dict[str, Any], int]] = {
    # game id: (players, short options, default number of full games)
    "city-of-iron": (4, {}, 3),  # no length option: full games
    "iron-bridge-gorge": (4, {"rounds": 3}, 40),
    "iron-and-brass": (2, {"max_rounds": 20, "board_size": 10}, 8),
    "city-heroes": (3, {"turns": 2}, 4),
}
STRENGTHS = (3, 2, 1, 3)


def _game(game_id: str) -> Game:
    return registry.get(game_id)


def test_policy_for_every_game() -> None:
    for game_id in SETTINGS:
        policy = policy_for(game_id)
        # Iron & Brass plays a plan at the top strength and its greedy heuristic below it (`TopStrength`)
        greedy = getattr(policy, "greedy", policy)
        assert isinstance(greedy, GreedyPolicy)
        assert greedy.evaluate.__module__.endswith(".policy"), game_id  # the game's own evaluation
    # A game without heuristics gets the generic greedy policy.
    generic = policy_for("test-highcard") if _has("test-highcard") else None
    if generic is not None:
        assert isinstance(generic, GreedyPolicy) and generic.prior is None


def _has(game_id: str) -> bool:
    try:
        registry.get(game_id)
    except KeyError:
        return False
    return True


@pytest.mark.parametrize("game_id", list(SETTINGS))
def test_policies_play_complete_games(game_id: str) -> None:
    """Every seat a policy, strengths mixed: each game ends, and every move was accepted by `apply`
    (an illegal choice would raise RuleError inside `play`)."""
    players, options, default = SETTINGS[game_id]
    game = _game(game_id)
    policy = policy_for(game_id)
    count = GAMES or default
    for index in range(count):
        strengths = [STRENGTHS[(index + seat) % len(STRENGTHS)] for seat in range(players)]
        played = play(game, [policy] * players, strengths, seed=1000 + index, rng_seed=index, options=options)
        assert played.result is not None, f"{game_id} game {index} did not finish"


@pytest.mark.parametrize("game_id", list(SETTINGS))
def test_policy_against_random_is_legal(game_id: str) -> None:
    """Mixed tables (policy and random seats) also finish."""
    players, options, _ = SETTINGS[game_id]
    game = _game(game_id)
    seats: list[Policy] = [
        policy_for(game_id) if seat % 2 == 0 else RandomPolicy() for seat in range(players)
    ]
    played = play(game, seats, [3] * players, seed=7, rng_seed=7, options=options)
    assert played.result is not None


class _Stale:
    """Always plays the first choice it was ever offered: soon an illegal move."""

    def __init__(self) -> None:
        self.first: Choice | None = None

    def choose(self, game: Game, state: Any, seat: int, rng: random.Random, strength: int) -> Choice:
        if self.first is None:
            self.first = game.legal_actions(state, seat)[0]
        return self.first


def test_illegal_choices_raise_or_are_counted() -> None:
    """`play` raises on an illegal choice; with `strict=False` (the benchmark) it records it, plays a
    legal one instead and finishes the game."""
    game = _game("iron-bridge-gorge")
    options = SETTINGS["iron-bridge-gorge"][1]
    with pytest.raises(RuleError):
        play(game, [_Stale(), RandomPolicy()], [3, 3], seed=1, rng_seed=1, options=options)
    played = play(game, [_Stale(), RandomPolicy()], [3, 3], seed=1, rng_seed=1, options=options, strict=False)
    assert played.result is not None
    assert played.illegal and all(seat == 0 for seat, _, _ in played.illegal)
    clean = play(
        game, [policy_for("iron-bridge-gorge"), RandomPolicy()], [3, 3], seed=1, rng_seed=1, strict=False
    )
    assert clean.illegal == []


def test_city_heroes_policy_keeps_the_city_above_the_rival() -> None:
    """Against a random partner that buys from the rival city (each purchase costs 2 prestige), full
    two-player games seated as the benchmark seats them (seed i, the policy in seat i % 2): the policy
    builds enough prestige that the city beats the rival in at least half of them (62.5 % of the
    benchmark's 200, bench/README.md), and whenever it does, the policy's seat wins on influence. Before
    the city came first in its evaluation, nobody won these games. (Two games, seeds 0 and 1, were
    checked until City Heroes' round actions went only alongside a phase action, issue 41: the random
    partner's shorter menus then played two other games, both lost by the city.)"""
    game = _game("city-heroes")
    held = 0
    for seed in range(6):
        mine = seed % 2
        seats: list[Policy] = [RandomPolicy(), RandomPolicy()]
        seats[mine] = policy_for("city-heroes")
        played = play(game, seats, [3, 3], seed=seed, rng_seed=seed)
        result = played.result
        assert result is not None
        assert any(key.startswith("rival:buy-") for seat, key in played.moves if seat != mine)
        if not result.no_winner:
            assert result.winners == [mine], result.reason
            held += 1
    assert held >= 3, f"the city beat the rival in {held} of 6 games"


@pytest.mark.parametrize("game_id", list(SETTINGS))
def test_same_seeds_same_game(game_id: str) -> None:
    players, options, _ = SETTINGS[game_id]
    game = _game(game_id)
    policy = policy_for(game_id)
    runs = [
        play(game, [policy] * players, [3, 2, 1, 3][:players], seed=5, rng_seed=11, options=options).moves
        for _ in range(2)
    ]
    assert runs[0] == runs[1]


# ---- no peeking ---------------------------------------------------------------------------------
def _reseed(state: Any, rng: random.Random) -> None:
    """Future randomness is hidden from every seat: a new seed for the state's RNG."""
    state.rng = Rng(seed=rng.randrange(10**9), counter=state.rng.counter)


def _hide_city_of_iron(state: Any, seat: int, rng: random.Random) -> None:
    """Other seats' hands and draw piles mixed among themselves (sizes kept), their secret purchase
    choices changed, the building deck reshuffled around the Score cards, the RNG reseeded."""
    for other, player in enumerate(state.players):
        if other == seat:
            continue
        for pile in ("citizen_draw", "military_draw"):
            pool = player.hand + getattr(player, pile)
            rng.shuffle(pool)
            player.hand = pool[: len(player.hand)]
            setattr(player, pile, pool[len(player.hand) :])
        if state.phase == "purchase" and not player.done:
            options = [uid for uid in player.unpurchased if uid not in player.selected]
            player.selected = [] if player.selected or not options else [rng.choice(options)]
    buildings = [uid for uid in state.deck if not uid.startswith("score-")]
    rng.shuffle(buildings)
    it = iter(buildings)
    state.deck = [uid if uid.startswith("score-") else next(it) for uid in state.deck]
    _reseed(state, rng)


def _hide_iron_bridge_gorge(state: Any, seat: int, rng: random.Random) -> None:
    """Other seats' hands swapped with deck cards, their pending secret bids changed, the deck
    reshuffled, the RNG reseeded."""
    for other, player in enumerate(state.players):
        if other == seat:
            continue
        for index in range(len(player.hand)):
            if state.deck:
                pick = rng.randrange(len(state.deck))
                player.hand[index], state.deck[pick] = state.deck[pick], player.hand[index]
        if state.step == "initiative" and player.bid is not None and player.coins:
            player.bid = rng.randint(0, player.coins)
    rng.shuffle(state.deck)
    _reseed(state, rng)


def _hide_rng_only(state: Any, seat: int, rng: random.Random) -> None:
    _reseed(state, rng)


HIDERS = {
    "city-of-iron": _hide_city_of_iron,
    "iron-bridge-gorge": _hide_iron_bridge_gorge,
    "iron-and-brass": _hide_rng_only,
    "city-heroes": _hide_rng_only,
}


@pytest.mark.parametrize("game_id", list(SETTINGS))
def test_policy_ignores_other_seats_hidden_information(game_id: str) -> None:
    """Along random games: the same decision (same rng seed) from two states that differ only in
    what the deciding seat may not know."""
    players, options, _ = SETTINGS[game_id]
    game = _game(game_id)
    policy = policy_for(game_id)
    walker = random.Random(3)
    checked = 0
    for seed in range(3):
        state = game.setup([f"p{i}" for i in range(players)], options, seed)
        for step in range(400):
            if game.result(state) is not None:
                break
            seat = walker.choice(sorted(game.to_act(state)))
            choices = game.legal_actions(state, seat)
            if step % 3 == 0 and len(choices) > 1:
                other = game.copy_state(state)
                HIDERS[game_id](other, seat, random.Random(step))
                for strength in (3, 2):
                    first: Choice = policy.choose(game, state, seat, random.Random(step), strength)
                    second: Choice = policy.choose(game, other, seat, random.Random(step), strength)
                    assert first.key == second.key, (game_id, seed, step, first.key, second.key)
                checked += 1
            state = game.apply(state, seat, walker.choice(choices).action).state
    assert checked >= 20
