"""JSON that nobody vouches for (a file a user uploads), read within bounds before it is parsed.

`json.loads` trusts its input: JSON nested deeper than Python's recursion limit raises RecursionError,
a number of 5,000 digits raises ValueError, `Infinity` and `1e999` become floats no integer can hold,
and a list of a million items is built in full before anyone looks at it. So the text is first
scanned token by token (one linear pass: strings, numbers and brackets only) for its nesting depth,
the length of each string and number, the items of each list or object and any word JSON does not
have; only then is it parsed, with each integer checked against the range a database column holds.
Every failure is a `Bounds` carrying the sentence that names what was too big.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from bot.app.text import clip, escape_text

_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*+"?|[\[\]{},:]|[^\s"\[\]{},:]++', re.DOTALL)
"""A string (an unterminated one runs to the end, so no text is scanned twice), a bracket or
separator, or a bare word (a number, `true`, or anything JSON lacks)."""

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_WORDS = frozenset({"true", "false", "null"})


class Bounds(ValueError):
    """The text is not JSON, or is JSON beyond the bounds: `str()` is one sentence saying which."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind
        """`not_json` or `too_big`: what the caller may tell apart."""


@dataclass(frozen=True)
class Limits:
    depth: int = 16
    """Lists and objects inside one another."""
    string: int = 2_000
    """Characters of one string as written (escapes count as written)."""
    number: int = 24
    """Characters of one number as written."""
    items: int = 20_000
    """Items of one list, or keys of one object."""
    integer: int = 2**63 - 1
    """The largest integer, either sign: what a database column holds."""


def load(raw: bytes, limits: Limits) -> Any:
    """The JSON value in `raw` (UTF-8, a leading byte order mark allowed), or `Bounds`."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Bounds("it is not text (UTF-8)", "not_json") from None
    scan(text, limits)
    try:
        value = json.loads(
            text,
            parse_int=lambda digits: _integer(digits, limits),
            parse_float=_finite,
            parse_constant=_no_constant,
            object_pairs_hook=_unique_keys,
        )
    except json.JSONDecodeError:
        raise Bounds("it is not JSON text", "not_json") from None
    if _SURROGATE_ESCAPE.search(text):  # only an escape can make one: most files skip the walk
        _no_lone_surrogates(value)
    return value


def scan(text: str, limits: Limits) -> None:
    """Check `text`'s tokens against `limits` without building anything (see the module's docstring)."""
    items: list[int] = []  # separators seen so far in each open list or object
    for token in _TOKENS.findall(text):
        first = token[0]
        if first == '"':
            if len(token) > limits.string + 2:
                raise Bounds(f"it holds a text of over {limits.string:,} characters", "too_big")
        elif first in "[{":
            if len(items) >= limits.depth:
                raise Bounds(f"it is nested more than {limits.depth} levels deep", "too_big")
            items.append(0)
        elif first in "]}":
            if items:
                items.pop()
        elif first == ",":
            if items:
                items[-1] += 1
                if items[-1] >= limits.items:
                    raise Bounds(f"it holds a list of over {limits.items:,} items", "too_big")
        elif first == ":":
            continue
        elif first in "-0123456789":
            if len(token) > limits.number:
                raise Bounds(f"it holds a number of over {limits.number} digits", "too_big")
        elif token not in _WORDS:
            raise Bounds("it is not JSON text", "not_json")


def _integer(digits: str, limits: Limits) -> int:
    number = int(digits)  # at most `limits.number` digits: the scan saw to that
    if abs(number) > limits.integer:
        raise Bounds(f"it holds the number {digits}, beyond what a saved game uses", "too_big")
    return number


def _finite(digits: str) -> float:
    number = float(digits)
    if not math.isfinite(number):
        raise Bounds(f"it holds the number {digits}, beyond what a saved game uses", "too_big")
    return number


def _no_constant(word: str) -> Any:
    raise Bounds(f"it holds {word}, which is not a number JSON has", "not_json")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise Bounds(f"it names {escape_text(repr(clip(key, 40)))} twice in one place", "not_json")
            seen.add(key)
    return found


def _no_lone_surrogates(value: Any) -> None:
    """`"\\ud800"` parses to a string no UTF-8 can hold (the database, Discord): refuse it here."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise Bounds("it holds a broken character (a lone surrogate)", "not_json") from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
