"""In-memory world of the Discord emulator: users, guilds, channels, messages, interactions.

Plain dataclasses, no I/O. The server mutates them; the driver and tests read them. JSON
serialisation lives here too, so every payload the bot sees is built from one place and
has the shape discord.py 2.7.1 parses (ids as strings, members with ``flags`` etc.).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
import struct
import time
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000

# Channel types (Discord API).
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12

# Message flags.
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7

# Permission bits used for defaults.
P_ADMINISTRATOR = 1 << 3
P_MANAGE_CHANNELS = 1 << 4
P_ADD_REACTIONS = 1 << 6
P_VIEW_CHANNEL = 1 << 10
P_SEND_MESSAGES = 1 << 11
P_MANAGE_MESSAGES = 1 << 13
P_EMBED_LINKS = 1 << 14
P_ATTACH_FILES = 1 << 15
P_READ_MESSAGE_HISTORY = 1 << 16
P_USE_EXTERNAL_EMOJIS = 1 << 18
P_USE_APPLICATION_COMMANDS = 1 << 31
P_MANAGE_EVENTS = 1 << 33
P_MANAGE_THREADS = 1 << 34
P_CREATE_PUBLIC_THREADS = 1 << 35
P_CREATE_PRIVATE_THREADS = 1 << 36
P_SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

#: What ``@everyone`` may do in an emulated guild (a typical community server).
DEFAULT_EVERYONE_PERMISSIONS = (
    P_ADD_REACTIONS
    | P_VIEW_CHANNEL
    | P_SEND_MESSAGES
    | P_EMBED_LINKS
    | P_ATTACH_FILES
    | P_READ_MESSAGE_HISTORY
    | P_USE_EXTERNAL_EMOJIS
    | P_USE_APPLICATION_COMMANDS
    | P_CREATE_PUBLIC_THREADS
    | P_SEND_MESSAGES_IN_THREADS
)
#: Extra permissions of the bot's managed role (what an invite with sensible scopes grants).
DEFAULT_BOT_PERMISSIONS = (
    P_MANAGE_CHANNELS
    | P_MANAGE_MESSAGES
    | P_MANAGE_THREADS
    | P_CREATE_PUBLIC_THREADS
    | P_CREATE_PRIVATE_THREADS
    | P_MANAGE_EVENTS
)


def iso(ts: float) -> str:
    """Discord-style ISO8601 timestamp for a unix time."""
    return dt.datetime.fromtimestamp(ts, tz=dt.UTC).isoformat()


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends a guild's events to; DMs (no guild) go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


class SnowflakeGen:
    """Real-looking, strictly increasing snowflakes (time-based, so ``created_at`` is sane)."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        now_ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        candidate = now_ms << 22
        self._last = max(self._last + 1, candidate)
        return self._last

    def on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next snowflake that, as a guild id, lands on `shard_id`. Ids made within one millisecond
        share their shard (the shard is taken from the timestamp bits), so a test that wants guilds on
        several shards moves the timestamp forward by up to `shard_count - 1` ms."""
        flake = self()
        step = (shard_id - shard_of(flake, shard_count)) % shard_count
        if step:
            flake = ((flake >> 22) + step) << 22
            self._last = flake
        return flake


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": None if self.bot else self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class Member:
    user_id: int
    role_ids: list[int]
    joined_at: float = field(default_factory=time.time)
    nick: str | None = None


@dataclass
class Channel:
    id: int
    type: int
    name: str
    guild_id: int | None = None
    position: int = 0
    recipient_id: int | None = None  # DM channels: the human on the other side
    parent_id: int | None = None  # threads
    bot_denied: int = 0
    """Permissions a channel overwrite takes from the bot here (`World.deny_bot`)."""

    def to_json(self, world: World | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {"id": str(self.id), "type": self.type, "name": self.name}
        if self.type == DM:
            data["name"] = None
            if world is not None and self.recipient_id is not None:
                data["recipients"] = [world.users[self.recipient_id].to_json()]
            data["last_message_id"] = None
            return data
        data.update(
            position=self.position,
            guild_id=str(self.guild_id),
            permission_overwrites=[
                {"id": str(world.app.bot_user_id), "type": 1, "allow": "0", "deny": str(self.bot_denied)}
            ]
            if world is not None and self.bot_denied
            else [],
            nsfw=False,
            topic=None,
            rate_limit_per_user=0,
            parent_id=str(self.parent_id) if self.parent_id else None,
            last_message_id=None,
        )
        if self.type in (PUBLIC_THREAD, PRIVATE_THREAD):
            data["thread_metadata"] = {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": iso(time.time()),
                "locked": False,
            }
            data["owner_id"] = str(world.app.bot_user_id) if world else None
            data["message_count"] = 0
            data["member_count"] = 0
        return data


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    channel_ids: list[int] = field(default_factory=list)
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    system_channel_id: int | None = None
    """Where Discord posts join notices (and bots greet a server); None when the server has none."""

    @property
    def everyone_role(self) -> Role:
        return self.roles[self.id]


@dataclass
class StoredAttachment:
    """An uploaded file; ``data`` keeps the exact bytes the bot sent."""

    id: int
    filename: str
    data: bytes
    description: str | None = None
    content_type: str | None = None
    url: str = ""

    @property
    def size(self) -> int:
        return len(self.data)

    def image_size(self) -> tuple[int, int] | None:
        if self.data[:8] == b"\x89PNG\r\n\x1a\n" and len(self.data) >= 24:
            w, h = struct.unpack(">II", self.data[16:24])
            return int(w), int(h)
        return None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            data["description"] = self.description
        dims = self.image_size()
        if dims:
            data["width"], data["height"] = dims
        return data


@dataclass
class StoredMessage:
    """A message as the emulator keeps it (the bot's view and every user's view derive from it)."""

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[StoredAttachment] = field(default_factory=list)
    flags: int = 0
    timestamp: float = field(default_factory=time.time)
    edited_timestamp: float | None = None
    ephemeral_for: int | None = None  # user id that alone can see it
    interaction_id: int | None = None
    webhook_id: int | None = None
    message_type: int = 0
    message_reference: dict[str, Any] | None = None
    deleted: bool = False
    edits: int = 0
    allowed_mentions: dict[str, Any] | None = None  # as the bot sent it (None: not given)
    nonce: int | str | None = None  # as the bot sent it with a channel create (echoed in its answer)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def pings_everyone(self) -> bool:
        """Whether an @everyone/@here in the content would notify (only without an allowed_mentions
        that leaves out "everyone"; the bot's Mention Everyone permission is not modelled)."""
        if "@everyone" not in self.content and "@here" not in self.content:
            return False
        allowed = self.allowed_mentions
        return allowed is None or "everyone" in (allowed.get("parse") or [])

    @property
    def pinged_roles(self) -> list[int]:
        """Role ids mentioned as ``<@&id>`` in the content that allowed_mentions lets notify."""
        mentioned = [int(found) for found in re.findall(r"<@&(\d+)>", self.content)]
        allowed = self.allowed_mentions
        if allowed is None or "roles" in (allowed.get("parse") or []):
            return mentioned
        listed = {int(role) for role in allowed.get("roles") or []}
        return [role for role in mentioned if role in listed]

    @property
    def pinged_users(self) -> list[int]:
        """User ids mentioned as ``<@id>``/``<@!id>`` in the content that allowed_mentions lets notify
        (Discord's rule: no allowed_mentions parses every mention; a `users` list names the only ones)."""
        mentioned = [int(found) for found in re.findall(r"<@!?(\d+)>", self.content)]
        allowed = self.allowed_mentions
        if allowed is None or "users" in (allowed.get("parse") or []):
            return mentioned
        listed = {int(user) for user in allowed.get("users") or []}
        return [user for user in mentioned if user in listed]

    @property
    def loading(self) -> bool:
        """True while this is a deferred "Bot is thinking..." placeholder."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def files(self) -> list[tuple[str, bytes, str | None]]:
        """(filename, bytes, description) of each attachment."""
        return [(a.filename, a.data, a.description) for a in self.attachments]

    @property
    def edited(self) -> bool:
        return self.edited_timestamp is not None

    def iter_components(self) -> list[dict[str, Any]]:
        """Every component (buttons, selects, ...) in this message, flattened."""
        out: list[dict[str, Any]] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for comp in items:
                out.append(comp)
                walk(comp.get("components", []) or [])
                for key in ("accessory", "component"):
                    if isinstance(comp.get(key), dict):
                        walk([comp[key]])

        walk(self.components)
        return out

    def buttons(self) -> list[tuple[str | None, str | None, bool]]:
        """(label, custom_id, disabled) of every button; link buttons have custom_id None."""
        return [
            (c.get("label"), c.get("custom_id"), bool(c.get("disabled", False)))
            for c in self.iter_components()
            if c.get("type") == 2
        ]

    def find_component(self, custom_id: str) -> dict[str, Any] | None:
        for comp in self.iter_components():
            if comp.get("custom_id") == custom_id:
                return comp
        return None

    def to_json(self, world: World) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.message_type,
            "channel_id": str(self.channel_id),
            "author": world.users[self.author_id].to_json(),
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "attachments": [a.to_json() for a in self.attachments],
            "flags": self.flags,
            "timestamp": iso(self.timestamp),
            "edited_timestamp": iso(self.edited_timestamp) if self.edited_timestamp else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.interaction_id is not None:
            inter = world.interactions.get(self.interaction_id)
            if inter is not None:
                data["interaction_metadata"] = {
                    "id": str(inter.id),
                    "type": inter.type,
                    "user": world.users[inter.user_id].to_json(),
                    "authorizing_integration_owners": {},
                }
        return data


# Guild scheduled events (Discord API).
EVENT_EXTERNAL = 3
EVENT_GUILD_ONLY = 2
EVENT_SCHEDULED, EVENT_ACTIVE, EVENT_COMPLETED, EVENT_CANCELED = 1, 2, 3, 4


@dataclass
class ScheduledEvent:
    """A guild scheduled event as Discord stores it; times are ISO 8601 strings as sent."""

    id: int
    guild_id: int
    creator_id: int
    name: str
    scheduled_start_time: str
    entity_type: int
    privacy_level: int = EVENT_GUILD_ONLY
    scheduled_end_time: str | None = None
    description: str | None = None
    channel_id: int | None = None
    location: str | None = None
    status: int = EVENT_SCHEDULED
    deleted: bool = False

    @property
    def start(self) -> dt.datetime:
        return dt.datetime.fromisoformat(self.scheduled_start_time)

    @property
    def end(self) -> dt.datetime | None:
        return dt.datetime.fromisoformat(self.scheduled_end_time) if self.scheduled_end_time else None

    def to_json(self, world: World) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "guild_id": str(self.guild_id),
            "channel_id": str(self.channel_id) if self.channel_id else None,
            "creator_id": str(self.creator_id),
            "creator": world.users[self.creator_id].to_json(),
            "name": self.name,
            "description": self.description,
            "scheduled_start_time": self.scheduled_start_time,
            "scheduled_end_time": self.scheduled_end_time,
            "privacy_level": self.privacy_level,
            "status": self.status,
            "entity_type": self.entity_type,
            "entity_id": None,
            "entity_metadata": {"location": self.location} if self.location is not None else None,
            "user_count": 0,
            "image": None,
        }


@dataclass
class Command:
    """A registered application command (as synced by the bot), with the id we assigned."""

    id: int
    guild_id: int | None
    payload: dict[str, Any]

    @property
    def name(self) -> str:
        return str(self.payload["name"])

    def to_json(self, app_id: int) -> dict[str, Any]:
        data = dict(self.payload)
        data.update(id=str(self.id), application_id=str(app_id), version=str(self.id))
        data.setdefault("description", "")
        data.setdefault("type", 1)
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        return data


@dataclass
class InteractionRecord:
    """One interaction the driver dispatched, and everything the bot did in answer."""

    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete, 5 modal submit
    user_id: int
    channel_id: int
    guild_id: int | None
    name: str  # command path or custom_id, for error messages
    data: dict[str, Any]
    created_mono: float = field(default_factory=time.monotonic)
    source_message_id: int | None = None  # components: the message clicked
    callback_type: int | None = None
    callback_mono: float | None = None
    callback_data: dict[str, Any] | None = None
    original_message_id: int | None = None  # the message that @original refers to
    message_ids: list[int] = field(default_factory=list)  # messages created/updated by it
    versions: list[StoredMessage] = field(default_factory=list)  # each message version it produced
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    acked: asyncio.Event = field(default_factory=asyncio.Event)
    produced: asyncio.Event = field(default_factory=asyncio.Event)  # first followup/edit after a defer

    @property
    def latency(self) -> float | None:
        if self.callback_mono is None:
            return None
        return self.callback_mono - self.created_mono


@dataclass
class Application:
    id: int
    name: str
    bot_user_id: int
    owner_id: int


class World:
    """All emulated state. Ids come from one snowflake generator."""

    def __init__(self, app_name: str = "Ironhost") -> None:
        self.snowflake = SnowflakeGen()
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, StoredMessage] = {}
        self.attachments: dict[int, StoredAttachment] = {}
        self.commands: dict[int, Command] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.dm_by_user: dict[int, int] = {}
        self.scheduled_events: dict[int, ScheduledEvent] = {}
        owner = self._new_user(f"{app_name}-owner")
        bot = self._new_user(app_name, bot=True)
        self.app = Application(id=bot.id, name=app_name, bot_user_id=bot.id, owner_id=owner.id)

    # --- creation -------------------------------------------------------------------------
    def _new_user(self, name: str, *, bot: bool = False, dms_open: bool = True) -> User:
        user = User(id=self.snowflake(), name=name, bot=bot, dms_open=dms_open)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        *,
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        everyone_permissions: int = DEFAULT_EVERYONE_PERMISSIONS,
        system_channel: str | None = None,
        shard: tuple[int, int] | None = None,
    ) -> int:
        """A guild; `system_channel` names a text channel created with it as its system channel;
        `shard` (shard_id, shard_count) picks an id that Discord would route to that shard."""
        gid = self.snowflake() if shard is None else self.snowflake.on_shard(*shard)
        guild = Guild(id=gid, name=name, owner_id=self.app.owner_id)
        guild.roles[gid] = Role(id=gid, name="@everyone", permissions=everyone_permissions)
        bot_role = Role(
            id=self.snowflake(), name=self.app.name, permissions=bot_permissions, position=1, managed=True
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.app.bot_user_id] = Member(self.app.bot_user_id, [bot_role.id])
        self.guilds[gid] = guild
        for user in self.users.values():
            if not user.bot and user.id != self.app.owner_id:
                self.add_member(gid, user.id)
        if system_channel is not None:
            guild.system_channel_id = self.add_channel(gid, system_channel)
        return gid

    def add_channel(
        self, guild_id: int, name: str, *, type: int = GUILD_TEXT, parent_id: int | None = None
    ) -> int:
        guild = self.guilds[guild_id]
        cid = self.snowflake()
        self.channels[cid] = Channel(
            id=cid,
            type=type,
            name=name,
            guild_id=guild_id,
            position=len(guild.channel_ids),
            parent_id=parent_id,
        )
        guild.channel_ids.append(cid)
        return cid

    def add_user(self, name: str, *, dms_open: bool = True) -> int:
        user = self._new_user(name, dms_open=dms_open)
        for gid in self.guilds:
            self.add_member(gid, user.id)
        return user.id

    def role_for_permissions(self, guild_id: int, permissions: int) -> Role:
        guild = self.guilds[guild_id]
        for role in guild.roles.values():
            if not role.managed and role.id != guild_id and role.permissions == permissions:
                return role
        role = Role(id=self.snowflake(), name=f"perms-{permissions}", permissions=permissions, position=1)
        guild.roles[role.id] = role
        return role

    def add_member(self, guild_id: int, user_id: int, *, permissions: int = 0) -> None:
        """Make ``user_id`` a member; ``permissions`` are granted on top of ``@everyone``."""
        guild = self.guilds[guild_id]
        roles = [self.role_for_permissions(guild_id, permissions).id] if permissions else []
        guild.members[user_id] = Member(user_id, roles)

    def set_member_permissions(self, guild_id: int, user_id: int, permissions: int) -> None:
        member = self.guilds[guild_id].members[user_id]
        member.role_ids = [self.role_for_permissions(guild_id, permissions).id] if permissions else []

    def dm_channel(self, user_id: int) -> Channel:
        cid = self.dm_by_user.get(user_id)
        if cid is None:
            cid = self.snowflake()
            self.channels[cid] = Channel(id=cid, type=DM, name="", recipient_id=user_id)
            self.dm_by_user[user_id] = cid
        return self.channels[cid]

    # --- queries ----------------------------------------------------------------------------
    def permissions(self, guild_id: int, user_id: int) -> int:
        guild = self.guilds[guild_id]
        if user_id == guild.owner_id:
            return ALL_PERMISSIONS
        member = guild.members.get(user_id)
        perms = guild.everyone_role.permissions
        if member is not None:
            for rid in member.role_ids:
                perms |= guild.roles[rid].permissions
        if perms & P_ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def deny_bot(self, channel_id: int, permissions: int) -> None:
        """A channel overwrite that takes `permissions` from the bot in this channel (as an admin who
        set up a read-only or text-only channel would)."""
        self.channels[channel_id].bot_denied |= permissions

    def channel_permissions(self, channel_id: int, user_id: int) -> int:
        """`permissions` in one channel: the bot's channel overwrite applied (administrators keep all)."""
        channel = self.channels[channel_id]
        if channel.guild_id is None:
            return DEFAULT_EVERYONE_PERMISSIONS
        perms = self.permissions(channel.guild_id, user_id)
        if user_id == self.app.bot_user_id and perms != ALL_PERMISSIONS:
            parent = self.channels.get(channel.parent_id) if channel.parent_id else None
            perms &= ~(channel.bot_denied | (parent.bot_denied if parent else 0))
        return perms

    def member_json(self, guild_id: int, user_id: int, *, with_user: bool = True) -> dict[str, Any]:
        member = self.guilds[guild_id].members[user_id]
        data: dict[str, Any] = {
            "roles": [str(r) for r in member.role_ids],
            "joined_at": iso(member.joined_at),
            "nick": member.nick,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "avatar": None,
        }
        if with_user:
            data["user"] = self.users[user_id].to_json()
        return data

    def guild_create_json(self, guild_id: int) -> dict[str, Any]:
        guild = self.guilds[guild_id]
        channels = [self.channels[c] for c in guild.channel_ids]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "owner_id": str(guild.owner_id),
            "unavailable": False,
            "large": False,
            "member_count": len(guild.members),
            "joined_at": iso(time.time()),
            "features": [],
            "roles": [r.to_json() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "channels": [c.to_json(self) for c in channels if c.type == GUILD_TEXT],
            "threads": [c.to_json(self) for c in channels if c.type in (PUBLIC_THREAD, PRIVATE_THREAD)],
            "members": [self.member_json(guild.id, uid) for uid in guild.members],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "preferred_locale": "en-US",
            "premium_tier": 0,
            "mfa_level": 0,
            "verification_level": 0,
            "explicit_content_filter": 0,
            "default_message_notifications": 0,
            "nsfw_level": 0,
            "system_channel_id": str(guild.system_channel_id) if guild.system_channel_id else None,
            "afk_channel_id": None,
            "afk_timeout": 300,
        }

    def channel_messages(self, channel_id: int) -> list[StoredMessage]:
        return [m for m in self.messages.values() if m.channel_id == channel_id and not m.deleted]
