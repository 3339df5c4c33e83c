"""Skill ratings, computed from the stored results every time they are asked for.

The finished games are the only source of truth: a rating is a pure function of them, in the order they
ended, so a corrected result, a deleted game or a change of model never leaves a stale number behind.
Recomputing is cheap (openskill's Plackett-Luce update is microseconds per game), and a server's
history is thousands of games at most.

Model: openskill's Plackett-Luce (Weng and Lin 2011), the multiplayer generalisation of Bradley-Terry,
which rates free-for-all tables of any size with ties, as our four games end. Each seat is a team of one.
Shown rating: the conservative estimate mu - 3 sigma (openskill's "ordinal"), which starts at 0 and rises
as games confirm a player's skill, so one lucky win does not top the board.

Computer seats play at a fixed strength: they get a fixed rating per `ai_strength` and are never updated,
so beating the computer means the same today as last year. A seat the clock handed to the autopilot is
rated like a computer seat at the table's strength. Solo games (City Heroes against the rival city) have
no opponent to compare with and are not rated.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from rules import words

COMPUTER_MU = {1: 18.0, 2: 25.0, 3: 32.0}
"""Designed: the fixed skill of a computer seat per `ai_strength` (openskill's default newcomer is 25)."""
COMPUTER_SIGMA = 1.0
"""A small, fixed uncertainty: a computer's strength is known, not learned."""
TREND_GAMES = 5
SPARKS = "▁▂▃▄▅▆▇█"


@dataclass(frozen=True)
class RatedSeat:
    """Who sat in a seat: a person by Discord id (> 0), or a computer (id <= 0) at a strength."""

    user_id: int
    name: str
    strength: int = 2

    @property
    def computer(self) -> bool:
        return self.user_id <= 0


@dataclass(frozen=True)
class FinishedGame:
    """One stored result: the places, best first, each a group of tied seats."""

    game_id: int
    kind: str
    guild_id: int | None
    finished_at: str
    places: Sequence[Sequence[RatedSeat]]
    no_winner: bool = False
    """The game's own result says nobody won (`Result.no_winner`: City Heroes lost to the rival city).
    The places still order the seats for the rating, but no place counts as a win."""


@dataclass
class Standing:
    """A person's rating in one scope (one game, on one server or everywhere)."""

    user_id: int
    name: str
    mu: float
    """openskill's skill estimate; a newcomer starts at the model's own default."""
    sigma: float
    played: int = 0
    won: int = 0
    history: list[float] = field(default_factory=list)
    """The shown rating after each rated game, oldest first."""

    @property
    def rating(self) -> float:
        return self.mu - 3 * self.sigma

    def trend(self, games: int = TREND_GAMES) -> str:
        """The change over the last few games in words and a sparkline, e.g. "▲ 2.4 over 5 games ▂▄▆"."""
        if len(self.history) < 2:
            return "first rated game" if self.history else "no rated games yet"
        recent = self.history[-(games + 1) :]
        change = recent[-1] - recent[0]
        arrow = "▲" if change > 0.05 else "▼" if change < -0.05 else "="
        span = len(recent) - 1
        said = f"{arrow} {abs(change):.1f} over the last {words.count(span, 'game')}"
        return f"{said} {sparkline(recent)}"


def sparkline(values: Sequence[float]) -> str:
    low, high = min(values), max(values)
    if high - low < 1e-9:
        return SPARKS[3] * len(values)
    scale = (len(SPARKS) - 1) / (high - low)
    return "".join(SPARKS[round((value - low) * scale)] for value in values)


def rate(games: Iterable[FinishedGame]) -> dict[int, Standing]:
    """Every person's standing after `games`, applied in the order they finished (ties by game id)."""
    model = PlackettLuce()
    standings: dict[int, Standing] = {}
    for game in sorted(games, key=lambda g: (g.finished_at, g.game_id)):
        seats = [(rank, seat) for rank, group in enumerate(game.places) for seat in group]
        if len(seats) < 2:
            continue
        teams, people = [], []
        ranks: list[float] = []  # places, 0 first (ints: openskill reads them as numbers)
        for rank, seat in seats:
            if seat.computer:
                mu = COMPUTER_MU.get(seat.strength, COMPUTER_MU[2])
                teams.append([model.rating(mu=mu, sigma=COMPUTER_SIGMA)])
            else:
                if seat.user_id not in standings:
                    standings[seat.user_id] = Standing(seat.user_id, seat.name, model.mu, model.sigma)
                standing = standings[seat.user_id]
                standing.name = seat.name
                teams.append([model.rating(mu=standing.mu, sigma=standing.sigma)])
                people.append((len(teams) - 1, standing, rank))
            ranks.append(rank)
        updated = model.rate(teams, ranks=ranks)
        for index, standing, rank in people:
            standing.mu, standing.sigma = updated[index][0].mu, updated[index][0].sigma
            standing.played += 1
            standing.won += rank == 0 and not game.no_winner  # `Result.winners`: a shared first place wins
            standing.history.append(standing.rating)
    return standings


def leaderboard(standings: dict[int, Standing]) -> list[Standing]:
    """People by shown rating, best first; equal ratings by more games played, then by name."""
    return sorted(standings.values(), key=lambda s: (-round(s.rating, 6), -s.played, s.name.casefold()))
