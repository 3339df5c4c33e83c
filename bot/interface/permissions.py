"""The Discord permissions the bot uses, in one place: for the invite link, and to check a channel.

Discord fails a call the bot lacks a permission for with a 403 the player never sees (a thread that
is never made, a turn post without its picture). So the list is checked where it matters, before a
game starts in a channel, and each missing permission is named in the words of Discord's own
settings screen, so an admin can find it. `tests/bot/test_permissions.py` derives the needed set
from the calls the code makes, so a new feature cannot use a permission this list forgets.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from urllib.parse import urlencode

import discord

from bot.app.refusals import UserError


@dataclass(frozen=True)
class Needed:
    flag: str
    """The attribute of `discord.Permissions`."""
    label: str
    """As Discord's settings name it."""
    why: str
    in_channel: bool = True
    """Needed in the game's channel (checked before a game starts), not only server-wide."""


NEEDED: tuple[Needed, ...] = (
    Needed("view_channel", "View Channels", "see the game's channel"),
    Needed("send_messages", "Send Messages", "post turns, lobbies and results"),
    Needed("embed_links", "Embed Links", "show rules, status and standings as embeds"),
    Needed("attach_files", "Attach Files", "post the board pictures"),
    Needed("read_message_history", "Read Message History", "edit the live turn post"),
    Needed("create_public_threads", "Create Public Threads", "/game follow mode:thread"),
    Needed("send_messages_in_threads", "Send Messages in Threads", "post in a game's thread"),
    Needed("manage_events", "Manage Events", "keep deadlines on the server calendar", in_channel=False),
)
SCOPES = ("bot", "applications.commands")


def permissions_value(needed: tuple[Needed, ...] = NEEDED) -> int:
    return discord.Permissions(**{item.flag: True for item in needed}).value


def missing_in(granted: discord.Permissions) -> list[Needed]:
    """What the bot lacks in a channel, given the permissions Discord says it has there."""
    if granted.administrator:
        return []
    return [item for item in NEEDED if item.in_channel and not getattr(granted, item.flag)]


def describe_missing(missing: list[Needed], channel: str) -> str:
    names = ", ".join(f"**{item.label}** ({item.why})" for item in missing)
    return (
        f"I cannot run a game in {channel} yet: I lack {names}. A server admin can grant "
        "them in the channel's settings (Permissions) or to my role, then try again."
    )


def check_channel_permissions(interaction: discord.Interaction) -> None:
    """Refuse, in one sentence naming each missing permission, a game in a channel where the bot could
    not post its turns (Discord tells every interaction what the bot may do in its channel)."""
    if interaction.guild_id is None:
        return
    missing = missing_in(interaction.app_permissions)
    if missing:
        channel = f"<#{interaction.channel_id}>" if interaction.channel_id else "this channel"
        raise UserError(describe_missing(missing, channel))


def permission_report(interaction: discord.Interaction) -> str:
    """`/settings check`: each permission the bot uses, ✅ or ❌ in this channel, with what it is for."""
    granted = interaction.app_permissions
    where = f"<#{interaction.channel_id}>" if interaction.channel_id else "this channel"
    lines = [f"**My permissions in {where}**"]
    for item in NEEDED:
        has = granted.administrator or getattr(granted, item.flag)
        scope = "" if item.in_channel else " (server-wide)"
        lines.append(f"{'✅' if has else '❌'} {item.label}{scope}: {item.why}")
    missing = [item for item in NEEDED if not (granted.administrator or getattr(granted, item.flag))]
    lines.append(
        "Everything a game needs is in place here."
        if not missing
        else "A server admin can grant what is missing in the channel's settings (Permissions) or to my role."
    )
    return "\n".join(lines)


THREADS = ("create_public_threads", "send_messages_in_threads")


def check_thread_permissions(interaction: discord.Interaction) -> None:
    """`/game follow mode:thread` needs two permissions a server may well have withheld: named, not a
    thread that silently never appears."""
    granted = interaction.app_permissions
    missing = [item for item in NEEDED if item.flag in THREADS and not granted.administrator]
    missing = [item for item in missing if not getattr(granted, item.flag)]
    if missing:
        names = " and ".join(f"**{item.label}**" for item in missing)
        raise UserError(
            f"I cannot make a thread for this game: I lack {names} here. Ask a server admin to grant "
            "them, or use `/game follow mode:dm`."
        )


def application_id_from_token(token: str) -> int | None:
    """A bot token starts with its user id in base64, which is the application's id for a bot."""
    head = token.strip().split(".")[0]
    if not head:
        return None
    try:
        text = base64.b64decode(head + "=" * (-len(head) % 4), validate=False).decode()
    except (binascii.Error, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


def invite_url(application_id: int) -> str:
    query = urlencode(
        {"client_id": application_id, "permissions": permissions_value(), "scope": " ".join(SCOPES)}
    )
    return f"https://discord.com/oauth2/authorize?{query}"


def invite_text(application_id: int | None) -> str:
    lines = [
        "Permissions the bot uses (integer " + str(permissions_value()) + "):",
        *(f"  * {item.label}: {item.why}" for item in NEEDED),
        "Scopes: " + ", ".join(SCOPES) + ". No privileged intent is needed.",
        "",
    ]
    if application_id is None:
        lines.append(
            "Set DISCORD_TOKEN (or pass --client-id, the Application ID of the developer portal) to get the link."
        )
    else:
        lines.append("Invite link:")
        lines.append("  " + invite_url(application_id))
    return "\n".join(lines)
