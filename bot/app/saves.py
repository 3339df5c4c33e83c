"""`/game export` and `/game replay` as the service sees them: which game, who may have it, and what
goes in the file or the animation.

The seed and the log of a game reveal every hidden card, so a game that is over (finished or abandoned)
may be exported by anyone in its channel, but a game in progress only once every player agreed (each
runs `/game export`; the agreement holds until the next move), and then only to the players. A replay
shows the public board only, so anyone may watch any game of the channel.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from bot.app import archive
from bot.app.archive import ArchivedSeat
from bot.app.decisions import NOTHING, Decisions, Verdict
from bot.app.history import HistoryReads
from bot.app.refusals import UserError
from bot.app.replay import frames
from bot.app.votes import export_vote_kind, still_to_agree, voting_seat
from bot.storage.store import GameRecord, GameStatus, Ruling, SeatRecord, Seen
from rules.core import View

OVER = (GameStatus.FINISHED, GameStatus.ABANDONED)


@dataclass(frozen=True)
class Export:
    """A saved-game file, or the names still to agree before the caller may have it."""

    game: GameRecord
    data: bytes | None
    missing: list[str]
    agreed: tuple[int, ...] = ()
    """Who agreed to save the game in progress (the caller included): each is owed the file."""
    moves: int = 0
    """The effective moves the file holds (`bot.app.numbering`): what `/game import` replays."""

    @property
    def filename(self) -> str:
        return f"ironhost-{self.game.kind}-{self.game.id}.json"


NOT_A_PLAYER = (
    "A game in progress can be saved only by its players, all agreeing (the file shows every hidden card)."
    " Once it is over, anyone here can save it."
)


class Saves(Decisions, HistoryReads):
    async def _channel_game(self, channel_id: int, game_id: int | None) -> GameRecord:
        """The game asked for, which must be of this channel; by default this channel's latest game."""
        if game_id is None:
            game = await self.store.latest_game_in(channel_id)
            if game is None:
                raise UserError("No game has been played in this channel yet.")
            return game
        game = await self.store.game(game_id)
        if game is None or game.channel_id != channel_id:
            raise UserError(f"There is no game #{game_id} in this channel; `/game list` shows its games.")
        return game

    async def export(self, channel_id: int, user_id: int, game_id: int | None = None) -> Export:
        game = await self._channel_game(channel_id, game_id)
        if game.status == GameStatus.LOBBY:
            raise UserError("This game has not started: there is nothing to save yet.")
        agreed: set[int] = set()
        if game.status not in OVER:

            async def decide(
                game: GameRecord, seats: list[SeatRecord], votes: set[int]
            ) -> Verdict[tuple[GameRecord, list[str], set[int]]]:
                voting_seat(seats, user_id, refusal=NOT_A_PLAYER)
                kind = export_vote_kind(game.version)
                missing = still_to_agree(seats, votes | {user_id})
                ruling = Ruling(add_votes=[(kind, user_id)]) if user_id not in votes else NOTHING
                outcome = (game, missing, votes | {user_id})
                return Verdict(Seen.of(game.version, seats, kind, votes), ruling, outcome)

            # the game as it was agreed on
            game, missing, agreed = await self._decided(
                game.id, decide, lambda game: export_vote_kind(game.version)
            )
            if missing:
                return Export(game, None, missing)
        seats = await self.store.seats(game.id)
        rules = self.rules_for(game.kind)
        moves = await self.effective_moves(game)
        data = archive.export(
            rules,
            options=game.options,
            seed=game.seed,
            seats=[ArchivedSeat(name=seat.name, computer=seat.user_id < 0) for seat in seats],
            moves=[(record.seat, record.action) for record in moves],
            state=await self.state(game),
            exported_at=datetime.fromtimestamp(self.clock.now(), UTC).isoformat(timespec="seconds"),
            source=f"game #{game.id}",
        )
        return Export(game, data, [], tuple(sorted(agreed)), len(moves))

    async def replay_frames(
        self, channel_id: int, game_id: int | None = None
    ) -> tuple[GameRecord, list[View], list[str]]:
        """The public boards of a game, one per handoff, with captions from the public log."""
        game = await self._channel_game(channel_id, game_id)
        if game.status == GameStatus.LOBBY or game.state is None:
            raise UserError("This game has not started: there is nothing to replay yet.")
        rules = self.rules_for(game.kind)
        states, moves = await self._replay_log(game)
        texts: list[list[str]] = [[event["text"] for event in record.events] for record in moves]
        views, captions = frames(rules, states, texts)
        return game, views, captions
