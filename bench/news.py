"""Which direct messages told a player nothing new, read from the emulator's message log.

A direct message from a game carries new private content when one of its text lines is neither a
line the channel already showed nor a line the player was already shown privately. Precisely, walking
the emulator's message versions in order:

- the lines of every public channel message version (posts and their edits) are public;
- the lines of every ephemeral answer to a player (their move's confirmation, their menus) are known
  to that player;
- a direct message's text lines are its lines but the header (`**Game** in <#channel> · headline`),
  the fixed "This is your private view" note and empty lines, with the bullet taken off; it is
  *without new private content* when it has no text line, or when each of them is public or known to
  its reader when it was sent.

So "You bid 3." sent after the player's own bid (its confirmation said it) counts, as does a message
with a picture and nothing else to say; a card drawn for the player at a round's start does not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.emulator.model import DM, StoredMessage

HEADER = re.compile(r"^\*\*.+?\*\* in <#\d+>")
NOTE = "This is your private view: nobody else sees it."


@dataclass(frozen=True)
class Told:
    """One direct message: its id, to whom, its text lines, and whether it told them nothing new."""

    message: int
    user: int
    lines: tuple[str, ...]
    stale: bool
    content: str


def _line(text: str) -> str:
    text = text.strip()
    for mark in ("• ", "✅ ", "🤖 "):
        if text.startswith(mark):
            text = text[len(mark) :].strip()
    return text


def text_lines(content: str) -> list[str]:
    """A direct message's own words: its lines but the header and the fixed note, bullets off."""
    lines = content.splitlines()
    if lines and HEADER.match(lines[0]):
        lines = lines[1:]
    return [line for line in (_line(text) for text in lines) if line and line != NOTE]


def direct_messages(versions: list[StoredMessage], channels: dict[int, object], bot: int) -> list[Told]:
    """Every direct message the bot sent, in order, judged against what its reader knew then."""
    public: set[str] = set()
    known: dict[int, set[str]] = {}
    seen: set[int] = set()
    told: list[Told] = []
    for message in versions:
        channel = channels.get(message.channel_id)
        if channel is None:
            continue
        lines = [_line(text) for text in message.content.splitlines()]
        if getattr(channel, "type", None) == DM:
            if message.author_id != bot or message.id in seen:
                continue
            seen.add(message.id)
            reader = channel.recipient_id  # type: ignore[attr-defined]
            own = text_lines(message.content)
            mine = known.get(reader, set())
            stale = not own or all(line in public or line in mine for line in own)
            told.append(Told(message.id, reader, tuple(own), stale, message.content))
        elif message.ephemeral_for is not None:
            known.setdefault(message.ephemeral_for, set()).update(lines)
        elif message.author_id == bot:
            public.update(lines)
    return told
