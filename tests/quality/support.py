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

from bot.emulator.driver import InteractionFailed, InteractionResult, UserSession
from bot.emulator.model import StoredMessage
from bot.emulator.server import FakeDiscord


class BotProcess:
    """`python -m bot` in a subprocess, pointed at the emulator, its log written to a file."""

    def __init__(
        self,
        server: FakeDiscord,
        folder: Path,
        *,
        token: str = "quality-token",
        log_level: str = "INFO",
        render_processes: int = 0,
    ) -> None:
        self.server = server
        self.folder = folder
        self.db_path = folder / "games.db"
        self.token = token
        self.log_level = log_level
        self.render_processes = render_processes
        self.process: subprocess.Popen[bytes] | None = None
        self.logs: list[Path] = []

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
        env.update(
            DISCORD_TOKEN=self.token,
            DISCORD_API_BASE=self.server.api_base,
            DATABASE_URL=f"sqlite:///{self.db_path}",
            RENDER_PROCESSES=str(self.render_processes),
            LOG_LEVEL=self.log_level,
            DEV_GUILD_ID="",
            PYTHONUNBUFFERED="1",
        )
        return env

    async def start(self, timeout: float = 30.0) -> None:  # noqa: ASYNC109
        """Start the process and wait until it has identified on the gateway and answers."""
        sessions_before = len(self.server.gateway.sessions)
        log = self.folder / f"bot-{len(self.logs)}.log"
        self.logs.append(log)
        with log.open("wb") as out:
            # cwd is the test folder, so no .env of the developer's is read.
            self.process = subprocess.Popen(  # noqa: ASYNC220 - starting it does not block
                [sys.executable, "-m", "bot"],
                cwd=self.folder,
                env=self.env(),
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while (
            len(self.server.gateway.sessions) <= sessions_before or not self.server.gateway.current.connected
        ):  # type: ignore[union-attr]
            if self.process.poll() is not None:
                raise AssertionError(f"the bot exited with {self.process.returncode}:\n{self.log_text()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"the bot did not connect in {timeout}s:\n{self.log_text()}")
            await asyncio.sleep(0.05)

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
        if component.get("type") == 2 and ":act:" in (component.get("custom_id") or ""):
            options.append((component["custom_id"], None))
        elif component.get("type") == 3 and (component.get("custom_id") or "").startswith("s:"):
            options += [(component["custom_id"], option["value"]) for option in component["options"]]
    return options


async def choose(user: UserSession, menu: StoredMessage, option: tuple[str, str | None]) -> InteractionResult:
    custom_id, value = option
    if value is None:
        return await user.click(menu.id, custom_id)
    return await user.select(menu.id, custom_id, [value])


async def open_menu(user: UserSession, turn: StoredMessage) -> InteractionResult | None:
    """Press "Take my turn" on a turn message; None when the bot answers that it is not their turn."""
    menu_id = next(cid for _, cid, _ in turn.buttons() if cid and cid.endswith(":menu"))
    menu = await user.click(turn.id, menu_id)
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
        return user, await choose(user, menu.message, rng.choice(move_options(menu.message)))
    return None


async def until(condition: Callable[[], bool], timeout: float = 10.0, what: str = "condition") -> None:  # noqa: ASYNC109
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


__all__ = [
    "BotProcess",
    "InteractionFailed",
    "choose",
    "move_options",
    "open_menu",
    "random_move",
    "turn_messages",
]
