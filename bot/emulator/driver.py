"""Acting as a human user against the emulator: slash commands, autocomplete, clicks, selects, modals.

Payloads are built from the commands the bot actually synced, so a test that uses a wrong
option name, a missing required option or a value outside the declared choices fails the
same way the Discord client would refuse it: with :class:`EmulatorUsageError` in the test.
Each action returns an :class:`InteractionResult` once the bot has answered.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from .model import (
    DEFAULT_EVERYONE_PERMISSIONS,
    DM,
    FLAG_EPHEMERAL,
    P_ADMINISTRATOR,
    InteractionRecord,
    StoredAttachment,
    StoredMessage,
)
from .ports import SessionHost

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
SELECT_TYPES = (3, 5, 6, 7, 8)
#: How long a deferred *update* (type 6) may stay silent before the result is returned anyway.
DEFERRED_UPDATE_WAIT = 1.0


class EmulatorUsageError(AssertionError):
    """The test asked for something a real Discord client would not let a user do."""


class InteractionFailed(AssertionError):
    """The bot did not acknowledge in time: the user sees "This interaction failed"."""


@dataclass
class InteractionResult:
    """What the bot answered to one interaction. Message fields follow the primary message
    (the original response, or the message a component update edited)."""

    server: SessionHost
    record: InteractionRecord

    @property
    def type(self) -> int | None:
        """Callback type: 4 message, 5 deferred message, 6 deferred update, 7 update, 8 choices, 9 modal."""
        return self.record.callback_type

    @property
    def deferred(self) -> bool:
        return self.type in (5, 6)

    @property
    def messages(self) -> list[StoredMessage]:
        """Messages produced by this interaction (original response first, then followups)."""
        world = self.server.world
        return [world.messages[i] for i in self.record.message_ids if not world.messages[i].deleted]

    @property
    def message(self) -> StoredMessage | None:
        msgs = self.messages
        return msgs[0] if msgs else None

    @property
    def ephemeral(self) -> bool:
        msg = self.message
        return bool(msg and msg.flags & FLAG_EPHEMERAL)

    @property
    def content(self) -> str:
        msg = self.message
        return msg.content if msg else ""

    @property
    def answer(self) -> str:
        """The content of the last message version this interaction itself produced. Unlike
        :attr:`content` it is not overwritten when a later interaction edits the same message (two
        clicks on one ephemeral menu both answer by editing it)."""
        versions = self.record.versions
        return versions[-1].content if versions else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        msg = self.message
        return msg.embeds if msg else []

    @property
    def files(self) -> list[tuple[str, bytes, str | None]]:
        msg = self.message
        return msg.files if msg else []

    @property
    def latency(self) -> float | None:
        """Seconds from INTERACTION_CREATE to the initial callback."""
        return self.record.latency

    @property
    def choices(self) -> list[dict[str, Any]]:
        return self.record.choices or []

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.record.modal


class UserSession:
    """One human user. Get one with ``server.user(user_id)``."""

    def __init__(self, server: SessionHost, user_id: int) -> None:
        if user_id not in server.world.users:
            raise EmulatorUsageError(f"unknown user {user_id}")
        self.server = server
        self.id = user_id

    @property
    def name(self) -> str:
        return self.server.world.users[self.id].name

    @property
    def dm_channel_id(self) -> int:
        """This user's DM channel with the bot (created on first use, as Discord does)."""
        return self.server.world.dm_channel(self.id).id

    # ------------------------------------------------------------------ what the user sees
    def can_see(self, msg: StoredMessage) -> bool:
        if msg.deleted or msg.ephemeral_for not in (None, self.id):
            return False
        channel = self.server.world.channels[msg.channel_id]
        if channel.type == DM:
            return channel.recipient_id == self.id
        assert channel.guild_id is not None, "a channel that is not a DM belongs to a guild"
        return self.id in self.server.world.guilds[channel.guild_id].members

    def visible(self, channel_id: int) -> list[StoredMessage]:
        """Messages in a channel this user sees: public ones plus their own ephemerals."""
        return [m for m in self.server.world.channel_messages(channel_id) if self.can_see(m)]

    def dms(self) -> list[StoredMessage]:
        """Messages in this user's DM channel with the bot."""
        cid = self.server.world.dm_by_user.get(self.id)
        return self.visible(cid) if cid is not None else []

    def buttons(self, message_id: int) -> list[tuple[str | None, str | None, bool]]:
        """(label, custom_id, disabled) of each button on a message."""
        return self.server.world.messages[message_id].buttons()

    async def wait_idle(self, quiet: float = 0.15, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        await self.server.settle(quiet=quiet, timeout=timeout)

    # ------------------------------------------------------------------ actions
    async def slash(
        self,
        channel_id: int,
        command: str,
        *,
        timeout: float = 10.0,  # noqa: ASYNC109
        **options: Any,
    ) -> InteractionResult:
        """Run ``/command`` ("game new" = group ``game``, subcommand ``new``) with ``options``."""
        data = self._command_data(channel_id, command, options, focused=None)
        rec = await self._dispatch(2, channel_id, data, name=f"/{command}")
        return await self._result(rec, timeout)

    async def autocomplete(
        self,
        channel_id: int,
        command: str,
        focused: str,
        value: Any = "",
        *,
        timeout: float = 10.0,  # noqa: ASYNC109
        **options: Any,
    ) -> list[dict[str, Any]]:
        """Type ``value`` into option ``focused``; returns the choices the bot offered."""
        data = self._command_data(channel_id, command, {**options, focused: value}, focused=focused)
        rec = await self._dispatch(4, channel_id, data, name=f"/{command} [autocomplete {focused}]")
        result = await self._result(rec, timeout)
        if result.type != 8:
            raise EmulatorUsageError(f"bot answered autocomplete with callback type {result.type}")
        return result.choices

    async def click(self, message_id: int, custom_id: str, *, timeout: float = 10.0) -> InteractionResult:  # noqa: ASYNC109
        msg, comp = self._component(message_id, custom_id)
        if comp.get("type") != 2 or comp.get("style") in (5, 6):
            raise EmulatorUsageError(f"component {custom_id!r} is not a clickable button")
        data = {"custom_id": custom_id, "component_type": 2}
        rec = await self._dispatch(3, msg.channel_id, data, name=custom_id, message=msg)
        return await self._result(rec, timeout)

    async def select(
        self,
        message_id: int,
        custom_id: str,
        values: list[str],
        *,
        timeout: float = 10.0,  # noqa: ASYNC109
    ) -> InteractionResult:
        msg, comp = self._component(message_id, custom_id)
        ctype = comp.get("type")
        if ctype not in SELECT_TYPES:
            raise EmulatorUsageError(f"component {custom_id!r} is not a select menu")
        values = [str(v) for v in values]
        lo, hi = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
        if not lo <= len(values) <= hi:
            raise EmulatorUsageError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype, "values": values}
        if ctype == 3:
            allowed = [o.get("value") for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise EmulatorUsageError(f"select {custom_id!r} has no option(s) {bad}; options: {allowed}")
        elif ctype == 5:
            data["resolved"] = self._resolve_users(msg.guild_id, [int(v) for v in values])
        rec = await self._dispatch(3, msg.channel_id, data, name=custom_id, message=msg)
        return await self._result(rec, timeout)

    async def submit_modal(
        self,
        opened_by: InteractionResult,
        values: dict[str, Any],
        *,
        timeout: float = 10.0,  # noqa: ASYNC109
    ) -> InteractionResult:
        """Fill in and submit the modal the bot opened in answer to ``opened_by``."""
        modal = opened_by.modal
        if modal is None:
            raise EmulatorUsageError("that interaction did not open a modal")
        remaining = dict(values)

        def fill(comp: dict[str, Any]) -> dict[str, Any] | None:
            ctype = comp.get("type")
            if ctype == 1:
                inner = [c for c in (fill(x) for x in comp.get("components", [])) if c is not None]
                return {"type": 1, "components": inner}
            if ctype == 18:
                inner_c = fill(comp["component"])
                return {"type": 18, "component": inner_c} if inner_c else None
            cid = comp.get("custom_id")
            if cid is None:
                return None
            if ctype == 4:
                value = str(remaining.pop(cid, comp.get("value") or ""))
                if comp.get("required", True) and not value:
                    raise EmulatorUsageError(f"modal field {cid!r} is required")
                return {"type": 4, "custom_id": cid, "value": value}
            chosen = remaining.pop(cid, [])
            return {"type": ctype, "custom_id": cid, "values": [str(v) for v in chosen]}

        components = [c for c in (fill(x) for x in modal["components"]) if c is not None]
        if remaining:
            raise EmulatorUsageError(f"modal {modal['custom_id']!r} has no field(s) {sorted(remaining)}")
        src = opened_by.record
        message = (
            self.server.world.messages.get(src.source_message_id)
            if src.source_message_id is not None
            else None
        )
        data = {"custom_id": modal["custom_id"], "components": components}
        rec = await self._dispatch(
            5, src.channel_id, data, name=f"modal {modal['custom_id']}", message=message
        )
        return await self._result(rec, timeout)

    # ------------------------------------------------------------------ internals
    def _component(self, message_id: int, custom_id: str) -> tuple[StoredMessage, dict[str, Any]]:
        msg = self.server.world.messages.get(message_id)
        if msg is None or not self.can_see(msg):
            raise EmulatorUsageError(f"user {self.name} cannot see message {message_id}")
        comp = msg.find_component(custom_id)
        if comp is None:
            ids = [c.get("custom_id") for c in msg.iter_components() if c.get("custom_id")]
            raise EmulatorUsageError(f"message {message_id} has no component {custom_id!r}; it has {ids}")
        if comp.get("disabled"):
            raise EmulatorUsageError(f"component {custom_id!r} on message {message_id} is disabled")
        return msg, comp

    def _base_payload(self, itype: int, channel_id: int) -> tuple[dict[str, Any], InteractionRecord]:
        server, world = self.server, self.server.world
        channel = world.channels.get(channel_id)
        if channel is None:
            raise EmulatorUsageError(f"unknown channel {channel_id}")
        rec = InteractionRecord(
            id=world.snowflake(),
            token=server.new_interaction_token(),
            type=itype,
            user_id=self.id,
            channel_id=channel_id,
            guild_id=channel.guild_id,
            name="",
            data={},
        )
        payload: dict[str, Any] = {
            "id": str(rec.id),
            "application_id": str(server.app_id),
            "type": itype,
            "token": rec.token,
            "version": 1,
            "attachment_size_limit": server.attachment_size_limit,
            "locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
        }
        if channel.type == DM:
            if channel.recipient_id != self.id:
                raise EmulatorUsageError(f"channel {channel_id} is not {self.name}'s DM channel")
            payload.update(
                channel={"id": str(channel.id), "type": DM, "recipients": [world.users[self.id].to_json()]},
                user=world.users[self.id].to_json(),
                context=1,
                authorizing_integration_owners={"0": "0"},
                app_permissions=str(DEFAULT_EVERYONE_PERMISSIONS),
            )
        else:
            gid = channel.guild_id
            assert gid is not None
            if self.id not in world.guilds[gid].members:
                raise EmulatorUsageError(f"user {self.name} is not a member of guild {gid}")
            member = world.member_json(gid, self.id)
            member["permissions"] = str(world.permissions(gid, self.id))
            payload.update(
                guild_id=str(gid),
                guild_locale="en-US",
                guild={"id": str(gid), "locale": "en-US", "features": []},
                channel={**channel.to_json(world), "permissions": member["permissions"]},
                channel_id=str(channel.id),
                member=member,
                context=0,
                authorizing_integration_owners={"0": str(gid)},
                app_permissions=str(world.channel_permissions(channel.id, server.bot_user_id)),
            )
        return payload, rec

    async def _dispatch(
        self,
        itype: int,
        channel_id: int,
        data: dict[str, Any],
        *,
        name: str,
        message: StoredMessage | None = None,
    ) -> InteractionRecord:
        payload, rec = self._base_payload(itype, channel_id)
        rec.name = name
        rec.data = data
        payload["data"] = data
        if message is not None:
            payload["message"] = message.to_json(self.server.world)
            rec.source_message_id = message.id
        await self.server.dispatch_interaction(rec, payload)
        return rec

    async def _result(self, rec: InteractionRecord, timeout: float) -> InteractionResult:  # noqa: ASYNC109
        ack_wait = min(timeout, self.server.ack_timeout + 0.05)
        try:
            await asyncio.wait_for(rec.acked.wait(), ack_wait)
        except TimeoutError:
            raise InteractionFailed(
                f"{rec.name}: bot did not respond within {self.server.ack_timeout:g} s "
                f"(errors so far: {self.server.errors})"
            ) from None
        wait_more = (
            timeout if rec.callback_type == 5 else DEFERRED_UPDATE_WAIT if rec.callback_type == 6 else 0
        )
        if wait_more:
            try:
                await asyncio.wait_for(rec.produced.wait(), wait_more)
            except TimeoutError:
                if rec.callback_type == 5:  # the user still sees "thinking…": an InteractionFailed too
                    raise InteractionFailed(
                        f"{rec.name}: deferred but nothing followed within {timeout} s"
                    ) from None
        return InteractionResult(self.server, rec)

    # ------------------------------------------------------------------ command payloads
    def _find_command(self, channel_id: int, name: str) -> dict[str, Any]:
        world = self.server.world
        channel = world.channels[channel_id]
        scopes = [channel.guild_id, None] if channel.guild_id is not None else [None]
        for scope in scopes:
            for cmd in world.commands.values():
                if cmd.guild_id == scope and cmd.name == name and int(cmd.payload.get("type", 1)) == 1:
                    data = cmd.to_json(self.server.app_id)
                    self._check_command_allowed(data, channel_id)
                    return data
        known = sorted({c.name for c in world.commands.values() if c.guild_id in scopes})
        raise EmulatorUsageError(f"no slash command /{name} is registered here; registered: {known}")

    def _check_command_allowed(self, cmd: dict[str, Any], channel_id: int) -> None:
        world = self.server.world
        channel = world.channels[channel_id]
        if channel.guild_id is None:
            contexts = cmd.get("contexts")
            if (contexts is not None and 1 not in contexts) or cmd.get("dm_permission") is False:
                raise EmulatorUsageError(f"/{cmd['name']} is not available in DMs")
            return
        required = cmd.get("default_member_permissions")
        if required is not None:
            perms = world.permissions(channel.guild_id, self.id)
            if not perms & P_ADMINISTRATOR and int(required) & perms != int(required):
                raise EmulatorUsageError(f"{self.name} lacks permissions {required} to see /{cmd['name']}")

    def _command_data(
        self, channel_id: int, command: str, options: dict[str, Any], *, focused: str | None
    ) -> dict[str, Any]:
        parts = command.strip().lstrip("/").split()
        if not parts:
            raise EmulatorUsageError("empty command")
        cmd = self._find_command(channel_id, parts[0])
        node_options: list[dict[str, Any]] = cmd.get("options") or []
        chain: list[dict[str, Any]] = []
        for part in parts[1:]:
            sub = next((o for o in node_options if o["name"] == part and o["type"] in (1, 2)), None)
            if sub is None:
                subs = [o["name"] for o in node_options if o["type"] in (1, 2)]
                raise EmulatorUsageError(f"/{' '.join(parts)}: no subcommand {part!r}; available: {subs}")
            chain.append(sub)
            node_options = sub.get("options") or []
        if any(o["type"] in (1, 2) for o in node_options):
            subs = [o["name"] for o in node_options if o["type"] in (1, 2)]
            raise EmulatorUsageError(f"/{command} needs a subcommand: {subs}")

        resolved: dict[str, dict[str, Any]] = {}
        guild_id = self.server.world.channels[channel_id].guild_id
        leaf = self._leaf_options(command, node_options, options, focused, resolved, guild_id)
        nested: list[dict[str, Any]] = leaf
        for sub in reversed(chain):
            nested = [{"type": sub["type"], "name": sub["name"], "options": nested}]
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": nested}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _leaf_options(
        self,
        command: str,
        declared: list[dict[str, Any]],
        given: dict[str, Any],
        focused: str | None,
        resolved: dict[str, dict[str, Any]],
        guild_id: int | None,
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in declared}
        unknown = [n for n in given if n not in by_name]
        if unknown:
            raise EmulatorUsageError(f"/{command} has no option(s) {unknown}; options: {list(by_name)}")
        if focused is None:
            missing = [o["name"] for o in declared if o.get("required") and o["name"] not in given]
            if missing:
                raise EmulatorUsageError(f"/{command} is missing required option(s) {missing}")
        out: list[dict[str, Any]] = []
        for name, value in given.items():
            opt = by_name[name]
            if name == focused:
                if not opt.get("autocomplete"):
                    raise EmulatorUsageError(f"/{command} option {name!r} has no autocomplete")
                out.append({"type": opt["type"], "name": name, "value": str(value), "focused": True})
                continue
            value = self._option_value(command, opt, value, resolved, guild_id)
            out.append({"type": opt["type"], "name": name, "value": value})
        return out

    def _option_value(
        self,
        command: str,
        opt: dict[str, Any],
        value: Any,
        resolved: dict[str, dict[str, Any]],
        guild_id: int | None,
    ) -> Any:
        otype, name = opt["type"], opt["name"]
        where = f"/{command} option {name!r}"
        world = self.server.world
        if otype == STRING:
            value = str(value)
            if not opt.get("min_length", 0) <= len(value) <= opt.get("max_length", 6000):
                raise EmulatorUsageError(f"{where}: length {len(value)} outside the declared bounds")
        elif otype in (INTEGER, NUMBER):
            value = _number_value(where, opt, value)
        elif otype == BOOLEAN:
            value = bool(value)
        elif otype in (USER, MENTIONABLE) and int(value) in world.users:
            uid = int(value)
            for key, part in self._resolve_users(guild_id, [uid]).items():
                resolved.setdefault(key, {}).update(part)
            value = str(uid)
        elif otype in (ROLE, MENTIONABLE):
            role = world.guilds[guild_id].roles.get(int(value)) if guild_id else None
            if role is None:
                raise EmulatorUsageError(f"{where}: unknown role {value}")
            resolved.setdefault("roles", {})[str(role.id)] = role.to_json()
            value = str(role.id)
        elif otype == USER:
            raise EmulatorUsageError(f"{where}: unknown user {value}")
        elif otype == CHANNEL:
            value = self._channel_value(where, opt, value, resolved)
        elif otype == ATTACHMENT:
            att = self._upload(value)
            resolved.setdefault("attachments", {})[str(att.id)] = att.to_json()
            value = str(att.id)
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise EmulatorUsageError(f"{where}: {value!r} is not one of {[c['value'] for c in choices]}")
        return value

    def _channel_value(
        self, where: str, opt: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]]
    ) -> str:
        """A channel option: the channel must exist and be of an allowed type; it joins `resolved`."""
        world = self.server.world
        ch = world.channels.get(int(value))
        if ch is None:
            raise EmulatorUsageError(f"{where}: unknown channel {value}")
        if opt.get("channel_types") and ch.type not in opt["channel_types"]:
            raise EmulatorUsageError(f"{where}: channel type {ch.type} not allowed")
        data = ch.to_json(world)
        data["permissions"] = str(world.permissions(ch.guild_id, self.id)) if ch.guild_id else "0"
        resolved.setdefault("channels", {})[str(ch.id)] = data
        return str(ch.id)

    def _resolve_users(self, guild_id: int | None, user_ids: list[int]) -> dict[str, dict[str, Any]]:
        world = self.server.world
        out: dict[str, dict[str, Any]] = {"users": {}}
        for uid in user_ids:
            out["users"][str(uid)] = world.users[uid].to_json()
            if guild_id is not None and uid in world.guilds[guild_id].members:
                member = world.member_json(guild_id, uid, with_user=False)
                member["permissions"] = str(world.permissions(guild_id, uid))
                out.setdefault("members", {})[str(uid)] = member
        return out

    def _upload(self, value: Any) -> StoredAttachment:
        if isinstance(value, StoredAttachment):
            return value
        filename, data = value
        world = self.server.world
        att = StoredAttachment(id=world.snowflake(), filename=filename, data=data)
        att.url = f"{self.server.base_url}/attachments/{att.id}/{filename}"
        world.attachments[att.id] = att
        return att


def _number_value(where: str, opt: dict[str, Any], value: Any) -> int | float:
    """An integer or number option, checked against its declared bounds."""
    otype = opt["type"]
    if isinstance(value, bool) or (otype == INTEGER and int(value) != value):
        raise EmulatorUsageError(f"{where}: expects {'an integer' if otype == INTEGER else 'a number'}")
    value = int(value) if otype == INTEGER else float(value)
    if "min_value" in opt and value < opt["min_value"] or "max_value" in opt and value > opt["max_value"]:
        raise EmulatorUsageError(f"{where}: {value} outside [{opt.get('min_value')}, {opt.get('max_value')}]")
    return value
