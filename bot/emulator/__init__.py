"""Local Discord API emulator for tests and the local console.

An unmodified discord.py client talks HTTP + websocket to :class:`FakeDiscord`;
:class:`UserSession` (``server.user(uid)``) plays the humans. See ``server.py`` for usage, and
``faults.py`` for ``server.faults`` (injected 5xx, 429s and dropped connections).
"""

from .connect import point_discord_py_at, reset_discord_py
from .driver import EmulatorUsageError, InteractionFailed, InteractionResult, UserSession
from .faults import FaultRule, Faults, InjectedFault
from .model import StoredAttachment, StoredMessage
from .server import FakeDiscord

__all__ = [
    "EmulatorUsageError",
    "FakeDiscord",
    "FaultRule",
    "Faults",
    "InjectedFault",
    "InteractionFailed",
    "InteractionResult",
    "StoredAttachment",
    "StoredMessage",
    "UserSession",
    "point_discord_py_at",
    "reset_discord_py",
]
