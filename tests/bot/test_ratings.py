"""Ratings are a pure function of the stored results (issue 21): openskill's Plackett-Luce over the
finished games in the order they ended, computer seats at a fixed strength."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.app.ratings import COMPUTER_MU, FinishedGame, RatedSeat, leaderboard, rate, sparkline
from bot.app.standings import _finished
from bot.storage.store import GameRecord, GameStatus, SeatRecord
from tests.support.playouts import offered_games

ALICE, BOB, CAROL = RatedSeat(1, "Alice"), RatedSeat(2, "Bob"), RatedSeat(3, "Carol")
_ids = itertools.count(1)


def game(*places, when: str | None = None, kind: str = "city-of-iron") -> FinishedGame:
    number = next(_ids)
    groups = [place if isinstance(place, tuple) else (place,) for place in places]
    return FinishedGame(number, kind, 7, when or f"2026-11-{number:02d}T12:00:00", groups)


def test_the_winner_rises_the_loser_falls_and_both_are_counted():
    standings = rate([game(ALICE, BOB)])
    alice, bob = standings[1], standings[2]
    assert alice.rating > 0 > bob.rating
    assert (alice.played, alice.won, bob.played, bob.won) == (1, 1, 1, 0)
    assert [s.name for s in leaderboard(standings)] == ["Alice", "Bob"]


def test_a_tie_moves_both_alike():
    standings = rate([game((ALICE, BOB), CAROL)])
    assert abs(standings[1].rating - standings[2].rating) < 1e-9
    assert standings[1].won == standings[2].won == 1
    assert standings[3].rating < standings[1].rating


def test_the_result_is_the_same_however_the_games_are_listed():
    games = [game(ALICE, BOB), game(BOB, CAROL), game(CAROL, ALICE, BOB), game(BOB, ALICE)]
    forward = rate(games)
    backward = rate(reversed(games))
    assert {k: (s.mu, s.sigma, s.history) for k, s in forward.items()} == {
        k: (s.mu, s.sigma, s.history) for k, s in backward.items()
    }


def test_the_order_games_ended_in_matters_and_is_what_counts():
    """Later results weigh on the current rating: losing first then winning differs from the reverse."""
    early = rate([game(BOB, ALICE, when="2026-01-01"), game(ALICE, BOB, when="2026-02-01")])
    late = rate([game(BOB, ALICE, when="2026-02-01"), game(ALICE, BOB, when="2026-01-01")])
    assert early[1].history != late[1].history


def test_a_computer_seat_keeps_its_fixed_strength_and_a_stronger_one_is_worth_more():
    weak, strong = RatedSeat(-1, "Computer", 1), RatedSeat(-1, "Computer", 3)
    beat_weak = rate([game(ALICE, weak)])
    beat_strong = rate([game(ALICE, strong)])
    assert -1 not in beat_weak and -1 not in beat_strong, "computers are not rated"
    assert beat_strong[1].rating > beat_weak[1].rating
    assert COMPUTER_MU[1] < COMPUTER_MU[2] < COMPUTER_MU[3]


def test_a_solo_game_is_not_rated():
    assert rate([game(ALICE, kind="city-heroes")]) == {}


def test_many_wins_climb_and_the_trend_says_so():
    standings = rate([game(ALICE, BOB) for _ in range(6)])
    alice = standings[1]
    assert alice.history == sorted(alice.history)
    assert alice.trend().startswith("▲") and "over the last 5 games" in alice.trend()
    assert standings[2].trend().startswith("▼")
    assert rate([game(ALICE, BOB)])[1].trend() == "first rated game"


def test_sparkline_spans_low_to_high():
    assert sparkline([0, 1, 2]) == "▁▅█"
    assert sparkline([3, 3]) == "▄▄"


SHORT = {"city-heroes": {"turns": 1}, "iron-bridge-gorge": {"rounds": 1}, "iron-and-brass": {"max_rounds": 1}}
"""Options that end each game within a few dozen moves (City of Iron has no length option)."""


def _ended(rules, players: int, seed: int):
    """A game played to its end by the clock's own choice for each seat (a pass where there is one)."""
    state = rules.setup([f"P{seat}" for seat in range(players)], SHORT.get(rules.info.id, {}), seed)
    rng = random.Random(seed)
    while rules.result(state) is None:
        seat = min(rules.to_act(state))
        choice = rules.timeout_choice(state, seat, "default") or rng.choice(rules.legal_actions(state, seat))
        state = rules.apply(state, seat, choice.action).state
    return rules.result(state)


@pytest.mark.parametrize("rules", offered_games(), ids=lambda rules: rules.info.id)
def test_wins_come_from_each_games_own_result(rules):
    """Issue 36: a City Heroes game that ended 'Nobody wins this time' counted a win for its first place
    ('alice: 1 won of 2'). A win is now what the game's `Result` says: its winners (a shared first place
    wins for each), none when it says nobody won; City Heroes' one-turn game is lost to the rival city."""
    players = 3 if rules.info.max_players > 2 else 2
    result = _ended(rules, players, seed=5)
    if rules.info.id == "city-heroes":
        assert result.no_winner and result.winners == []
    record = GameRecord(
        id=1,
        kind=rules.info.id,
        guild_id=7,
        channel_id=9,
        host_id=100,
        status=GameStatus.FINISHED,
        options={},
        seed=5,
        version=1,
        state=None,
        result=result.model_dump_json(),
        created_at="2026-11-01T12:00:00",
        updated_at="2026-11-01T12:00:00",
        finished_at="2026-11-01T12:00:00",
    )
    seats = [
        SeatRecord(game_id=1, seat=seat, user_id=100 + seat, name=f"P{seat}", dm_closed=False)
        for seat in range(players)
    ]
    standings = rate([_finished(record, seats)])
    assert {user: standing.won for user, standing in standings.items()} == {
        100 + seat: int(seat in result.winners) for seat in range(players)
    }
    assert all(standing.played == 1 for standing in standings.values())
