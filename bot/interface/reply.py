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
from collections.abc import Sequence
from types import TracebackType
from typing import Any, overload

import discord

from bot.app.refusals import UserError
from bot.app.text import MAX_CONTENT, clip, escape_text
from bot.interface.lifecycle import lifecycle_of
from bot.logs import about
from rules.core import RuleError

log = logging.getLogger(__name__)

DEFER_AFTER = 2.0


@overload
def _fit(text: str) -> str: ...
@overload
def _fit(text: None) -> None: ...
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
            if isinstance(error, UserError):
                await self.error(error.message)
                return True
            if isinstance(error, RuleError):  # the rules' words quote names and typed text
                await self.error(escape_text(error.message))
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
        files: list[discord.File] | None = None,
        embeds: list[discord.Embed] | None = None,
        ephemeral: bool = True,
        ping: Sequence[int] = (),
        keep: bool = False,
    ) -> discord.Message | None:
        """The answer: replaces the clicked message when `update`, else a new (ephemeral) message.
        `files` attaches several pictures (a section's pages) where `file` attaches one. `ping`: the
        people a public answer notifies (the bot pings nobody by default). `keep`: return the new public
        message (a vote's, edited once the vote is decided); None otherwise."""
        content = _fit(content)
        attached = [*([file] if file is not None else []), *(files or [])]
        async with self._lock:
            self._stop_timer()
            response = self.interaction.response
            if self.update:
                kwargs: dict[str, Any] = {"content": content, "view": view}
                kwargs["attachments"] = attached
                if not response.is_done():
                    await response.edit_message(**kwargs)
                else:
                    await self.interaction.edit_original_response(**kwargs)
                return None
            kwargs = {"ephemeral": ephemeral}
            if ping:
                kwargs["allowed_mentions"] = discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(user) for user in ping]
                )
            if embeds:
                kwargs["embeds"] = embeds
            if view is not None:
                kwargs["view"] = view
            if len(attached) == 1:
                kwargs["file"] = attached[0]
            elif attached:
                kwargs["files"] = attached
            if not response.is_done():
                await response.send_message(content, **kwargs)
                return await self.interaction.original_response() if keep else None
            text = content or ("" if embeds else "\u200b")
            if keep:
                return await self.interaction.followup.send(text, wait=True, **kwargs)
            await self.interaction.followup.send(text, wait=False, **kwargs)
            return None

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
