"""Generic helpers to run a discord.py client against the emulator inside a test's event loop."""

from __future__ import annotations

import asyncio
import contextlib

import discord

from .connect import point_discord_py_at
from .server import FakeDiscord


async def run_bot(
    bot: discord.Client,
    server: FakeDiscord,
    token: str = "emulator-token",
    timeout: float = 30.0,  # noqa: ASYNC109 - a loaded CI machine loads the wording engine slowly
) -> asyncio.Task[None]:
    """Start ``bot`` (``bot.start(token)`` as a task) and wait until it is ready.

    Give the client ``guild_ready_timeout=0.1`` or ``on_ready`` waits 2 s after the last guild.
    If the bot dies while starting, its exception is raised here.
    """
    point_discord_py_at(server.api_base, server.gateway_url)
    task = asyncio.create_task(bot.start(token), name=f"bot-{id(bot)}")
    ready = asyncio.create_task(bot.wait_until_ready())
    done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    if ready not in done:
        ready.cancel()
        if task in done:
            task.result()  # re-raise the start() failure
            raise RuntimeError("bot.start() returned before the bot was ready")
        task.cancel()
        raise TimeoutError(f"bot not ready after {timeout}s")
    return task


async def stop_bot(bot: discord.Client, task: asyncio.Task[None] | None = None, timeout: float = 5.0) -> None:  # noqa: ASYNC109
    """Close the bot and wait for its ``start()`` task to finish."""
    await bot.close()
    if task is not None:
        try:
            await asyncio.wait_for(task, timeout)
        except TimeoutError:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
