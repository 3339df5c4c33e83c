"""What the table refuses, and why: one exception for every refusal outside the rules (the rules
core raises its own `RuleError`), carrying a reason code for code that must act on the cause.

Kept apart from the service so the reply (which turns every refusal into one friendly ephemeral line)
and the service can both use it without importing each other.
"""

from __future__ import annotations

from enum import StrEnum

from bot.app.text import escape_text


class Refusal(StrEnum):
    """Why the table refused something, for the code that must act on the cause (never on the words)."""

    REFUSED = "refused"
    """Any refusal shown to the user as it is, with nothing more to do."""
    STALE = "stale"
    """The game moved on since the buttons or request the user answered: show where it stands now."""
    SLOW = "slow"
    """Asked faster than a person asks (`bot.app.limits`): nothing was read or drawn."""


class UserError(Exception):
    """A refusal for a reason outside the rules (not seated, no game here): shown to the user as is;
    `reason` says what the caller should do about it beyond showing it."""

    def __init__(self, message: str, reason: Refusal = Refusal.REFUSED) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason


def rules_refusal(message: str) -> UserError:
    """A rules core sentence as the table's refusal: rules text quotes names and what a player typed
    (an option's value, a move's words), so it is made inert like any user-derived text."""
    return UserError(escape_text(message))
