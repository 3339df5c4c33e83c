"""A running table for end-to-end tests: the emulator, the real bot, a guild, channels and users."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path

from bot.app.clock import FakeClock
from bot.config import Settings
from bot.emulator.driver import InteractionResult, UserSession
from bot.emulator.model import StoredMessage
from bot.emulator.server import FakeDiscord
from bot.emulator.testing import run_bot, stop_bot
from bot.interface.client import HostBot

MANAGE_CHANNELS = 1 << 4


@dataclass
class World:
    server: FakeDiscord
    db_path: Path
    guild: int
    channels: dict[str, int]
    users: dict[str, UserSession]
    bot: HostBot | None = None
    task: object = None
    bots_started: list[HostBot] = field(default_factory=list)
    clock: FakeClock = field(default_factory=FakeClock)
    database_url: str | None = None
    """DATABASE_URL of the bot; None is the SQLite file `db_path`."""

    async def start_bot(self) -> HostBot:
        settings = Settings(
            discord_token="emulator-token",
            database_url=self.database_url or f"sqlite:///{self.db_path}",
            discord_api_base=self.server.api_base,
            _env_file=None,
        )
        bot = HostBot(settings, guild_ready_timeout=0.1, clock=self.clock)
        self.task = await run_bot(bot, self.server)
        self.bot = bot
        self.bots_started.append(bot)
        return bot

    async def stop_bot(self) -> None:
        if self.bot is not None:
            await stop_bot(self.bot, self.task)  # type: ignore[arg-type]
            self.bot = None

    async def restart_bot(self) -> HostBot:
        await self.stop_bot()
        return await self.start_bot()

    async def settle(self) -> None:
        await self.server.settle()
        if self.bot is not None:
            await self.bot.table.drain()
        await self.server.settle()

    async def advance(self, hours: float) -> int:
        """Move the injected clock forward and fire what fell due; returns how many timers fired."""
        self.clock.advance(hours * 3600)
        fired = await self.bot.scheduler.run_due()
        await self.settle()
        return fired

    def public(self, channel: str = "table") -> list[StoredMessage]:
        return self.server.public_messages(self.channels[channel])

    def last_public(self, channel: str = "table") -> StoredMessage:
        return self.public(channel)[-1]

    def turn_messages(self, channel: str = "table") -> list[StoredMessage]:
        """The turn posts (they carry a "Board" button): one per move, the last one included."""
        return [
            m
            for m in self.public(channel)
            if any((cid or "").endswith(":board") for _, cid, _ in _buttons(m))
        ]


def _buttons(message: StoredMessage) -> list[tuple[str | None, str | None, bool]]:
    found = []
    for row in message.components or []:
        for component in row.get("components", []):
            found.append(
                (component.get("label"), component.get("custom_id"), bool(component.get("disabled")))
            )
    return found


@contextlib.asynccontextmanager
async def world(
    tmp_path: Path,
    *,
    users: tuple[str, ...] = ("alice", "bob", "carol"),
    channels=("table", "other"),
    database_url: str | None = None,
):
    server = FakeDiscord()
    await server.start()
    guild = server.add_guild("Board Games")
    channel_ids = {name: server.add_channel(guild, name) for name in channels}
    sessions = {name: server.user(server.add_user(name)) for name in users}
    w = World(
        server=server,
        db_path=tmp_path / "games.db",
        guild=guild,
        channels=channel_ids,
        users=sessions,
        database_url=database_url,
    )
    try:
        await w.start_bot()
        yield w
    finally:
        await w.stop_bot()
        await server.stop()


def menu_choices(result: InteractionResult) -> list[tuple[str, str]]:
    """(label, custom_id) of the move buttons in a menu reply, or the options of its selects."""
    out = []
    message = result.message
    assert message is not None, "the interaction produced no message"
    for row in message.components or []:
        for component in row.get("components", []):
            if component.get("type") == 2:
                out.append((component["label"], component["custom_id"]))
            elif component.get("type") == 3:
                out += [(o["label"], f"{component['custom_id']}|{o['value']}") for o in component["options"]]
    return out


async def take_turn(w: World, channel: str, user: UserSession, pick) -> bool:
    """Press "Take my turn" on the latest turn message; if it is the user's turn, press a move.

    `pick(choices)` chooses among (label, custom_id) pairs. Returns whether a move was made.
    """
    turn = w.turn_messages(channel)[-1]
    game_button = next(cid for _, cid, _ in _buttons(turn) if cid and cid.endswith(":menu"))
    menu = await user.click(turn.id, game_button)
    if menu.content.startswith("⚠️"):
        return False
    for _ in range(3):  # a menu too big for one message opens its groups: at most three presses
        moves = [c for c in menu_choices(menu) if not _is_navigation(c[1])]
        picked = pick(moves)
        if picked is None:  # the picker chose to wait (e.g. for a trade partner's answer)
            return False
        label, custom_id = picked
        if "|" in custom_id:  # an option of a select menu
            select_id, value = custom_id.split("|", 1)
            result = await user.select(menu.message.id, select_id, [value])
        else:
            result = await user.click(menu.message.id, custom_id)
        if ":grp:" not in custom_id:
            break
        menu = result
    assert result.content.startswith("✅"), result.content
    return True


def _is_navigation(custom_id: str) -> bool:
    """The trade composer, Undo and a group's Back button are no moves (a group's button leads to some)."""
    return custom_id.endswith((":trade", ":undo")) or ":up:" in custom_id


def is_over(w: World, channel: str = "table") -> bool:
    turns = w.turn_messages(channel)
    return bool(turns) and "Game over" in turns[-1].content


async def play_out(
    w: World,
    channel: str,
    users: list[UserSession],
    seed: int = 0,
    max_rounds: int = 200,
    pick=None,
    *,
    moves_wanted: int | None = None,
) -> int:
    """Play to the end through the buttons only (or until `moves_wanted` moves were made); returns
    the number of moves made."""
    import random

    rng = random.Random(seed)
    choose = pick or rng.choice
    moves = 0
    for _ in range(max_rounds):
        if is_over(w, channel) or (moves_wanted is not None and moves >= moves_wanted):
            return moves
        for user in users:
            moves += await take_turn(w, channel, user, choose)
            await w.settle()
            if is_over(w, channel):
                return moves
    if moves_wanted is not None:
        return moves
    raise AssertionError("the game did not end")


async def open_game(
    w: World,
    channel: str,
    host: UserSession,
    others: list[UserSession],
    *,
    game: str = "test-highcard",
    **options,
) -> None:
    result = await host.slash(w.channels[channel], "game new", game=game, **options)
    assert not result.ephemeral, result.content
    for user in others:
        joined = await user.slash(w.channels[channel], "game join")
        assert not joined.ephemeral, joined.content
    started = await host.slash(w.channels[channel], "game start")
    assert "has started" in started.content, started.content
    await w.settle()
