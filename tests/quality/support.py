"""Shared pieces of the quality tests: the bot as a real subprocess, and playing through the emulator."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bot.app.announcer import one_line
from bot.app.service import GameService
from bot.emulator.driver import EmulatorUsageError, InteractionFailed, InteractionResult, UserSession
from bot.emulator.gateway import GatewaySession
from bot.emulator.model import StoredMessage
from bot.emulator.server import FakeDiscord
from bot.storage.shards import Shards
from bot.storage.store import ActionRecord, GameRecord

ROOT = Path(__file__).resolve().parents[2]

WITH_TEST_GAME = (
    "from rules import registry; from tests.support import highcard; registry.register(highcard.GAME);"
    " from bot.__main__ import main; raise SystemExit(main([]))"
)
"""`python -m bot`, with the tests' own game registered first."""


class BotProcess:
    """`python -m bot` in a subprocess, pointed at the emulator, its log written to a file.

    `database_url` defaults to a SQLite file in `folder`; `shards` ((shard_count, "ids")) makes it one
    process of a sharded bot, SHARD_COUNT and SHARD_IDS set; `test_game` offers the tests' own game
    (`tests/support/highcard.py`) besides the real ones."""

    def __init__(
        self,
        server: FakeDiscord,
        folder: Path,
        *,
        token: str = "quality-token",
        log_level: str = "INFO",
        render_processes: int = 0,
        database_url: str | None = None,
        shards: tuple[int, str] | None = None,
        test_game: bool = False,
    ) -> None:
        self.server = server
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.db_path = folder / "games.db"
        self.database_url = database_url or f"sqlite:///{self.db_path}"
        self.token = token
        self.log_level = log_level
        self.render_processes = render_processes
        self.shards = Shards.parse(*shards) if shards else None
        self.test_game = test_game
        self.process: subprocess.Popen[bytes] | None = None
        self.logs: list[Path] = []
        #: The gateway sessions of the running process (one per shard it runs).
        self.sessions: list[GatewaySession] = []

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "SHARD_"))}
        env.update(
            DISCORD_TOKEN=self.token,
            DISCORD_API_BASE=self.server.api_base,
            DATABASE_URL=self.database_url,
            RENDER_PROCESSES=str(self.render_processes),
            LOG_LEVEL=self.log_level,
            DEV_GUILD_ID="",
            PYTHONUNBUFFERED="1",
        )
        if self.test_game:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
        if self.shards is not None:
            env.update(SHARD_COUNT=str(self.shards.count), SHARD_IDS=",".join(map(str, self.shards.ids)))
        return env

    async def start(self, timeout: float = 30.0) -> None:  # noqa: ASYNC109
        """Start the process and wait until it has identified on the gateway (every shard it runs)."""
        sessions_before = set(self.server.gateway.sessions)
        expected = len(self.shards.ids) if self.shards is not None else 1
        log = self.folder / f"bot-{len(self.logs)}.log"
        self.logs.append(log)
        with log.open("wb") as out:
            # cwd is the test folder, so no .env of the developer's is read.
            self.process = subprocess.Popen(  # noqa: ASYNC220 - starting it does not block
                [sys.executable, "-c", WITH_TEST_GAME] if self.test_game else [sys.executable, "-m", "bot"],
                cwd=self.folder,
                env=self.env(),
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout

        def new_sessions() -> list[GatewaySession]:
            found = self.server.gateway.sessions
            return [found[key] for key in found if key not in sessions_before and found[key].connected]

        while len(new_sessions()) < expected:
            if self.process.poll() is not None:
                raise AssertionError(f"the bot exited with {self.process.returncode}:\n{self.log_text()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"the bot did not connect in {timeout}s:\n{self.log_text()}")
            await asyncio.sleep(0.05)
        self.sessions = new_sessions()

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process = None

    def log_text(self) -> str:
        return "\n".join(path.read_text(errors="replace") for path in self.logs if path.exists())


def turn_messages(server: FakeDiscord, channel: int) -> list[StoredMessage]:
    return [
        message
        for message in server.public_messages(channel)
        if any((cid or "").endswith(":menu") for _, cid, _ in message.buttons())
    ]


def move_options(message: StoredMessage) -> list[tuple[str, str | None]]:
    """(custom_id, select value or None) of every move offered by a menu message."""
    options: list[tuple[str, str | None]] = []
    for component in message.iter_components():
        custom_id = component.get("custom_id") or ""
        if component.get("type") == 2 and (":act:" in custom_id or ":grp:" in custom_id):
            options.append((component["custom_id"], None))
        elif component.get("type") == 3 and (component.get("custom_id") or "").startswith("s:"):
            options += [(component["custom_id"], option["value"]) for option in component["options"]]
    return options


async def choose(
    user: UserSession, menu: StoredMessage, option: tuple[str, str | None], rng: random.Random | None = None
) -> InteractionResult:
    """Press a move; a group's button (a menu too big for one message) opens it, and a move is picked
    in it (at random with `rng`, else the first), so every move stays reachable."""
    rng = rng or random.Random(0)
    for _ in range(3):
        custom_id, value = option
        if value is None:
            result = await user.click(menu.id, custom_id)
        else:
            result = await user.select(menu.id, custom_id, [value])
        if ":grp:" not in custom_id or result.message is None or not move_options(result.message):
            return result
        menu = result.message
        option = rng.choice(move_options(menu))
    return result


async def open_menu(user: UserSession, turn: StoredMessage) -> InteractionResult | None:
    """Press "Take my turn" on a turn message; None when the bot answers that it is not their turn, or
    when the button was greyed out in the meantime (another move superseded the post: a person could
    not press it either)."""
    menu_id = next(cid for _, cid, _ in turn.buttons() if cid and cid.endswith(":menu"))
    try:
        menu = await user.click(turn.id, menu_id)
    except EmulatorUsageError as error:
        if "is disabled" not in str(error):
            raise
        return None
    if menu.answer.startswith("⚠️") or menu.message is None or not move_options(menu.message):
        return None
    return menu


async def random_move(
    server: FakeDiscord, channel: int, users: list[UserSession], rng: random.Random
) -> tuple[UserSession, InteractionResult] | None:
    """Whoever may act presses "Take my turn" and picks a random move. None if nobody could."""
    turns = turn_messages(server, channel)
    if not turns:
        return None
    for user in rng.sample(users, len(users)):
        menu = await open_menu(user, turns[-1])
        if menu is None:
            continue
        assert menu.message is not None
        return user, await choose(user, menu.message, rng.choice(move_options(menu.message)), rng)
    return None


async def try_move(user: UserSession, server: FakeDiscord, channel: int, rng: random.Random) -> int | None:
    """`user` takes a random move if it is their turn; the interaction id if the bot confirmed it."""
    turns = turn_messages(server, channel)
    try:
        menu = await open_menu(user, turns[-1])
        if menu is None:
            return None
        assert menu.message is not None
        result = await choose(user, menu.message, rng.choice(move_options(menu.message)), rng)
    except InteractionFailed:  # the bot died before answering: not acknowledged
        return None
    return result.record.id if result.answer.startswith("✅") else None


async def moves_at_once(
    users: list[UserSession], server: FakeDiscord, channel: int, rng: random.Random
) -> list[int]:
    """Every user tries a move at once (simultaneous steps apply several); the confirmed interactions."""
    found = await asyncio.gather(
        *(try_move(user, server, channel, random.Random(rng.random())) for user in users)
    )
    return [interaction for interaction in found if interaction is not None]


async def handoffs(service: GameService, game: GameRecord) -> tuple[dict[int, set[int]], set[int]]:
    """Replayed from the log, the moves owed a new turn post and whom each must ping: every move that
    hands the game on (the start is version 0, the end counts too) pings the people newly to act; a
    move with an event marked urgent also pings those the event has a private line for, except the
    person who made the move (their own news: accepting a trade pings the proposer, not the one who
    accepted). For tables of people only (a computer's run folds into one post). Returns
    ({version: pinged users}, the versions with an urgent event)."""
    rules = service.rules_for(game.kind)
    states = await service.replay(game)
    records = await service.store.actions(game.id)
    people = {seat.seat: seat.user_id for seat in await service.store.seats(game.id) if seat.user_id > 0}
    found = {0: {people[seat] for seat in rules.to_act(states[0]) if seat in people}}
    urgent = set()
    for record, before, after in zip(records, states[:-1], states[1:], strict=True):
        newly = {people[seat] for seat in rules.to_act(after) - rules.to_act(before) if seat in people}
        marked = [event for event in record.events if event.get("urgent")]
        own = record.seat if record.user_id > 0 else None
        addressed = {
            people[int(seat)]
            for event in marked
            for seat in event.get("private", {})
            if int(seat) in people and int(seat) != own
        }
        if marked:
            urgent.add(record.version)
        if newly or marked or rules.result(after) is not None:
            found[record.version] = newly | addressed
    return found, urgent


def shows_move(server: FakeDiscord, channel: int, record: ActionRecord) -> bool:
    """Whether the channel's turn posts show every line of a logged move (in a new post, or edited
    into the live one), as the bot words them."""
    shown = "\n".join(m.content for m in turn_messages(server, channel))
    return all(one_line(event["text"]) in shown for event in record.events)


async def until(condition: Callable[[], bool], timeout: float = 10.0, what: str = "condition") -> None:  # noqa: ASYNC109
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


__all__ = [
    "BotProcess",
    "shows_move",
    "InteractionFailed",
    "choose",
    "move_options",
    "moves_at_once",
    "open_menu",
    "random_move",
    "try_move",
    "turn_messages",
]
