"""What a passed deadline does to its seat (the table's `on_timeout`): drop the player (for a newcomer
or the computer to take over), play the rules' timeout move for them, or, where the rules allow no
such move, tell the table it keeps waiting.

A deadline is a decision like a vote: it acts under the game's lock, only if the game is still where
the timer found it (same version, the seat still held by the player whose time ran out), and what it
announces is written in the same transaction as what it does. So a move, an undo or a substitute that
got there first leaves the deadline with nothing to do, and the other way round.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.app.decisions import Decisions, Verdict, notice
from bot.app.moves import Move
from bot.app.refusals import Refusal, UserError
from bot.app.text import escape_text, plain_text
from bot.storage.store import GameRecord, Ruling, SeatRecord, Seen
from rules.core import Seat


@dataclass
class Timeout:
    """What the deadline did: dropped the player (`autopilot`: the computer plays on), played a move
    for them, or could do neither (`stuck`)."""

    outcome: Literal["dropped", "played", "stuck"]
    autopilot: bool = False
    move: Move | None = None


class Deadlines(Decisions):
    """The service's part that applies a table's timeout policy."""

    async def time_out(self, game_id: int, seat: Seat, *, version: int, holder: int) -> Timeout:
        """The deadline of `seat`, held by `holder` at `version`, passed; refused (Refusal.STALE) if the
        game moved on or the seat changed hands since."""

        async def decide(game: GameRecord, seats: list[SeatRecord], _: set[int]) -> Verdict[Timeout]:
            record = seats[seat] if seat < len(seats) else None
            if (
                game.version != version
                or record is None
                or record.user_id != holder
                or record.vacation
                or record.dropped
                or seat not in await self.to_act(game)
            ):
                raise UserError("The game moved on before the timeout.", Refusal.STALE)
            seen = Seen.of(version, seats)
            policy = (await self.table_settings(game)).on_timeout or "skip"
            if policy in ("replace", "autopilot"):
                autopilot = policy == "autopilot"
                dropped = self._dropped_notice(game, record, autopilot)
                ruling = Ruling(dropped=[(seat, True)], outbox=[dropped])
                return Verdict(seen, ruling, Timeout("dropped", autopilot=autopilot))
            choice = self.rules_for(game.kind).timeout_choice(await self.state(game), seat, policy)
            if choice is None:
                text = (
                    f"⌛ <@{holder}> ran out of time, but the rules allow no pass here, so the table keeps"
                    " waiting. A moderator can `/game replace` the player."
                )
                return Verdict(seen, Ruling(outbox=[notice(game, text, ping=[holder])]), Timeout("stuck"))
            note = f"⌛ {escape_text(record.name)} ran out of time; the clock played **{escape_text(choice.label)}** for them."
            move = await self._move(game, seats, seat, 0, key=choice.key, note=note)
            return Verdict(seen, Ruling(), Timeout("played", move=move))  # the move committed itself

        return await self._decided(game_id, decide)

    def _dropped_notice(self, game: GameRecord, record: SeatRecord, autopilot: bool):  # noqa: ANN202
        info = self.rules_for(game.kind).info
        text = (
            f"⌛ {escape_text(record.name)} ran out of time and was dropped from **{info.name}**."
            + (" The computer plays the seat until a substitute takes it." if autopilot else "")
            + " Anyone not playing can take the seat, with its cards: press the button."
        )
        return notice(game, text, take_seat=record.seat, label=plain_text(f"Take {record.name}'s seat", 80))
