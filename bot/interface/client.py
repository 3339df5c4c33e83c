"""The bot: one `commands.Bot` subclass that opens the store, registers components and commands."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any, TypedDict, Unpack

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.clock import Clock
from bot.app.housekeeping import Housekeeping, Policy
from bot.app.limits import Limits
from bot.app.metrics import Metrics
from bot.app.service import GameService
from bot.app.text import escape_text
from bot.config import Settings
from bot.interface.calendar import Calendar
from bot.interface.components import GameButton, GameSelect
from bot.interface.delivery import Courier
from bot.interface.health import Health
from bot.interface.lifecycle import Lifecycle, refuse_if_stopping
from bot.interface.scheduler import Scheduler
from bot.interface.table import Table
from bot.storage.database import SQLITE, parse_url
from bot.storage.shards import Shards
from bot.storage.store import Store
from rules import words

log = logging.getLogger(__name__)

CLOSE_RESERVE = 2.5
"""Seconds of a graceful stop kept for closing after the courier's share: the gateway, the store and the
interpreter's exit took 1.2–2.0 s on a busy two-core machine (load 6) while the first picture after a
start was still being drawn, so 1.5 s let the exit end up to half a second past STOP_TIMEOUT."""

EXTENSIONS = (
    "bot.interface.cogs.lobby",
    "bot.interface.cogs.play",
    "bot.interface.cogs.slowplay",
    "bot.interface.cogs.help",
)


class HostTree(app_commands.CommandTree):
    """One error handler for every slash command: a plain sentence, never a traceback."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return not await refuse_if_stopping(interaction)

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.NoPrivateMessage):
            message = "This command works in a server channel, where the game is."
        elif isinstance(error, app_commands.TransformerError):
            message = f"That value is not valid: {escape_text(str(error))}"
        elif isinstance(error, app_commands.CheckFailure):
            message = "You cannot use this command here."
        else:
            log.error("command %s failed", getattr(interaction.command, "name", "?"), exc_info=error)
            message = "Something went wrong on our side, and nothing was changed. Please try again."
        if interaction.response.is_done():
            await interaction.followup.send(f"⚠️ {message}", ephemeral=True)
        else:
            await interaction.response.send_message(f"⚠️ {message}", ephemeral=True)


class HostOptions(TypedDict, total=False):
    """`HostBot`'s keywords besides its settings (`create_bot` passes them on)."""

    guild_ready_timeout: float
    clock: Clock | None
    pace_clock: Callable[[], float] | None


