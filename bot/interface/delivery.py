"""The outbox's courier: sends what moves owe Discord, retrying until it is delivered.

Rows are written in the move's own transaction (`bot/app/announcer.py`), so nothing owed is lost when the
process dies after the commit. This worker claims the due rows of its shards' games, sends them in
order per game (an edit needs the post before it) and many games at once, and records the outcome:

- sent: the message id is kept (edits and repaints find the live post through it);
- retried with exponential backoff and jitter on 5xx, 429 (waiting at least `retry_after`), dropped
  connections and timeouts; a game's later rows wait behind the retried one;
- ended, with the reason kept, only on errors that cannot succeed: closed DMs (the channel is told,
  once, to use `/hand`), an unknown or forbidden channel (the game is marked as having lost its
  channel, which `/game status` shows), a message Discord refuses as invalid.

Deliveries run on real time (`time.time()`), not on the bot's injectable clock: that clock moves the
table's reminders and deadlines in tests, while a retry's backoff must pass for real.

Every post carries a nonce derived from (game, version, kind, target), sent with `enforce_nonce`, so a
retry whose first answer was lost (or a restarted process resending a row the dead one had sent)
gets the same message back instead of a second one.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import logging
import random
import time
from collections import OrderedDict
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import discord

from bot.app.metrics import reason_label
from bot.interface.components import GameButton, retired_buttons, turn_buttons
from bot.interface.ports import Host
from bot.logs import about
from bot.storage.store import Delivery, OutboxRow

log = logging.getLogger(__name__)

NONCE_WINDOW = 120.0
"""Seconds a nonce is surely honoured (Discord: "the past few minutes"); a retry later than this looks
for its post in the channel first (`Courier._posted_before`)."""
HISTORY_LOOKBACK = 50

RETRY_BASE = 1.0
RETRY_CAP = 300.0
PARALLEL_GAMES = 16

DMS_CLOSED = 50007
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013


class Retry(Exception):
    """Delivery failed for a reason that can pass; try again after `after` seconds at the least."""

    def __init__(self, reason: str, after: float = 0.0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.after = after


class GiveUp(Exception):
    """Delivery cannot succeed, whatever the number of tries; the reason is kept on the row."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def nonce(row: OutboxRow) -> str:
    """At most 25 characters, as Discord asks; the same row always gets the same nonce."""
    key = f"{row.game_id}:{row.version}:{row.kind}:{row.target}:{row.id}"
    return hashlib.blake2s(key.encode(), digest_size=12).hexdigest()[:25]


