"""What the Discord side's parts see of each other, as small Protocols, so that none imports the module
that builds it (`client` builds the table, the courier, the scheduler and the calendar, and the table
builds its buttons and its trade desk): `Host` is the bot as those parts use it, `TablePort` the table
as its buttons, the trade desk, the scheduler and the courier use it, `CalendarPort` the calendar as
the courier and the scheduler use it. `HostBot`, `Table` and `Calendar` match them as they are."""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.app.limits import Limits
from bot.app.service import GameService
from bot.config import Settings
from bot.interface.pictures import Painter
from bot.interface.reply import Reply
from bot.storage.shards import Shards
from bot.storage.store import GameRecord, SeatRecord, Timer


class CalendarPort(Protocol):
    async def sync(self, game_id: int) -> None:
        """Bring the game's event in the guild's calendar up to date."""
        ...


class TablePort(Protocol):
    service: GameService
    painter: Painter

    async def on_button(
        self, interaction: discord.Interaction, game_id: int, verb: str, menu: str | None, key: str | None
    ) -> None: ...

    async def on_option(
        self, interaction: discord.Interaction, game_id: int, name: str, value: str | None
    ) -> None: ...

    async def play_move(
        self,
        reply: Reply,
        game: GameRecord,
        *,
        key: str | None = None,
        menu: str | None = None,
        text: str | None = None,
        action: dict[str, Any] | None = None,
    ) -> None: ...

    async def active(self, game_id: int) -> GameRecord:
        """The game, refused unless it is being played."""
        ...

    async def game_thread(self, game: GameRecord) -> discord.abc.Messageable | None: ...

    async def remind(self, game: GameRecord, seat: SeatRecord, timer: Timer) -> None: ...

    async def time_out(self, game: GameRecord, seat: SeatRecord) -> None: ...


class Host(Protocol):
    """The bot (`bot.interface.client.HostBot`): its settings, the service, its parts, and the
    `discord.Client` calls the parts make."""

    settings: Settings
    owned_shards: Shards | None
    service: GameService
    limits: Limits
    http: Any

    @property
    def user(self) -> discord.ClientUser | None: ...

    @property
    def table(self) -> TablePort: ...

    @property
    def calendar(self) -> CalendarPort: ...

    def get_channel(self, id: int, /) -> Any: ...

    async def fetch_channel(self, channel_id: int, /) -> Any: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...

    async def fetch_guild(self, guild_id: int, /) -> discord.Guild: ...

    async def fetch_user(self, user_id: int, /) -> discord.User: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...

    def get_partial_messageable(self, id: int, /) -> discord.PartialMessageable: ...
