"""The rules of a message's text on Discord, for every layer that writes one: its length limit, text a
user chose made inert (markdown shown as typed, mentions that ping nobody), and cutting to a limit."""

from __future__ import annotations

import discord

MAX_CONTENT = 1990
"""Discord refuses a message over 2,000 characters; a refusal quoting long user text must still fit."""


def escape_text(text: str) -> str:
    """Text a user chose (a display name, a typed phrase) made inert in a message: markdown shows as
    typed and mentions (`<@id>`, `@everyone`) neither render nor ping."""
    return discord.utils.escape_markdown(text).replace("@", "@\u200b")


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters with an ellipsis: Discord refuses longer labels and messages."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
