"""What the log tells: replays from the seed, the effective moves, what happened since a player's last
turn, the games waiting on a player, statistics and the printable history.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from bot.app import numbering
from bot.app.base import ServiceBase
from bot.app.undo import UNDO, undone_count
from bot.storage.store import ActionRecord, GameRecord, GameStatus
from rules.core import Result


class SinceLastTurn(NamedTuple):
    version: int
    """The log version of the caller's last move (0: none), to draw the board as it stood then."""
    move: int
    """Its move number (`bot.app.numbering`), as players are told it."""
    lines: list[str]


class HistoryReads(ServiceBase):
    """The service's part that reads the action log (it changes nothing)."""

    async def replay(self, game: GameRecord, *, upto: int | None = None) -> list[Any]:
        """Every effective state of the game, rebuilt from its seed and action log (undone moves popped).

        This is the audit: the last state must equal the stored snapshot, or the snapshot or the
        rules changed under the game.
        """
        return (await self._replay_log(game, upto=upto))[0]

    async def _replay_log(
        self, game: GameRecord, *, upto: int | None = None, records: list[ActionRecord] | None = None
    ) -> tuple[list[Any], list[ActionRecord]]:
        """One pass over the log (or over `records`, the log already read): the effective states (every
        logged move applied, with the moves earlier rules made by themselves: `Game.apply_logged`; undone
        ones then popped) and the effective moves between them, `states[i]` being the state before
        `moves[i]`."""
        rules = self.rules_for(game.kind)
        seats = await self.store.seats(game.id)
        states = [rules.setup([seat.name for seat in seats], rules.stored_options(game.options), game.seed)]
        moves: list[ActionRecord] = []
        for record in records if records is not None else await self.store.actions(game.id):
            if upto is not None and record.version > upto:
                break
            if record.action.get("kind") == UNDO:
                count = undone_count(record.action)
                del states[-count:], moves[-count:]
            else:
                states.append(rules.apply_logged(states[-1], record.seat, record.action).state)
                moves.append(record)
        return states, moves

    async def state_at(self, game: GameRecord, version: int) -> Any:
        """The game as it stood right after log entry `version` (0: the start), replayed from the seed.

        Undo entries up to that point are honoured, so it is the board the players saw then."""
        return (await self.replay(game, upto=version))[-1]

    async def effective_moves(self, game: GameRecord) -> list[ActionRecord]:
        """The log without undone moves and without the undo entries themselves."""
        stack: list[ActionRecord] = []
        for record in await self.store.actions(game.id):
            if record.action.get("kind") == UNDO:
                del stack[-undone_count(record.action) :]
            else:
                stack.append(record)
        return stack

    async def waiting_on(self, user_id: int) -> list[tuple[GameRecord, str]]:
        """The caller's games (every guild) where they must act now, with each game's headline."""
        found = []
        for game in await self.store.games_of_user(user_id, statuses=(GameStatus.ACTIVE,)):
            seat = await self.seat_of(game, user_id)
            if seat is not None and seat.seat in await self.to_act(game):
                found.append((game, (await self.view(game, None)).headline))
        return found

    async def since_last_turn(self, game: GameRecord, user_id: int) -> SinceLastTurn:
        """What happened since the caller last acted: public lines, with their own private lines instead
        where they have one."""
        seat = await self.require_seat(game, user_id)
        records = await self.store.actions(game.id)
        mine = [
            entry
            for entry in numbering.numbered(records)
            if entry.record.seat == seat.seat and entry.record.user_id == user_id
        ]
        last = mine[-1].record.version if mine else 0
        lines = []
        for record in records:
            if record.version <= last:
                continue
            for event in record.events:
                private = event.get("private", {}).get(str(seat.seat)) or event.get("private", {}).get(
                    seat.seat
                )
                if private or event["text"]:
                    lines.append(private or event["text"])
        return SinceLastTurn(last, mine[-1].move if mine else 0, lines)

    async def stats(
        self, *, user_id: int | None = None, guild_id: int | None = None, kind: str | None = None
    ) -> dict[str, Any]:
        """Played, won and streaks per game, from the stored games themselves (no second source of truth)."""
        games = await self.store.list_games(user_id=user_id, guild_id=guild_id, limit=10_000)
        finished = [
            g
            for g in reversed(games)
            if g.status == GameStatus.FINISHED and g.result and (kind is None or g.kind == kind)
        ]
        per_game: dict[str, dict[str, Any]] = {}
        players: dict[int, dict[str, Any]] = {}
        streak = 0
        for game in finished:
            result = Result.model_validate_json(game.result or "{}")
            seats = await self.store.seats(game.id)
            with_ai = any(seat.user_id < 0 for seat in seats)
            entry = per_game.setdefault(game.kind, {"played": 0, "won": 0, "with_ai": 0})
            entry["played"] += 1
            entry["with_ai"] += with_ai
            winners = {seats[s].user_id for s in result.winners}
            for seat in seats:
                board = players.setdefault(seat.user_id, {"name": seat.name, "played": 0, "won": 0})
                board["played"] += 1
                board["won"] += seat.user_id in winners
            if user_id is not None:
                won = user_id in winners
                entry["won"] += won
                streak = streak + 1 if won else 0
        return {"per_game": per_game, "players": players, "streak": streak}

    async def move_times(self, user_id: int) -> float | None:
        """The caller's average seconds between the move before theirs and their own move."""
        gaps: list[float] = []
        for game in await self.store.list_games(user_id=user_id, limit=200):
            records = await self.store.actions(game.id)
            for before, after in zip(records, records[1:], strict=False):
                if after.user_id == user_id and before.user_id != user_id:
                    start = datetime.fromisoformat(before.created_at)
                    end = datetime.fromisoformat(after.created_at)
                    gaps.append((end - start).total_seconds())
        return sum(gaps) / len(gaps) if gaps else None

    async def history_text(self, game: GameRecord) -> str:
        """The whole public log as text: what a spectator could have read, move by move."""
        rules = self.rules_for(game.kind)
        seats = await self.store.seats(game.id)
        lines = [
            f"{rules.info.name} - game #{game.id} - seed {game.seed}",
            "Players: " + ", ".join(f"{s.seat + 1}. {s.name}" for s in seats),
            "Options: " + ("; ".join(rules.info.option_lines(game.options)) or "none"),
            f"Started {game.created_at}; status {game.status.value}",
            "Each line starts with its move number: the moves that stand, as the turn posts and a saved"
            " file count them; a move taken back by an undo is marked, and the next move takes its number.",
            "",
        ]
        for entry in numbering.numbered(await self.store.actions(game.id)):
            if entry.undo:
                mark = f"[back to {entry.move:>3}]"
            else:
                mark = f"[move {entry.move:>3}{', taken back' if entry.undone else ''}]"
            for event in entry.record.events:
                if event["text"]:
                    lines.append(f"{mark} {entry.record.created_at}  {event['text']}")
        if game.result:
            result = Result.model_validate_json(game.result)
            lines += ["", "Result: " + result.reason]
            for place, group in enumerate(result.ranking, start=1):
                for seat in group:
                    lines.append("  " + result.place_line(place, seat, seats[seat].name))
        return "\n".join(lines) + "\n"

    async def log_lines(self, game: GameRecord, limit: int = 20) -> list[str]:
        lines: list[str] = []
        for record in await self.store.actions(game.id, limit=limit):
            lines.extend(event["text"] for event in record.events if event["text"])
        return lines[-limit:]
