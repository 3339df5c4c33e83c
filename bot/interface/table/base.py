"""What every part of the table stands on: the bot and the service, background work, the computer seats'
moves, the lookups that refuse a game no longer played, and the small builders of messages and buttons
the parts share.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.app.announcer import picture_alt
from bot.app.decisions import notice
from bot.app.limits import PACE, PUBLIC_PER_USER, Limits, Rule
from bot.app.refusals import Refusal, UserError
from bot.app.service import GameService
from bot.app.text import MAX_NAME, clean_name, clip, escape_text
from bot.interface.components import GameButton, choice_menu
from bot.interface.pictures import Painter
from bot.interface.ports import Host
from bot.interface.reply import Reply
from bot.interface.trading import TradeDesk, trade_button
from bot.interface.workers import WorkerPool
from bot.storage.store import Delivery, GameRecord, GameStatus
from rules.core import Choice, Event, Game, Seat, View
from rules.search import decide

log = logging.getLogger(__name__)


MAX_CONTENT = 1900


class TableBase:
    """The state the parts of `Table` share, and the helpers they all use."""

    trades: TradeDesk
    """Made by `Table`, the whole table the desk's `TablePort` asks for (it plays the agreed trades)."""

    def __init__(self, bot: Host, service: GameService) -> None:
        self.bot = bot
        self.service = service
        self._background: set[asyncio.Task[Any]] = set()
        self.workers = WorkerPool(bot.settings.render_processes)
        self.painter = Painter(self.workers)
        self.limits: Limits = bot.limits

    # ---- limits (bot.app.limits) ---------------------------------------------------------------
    def paced(self, user_id: int) -> None:
        """Go on with a picture or a whole history for this user, unless they ask faster than a person
        does: then a polite refusal, before anything is read or drawn."""
        verdict = self.limits.take("pace", user_id, PACE)
        if not verdict.allowed:
            raise UserError(
                f"Slow down a little: I draw up to {PACE.count} pictures for you every "
                f"{PACE.seconds:g} seconds. Ask again in {verdict.wait_words}.",
                Refusal.SLOW,
            )

    def kept_private(self, kind: str, game_id: int, user_id: int, rule: Rule) -> str | None:
        """None when a public `kind` ("board", "replay") of this game may go to the channel now;
        otherwise the line that tells the asker why only they see it."""
        verdict = self.limits.public(kind, game_id, user_id, rule)
        if verdict.allowed:
            return None
        if verdict.by == "game":
            return (
                f"Only you see this: the channel got this game's {kind} less than "
                f"{_minutes(rule.seconds)} ago (one every {_minutes(rule.seconds)})."
            )
        return (
            f"Only you see this: you asked for {PUBLIC_PER_USER.count} public pictures in the last "
            f"{_minutes(PUBLIC_PER_USER.seconds)}; ask again in {verdict.wait_words}."
        )

    # ---- running handlers ----------------------------------------------------------------
    async def guarded(
        self,
        interaction: discord.Interaction,
        work: Callable[[Reply], Awaitable[None]],
        *,
        update: bool = False,
    ) -> None:
        """Run a component's `work` with a Reply: the same error path as every command."""
        async with Reply(interaction, update=update) as reply:
            await work(reply)

    def spawn(self, coroutine: Awaitable[Any], name: str) -> None:
        """Background work (posting, DMs) that must not hold up the interaction's answer."""
        task = asyncio.ensure_future(coroutine)
        task.set_name(name)
        self._background.add(task)
        task.add_done_callback(self._finished_background)

    def _finished_background(self, task: asyncio.Task[Any]) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task %s failed", task.get_name(), exc_info=task.exception())

    async def drain(self) -> None:
        """Wait for the background work and for the outbox to be delivered (used before shutdown, by
        the local console and the tests)."""
        while True:
            while self._background:
                await asyncio.gather(*list(self._background), return_exceptions=True)
            courier = getattr(self.bot, "courier", None)
            if courier is not None:
                await courier.idle()
            if not self._background:
                return

    # ---- computer seats ----------------------------------------------------------------------
    async def drive_ai(self, game_id: int, *, limit: int = 400) -> int:
        """Play every move owed by computer seats (AI seats, autopiloted dropped seats). While one of
        them is to act, what the moves owe is held (`bot.app.announcer`): the move that hands the game
        back to a person (or ends it) posts the whole run at once. Returns how many moves were made.

        Why `tried`: a computer seat must never go round in a circle (a loan and its repayment, a pick
        and its take-back), which would fill the log until `limit` and leave the game stuck. The
        search leaves out the moves known to do it, but a new circle needs no new code: a position met
        again in this run (same stored state, same seat) bars the moves already made from it.

        A run that cannot go on (the search failed, or `limit` was reached) is delivered as it stands,
        so the table hears of the moves made rather than nothing."""
        moves = 0
        try:
            moves = await self._computer_run(game_id, limit)
        except Exception:
            log.exception("game %s: a computer seat could not move", game_id)
            await self.service.release_held(game_id)
            return moves
        if moves >= limit:
            log.warning("game %s: computer seats made %d moves in one run; stopped", game_id, moves)
            await self.service.release_held(game_id)
        return moves

    async def _computer_run(self, game_id: int, limit: int) -> int:
        moves = 0
        tried: dict[tuple[str, int], set[str]] = {}
        while moves < limit:
            game = await self.service.game(game_id)
            if game is None or game.status != GameStatus.ACTIVE:
                break
            seats = await self.service.seats(game_id)
            automated = await self.service.automated_seats(game, seats)
            if not automated:
                break  # a table of people only: nothing to play (the common case, kept cheap)
            state = await self.service.state(game)
            rules = self.service.rules_for(game.kind)
            waiting = sorted(rules.to_act(state) & automated)
            if not waiting:
                # Nobody the bot plays is to act. A run held for a seat that stopped being automated
                # meanwhile (a substitute took it) is delivered now.
                await self.service.release_held(game_id)
                break
            seat = waiting[0]
            clock = await self.service.table_settings(game)
            # Seeded by the game and its version: the same position gets the same move after a restart.
            seed = f"{game.seed}:{game.version}:{seat}"
            position = (hashlib.blake2b((game.state or "").encode(), digest_size=16).hexdigest(), seat)
            avoid = frozenset(tried.setdefault(position, set()))
            if avoid:
                log.info("game %s: seat %s is back at a position; not repeating %s", game_id, seat, avoid)
            key = await self.workers.run(decide, rules, state, seat, seed, clock.ai_strength, avoid)
            tried[position].add(key)
            try:
                await self.service.play_for_seat(game_id, seat, key, expected_version=game.version)
            except UserError:
                break  # a person moved meanwhile: their move's own drive plays on
            moves += 1
        return moves

    async def resume_computers(self) -> int:
        """At start-up: play on in the games a dead process left in the middle of a computer run (the
        move before it is committed, its announcement held): the run is played and posted once."""
        games = await self.service.games_holding_a_run(self.bot.owned_shards)
        for game_id in games:
            self.spawn(self.drive_ai(game_id), f"ai-{game_id}-resume")
        return len(games)

    # ---- helpers ------------------------------------------------------------------------------
    async def _picture(self, view: View, filename: str, events: Sequence[Event] = ()) -> discord.File:
        """The view's picture, with alt text from the same view and the move's public lines only."""
        png = await self.painter.png(view)
        said = " ".join(event.text for event in events if event.text)
        news = f"Last move: {said}" if said else ""
        return discord.File(io.BytesIO(png), filename=filename, description=picture_alt(view, news))

    async def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is gone", channel_id)
                return None
        return channel

    async def _game(self, game_id: int) -> GameRecord:
        game = await self.service.game(game_id)
        if game is None:
            raise UserError("That game no longer exists.")
        return game

    async def _started(self, game_id: int) -> GameRecord:
        game = await self._game(game_id)
        if game.status in (GameStatus.LOBBY, GameStatus.ABANDONED) or game.state is None:
            raise UserError("That game is not being played.")
        return game

    async def active(self, game_id: int) -> GameRecord:
        game = await self._started(game_id)
        if game.status != GameStatus.ACTIVE:
            raise UserError("That game is over. `/board` shows the final position.")
        return game

    async def _waiting_names(self, game: GameRecord) -> str:
        seats = await self.service.seats(game.id)
        return ", ".join(escape_text(seats[seat].name) for seat in sorted(await self.service.to_act(game)))

    async def _display_name(self, interaction: discord.Interaction, user_id: int) -> str:
        guild = interaction.guild
        member = guild.get_member(user_id) if guild else None
        if member is not None:
            return display_name(member)
        try:
            return display_name(await self.bot.fetch_user(user_id))
        except discord.HTTPException:
            return f"player {user_id}"

    async def _stale(self, reply: Reply, game_id: int, message: str) -> None:
        game = await self._game(game_id)
        seat = await self.service.seat_of(game, reply.interaction.user.id)
        if seat is None or game.status != GameStatus.ACTIVE:
            raise UserError(message)
        choices = await self.service.choices(game, seat.seat)
        view = choice_menu(game.id, choices)
        headline = (await self.service.view(game, None)).headline
        text = f"⚠️ {message}\n{escape_text(headline)}"
        if choices:
            text += "\n**Your choices now:**"
        await reply.send(clip_content(text), view=view if choices else None)