class HostBot(commands.Bot):
    """The bot on one gateway connection; `create_bot` picks `ShardedHostBot` when SHARD_COUNT is set."""

    def __init__(
        self,
        settings: Settings,
        *,
        guild_ready_timeout: float = 2.0,
        clock: Clock | None = None,
        pace_clock: Callable[[], float] | None = None,
        **sharding: Any,  # shard_count, shard_ids: for AutoShardedBot, next in ShardedHostBot's MRO
    ) -> None:
        """`pace_clock`: the seconds the request limits count in (`bot.app.limits`; default the
        monotonic clock): tests pass one they move by hand."""
        intents = discord.Intents.none()
        intents.guilds = True  # channels and permissions; no privileged intent is needed
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=HostTree,
            # Nothing pings unless a message names whom it pings (the turn post, a reminder).
            allowed_mentions=discord.AllowedMentions.none(),
            guild_ready_timeout=guild_ready_timeout,
            **sharding,
        )
        self.settings = settings
        #: The shards this process runs (None: not sharded); what it does unasked is limited to them.
        self.owned_shards: Shards | None = settings.shards
        self.clock = clock or Clock()
        self.limits = Limits(pace_clock or time.monotonic)
        self.store: Store | None = None
        self.lifecycle = Lifecycle()
        self.metrics = Metrics()
        self.health: Health | None = None
        self._stop_deadline: float | None = None
        self.service: GameService
        self.table: Table

    async def setup_hook(self) -> None:
        # The rules' wording engine takes ~2 s to load; loaded lazily inside a move, it would hold the
        # event loop past Discord's 3 s for the first interaction after a start. Load it here, unhurried.
        words.engine()
        self.store = await Store.open(self.settings.database_url)
        self.service = GameService(self.store, clock=self.clock)
        self.service.metrics = self.metrics
        self.table = Table(self, self.service)
        self.table.painter.metrics = self.metrics
        self.table.workers.start()
        self.scheduler = Scheduler(self)
        self.calendar = Calendar(self)
        self.service.on_timers = self.scheduler.wake
        self.courier = Courier(self, retry_base=self.settings.outbox_retry_base)
        self.service.on_outbox = self.courier.wake
        self.add_dynamic_items(GameButton, GameSelect)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.sync_commands()
        # Before the gateway connects (REST needs no connection): what a dead process left undelivered
        # goes out first, in order, before any new move adds to its games' queues.
        await self.courier.start()
        # A computer seat's run a dead process left half played (its moves held, unposted) plays on.
        resumed = await self.table.resume_computers()
        if resumed:
            log.warning("playing on the computer seats of %d games a stopped process left", resumed)
        self.housekeeping = Housekeeping(self.store, self._housekeeping_policy())
        self.housekeeping.start()
        if self.settings.health_port is not None:
            self.health = Health(self, self.settings.health_host, self.settings.health_port)
            await self.health.start()

    def _housekeeping_policy(self) -> Policy:
        """Scheduled backups are taken by one process only (the one running shard 0) and only of a
        SQLite database; pruning is harmless to repeat, so every process prunes."""
        settings = self.settings
        backs_up = parse_url(settings.database_url).dialect == SQLITE and (
            self.owned_shards is None or 0 in self.owned_shards.ids
        )
        return Policy(
            retention_days=settings.outbox_retention_days,
            backup_dir=settings.backup_dir if backs_up else None,
            backup_every_hours=settings.backup_every_hours,
            backup_keep=settings.backup_keep,
            database_url=settings.database_url,
        )

    async def sync_commands(self) -> None:
        """Sync only when the command tree changed since the last sync, as Discord rate-limits syncing.

        Commands belong to the application, not to a shard: of several processes, the one running
        shard 0 syncs them."""
        if self.owned_shards is not None and 0 not in self.owned_shards.ids:
            return
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        key = f"commands:{self.application_id}:{guild.id if guild else 'global'}"
        assert self.store is not None
        if await self.store.get_setting(key) == digest:
            log.info("slash commands unchanged; not syncing")
            return
        synced = await self.tree.sync(guild=guild)
        await self.store.set_setting(key, digest)
        log.info("synced %d slash commands (%s)", len(synced), "guild" if guild else "global")

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guilds", self.user, len(self.guilds))
        self.scheduler.start()  # on_ready fires again after reconnects; a running scheduler stays as it is

    async def shutdown(self, timeout: float | None = None) -> None:  # noqa: ASYNC109
        """The graceful stop (`bot.interface.lifecycle`): refuse new interactions, let those in flight
        finish, deliver what is due, then close, all within `timeout` seconds (STOP_TIMEOUT)."""
        budget = self.settings.stop_timeout if timeout is None else timeout
        loop = asyncio.get_running_loop()
        self._stop_deadline = loop.time() + budget
        self.lifecycle.stopping = True
        if not await self.lifecycle.settled(self._time_left(reserve=budget / 2)):
            log.warning("stopping with %d interactions still being handled", self.lifecycle.in_flight)
        await self.close()

    def _time_left(self, reserve: float) -> float:
        """Seconds until the stop's deadline minus `reserve` (kept for the steps after this one)."""
        if self._stop_deadline is None:
            return float("inf")
        return max(0.0, self._stop_deadline - asyncio.get_running_loop().time() - reserve)

    async def close(self) -> None:
        if self.health is not None:
            await self.health.stop()
            self.health = None
        if hasattr(self, "housekeeping"):
            await self.housekeeping.stop()
        if hasattr(self, "scheduler"):
            await self.scheduler.stop()
        if hasattr(self, "table"):
            await self._drain_table()
        if hasattr(self, "courier"):
            await self.courier.stop()
        if hasattr(self, "table"):
            self.table.workers.close()
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None

    async def _drain_table(self) -> None:
        """Finish the background work and deliver what is due; during a graceful stop only until its
        deadline (less `CLOSE_RESERVE` to close the gateway and the store and exit): what is left waits
        in the outbox for the next start."""
        if self._stop_deadline is None:
            await self.table.drain()
            return
        try:
            await asyncio.wait_for(self.table.drain(), self._time_left(reserve=CLOSE_RESERVE))
        except TimeoutError:
            log.warning("stop deadline reached: what is still undelivered stays in the outbox")


class ShardedHostBot(HostBot, commands.AutoShardedBot):
    """The same bot over several gateway connections: the shards in SHARD_IDS of SHARD_COUNT."""


def create_bot(settings: Settings, **options: Unpack[HostOptions]) -> HostBot:
    """The bot for these settings: sharded exactly when SHARD_COUNT is set."""
    shards = settings.shards
    if shards is None:
        return HostBot(settings, **options)
    return ShardedHostBot(settings, shard_count=shards.count, shard_ids=list(shards.ids), **options)
