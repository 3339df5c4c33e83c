"""Local Discord API emulator for tests and the local console.

An unmodified discord.py client talks HTTP + websocket to :class:`FakeDiscord`;
:class:`UserSession` (``server.user(uid)``) plays the humans. See ``server.py`` for usage.
"""

from .connect import point_discord_py_at, reset_discord_py
from .driver import EmulatorUsageError, InteractionFailed, InteractionResult, UserSession
from .model import StoredAttachment, StoredMessage
from .server import FakeDiscord

__all__ = [
    "EmulatorUsageError",
    "FakeDiscord",
    "InteractionFailed",
    "InteractionResult",
    "StoredAttachment",
    "StoredMessage",
    "UserSession",
    "point_discord_py_at",
    "reset_discord_py",
]
