"""Gateway (websocket) side of the emulator.

One :class:`GatewaySession` per IDENTIFY. Events are numbered and kept, so a client that
resumes (op 6) gets what it missed; a new IDENTIFY (e.g. a restarted bot) starts a fresh
session and becomes the one that receives interactions. Tests of several bot processes at once
set :attr:`Gateway.routing` to ``"all"`` (every connected session gets every event) or
``"round_robin"`` (other events to all, each interaction to the next connected session). Frames are JSON TEXT frames: the
client asks for ``compress=zlib-stream`` but only inflates BINARY frames.

Shards work as on Discord: an IDENTIFY with ``shard: [shard_id, shard_count]`` makes a session that
hears only about guilds with ``(guild_id >> 22) % shard_count == shard_id`` (READY, GUILD_CREATE and
every later event of those guilds, interactions included); events without a guild (DM interactions)
go to shard 0. A session without ``shard`` hears about every guild. "The newest session" above is
then the newest session of the guild's shard, so a restarted shard takes over only its own guilds.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import WSMsgType, web

from .model import shard_of
from .ports import GatewayHost

_log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL_MS = 41250

OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

INTENT_GUILD_MEMBERS = 1 << 1

CLOSE_INVALID_SHARD = 4010

#: Events whose payload is the guild itself, so its id is ``id`` rather than ``guild_id``.
GUILD_PAYLOAD_EVENTS = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})


def event_guild(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to (None for DMs and guildless events): it decides the shard."""
    raw = data.get("id") if event in GUILD_PAYLOAD_EVENTS else data.get("guild_id")
    return int(raw) if raw is not None else None


@dataclass
class GatewaySession:
    """A logical gateway session (survives socket drops for RESUME)."""

    session_id: str
    intents: int = 0
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    shard: tuple[int, int] | None = None
    """(shard_id, shard_count) from IDENTIFY; None: one session for every guild."""

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed

    def owns(self, guild_id: int | None) -> bool:
        """Whether Discord would send this guild's events (None: a DM's) to this session."""
        if self.shard is None:
            return True
        shard_id, shard_count = self.shard
        return shard_of(guild_id, shard_count) == shard_id

    def dispatched(self, event: str) -> list[dict[str, Any]]:
        """The payloads of the kept ``event`` frames sent to this session (the last 1000 frames)."""
        return [frame["d"] for frame in self.events if frame["t"] == event]

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        async with self.lock:
            self.seq += 1
            frame = {"op": OP_DISPATCH, "s": self.seq, "t": event, "d": data}
            self.events.append(frame)
            if len(self.events) > 1000:
                del self.events[:-1000]
            await self._send(frame)

    async def _send(self, frame: dict[str, Any]) -> None:
        ws = self.ws
        if ws is None or ws.closed:
            return
        try:
            await ws.send_str(json.dumps(frame))
        except (ConnectionError, RuntimeError) as exc:  # peer gone: keep the event for RESUME
            _log.debug("gateway send failed: %s", exc)


