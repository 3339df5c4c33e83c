"""Logging set-up: plain lines for a terminal, or one JSON object per line for a log collector.

With LOG_FORMAT=json every line carries, besides time, level, logger and message, the ids of what it
is about (game, channel, guild, interaction, shard) when the code handling it has said so with
`about(...)`: a `contextvars` context, so concurrent interactions never mix their ids up."""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

_about: contextvars.ContextVar[dict[str, int] | None] = contextvars.ContextVar(
    "ironhost_log_about", default=None
)


@contextlib.contextmanager
def about(**ids: int | None) -> Iterator[None]:
    """Within this block, log lines carry these ids (None values are left out)."""
    token = _about.set(
        {**(_about.get() or {}), **{key: value for key, value in ids.items() if value is not None}}
    )
    try:
        yield
    finally:
        _about.reset(token)


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **(_about.get() or {}),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def configure(level: str, fmt: str = "text") -> None:
    handler = logging.StreamHandler()
    if fmt == "json":
        handler.setFormatter(JsonLines())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
