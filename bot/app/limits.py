"""How often one person may make the bot draw or post on request: no flooding, no free renders.

Two kinds of limit, each a count in a sliding window:

- **pace**, per user: the requests that draw a picture (a board, a section, a hand, the catch-up
  picture, a replay) or read a whole history (stats, leaderboard, list, history). A person looks at a
  picture for a few seconds; faster than `PACE` is a script or a stuck key, and gets a polite "slow
  down" before anything is read or drawn.
- **public posts**, per game and per user: a command that posts in the channel for everyone (a
  public board, a replay) does so at most once per game per window (`PUBLIC_BOARD`, `PUBLIC_REPLAY`)
  and at most `PUBLIC_PER_USER` times per user across games; past that, and for a replay asked by
  someone who did not play the game, the picture goes to the asker only. Nobody is refused a picture
  they may see; only the channel is spared.

The windows live in the process's memory (a game's channel is served by one shard's process), so a
restart forgets them: at worst one extra post. The clock is injected: tests move it by hand.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    """At most `count` in any `seconds`."""

    count: int
    seconds: float

    def words(self) -> str:
        return f"{self.count} in {_duration(self.seconds)}"


PACE = Rule(6, 10.0)
"""Pictures and whole-history reads per user: six in ten seconds (a section of four pages turned
and a look at the board), then one every second or two."""
PUBLIC_BOARD = Rule(1, 120.0)
"""Public boards per game: the turn post already shows the board, so one to talk over now and then."""
PUBLIC_REPLAY = Rule(1, 600.0)
"""Public replays per game: a large animated picture, once in ten minutes."""
PUBLIC_PER_USER = Rule(3, 600.0)
"""Public posts on request per user, across games and channels."""


@dataclass(frozen=True)
class Verdict:
    """Whether a request may go ahead now; if not, in how many seconds it may."""

    allowed: bool
    wait: float = 0.0
    by: str = ""
    """Which window said no: "game" or "user" (for `public`)."""

    @property
    def wait_words(self) -> str:
        return _duration(max(1.0, math.ceil(self.wait)))


class Limits:
    """The sliding windows of every key, against an injected clock (seconds, only differences matter).

    Each request reads the clock once."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, *, max_keys: int = 20_000) -> None:
        self._clock = clock
        self._seen: dict[tuple[str, int], deque[float]] = {}
        self._max_keys = max_keys

    def take(self, kind: str, key: int, rule: Rule) -> Verdict:
        """Count one request of `kind` by `key` (a user or a game) if `rule` allows it now."""
        now = self._clock()
        verdict = self._check(kind, key, rule, now)
        if verdict.allowed:
            self._seen[(kind, key)].append(now)
        return verdict

    def public(self, kind: str, game_id: int, user_id: int, rule: Rule) -> Verdict:
        """Whether a public post of `kind` for this game by this user may go out now: both the game's
        window (`rule`) and the user's (`PUBLIC_PER_USER`) must allow it; neither counts unless both do."""
        now = self._clock()
        game = self._check(kind, game_id, rule, now)
        user = self._check("public", user_id, PUBLIC_PER_USER, now)
        if not game.allowed:
            return Verdict(False, game.wait, "game")
        if not user.allowed:
            return Verdict(False, user.wait, "user")
        self._seen[(kind, game_id)].append(now)
        self._seen[("public", user_id)].append(now)
        return Verdict(True)

    def _check(self, kind: str, key: int, rule: Rule, now: float) -> Verdict:
        seen = self._seen.get((kind, key))
        if seen is None:
            if len(self._seen) >= self._max_keys:
                self._forget(now)
            seen = self._seen[(kind, key)] = deque()
        while seen and seen[0] <= now - rule.seconds:
            seen.popleft()
        if len(seen) >= rule.count:
            return Verdict(False, seen[0] + rule.seconds - now)
        return Verdict(True)

    def _forget(self, now: float) -> None:
        """Drop the windows nobody used for an hour (longer than any rule), so memory stays bounded."""
        for key in [key for key, seen in self._seen.items() if not seen or seen[-1] < now - 3600]:
            del self._seen[key]


def _duration(seconds: float) -> str:
    if seconds >= 120:
        minutes = round(seconds / 60)
        return f"{minutes} minutes"
    whole = round(seconds)
    return f"{whole} second{'s' if whole != 1 else ''}"