class Gateway:
    """Accepts websocket connections and routes dispatches to the current session."""

    def __init__(self, server: GatewayHost) -> None:
        self.server = server
        self.sessions: dict[str, GatewaySession] = {}
        self.current: GatewaySession | None = None
        self.sockets: set[web.WebSocketResponse] = set()
        self.identified = asyncio.Event()
        self.on_identify: list[Callable[[GatewaySession], None]] = []
        #: "latest": only the last identified session gets events (one bot, Discord's usual case).
        #: "all" / "round_robin": several bots connected at once; see the module docstring.
        self.routing: Literal["latest", "all", "round_robin"] = "latest"
        self._turn = 0

    def connected_sessions(self) -> list[GatewaySession]:
        return [session for session in self.sessions.values() if session.connected]

    def owner(self, guild_id: int | None) -> GatewaySession | None:
        """The newest session (connected or waiting to RESUME) that hears about this guild."""
        for session in reversed(self.sessions.values()):  # identification order
            if session.owns(guild_id):
                return session
        return None

    def shard_sessions(self, shard_id: int) -> list[GatewaySession]:
        """Sessions identified as `shard_id` (of any shard count), oldest first."""
        return [s for s in self.sessions.values() if s.shard is not None and s.shard[0] == shard_id]

    def _newest_of_shard(self, shard: tuple[int, int] | None) -> GatewaySession | None:
        """The last session identified as `shard`: only it may RESUME (a restart replaced the others)."""
        same = [s for s in self.sessions.values() if s.shard == shard]
        return same[-1] if same else None

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to the bot (buffered for RESUME if its socket is down), on its guild's shard."""
        guild_id = event_guild(event, data)
        owner = self.owner(guild_id)
        if owner is None:
            _log.warning("no bot session for guild %s; dropping %s", guild_id, event)
            return
        if self.routing == "latest":
            await owner.dispatch(event, data)
            return
        targets = [s for s in self.connected_sessions() if s.owns(guild_id)] or [owner]
        if self.routing == "round_robin" and event == "INTERACTION_CREATE":
            self._turn += 1
            targets = [targets[self._turn % len(targets)]]
        for session in targets:
            await session.dispatch(event, data)

    async def close_all(self, code: int = 1001) -> None:
        for ws in list(self.sockets):
            await ws.close(code=code, message=b"emulator stopping")

    async def request_reconnect(self) -> None:
        """Send op 7 (the client closes and RESUMEs); handy for resilience tests."""
        if self.current is not None and self.current.ws is not None:
            await self.current.ws.send_str(json.dumps({"op": OP_RECONNECT, "d": None}))

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        self.sockets.add(ws)
        session: GatewaySession | None = None
        try:
            await ws.send_str(
                json.dumps({"op": OP_HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
            )
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                op = payload.get("op")
                d = payload.get("d")
                if op == OP_HEARTBEAT:
                    await ws.send_str(json.dumps({"op": OP_HEARTBEAT_ACK, "d": None}))
                elif op == OP_IDENTIFY:
                    session = await self._identify(ws, d)
                elif op == OP_RESUME:
                    session = await self._resume(ws, d)
                elif op == OP_REQUEST_MEMBERS and session is not None:
                    await self._members_chunk(session, d)
                # op 3 presence / op 4 voice state: ignored
        finally:
            self.sockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
        return ws

    async def _identify(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> GatewaySession | None:
        token = str(d.get("token", ""))
        if token.startswith("Bot "):
            token = token[4:]
        if not self.server.token_ok(token):
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard = _shard(d.get("shard"))
        if shard is False:
            await ws.close(code=CLOSE_INVALID_SHARD, message=b"Invalid shard.")
            return None
        session = GatewaySession(
            session_id=secrets.token_hex(16), intents=int(d.get("intents", 0)), ws=ws, shard=shard
        )
        rivals = [s for s in self.connected_sessions() if s.ws is not ws and s.shard == shard]
        self.sessions[session.session_id] = session
        self.current = session
        if rivals and self.routing == "latest":
            # Discord allows it, but two bots answering the same clicks would be a test bug.
            _log.warning("a second bot identified while another is connected; the new one receives events")
        world = self.server.world
        guilds = [gid for gid in world.guilds if session.owns(gid)]
        app = world.app
        await session.dispatch(
            "READY",
            {
                "v": 10,
                "user": {**world.users[app.bot_user_id].to_json(), "verified": True, "mfa_enabled": False},
                "session_id": session.session_id,
                "resume_gateway_url": self.server.gateway_url,
                "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
                "application": {"id": str(app.id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "user_settings": {},
                "presences": [],
                "geo_ordered_rtc_regions": [],
                "guild_join_requests": [],
                "shard": list(shard) if shard is not None else [0, 1],
            },
        )
        for gid in guilds:
            await session.dispatch("GUILD_CREATE", world.guild_create_json(gid))
        self.identified.set()
        for cb in list(self.on_identify):
            cb(session)
        return session

    async def _resume(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> GatewaySession | None:
        session = self.sessions.get(str(d.get("session_id")))
        if session is None or session is not self._newest_of_shard(session.shard):
            await ws.send_str(json.dumps({"op": OP_INVALID_SESSION, "d": False}))
            return None
        last = int(d.get("seq") or 0)
        async with session.lock:
            session.ws = ws
            for frame in session.events:
                if frame["s"] > last:
                    await session._send(frame)
            session.seq += 1
            frame = {"op": OP_DISPATCH, "s": session.seq, "t": "RESUMED", "d": {}}
            session.events.append(frame)
            await session._send(frame)
        return session

    async def _members_chunk(self, session: GatewaySession, d: dict[str, Any]) -> None:
        world = self.server.world
        gid = int(d.get("guild_id", 0))
        if gid not in world.guilds or not session.owns(gid):
            return
        guild = world.guilds[gid]
        user_ids = d.get("user_ids")
        wanted = [int(u) for u in user_ids] if user_ids else list(guild.members)
        query = str(d.get("query") or "").lower()
        members = [
            world.member_json(gid, uid)
            for uid in wanted
            if uid in guild.members and world.users[uid].name.lower().startswith(query)
        ]
        limit = int(d.get("limit") or 0)
        if limit:
            members = members[:limit]
        payload: dict[str, Any] = {
            "guild_id": str(gid),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if d.get("nonce") is not None:
            payload["nonce"] = d["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", payload)


def _shard(raw: Any) -> tuple[int, int] | None | Literal[False]:
    """IDENTIFY's ``shard`` as (shard_id, shard_count); None if absent, False if Discord would refuse it."""
    if raw is None:
        return None
    try:
        shard_id, shard_count = (int(x) for x in raw)
    except (TypeError, ValueError):
        return False
    return (shard_id, shard_count) if 0 <= shard_id < shard_count else False
