"""Ratings as the service offers them: read the finished games, rate them (`bot.app.ratings`), answer.

Nothing is stored: a rating is recomputed from the results on every ask, so it can never disagree
with them. Scopes: one server (the games played in its channels) or everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.app.base import ServiceBase
from bot.app.ratings import FinishedGame, RatedSeat, Standing, leaderboard, rate
from bot.storage.store import GameRecord, SeatRecord
from rules.core import Result


@dataclass(frozen=True)
class PlayerRating:
    """One person's rating in one game: on this server (None outside one) and everywhere."""

    kind: str
    here: Standing | None
    rank_here: int | None
    everywhere: Standing
    rank_everywhere: int
    rated_players: int


def _finished(game: GameRecord, seats: list[SeatRecord]) -> FinishedGame:
    result = Result.model_validate_json(game.result or "{}")
    strength = int(game.table_settings.get("ai_strength", 2))
    by_seat = {seat.seat: RatedSeat(seat.user_id, seat.name, strength) for seat in seats}
    places = [[by_seat[s] for s in group if s in by_seat] for group in result.ranking]
    return FinishedGame(
        game.id, game.kind, game.guild_id, game.finished_at or game.updated_at, places, result.no_winner
    )


class Standings(ServiceBase):
    async def ratings(self, kind: str, *, guild_id: int | None = None) -> dict[int, Standing]:
        """Everyone's standing in `kind`, from the stored results (one server's, or all)."""
        rows = await self.store.finished_with_seats(kind, guild_id=guild_id)
        return rate(_finished(game, seats) for game, seats in rows)

    async def leaderboard(self, kind: str, *, guild_id: int | None = None) -> list[Standing]:
        return leaderboard(await self.ratings(kind, guild_id=guild_id))

    async def player_ratings(
        self, user_id: int, kinds: list[str], *, guild_id: int | None
    ) -> list[PlayerRating]:
        """The person's rating in each of `kinds` they have a rated game in."""
        out = []
        for kind in kinds:
            everywhere = leaderboard(await self.ratings(kind))
            mine = next((s for s in everywhere if s.user_id == user_id), None)
            if mine is None:
                continue
            here = rank_here = None
            if guild_id is not None:
                local = leaderboard(await self.ratings(kind, guild_id=guild_id))
                found = [i for i, s in enumerate(local) if s.user_id == user_id]
                if found:
                    here, rank_here = local[found[0]], found[0] + 1
            out.append(PlayerRating(kind, here, rank_here, mine, everywhere.index(mine) + 1, len(everywhere)))
        return out
