"""GameService: load, lock, apply, persist. The one place where the store meets the rules core.

It knows nothing of Discord, so every rule of the platform (who may act, one open game per channel,
stale clicks, exactly-once moves, abandoning) is tested without a client. The Discord layer calls
it and then fans the outcome out to the channel and the players.
"""

from __future__ import annotations

import re

from bot.app.deadlines import Deadlines, Timeout
from bot.app.imports import Imports
from bot.app.lobby import Started
from bot.app.moves import Move, MoveActions, menu_digest
from bot.app.refusals import Refusal, UserError
from bot.app.saves import Saves
from bot.app.standings import Standings
from bot.app.substitutes import Substitutes
from bot.app.text import quoted
from bot.app.undo import UNDO
from bot.app.undo_requests import UndoRequests
from bot.app.votes import NOT_A_VOTER

__all__ = [
    "NOT_A_VOTER",
    "UNDO",
    "GameService",
    "Move",
    "MoveActions",
    "Refusal",
    "Started",
    "Timeout",
    "UserError",
    "menu_digest",
    "parse_options",
]


class GameService(Imports, UndoRequests, Substitutes, Deadlines, Standings, Saves):
    """The one service of the bot, in parts by role (each a module of `bot.app`): `base` (lookups, the
    state cache, locks), `table_clock` (settings and timers), `moves` (apply and commit), `lobby`,
    `history` (the log's reads), `decisions` (votes and seat changes: locked, checked, one transaction),
    `undo_requests`, `substitutes`, `deadlines` (what a passed deadline does), `standings` (ratings),
    `saves` (export and replay) and `imports` (a lobby from a saved game).

    Per-process locks serialise moves and decisions on one game; the store's version check (and, for
    decisions, its check of the seats and ballot read) covers other processes."""


def parse_options(text: str) -> dict[str, str]:
    """'rounds=5 expansion=on' -> {'rounds': '5', 'expansion': 'on'}; values are checked by the game."""
    options: dict[str, str] = {}
    for part in re.split(r"[\s,;]+", text.strip()):
        if not part:
            continue
        name, sep, value = part.partition("=")
        if not sep:
            name, sep, value = part.partition(":")
        if not sep or not name or not value:
            raise UserError(f"Options look like `name=value`, separated by spaces; {quoted(part)} is not.")
        options[name.strip().lower()] = value.strip()
    return options
