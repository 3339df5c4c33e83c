"""The one place where text a user chose becomes text of a message, for every layer that writes one.

User-derived text is anything the bot did not write itself: display names, the names inside an
imported file, typed moves and options, and the rules' own lines and labels, which quote players'
names. It reaches Discord in two kinds of place:

- where Discord renders markdown and mentions (a message's content, an embed's text): `escape_text`
  puts it on one line and makes it inert, so `**x**` shows as typed, `<@id>`, `<#id>` and `@everyone`
  neither render nor ping, and a leading `#`, `>` or `1.` makes no heading, quote or list;
- where Discord shows text as typed (button labels, select options, a picture's alt text, a form's
  title, a thread's or an event's name): `plain_text` puts it on one line within the field's limit.

Both first drop what no message should carry: control characters, line breaks, and the bidi marks
that would turn the rest of a line around (right-to-left overrides and isolates). `clean_name` does
the same once, when a name enters the game, so the rules core and the pictures get it fitted too.
"""

from __future__ import annotations

import re
import unicodedata

import discord

MAX_CONTENT = 1990
"""Discord refuses a message over 2,000 characters; a refusal quoting long user text must still fit."""

MAX_NAME = 40
"""A player's name as the games show it: long enough for any real name, short enough for a board."""

_KEPT = frozenset({"\u200c", "\u200d"})
"""Format characters that join letters and emoji (zero-width non-joiner and joiner): kept."""

_LEADING_LIST = re.compile(r"^(\d+)([.)])(?=\s)|^([+])(?=\s)")


def _kept(char: str) -> bool:
    if char in _KEPT or "\U000e0020" <= char <= "\U000e007f":  # emoji tag sequences (flags)
        return True
    return unicodedata.category(char)[0] != "C" and char not in "\u2028\u2029"


def single_line(text: str) -> str:
    """`text` on one line: control and format characters (bidi overrides among them) and line breaks
    become spaces, runs of spaces one."""
    return " ".join("".join(char if _kept(char) else " " for char in text).split())


def clean_name(raw: str, limit: int = MAX_NAME) -> str:
    """A name as it enters a game (a display name, a seat name from a file): on one line, within
    `limit` characters, never empty."""
    return clip(single_line(raw) or "player", limit)


def escape_text(text: str) -> str:
    """User-derived text made inert in a message's content or an embed: on one line, markdown shown as
    typed, mentions (`<@id>`, `<#id>`, `<t:…>`, `@everyone`) neither rendering nor pinging."""
    flat = single_line(text)
    escaped = discord.utils.escape_markdown(flat).replace("<", "\\<").replace("@", "@\u200b")
    return _LEADING_LIST.sub(_unlisted, escaped)


def _unlisted(found: re.Match[str]) -> str:
    """A leading `1.`, `1)` or `+` that would start a list, escaped."""
    number, mark, plus = found.groups()
    return f"{number}\\{mark}" if number else f"\\{plus}"


def quoted(value: object, limit: int = 40) -> str:
    """Words a user typed (or a value from their file) quoted in a message: cut to `limit`, in quotes,
    inert."""
    shown = repr(clip(value, limit)) if isinstance(value, str) else clip(repr(value), limit)
    return escape_text(shown)


def code_text(text: str) -> str:
    """User-derived text inside a code span (`` `like this` ``), where markdown and mentions do not
    render: on one line, its backticks (which would close the span) shown as a look-alike."""
    return single_line(text).replace("`", "\u02cb")


def plain_text(text: str, limit: int) -> str:
    """User-derived text where Discord shows it as typed (labels, options, alt text, names of forms,
    threads and events): on one line, within `limit` characters."""
    return clip(single_line(text), limit)


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters with an ellipsis: Discord refuses longer labels and messages."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