class Courier:
    def __init__(
        self,
        bot: Host,
        *,
        retry_base: float = RETRY_BASE,
        retry_cap: float = RETRY_CAP,
        poll: float = 5.0,
        nonce_window: float = NONCE_WINDOW,
    ) -> None:
        self.bot = bot
        self.nonce_window = nonce_window
        self.retry_base = retry_base
        self.retry_cap = retry_cap
        self.poll = poll
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._busy = False
        self._pictures: OrderedDict[tuple[int, str], bytes] = OrderedDict()
        self._random = random.Random()

    @property
    def store(self) -> Any:
        return self.bot.service.store

    # ---- running -----------------------------------------------------------------------------
    async def start(self) -> None:
        """Take back what a dead predecessor held, then deliver in the background."""
        released = await self.store.release_outbox_claims(shards=self.bot.owned_shards)
        if released:
            log.warning("resuming %d deliveries a stopped process held", released)
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="outbox-courier")

    def wake(self) -> None:
        self._wake.set()

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def idle(self, timeout: float = 30.0) -> bool:  # noqa: ASYNC109
        """Wait until nothing due is left to send (tests and the local console); False on timeout."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end:
            due = await self.store.next_outbox_due(shards=self.bot.owned_shards)
            if not self._busy and (due is None or due > time.time()):
                return True
            self.wake()
            await asyncio.sleep(0.02)
        return False

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            try:
                worked = await self.deliver_due()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database hiccuped: the rows stay pending, try again shortly
                log.exception("the outbox could not be read")
                worked = False
            if worked:
                continue
            pause = self.poll
            due = await self._next_due()
            if due is not None:
                pause = max(0.0, min(pause, due - time.time()))
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=pause)

    async def _next_due(self) -> float | None:
        with contextlib.suppress(Exception):
            return await self.store.next_outbox_due(shards=self.bot.owned_shards)
        return None

    async def deliver_due(self) -> bool:
        """One pass: claim what is due and send it. True when anything was claimed."""
        self._busy = True
        try:
            rows = await self.store.claim_outbox(time.time(), shards=self.bot.owned_shards)
            if not rows:
                return False
            games: dict[int, list[OutboxRow]] = {}
            for row in rows:
                games.setdefault(row.game_id, []).append(row)
            gate = asyncio.Semaphore(PARALLEL_GAMES)

            async def one_game(queue: list[OutboxRow]) -> None:
                async with gate:
                    await self._deliver_game(queue)

            await asyncio.gather(*(one_game(queue) for queue in games.values()))
            return True
        finally:
            self._busy = False

    async def _deliver_game(self, queue: list[OutboxRow]) -> None:
        for index, row in enumerate(queue):
            try:
                with about(game=row.game_id):
                    message_id = await self._send(row)
            except Retry as retry:
                delay = self._backoff(row.attempts, retry.after)
                log.info(
                    "delivery %s (%s of game %s) retried in %.1fs: %s",
                    row.id,
                    row.kind,
                    row.game_id,
                    delay,
                    retry.reason,
                )
                await self.store.outbox_retry(row.id, time.time() + delay, retry.reason)
                await self.store.release_outbox([later.id for later in queue[index + 1 :]])
                self._count("retries", retry.reason)
                return
            except GiveUp as failure:
                log.warning(
                    "delivery %s (%s of game %s) ended: %s", row.id, row.kind, row.game_id, failure.reason
                )
                await self.store.outbox_done(row.id, status="failed", reason=failure.reason)
                self._count("give_ups", failure.reason)
                continue
            except Exception as error:  # a bug here must not stop the game's queue for ever
                log.exception("delivery %s (%s of game %s) failed", row.id, row.kind, row.game_id)
                await self.store.outbox_retry(
                    row.id, time.time() + self._backoff(row.attempts, 0), f"error: {error!r}"[:300]
                )
                await self.store.release_outbox([later.id for later in queue[index + 1 :]])
                return
            await self.store.outbox_done(row.id, message_id=message_id)
            self._count("deliveries", row.kind)

    def _count(self, counter: str, label: str) -> None:
        metrics = getattr(self.bot, "metrics", None)
        if metrics is not None:
            getattr(metrics, counter).labels(label if counter == "deliveries" else reason_label(label)).inc()

    def _backoff(self, attempts: int, at_least: float) -> float:
        """Exponential, capped, with full jitter on its upper half so retries of many games spread."""
        ceiling = min(self.retry_cap, self.retry_base * 2**attempts)
        return max(at_least, ceiling * self._random.uniform(0.5, 1.0))

    # ---- one row -------------------------------------------------------------------------------
    async def _send(self, row: OutboxRow) -> int | None:
        handlers = {
            "post": self._post,
            "edit": self._edit,
            "repaint": self._repaint,
            "dm": self._dm,
            "notice": self._notice,
            "thread": self._thread,
        }
        try:
            return await handlers[row.kind](row)
        except discord.RateLimited as error:
            raise Retry("rate limited", error.retry_after) from None
        except discord.DiscordServerError as error:
            raise Retry(f"Discord {error.status}") from None
        except discord.HTTPException as error:
            if error.status == 429:
                raise Retry("rate limited", _retry_after(error)) from None
            if error.status >= 500:
                raise Retry(f"Discord {error.status}") from None
            raise GiveUp(f"{error.status} {error.code}: {error.text}"[:300]) from None
        except (TimeoutError, aiohttp.ClientError, OSError) as error:
            raise Retry(f"connection: {type(error).__name__}") from None

    async def _post(self, row: OutboxRow) -> int:
        payload = row.payload
        superseded = await self.store.live_message(row.game_id, row.id)
        channel = self.bot.get_partial_messageable(row.target)
        earlier = await self._posted_before(row, channel)
        if earlier is not None:
            await self.store.remember_message(row.game_id, "turn", row.target, earlier.id, row.version)
            if superseded is not None and superseded[1] != earlier.id:
                await self._retire(row, *superseded)
            return earlier.id
        file = await self._picture(row, payload)
        buttons = turn_buttons(row.game_id, finished=payload.get("buttons") == "finished")
        try:
            message = await channel.send(
                payload["content"],
                file=file if file is not None else discord.utils.MISSING,  # as send() itself maps None
                view=buttons,
                nonce=nonce(row),
                allowed_mentions=_pinging(payload.get("ping", [])),
            )
        except discord.HTTPException as error:
            await self._channel_refused(row, error)
            raise
        await self._channel_works(row)
        await self.store.remember_message(row.game_id, "turn", row.target, message.id, row.version)
        if superseded is not None and superseded[1] != message.id:
            await self._retire(row, *superseded)
        with contextlib.suppress(Exception):
            await self.bot.calendar.sync(row.game_id)
        return message.id

    async def _edit(self, row: OutboxRow) -> int | None:
        live = await self.store.live_message(row.game_id, row.id)
        if live is None:
            raise GiveUp("no live post to edit (its post was never delivered)")
        channel_id, message_id = live
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(
                content=row.payload["content"], allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.NotFound as error:
            if error.code != UNKNOWN_MESSAGE:
                await self._channel_refused(row, error)
                raise
            return await self._repost(row)  # someone deleted the live post: the lines go in a new one
        except discord.HTTPException as error:
            await self._channel_refused(row, error)
            raise
        return message_id

    async def _retire(self, row: OutboxRow, channel_id: int, message_id: int) -> None:
        """Grey out the buttons of the turn message the new post supersedes. Best effort: the post is
        made, and a superseded message whose buttons stay live still opens the current menu."""
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(
                view=retired_buttons(row.game_id), allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as error:
            log.info("game %s: the superseded turn message kept its buttons: %s", row.game_id, error)

    async def _repost(self, row: OutboxRow) -> int:
        message = await self.bot.get_partial_messageable(row.target).send(
            row.payload["content"],
            view=turn_buttons(row.game_id),
            nonce=nonce(row),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        return message.id

    async def _repaint(self, row: OutboxRow) -> int | None:
        live = await self.store.live_message(row.game_id, row.id)
        if live is None:
            raise GiveUp("no live post to repaint")
        file = await self._picture(row, row.payload)
        message = self.bot.get_partial_messageable(live[0]).get_partial_message(live[1])
        try:
            await message.edit(attachments=[file] if file else [])
        except discord.NotFound:
            raise GiveUp("the live post was deleted") from None
        return live[1]

    async def _dm(self, row: OutboxRow) -> int | None:
        payload = row.payload
        seat = payload.get("seat")
        buttons: discord.ui.View | None = None
        if payload.get("buttons") == "menu":
            buttons = discord.ui.View(timeout=None)
            buttons.add_item(
                GameButton(row.game_id, "menu", label="Take my turn", style=discord.ButtonStyle.primary)
            )
        try:
            channel = await self.bot.create_dm(discord.Object(row.target))
            earlier = await self._posted_before(row, channel)  # a DM is owed once, like a post
            if earlier is not None:
                return earlier.id
            file = await self._picture(row, payload)
            message = await channel.send(
                payload["content"],
                file=file or discord.utils.MISSING,
                view=buttons or discord.utils.MISSING,
                nonce=nonce(row),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.Forbidden as error:
            if error.code != DMS_CLOSED:
                raise
            if seat is not None and await self.store.set_dm_closed(row.game_id, row.target, True):
                await self._dms_closed_notice(row)
            raise GiveUp("the player's direct messages are closed") from None
        if seat is not None:
            await self.store.set_dm_closed(row.game_id, row.target, False)
        return message.id

    async def _dms_closed_notice(self, row: OutboxRow) -> None:
        game = await self.store.game(row.game_id)
        if game is None:
            return
        text = (
            f"<@{row.target}>, I cannot send you direct messages, so your private cards stay hidden"
            " here: use `/hand` (only you will see it)."
        )
        notice = {"content": text, "ping": [row.target]}
        await self.store.enqueue(
            game.id,
            row.version,
            [Delivery(kind="notice", target=game.channel_id, payload=notice, due_at=0.0)],
        )

    async def _notice(self, row: OutboxRow) -> int:
        payload = row.payload
        buttons = None
        if payload.get("take_seat") is not None:
            buttons = discord.ui.View(timeout=None)
            buttons.add_item(
                GameButton(
                    row.game_id,
                    "takeseat",
                    menu="0",
                    key=str(payload["take_seat"]),
                    label=str(payload.get("label", "Take the seat"))[:80],
                    style=discord.ButtonStyle.success,
                )
            )
        earlier = await self._posted_before(row, self.bot.get_partial_messageable(row.target))
        if earlier is not None:
            return earlier.id
        try:
            message = await self.bot.get_partial_messageable(row.target).send(
                payload["content"],
                view=buttons or discord.utils.MISSING,
                nonce=nonce(row),
                allowed_mentions=_pinging(payload.get("ping", [])),
            )
        except discord.HTTPException as error:
            await self._channel_refused(row, error)
            raise
        return message.id

    async def _thread(self, row: OutboxRow) -> int | None:
        game = await self.store.game(row.game_id)
        if game is None:
            raise GiveUp("the game is gone")
        thread = await self.bot.table.game_thread(game)
        if thread is None:
            raise GiveUp("the follow thread cannot be created")
        message = await thread.send(
            row.payload["content"], nonce=nonce(row), allowed_mentions=discord.AllowedMentions.none()
        )
        return message.id

    # ---- helpers -------------------------------------------------------------------------------
    async def _posted_before(self, row: OutboxRow, channel: Any) -> discord.Message | None:
        """A post (or DM) of this row that got through although its answer was lost, found in the channel
        (or the player's DM channel).

        A retry within Discord's nonce window gets the earlier message back for its nonce; after a
        longer outage the nonce protects nothing any more, so before posting again the courier reads
        the channel's recent messages for its own post with the same text, made since the row was
        written. Only for rows already tried: a first try cannot have posted anything."""
        if row.attempts == 0 or not row.created_at:
            return None
        written = datetime.fromisoformat(row.created_at)
        if written.tzinfo is None:
            written = written.replace(tzinfo=UTC)
        if (datetime.now(UTC) - written).total_seconds() < self.nonce_window:
            return None
        me = self.bot.user.id if self.bot.user else None
        async for message in channel.history(limit=HISTORY_LOOKBACK, after=written - timedelta(seconds=5)):
            if message.author.id == me and message.content == row.payload.get("content"):
                log.info(
                    "delivery %s (%s of game %s) was already posted as %s",
                    row.id,
                    row.kind,
                    row.game_id,
                    message.id,
                )
                return message
        return None

    async def _picture(self, row: OutboxRow, payload: dict[str, Any]) -> discord.File | None:
        """The payload's view drawn, with its marks. A direct message carries a view only when the
        seat's view shows more than the board (the announcer decides), and a hand picture draws only
        that private part, so it can never be a copy of the public board."""
        if not payload.get("view"):
            return None
        rules = self.bot.service.rules_for(await self._kind(row.game_id))
        png = await self._png(row, rules.load_view(payload["view"]), frozenset(payload.get("marks", ())))
        return discord.File(
            io.BytesIO(png), filename=payload["picture"], description=payload.get("alt", "")[:1000]
        )

    async def _png(self, row: OutboxRow, view: Any, marks: frozenset[str] = frozenset()) -> bytes:
        """`marks`: what changed since the previous post, framed on the board."""
        viewer = "public" if view.seat is None else view.seat
        key = (row.game_id, f"v{row.version}:{viewer}:{','.join(sorted(marks))}")
        cached = self._pictures.get(key)
        if cached is None:
            cached = await self.bot.table.painter.png(view, marks)
            self._pictures[key] = cached
            while len(self._pictures) > 64:
                self._pictures.popitem(last=False)
        return cached

    async def _kind(self, game_id: int) -> str:
        game = await self.store.game(game_id)
        if game is None:
            raise GiveUp("the game is gone")
        return game.kind

    async def _channel_refused(self, row: OutboxRow, error: discord.HTTPException) -> None:
        """An unknown or forbidden channel: the game has lost it, and `/game status` says why."""
        if error.code in (UNKNOWN_CHANNEL, MISSING_ACCESS, MISSING_PERMISSIONS):
            reason = {
                UNKNOWN_CHANNEL: "the channel was deleted",
                MISSING_ACCESS: "the bot can no longer see the channel",
                MISSING_PERMISSIONS: "the bot may not post (or attach pictures) in the channel",
            }[error.code]
            await self.store.set_channel_lost(row.game_id, reason)

    async def _channel_works(self, row: OutboxRow) -> None:
        await self.store.set_channel_lost(row.game_id, None)


def _pinging(users: list[int]) -> discord.AllowedMentions:
    """Exactly these users may be pinged: never @everyone, roles, or a name that looks like a mention."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(user) for user in users]
    )


def _retry_after(error: discord.HTTPException) -> float:
    response = getattr(error, "response", None)
    if response is None:
        return 0.0
    with contextlib.suppress(Exception):
        return float(response.headers.get("Retry-After", 0))
    return 0.0
