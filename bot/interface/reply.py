"""Answer an interaction exactly once, and always within Discord's 3 seconds.

Every command and component handler runs inside `async with Reply(interaction) as reply:`, does its
work and calls `send`. If the work is not done after 2 s, the reply defers on its own (a "thinking"
ephemeral, or a silent update for component clicks) and the later `send` becomes a followup or an
edit. A lock keeps the timer and the handler from both acknowledging, which Discord would refuse.

Leaving the block is the one error path of the bot: a refusal (`UserError`, or the rules core's
`RuleError`) becomes one friendly ephemeral line, anything unexpected is logged and answered with an
apology, and nothing reaches discord.py's own handlers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from types import TracebackType
from typing import Any

import discord

from bot.app.refusals import UserError
from bot.app.text import MAX_CONTENT, clip
from bot.interface.lifecycle import lifecycle_of
from bot.logs import about
from rules.core import RuleError

log = logging.getLogger(__name__)

DEFER_AFTER = 2.0


def _fit(text: str | None) -> str | None:
    return text if text is None else clip(text, MAX_CONTENT)


class Reply:
    def __init__(
        self, interaction: discord.Interaction, *, update: bool = False, defer_after: float | None = None
    ) -> None:
        """`update=True` means the answer replaces the message whose component was clicked."""
        self.interaction = interaction
        self.update = update
        self._lock = asyncio.Lock()
        delay = DEFER_AFTER if defer_after is None else defer_after
        self._timer = asyncio.get_running_loop().create_task(self._defer_later(delay))
        # Counted while it is handled, so a graceful stop waits for it (`bot.interface.lifecycle`).
        self._lifecycle = lifecycle_of(interaction.client)

    async def __aenter__(self) -> Reply:
        if self._lifecycle is not None:
            self._lifecycle.enter()
        metrics = getattr(self.interaction.client, "metrics", None)
        if metrics is not None:
            metrics.interactions.inc()
        # Log lines written while this interaction is handled carry its ids (LOG_FORMAT=json).
        self._about = about(
            interaction=self.interaction.id,
            channel=self.interaction.channel_id,
            guild=self.interaction.guild_id,
            shard=getattr(self.interaction.guild, "shard_id", None),
        )
        self._about.__enter__()
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> bool:
        try:
            if isinstance(error, UserError | RuleError):
                await self.error(error.message)
                return True
            if isinstance(error, Exception):
                log.error("handler failed for interaction %s", self.interaction.id, exc_info=error)
                await self.error(
                    "Something went wrong on our side, and nothing was changed. Please try again."
                )
                return True
            return False  # no error, or a cancellation: nothing to answer
        finally:
            self.close()
            if self._lifecycle is not None:
                self._lifecycle.leave()
            self._about.__exit__(None, None, None)

    async def _defer_later(self, delay: float) -> None:
        await asyncio.sleep(delay)
        async with self._lock:
            if self.interaction.response.is_done():
                return
            with contextlib.suppress(discord.HTTPException):
                if self.update:
                    await self.interaction.response.defer()
                else:
                    await self.interaction.response.defer(ephemeral=True, thinking=True)

    def _stop_timer(self) -> None:
        self._timer.cancel()

    async def send(
        self,
        content: str | None = None,
        *,
        view: discord.ui.View | None = None,
        file: discord.File | None = None,
        embeds: list[discord.Embed] | None = None,
        ephemeral: bool = True,
    ) -> None:
        """The answer: replaces the clicked message when `update`, else a new (ephemeral) message."""
        content = _fit(content)
        async with self._lock:
            self._stop_timer()
            response = self.interaction.response
            if self.update:
                kwargs: dict[str, Any] = {"content": content, "view": view}
                kwargs["attachments"] = [file] if file is not None else []
                if not response.is_done():
                    await response.edit_message(**kwargs)
                else:
                    await self.interaction.edit_original_response(**kwargs)
                return
            kwargs = {"ephemeral": ephemeral}
            if embeds:
                kwargs["embeds"] = embeds
            if view is not None:
                kwargs["view"] = view
            if file is not None:
                kwargs["file"] = file
            if not response.is_done():
                await response.send_message(content, **kwargs)
            else:
                await self.interaction.followup.send(content or ("" if embeds else "\u200b"), **kwargs)

    async def modal(self, modal: discord.ui.Modal) -> None:
        """Open a form: it must be the first answer, so it cannot follow a deferral."""
        async with self._lock:
            self._stop_timer()
            if self.interaction.response.is_done():
                await self.interaction.followup.send(
                    "⚠️ That took too long; press the button again.", ephemeral=True
                )
                return
            await self.interaction.response.send_modal(modal)

    async def error(self, message: str) -> None:
        """A refusal is always a new ephemeral message, never an edit of what was clicked."""
        async with self._lock:
            self._stop_timer()
            text = _fit(f"⚠️ {message}")
            if not self.interaction.response.is_done():
                await self.interaction.response.send_message(text, ephemeral=True)
            else:
                await self.interaction.followup.send(text, ephemeral=True)

    def close(self) -> None:
        self._stop_timer()
