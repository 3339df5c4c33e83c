"""The emulator's plain REST routes: gateway discovery, users and DMs, the application, slash
commands, guilds, channels and threads, and channel messages (with Discord's nonce de-duplication).

One of the route groups :class:`~bot.emulator.server.FakeDiscord` is made of; it works on the state
and helpers of :class:`~bot.emulator.base.ServerBase`.
"""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from .base import ServerBase
from .model import FLAG_EPHEMERAL, PUBLIC_THREAD, Command, StoredMessage
from .payloads import ApiError, invalid_form, json_response, no_content, read_body

NONCE_MAX_LENGTH = 25


class RestRoutes(ServerBase):
    """Handlers for ``/api/v10`` outside interactions, webhooks and scheduled events."""

    # ------------------------------------------------------------------ misc routes
    async def _get_attachment(self, request: web.Request) -> web.StreamResponse:
        att = self.world.attachments.get(int(request.match_info["aid"]))
        if att is None:
            raise ApiError(404, 0, "404: Not Found")
        return web.Response(
            body=att.data, headers={"Content-Type": att.content_type or "application/octet-stream"}
        )

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self.gateway_url,
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _get_me(self, request: web.Request) -> web.Response:
        user = self.world.users[self.bot_user_id].to_json()
        return json_response({**user, "verified": True, "mfa_enabled": False, "flags": 0})

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.world.users.get(int(request.match_info["uid"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(user.to_json())

    async def _create_dm(self, request: web.Request) -> web.Response:
        payload, _ = await read_body(request)
        uid = int(payload.get("recipient_id", 0))
        if uid not in self.world.users:
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        return json_response(self.world.dm_channel(uid).to_json(self.world))

    async def _get_application(self, request: web.Request) -> web.Response:
        app = self.world.app
        return json_response(
            {
                "id": str(app.id),
                "name": app.name,
                "icon": None,
                "description": "",
                "summary": "",
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "owner": self.world.users[app.owner_id].to_json(),
                "team": None,
                "flags": 0,
                "bot": self.world.users[app.bot_user_id].to_json(),
            }
        )

    # ------------------------------------------------------------------ commands
    def _command_scope(self, request: web.Request) -> int | None:
        if int(request.match_info["app"]) != self.app_id:
            raise ApiError(404, 10002, "Unknown Application")
        gid = request.match_info.get("gid")
        if gid is None:
            return None
        if int(gid) not in self.world.guilds:
            raise ApiError(404, 10004, "Unknown Guild")
        return int(gid)

    def _upsert_command(self, guild_id: int | None, payload: dict[str, Any]) -> Command:
        ctype = int(payload.get("type", 1))
        for cmd in self.world.commands.values():
            if (
                cmd.guild_id == guild_id
                and cmd.name == payload["name"]
                and int(cmd.payload.get("type", 1)) == ctype
            ):
                cmd.payload = payload
                return cmd
        cmd = Command(id=self.world.snowflake(), guild_id=guild_id, payload=payload)
        self.world.commands[cmd.id] = cmd
        return cmd

    async def _get_commands(self, request: web.Request) -> web.Response:
        return json_response(self.commands(self._command_scope(request)))

    async def _put_commands(self, request: web.Request) -> web.Response:
        gid = self._command_scope(request)
        payload, _ = await read_body(request)
        items = payload.get("_list", [])
        if len(items) > 100:
            raise invalid_form("commands", "Must be 100 or fewer in length.")
        keep = [self._upsert_command(gid, item) for item in items]
        keep_ids = {c.id for c in keep}
        for cid in [c.id for c in self.world.commands.values() if c.guild_id == gid and c.id not in keep_ids]:
            del self.world.commands[cid]
        return json_response([c.to_json(self.app_id) for c in keep])

    async def _post_command(self, request: web.Request) -> web.Response:
        gid = self._command_scope(request)
        payload, _ = await read_body(request)
        return json_response(self._upsert_command(gid, payload).to_json(self.app_id), 201)

    async def _delete_command(self, request: web.Request) -> web.Response:
        self._command_scope(request)
        self.world.commands.pop(int(request.match_info["cid"]), None)
        return no_content()

    # ------------------------------------------------------------------ guilds / channels
    async def _get_guild(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        data = self.world.guild_create_json(guild.id)
        for key in ("channels", "threads", "members", "presences", "voice_states", "joined_at", "large"):
            data.pop(key, None)
        data["approximate_member_count"] = len(guild.members)
        return json_response(data)

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return json_response([self.world.channels[c].to_json(self.world) for c in guild.channel_ids])

    async def _get_guild_roles(self, request: web.Request) -> web.Response:
        return json_response([r.to_json() for r in self._guild(request).roles.values()])

    async def _get_member(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        uid = int(request.match_info["uid"])
        if uid not in guild.members:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(self.world.member_json(guild.id, uid))

    async def _get_channel(self, request: web.Request) -> web.Response:
        return json_response(self._channel(request).to_json(self.world))

    async def _typing(self, request: web.Request) -> web.Response:
        self._channel(request)
        return no_content()

    async def _create_thread(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        if parent.guild_id is None:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        payload, _ = await read_body(request)
        ctype = int(payload.get("type", PUBLIC_THREAD))
        if "mid" in request.match_info:
            self._bot_message(request)
            ctype = PUBLIC_THREAD
        name = str(payload.get("name", "thread"))
        if not 1 <= len(name) <= 100:
            raise invalid_form("name", "Must be between 1 and 100 in length.")
        cid = self.world.add_channel(parent.guild_id, name, type=ctype, parent_id=parent.id)
        data = self.world.channels[cid].to_json(self.world)
        await self.gateway.dispatch("THREAD_CREATE", {**data, "newly_created": True})
        return json_response(data, 201)

    async def _thread_member(self, request: web.Request) -> web.Response:
        self._channel(request)
        return no_content()

    # ------------------------------------------------------------------ channel messages
    async def _list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        limit = int(request.query.get("limit", 50))
        before = int(request.query.get("before", 0)) or None
        after = int(request.query.get("after", 0)) or None
        msgs = self.public_messages(channel.id)
        if before:
            msgs = [m for m in msgs if m.id < before]
        if after:
            msgs = [m for m in msgs if m.id > after]
        msgs = sorted(msgs, key=lambda m: m.id, reverse=True)[:limit]
        return json_response([m.to_json(self.world) for m in msgs])

    async def _post_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        payload, files = await read_body(request)
        nonce = self._read_nonce(payload)
        if nonce is not None and payload.get("enforce_nonce"):
            earlier = self._nonce_message(channel.id, nonce)
            if earlier is not None:
                self.nonce_hits.append(earlier.id)
                return json_response(self._with_nonce(earlier))
        if int(payload.get("flags") or 0) & FLAG_EPHEMERAL:
            raise invalid_form("flags", "Ephemeral messages can only be sent as interaction responses")
        msg = self._build(self._new_message(channel.id), payload, files, creating=True)
        if payload.get("message_reference"):
            msg.message_type = 19
        self._check_bot_can_post(channel, msg)
        msg.nonce = nonce
        self._store(msg)
        if nonce is not None:
            key = (channel.id, msg.author_id, str(nonce))
            first = self._nonces.get(key)
            if first is None or time.monotonic() - first[0] > self.nonce_window:
                self._nonces[key] = (time.monotonic(), msg.id)
        return json_response(self._with_nonce(msg))

    @staticmethod
    def _read_nonce(payload: dict[str, Any]) -> int | str | None:
        """The create body's ``nonce`` (integer or string of up to 25 characters), checked like Discord."""
        nonce = payload.get("nonce")
        enforce = payload.get("enforce_nonce")
        if enforce is not None and not isinstance(enforce, bool):
            raise invalid_form("enforce_nonce", "Must be either true or false.")
        if nonce is None:
            return None
        if isinstance(nonce, bool) or not isinstance(nonce, (int, str)):
            raise invalid_form("nonce", "Must be an integer or a string.")
        if len(str(nonce)) > NONCE_MAX_LENGTH:
            raise invalid_form("nonce", f"Must be {NONCE_MAX_LENGTH} or fewer in length.")
        return nonce

    def _nonce_message(self, channel_id: int, nonce: int | str) -> StoredMessage | None:
        """The bot's message made with this nonce in this channel within :attr:`nonce_window`, if any.
        One deleted since then is refused with 404/10008, as discord.py documents for ``send``."""
        found = self._nonces.get((channel_id, self.bot_user_id, str(nonce)))
        if found is None or time.monotonic() - found[0] > self.nonce_window:
            return None
        msg = self.world.messages[found[1]]
        if msg.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def _with_nonce(self, msg: StoredMessage) -> dict[str, Any]:
        """A create answer: the message, with the nonce it was made with echoed back."""
        data = msg.to_json(self.world)
        if msg.nonce is not None:
            data["nonce"] = msg.nonce
        return data

    async def _get_message(self, request: web.Request) -> web.Response:
        return json_response(self._bot_message(request).to_json(self.world))

    async def _patch_message(self, request: web.Request) -> web.Response:
        old = self._bot_message(request)
        if old.author_id != self.bot_user_id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        payload, files = await read_body(request)
        msg = self._store(self._build(old, payload, files, creating=False))
        return json_response(msg.to_json(self.world))

    async def _delete_message(self, request: web.Request) -> web.Response:
        self._bot_message(request).deleted = True
        return no_content()