def display_name(user: discord.abc.User) -> str:
    """A player's name as the log shows it: their display name on one line, without control
    characters, cut to a sane length (the rules core and the pictures get it as it is here)."""
    return clean_name(getattr(user, "display_name", None) or user.name, MAX_NAME)


def _minutes(seconds: float) -> str:
    minutes = round(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def channel_notice(game: GameRecord, text: str, *, ping: Sequence[int] = ()) -> Delivery:
    """A plain line in the game's channel, delivered through the outbox; only `ping` is pinged."""
    return notice(game, clip_content(text), ping=ping)


def vote_buttons(game_id: int, key: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        GameButton(game_id, "yes", menu="0", key=key, label="Approve", style=discord.ButtonStyle.success)
    )
    view.add_item(
        GameButton(game_id, "no", menu="0", key=key, label="Refuse", style=discord.ButtonStyle.danger)
    )
    return view


def is_admin(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions and (permissions.manage_channels or permissions.administrator))


def event_line(event: Event, seat: Seat) -> str:
    return event.private.get(seat, event.text)


def seat_menu(game_id: int, rules: Game, state: Any, seat: Seat, choices: list[Choice]) -> discord.ui.View:
    """A seat's choices as components, plus the trade composer's button when the seat may propose."""
    view = choice_menu(game_id, choices)
    if rules.trade_form(state, seat) is not None:
        view.add_item(trade_button(game_id))
    return view


def clip_content(text: str, limit: int = MAX_CONTENT) -> str:
    return clip(text, limit)


async def unknown_button(reply: Reply) -> None:
    raise UserError("That button is from an older version of the bot; use `/play` instead.")
