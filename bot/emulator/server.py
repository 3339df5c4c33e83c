"""``FakeDiscord``: a local Discord API (REST + gateway) for an unmodified discord.py client.

Usage::

    server = FakeDiscord()
    await server.start()                 # 127.0.0.1, free port
    gid = server.add_guild("Test")
    chan = server.add_channel(gid, "games")
    alice = server.add_user("alice")
    point_discord_py_at(server.api_base)  # bot.emulator.connect
    ...start the bot (use guild_ready_timeout=0.1)...
    result = await server.user(alice).slash(chan, "game new", game="x")
    await server.stop()

Interactions behave like Discord's: the initial callback must come within 3 s, a second
callback is rejected (40060), followups/edits work for 15 minutes. Everything the bot gets
wrong that Discord would reject is appended to :attr:`FakeDiscord.errors` so a test can
assert the list is empty; unknown routes go to :attr:`FakeDiscord.unhandled`.

Creating a channel message honours ``nonce``/``enforce_nonce`` as Discord documents them (discord.py
sends a random nonce with ``enforce_nonce: true`` on every ``send``): a create that repeats the bot's
nonce in the same channel within :attr:`FakeDiscord.nonce_window` gets the earlier message back and
creates nothing (counted in :attr:`FakeDiscord.nonce_hits`).

Discord's own troubles can be injected into REST calls with :attr:`FakeDiscord.faults`
(``bot/emulator/faults.py``): 5xx answers, 429 rate limits, dropped connections, and answers lost
after the work was done::

    server.faults.add("POST", r"/channels/\\d+/messages", drop=True, after_create=True)
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from aiohttp import web

from .driver import UserSession
from .events import ScheduledEventRoutes
from .interactions import InteractionRoutes
from .model import (
    P_MANAGE_EVENTS,
    InteractionRecord,
    Role,
    StoredMessage,
    shard_of,
)
from .payloads import ApiError, json_response
from .rest import RestRoutes

_log = logging.getLogger(__name__)


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class FakeDiscord(RestRoutes, ScheduledEventRoutes, InteractionRoutes):
    """The emulator: world model + aiohttp app serving ``/api/v10``, ``/gateway``, ``/attachments``.

    Start with ``await FakeDiscord().start()`` (returns the instance) or ``async with FakeDiscord() as s``.
    """

    # ------------------------------------------------------------------ lifecycle
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> FakeDiscord:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = site._server
        assert isinstance(server, asyncio.Server), "TCPSite.start() made a listening server"
        self._host = host
        self._port = server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        """Close websockets first (cleanup would otherwise wait on them), then the app."""
        self.release_responses()
        for timer in self._timers:
            timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ setup API
    # Setup calls are synchronous; if a bot is already connected they also push the
    # matching gateway event (GUILD_CREATE, CHANNEL_CREATE, ...) so its cache stays right.
    def add_guild(self, name: str, *, shard: int | None = None, **kwargs: Any) -> int:
        """A guild (see `World.add_guild` for `system_channel` and permissions). Added while a bot is
        connected, it is a guild the bot *joins*: Discord's GUILD_CREATE then has no `unavailable`
        flag (`false` would mean "available again after an outage"), so discord.py fires on_guild_join.

        Its id puts it on shard `shard` of :attr:`shard_count`; by default guilds take turns over the
        shards, so a sharded test has guilds on every shard without asking."""
        if shard is None and self.shard_count > 1:
            shard = len(self.world.guilds) % self.shard_count
        placed = (shard, self.shard_count) if shard is not None else None
        gid = self.world.add_guild(name, shard=placed, **kwargs)

        def joined() -> dict[str, Any]:
            data = self.world.guild_create_json(gid)
            del data["unavailable"]
            return data

        self._notify("GUILD_CREATE", joined)
        return gid

    def add_channel(self, guild_id: int, name: str) -> int:
        cid = self.world.add_channel(guild_id, name)
        self._notify("CHANNEL_CREATE", lambda: self.world.channels[cid].to_json(self.world))
        return cid

    def add_user(self, name: str, *, dms_open: bool = True) -> int:
        """A human user, member of every guild (existing and future) with @everyone permissions."""
        uid = self.world.add_user(name, dms_open=dms_open)
        for gid in self.world.guilds:
            self._notify_member(gid, uid, "GUILD_MEMBER_ADD")
        return uid

    def add_member(self, guild_id: int, user_id: int, permissions: int = 0) -> None:
        """Add (or re-add) a member; ``permissions`` are extra bits on top of @everyone."""
        self._notify_new_roles(
            guild_id, lambda: self.world.add_member(guild_id, user_id, permissions=permissions)
        )
        self._notify_member(guild_id, user_id, "GUILD_MEMBER_ADD")

    def set_permissions(self, guild_id: int, user_id: int, permissions: int) -> None:
        """Replace a member's extra permissions (e.g. ``1 << 4`` Manage Channels)."""
        self._notify_new_roles(
            guild_id, lambda: self.world.set_member_permissions(guild_id, user_id, permissions)
        )
        self._notify_member(guild_id, user_id, "GUILD_MEMBER_UPDATE")

    def _notify_new_roles(self, guild_id: int, change: Callable[[], None]) -> None:
        roles = self.world.guilds[guild_id].roles
        before = set(roles)
        change()
        for rid in [r for r in roles if r not in before]:
            self._notify("GUILD_ROLE_CREATE", partial(_role_created, guild_id, roles, rid))

    def _notify_member(self, guild_id: int, user_id: int, event: str) -> None:
        self._notify(event, lambda: {**self.world.member_json(guild_id, user_id), "guild_id": str(guild_id)})

    def _notify(self, event: str, build: Callable[[], dict[str, Any]]) -> None:
        if self.gateway.current is None:
            return  # nothing connected yet: READY/GUILD_CREATE will carry it
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        task = loop.create_task(self.gateway.dispatch(event, build()))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def set_bot_permissions(self, guild_id: int, permissions: int) -> None:
        """Replace the permissions of the bot's own (managed) role in a guild, as an admin would in the
        server settings; the bot's cache hears of it through GUILD_ROLE_UPDATE."""
        guild = self.world.guilds[guild_id]
        role = next(r for r in guild.roles.values() if r.managed)
        role.permissions = permissions
        self._notify("GUILD_ROLE_UPDATE", lambda: {"guild_id": str(guild_id), "role": role.to_json()})

    def set_bot_can_manage_events(self, guild_id: int, allowed: bool) -> None:
        """The per-guild switch for the calendar: without Manage Events, Discord answers 403/50013."""
        guild = self.world.guilds[guild_id]
        role = next(r for r in guild.roles.values() if r.managed)
        bits = role.permissions | P_MANAGE_EVENTS if allowed else role.permissions & ~P_MANAGE_EVENTS
        self.set_bot_permissions(guild_id, bits)

    def set_dms_open(self, user_id: int, is_open: bool) -> None:
        self.world.users[user_id].dms_open = is_open

    def hold_responses(self, which: Callable[[InteractionRecord], bool]) -> None:
        """Keep the bot's answers to matching interactions waiting: the bot has done the work (a move
        is committed) but the user has no answer yet, the moment a crash test kills the bot. Each held
        interaction is appended to :attr:`held` when its answer arrives."""
        self._hold = which
        self._released.clear()

    def release_responses(self) -> None:
        """Stop holding. The held answers are refused as too late (10062), as a bot killed meanwhile
        never sees them; the users saw "This interaction failed"."""
        self._hold = None
        self._released.set()

    # ------------------------------------------------------------------ inspection API
    def user(self, user_id: int) -> UserSession:
        return UserSession(self, user_id)

    def message(self, message_id: int) -> StoredMessage:
        return self.world.messages[message_id]

    def shard_of(self, guild_id: int | None) -> int:
        """The shard of :attr:`shard_count` that hears about this guild (0 for DMs)."""
        return shard_of(guild_id, self.shard_count)

    def check(self) -> None:
        """Raise AssertionError if anything went wrong that Discord would have rejected."""
        problems = [*self.errors, *(f"unhandled route: {u}" for u in self.unhandled)]
        if problems:
            raise AssertionError("Discord emulator problems:\n  " + "\n  ".join(problems))

    async def wait_for_bot(self, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Wait until a bot has identified on the gateway."""
        await asyncio.wait_for(self.gateway.identified.wait(), timeout)

    async def settle(self, quiet: float = 0.15, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Wait until the bot has made no REST request for ``quiet`` seconds (fan-out done)."""
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            pending = any(
                (r.callback_type is None and now - r.created_mono < self.ack_timeout)
                or (r.callback_type == 5 and not r.produced.is_set())  # still "thinking"
                for r in self.world.interactions.values()
            )
            if self._inflight == 0 and not pending and not self._tasks and now - self._last_activity >= quiet:
                return
            if now > deadline:
                raise TimeoutError(f"bot not idle after {timeout}s")
            await asyncio.sleep(quiet / 3)

    # ------------------------------------------------------------------ interactions (driver side)
    async def dispatch_interaction(self, rec: InteractionRecord, payload: dict[str, Any]) -> None:
        self.world.interactions[rec.id] = rec
        self._by_token[rec.token] = rec
        rec.created_mono = time.monotonic()
        self._last_activity = rec.created_mono
        loop = asyncio.get_running_loop()
        self._timers.append(loop.call_later(self.ack_timeout, self._check_acked, rec))
        await self.gateway.dispatch("INTERACTION_CREATE", payload)

    def _check_acked(self, rec: InteractionRecord) -> None:
        if rec.callback_type is None:
            self.errors.append(
                f"interaction {rec.name!r} (id {rec.id}) was not acknowledged within {self.ack_timeout:g} s"
            )

    def new_interaction_token(self) -> str:
        return "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)

    # ------------------------------------------------------------------ HTTP plumbing
    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == "/gateway":  # long-lived; not "activity"
            return await handler(request)
        self._inflight += 1
        self._last_activity = time.monotonic()
        try:
            fault = self.faults.pick(request.method, request.path)
            if fault is None:
                resp = await self._answer(request, handler)
            elif fault.after_create:
                await self._answer(request, handler)  # done, and its answer is lost
                resp = await self.faults.respond(request, fault)
            else:
                resp = await self.faults.respond(request, fault)
        finally:
            self._inflight -= 1
            self._last_activity = time.monotonic()
        dropped = fault is not None and fault.drop
        self.requests.append((request.method, request.path, 0 if dropped else resp.status))
        return resp

    async def _answer(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The emulator's own answer: the handler's, or the error Discord would give."""
        path = request.path
        try:
            if (
                path.startswith("/api/")
                and self.require_token is not None
                and self._needs_auth(path)
                and request.headers.get("Authorization") != f"Bot {self.require_token}"
            ):
                raise ApiError(401, 0, "401: Unauthorized")
            try:
                return await handler(request)
            except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
                self.unhandled.append(f"{request.method} {path}")
                return json_response({"message": "404: Not Found", "code": 0}, 404)
        except ApiError as exc:
            if exc.status in (400, 413) or exc.code in (10062, 40060, 10015, 50027):
                self.errors.append(f"{request.method} {path} -> {exc.status} {exc.code} {exc.message}")
            return json_response(exc.body(), exc.status)
        except ConnectionResetError:
            # The bot's connection dropped while sending the request (a crash test killed the process):
            # like Discord, nothing happened, and there is nobody to answer.
            _log.info("the bot hung up during %s %s", request.method, path)
            return json_response({"message": "connection lost", "code": 0}, 400)
        except Exception as exc:  # an emulator bug or a body it cannot parse
            _log.exception("emulator failed on %s %s", request.method, path)
            self.errors.append(f"{request.method} {path} -> emulator exception {exc!r}")
            # 400, not 500: discord.py retries 5xx with back-off, which would only slow the test.
            return json_response({"message": f"emulator exception: {exc!r}", "code": 0}, 400)

    @staticmethod
    def _needs_auth(path: str) -> bool:
        return not (path.startswith("/api/v10/interactions/") or path.startswith("/api/v10/webhooks/"))

    def _add_routes(self, app: web.Application) -> None:
        r = app.router
        api = "/api/v10"
        r.add_get("/gateway", self.gateway.handle)
        r.add_get("/attachments/{aid}/{filename}", self._get_attachment)
        r.add_get(api + "/gateway", self._get_gateway)
        r.add_get(api + "/gateway/bot", self._get_gateway_bot)
        r.add_get(api + "/users/@me", self._get_me)
        r.add_get(api + "/users/{uid}", self._get_user)
        r.add_post(api + "/users/@me/channels", self._create_dm)
        r.add_get(api + "/oauth2/applications/@me", self._get_application)
        r.add_get(api + "/applications/@me", self._get_application)
        for prefix in ("/applications/{app}", "/applications/{app}/guilds/{gid}"):
            r.add_get(api + prefix + "/commands", self._get_commands)
            r.add_put(api + prefix + "/commands", self._put_commands)
            r.add_post(api + prefix + "/commands", self._post_command)
            r.add_delete(api + prefix + "/commands/{cid}", self._delete_command)
        r.add_get(api + "/guilds/{gid}", self._get_guild)
        r.add_get(api + "/guilds/{gid}/channels", self._get_guild_channels)
        r.add_get(api + "/guilds/{gid}/roles", self._get_guild_roles)
        r.add_get(api + "/guilds/{gid}/members/{uid}", self._get_member)
        r.add_get(api + "/guilds/{gid}/scheduled-events", self._list_events)
        r.add_post(api + "/guilds/{gid}/scheduled-events", self._create_event)
        r.add_get(api + "/guilds/{gid}/scheduled-events/{eid}", self._get_event)
        r.add_patch(api + "/guilds/{gid}/scheduled-events/{eid}", self._patch_event)
        r.add_delete(api + "/guilds/{gid}/scheduled-events/{eid}", self._delete_event)
        r.add_get(api + "/channels/{cid}", self._get_channel)
        r.add_post(api + "/channels/{cid}/typing", self._typing)
        r.add_get(api + "/channels/{cid}/messages", self._list_messages)
        r.add_post(api + "/channels/{cid}/messages", self._post_message)
        r.add_get(api + "/channels/{cid}/messages/{mid}", self._get_message)
        r.add_patch(api + "/channels/{cid}/messages/{mid}", self._patch_message)
        r.add_delete(api + "/channels/{cid}/messages/{mid}", self._delete_message)
        r.add_post(api + "/channels/{cid}/threads", self._create_thread)
        r.add_post(api + "/channels/{cid}/messages/{mid}/threads", self._create_thread)
        r.add_put(api + "/channels/{cid}/thread-members/{uid}", self._thread_member)
        r.add_put(api + "/channels/{cid}/thread-members/@me", self._thread_member)
        r.add_post(api + "/interactions/{iid}/{token}/callback", self._callback)
        r.add_post(api + "/webhooks/{app}/{token}", self._followup)
        r.add_get(api + "/webhooks/{app}/{token}/messages/{mid}", self._webhook_get)
        r.add_patch(api + "/webhooks/{app}/{token}/messages/{mid}", self._webhook_patch)
        r.add_delete(api + "/webhooks/{app}/{token}/messages/{mid}", self._webhook_delete)


def _role_created(guild_id: int, roles: dict[int, Role], rid: int) -> dict[str, Any]:
    """GUILD_ROLE_CREATE's payload, built when it is sent."""
    return {"guild_id": str(guild_id), "role": roles[rid].to_json()}
