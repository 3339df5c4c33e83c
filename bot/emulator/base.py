"""What every part of the emulator stands on: its state (the world, the requests and errors seen,
nonces, interactions in flight), its addresses, and the lookups and message helpers its routes share
(``FakeDiscord`` in server.py is made of this and the route groups in rest.py, events.py and
interactions.py)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web

from .faults import Faults
from .gateway import Gateway
from .model import (
    DM,
    FLAG_LOADING,
    P_ATTACH_FILES,
    P_EMBED_LINKS,
    P_SEND_MESSAGES,
    P_SEND_MESSAGES_IN_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    InteractionRecord,
    ScheduledEvent,
    StoredMessage,
    World,
)
from .payloads import ApiError, UploadedFile, apply_message_payload, validate_message

INTERACTION_ACK_SECONDS = 3.0
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
NONCE_WINDOW_SECONDS = 300.0


class ServerBase:
    """The emulator's state (the world, the record of what the bot did, the interactions in flight)
    and the reads and helpers every group of routes uses."""

    def __init__(
        self,
        *,
        app_name: str = "Ironhost",
        require_token: str | None = None,
        ack_timeout: float = INTERACTION_ACK_SECONDS,
        attachment_size_limit: int = ATTACHMENT_SIZE_LIMIT,
        shard_count: int = 1,
        nonce_window: float = NONCE_WINDOW_SECONDS,
    ) -> None:
        self.world = World(app_name)
        #: What ``GET /gateway/bot`` recommends; with more than one, new guilds take turns over the shards.
        self.shard_count = shard_count
        self.require_token = require_token
        self.ack_timeout = ack_timeout
        self.attachment_size_limit = attachment_size_limit
        #: Things Discord would have rejected or that went wrong (late acks, invalid bodies...).
        self.errors: list[str] = []
        #: Requests to routes the emulator does not implement: "METHOD /path".
        self.unhandled: list[str] = []
        #: Every REST request: (method, path, status).
        self.requests: list[tuple[str, str, int]] = []
        #: Every version of every message the bot created or edited, oldest first: what each user
        #: could have seen at some moment, even after a later edit replaced it.
        self.message_versions: list[StoredMessage] = []
        #: How long (s) a message's nonce de-duplicates a create with ``enforce_nonce`` (Discord:
        #: "the past few minutes"). Keyed by channel, author and nonce.
        self.nonce_window = nonce_window
        #: Ids of the messages returned again because a create repeated their nonce with enforce_nonce.
        self.nonce_hits: list[int] = []
        self._nonces: dict[tuple[int, int, str], tuple[float, int]] = {}
        #: Injected REST faults (5xx, 429, dropped connections); see ``bot/emulator/faults.py``.
        self.faults = Faults()
        self.gateway = Gateway(self)
        self._by_token: dict[str, InteractionRecord] = {}
        self._runner: web.AppRunner | None = None
        self._host = "127.0.0.1"
        self._port = 0
        self._inflight = 0
        self._last_activity = time.monotonic()
        self._timers: list[asyncio.TimerHandle] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._hold: Callable[[InteractionRecord], bool] | None = None
        self._released = asyncio.Event()
        #: Interactions whose answer the bot sent while held (see :meth:`hold_responses`).
        self.held: list[InteractionRecord] = []

    # ------------------------------------------------------------------ addresses
    @property
    def port(self) -> int:
        return self._port

    @property
    def base_url(self) -> str:
        return f"http://{self._host}:{self._port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self._host}:{self._port}/gateway"

    @property
    def app_id(self) -> int:
        return self.world.app.id

    @property
    def bot_user_id(self) -> int:
        return self.world.app.bot_user_id

    # ------------------------------------------------------------------ reads
    def token_ok(self, token: str) -> bool:
        return self.require_token is None or token == self.require_token

    def scheduled_events(self, guild_id: int) -> list[ScheduledEvent]:
        """The guild's scheduled events as its members see them in the calendar, oldest first."""
        return [e for e in self.world.scheduled_events.values() if e.guild_id == guild_id and not e.deleted]

    def public_messages(self, channel_id: int) -> list[StoredMessage]:
        """What a spectator sees in a channel: every non-ephemeral message, oldest first."""
        return [m for m in self.world.channel_messages(channel_id) if m.ephemeral_for is None]

    def commands(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        return [c.to_json(self.app_id) for c in self.world.commands.values() if c.guild_id == guild_id]

    # ------------------------------------------------------------------ helpers
    def _attachment_url(self) -> str:
        return self.base_url + "/attachments/{id}/{filename}"

    def _channel(self, request: web.Request) -> Any:
        cid = int(request.match_info["cid"])
        channel = self.world.channels.get(cid)
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _bot_message(self, request: web.Request) -> StoredMessage:
        channel = self._channel(request)
        msg = self.world.messages.get(int(request.match_info["mid"]))
        # Bots never see ephemeral messages through channel endpoints.
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.ephemeral_for is not None:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def _guild(self, request: web.Request) -> Any:
        guild = self.world.guilds.get(int(request.match_info["gid"]))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    def _build(
        self, base: StoredMessage, payload: dict[str, Any], files: list[UploadedFile], *, creating: bool
    ) -> StoredMessage:
        msg = apply_message_payload(
            self.world, base, payload, files, attachment_url=self._attachment_url(), creating=creating
        )
        if not creating:
            msg.flags &= ~FLAG_LOADING
            msg.edited_timestamp = None if base.loading else time.time()
            msg.edits = base.edits + 1
        validate_message(msg, self.attachment_size_limit)
        return msg

    def _new_message(self, channel_id: int, **kwargs: Any) -> StoredMessage:
        channel = self.world.channels[channel_id]
        return StoredMessage(
            id=self.world.snowflake(),
            channel_id=channel_id,
            guild_id=channel.guild_id,
            author_id=self.bot_user_id,
            **kwargs,
        )

    def _store(self, msg: StoredMessage) -> StoredMessage:
        self.world.messages[msg.id] = msg
        self.message_versions.append(msg)
        return msg

    def _check_bot_can_post(self, channel: Any, msg: StoredMessage) -> None:
        if channel.type == DM:
            if not self.world.users[channel.recipient_id].dms_open:
                raise ApiError(403, 50007, "Cannot send messages to this user")
            return
        perms = self.world.channel_permissions(channel.id, self.bot_user_id)
        needed = (
            P_SEND_MESSAGES_IN_THREADS if channel.type in (PUBLIC_THREAD, PRIVATE_THREAD) else P_SEND_MESSAGES
        )
        if msg.attachments:
            needed |= P_ATTACH_FILES
        if msg.embeds:
            needed |= P_EMBED_LINKS
        if perms & needed != needed:
            raise ApiError(403, 50013, "Missing Permissions")
