"""Injectable REST faults: what a bot meets on the real Discord besides its own mistakes.

``server.faults`` (a :class:`Faults`) holds rules. A rule matches a method and a regex on the path
under ``/api/v10`` (``re.fullmatch``, query string left out), and makes matching requests fail in
one of these ways:

* ``status=500|502|503|504|...``: a 5xx with Discord's JSON error body ``{"message", "code": 0}``.
  discord.py's ``HTTPClient`` retries 500/502/504/524 by itself (after 1, 3, 5, 7 s) but raises
  ``DiscordServerError`` on a 503 at once; its webhook adapter (interaction callbacks, followups)
  retries every 5xx.
* ``status=429, retry_after=s``: a rate limit as Discord sends it: ``retry_after``/``global`` in the
  body, ``Retry-After``, ``X-RateLimit-Scope`` and ``Via`` headers (without ``Via`` discord.py takes it
  for a Cloudflare ban and raises). discord.py sleeps ``retry_after`` and retries.
* ``drop=True``: the connection is closed with no HTTP answer at all; the client gets
  ``aiohttp.ServerDisconnectedError`` (a ``ClientConnectionError``, not an ``OSError``, so neither
  discord.py nor a ``except discord.HTTPException`` catches it). aiohttp itself retries idempotent
  methods (GET, PUT, DELETE, ...) once after such a drop, so ``times=1`` on those is invisible to
  the bot; POST and PATCH are never retried.
* ``after_create=True`` (with ``drop`` or a 5xx): the request is first handled normally (a message
  is created and users see it), then the answer is lost or replaced by the error: "the first answer
  was lost". A retry that repeats the message's ``nonce`` with ``enforce_nonce`` gets the message
  back instead of a second one (see ``FakeDiscord.nonce_window``).

Without ``after_create`` nothing happens on the emulator's side: the world is untouched and the
request is not checked. Usage::

    rule = server.faults.add("POST", r"/channels/\\d+/messages", status=503)     # next one fails
    server.faults.add(None, r"/webhooks/.*", drop=True, after_create=True, times=2)
    server.faults.add("PATCH", r".*", status=500, probability=0.2, seed=3)      # no cap
    ...
    assert server.faults.injected == [("POST", f"/channels/{cid}/messages", "503")]
    server.faults.clear()

Only REST routes under ``/api/v10`` can fail: never the gateway websocket or ``/attachments``.
Injected faults are not :attr:`FakeDiscord.errors` (the bot did nothing wrong); they are listed in
:attr:`Faults.injected`, and ``FakeDiscord.requests`` shows their status (0 for a dropped answer).
"""

from __future__ import annotations

import contextlib
import math
import random
import re
import time
from dataclasses import dataclass, field
from types import EllipsisType
from typing import NamedTuple

from aiohttp import web

from .payloads import json_response

API_PREFIX = "/api/v10"
RATE_LIMIT_SCOPES = ("user", "global", "shared")

_STATUS_TEXT = {
    500: "500: Internal Server Error",
    502: "502: Bad Gateway",
    503: "503: Service Unavailable",
    504: "504: Gateway Timeout",
}


class InjectedFault(NamedTuple):
    """One request a rule made fail; ``path`` is the path under ``/api/v10`` (no query)."""

    method: str
    path: str
    kind: str  # "503", "429", "drop"; " after create" appended for after_create rules


@dataclass(eq=False)
class FaultRule:
    """One rule of :class:`Faults`; returned by :meth:`Faults.add`, which documents the fields."""

    method: str | None
    path: re.Pattern[str]
    status: int | None  # None for drops
    drop: bool
    after_create: bool
    times: int | None  # faults still to inject; None: no limit
    probability: float | None
    skip: int  # matching requests still to let through before failing any
    retry_after: float
    scope: str
    rng: random.Random
    #: Matching requests seen, and how many of them this rule made fail.
    seen: int = 0
    injected: int = 0
    history: list[bool] = field(default_factory=list)  # per matching request: failed?

    @property
    def kind(self) -> str:
        base = "drop" if self.drop else str(self.status)
        return f"{base} after create" if self.after_create else base

    @property
    def exhausted(self) -> bool:
        return self.times is not None and self.times <= 0

    def matches(self, method: str, path: str) -> bool:
        return (self.method is None or self.method == method) and self.path.fullmatch(path) is not None

    def fires(self) -> bool:
        """Decide for one matching request (consuming ``skip``, the dice and ``times``)."""
        self.seen += 1
        if self.skip > 0:
            self.skip -= 1
            fire = False
        elif self.probability is not None:
            fire = self.rng.random() < self.probability
        else:
            fire = True
        if fire:
            self.injected += 1
            if self.times is not None:
                self.times -= 1
        self.history.append(fire)
        return fire

    def error_response(self) -> web.Response:
        """The HTTP answer of a status fault, with the headers and body Discord sends."""
        assert self.status is not None
        if self.status != 429:
            message = _STATUS_TEXT.get(self.status, f"{self.status}: Server Error")
            return json_response({"message": message, "code": 0}, self.status)
        is_global = self.scope == "global"
        resp = json_response(
            {"message": "You are being rate limited.", "retry_after": self.retry_after, "global": is_global},
            429,
        )
        headers = resp.headers
        headers["Via"] = "1.1 google"
        headers["Retry-After"] = str(max(1, math.ceil(self.retry_after)))
        headers["X-RateLimit-Scope"] = self.scope
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        else:
            headers["X-RateLimit-Limit"] = "5"
            headers["X-RateLimit-Remaining"] = "0"
            headers["X-RateLimit-Reset"] = f"{time.time() + self.retry_after:.3f}"
            headers["X-RateLimit-Reset-After"] = f"{self.retry_after:.3f}"
        return resp


class Faults:
    """The fault rules of one :class:`~bot.emulator.server.FakeDiscord` (``server.faults``)."""

    def __init__(self) -> None:
        self.rules: list[FaultRule] = []
        #: Every fault injected so far, oldest first (kept by :meth:`clear`).
        self.injected: list[InjectedFault] = []

    def add(
        self,
        method: str | None,
        path: str,
        *,
        status: int | None = None,
        drop: bool = False,
        after_create: bool = False,
        times: int | None | EllipsisType = ...,
        probability: float | None = None,
        seed: int = 0,
        skip: int = 0,
        retry_after: float | None = None,
        scope: str = "user",
    ) -> FaultRule:
        """Make matching requests fail; returns the rule (see :meth:`remove`).

        ``method``: "POST", "GET", ... or None for any. ``path``: a regex that must match the whole
        path under ``/api/v10``, e.g. ``r"/channels/\\d+/messages"``.
        ``status``: 429 or a 5xx (default 503); ``drop``: close the connection instead of answering.
        ``after_create``: handle the request first, then lose or replace the answer (5xx or drop).
        ``times``: how many faults to inject before the rule stops (None: no limit); by default 1,
        or no limit when ``probability`` is given. ``probability``: fail each matching request with
        this chance, from a ``random.Random(seed)`` of the rule's own, so a run replays exactly.
        ``skip``: let this many matching requests through first.
        ``retry_after`` (429 only, default 0.1 s) and ``scope`` ("user", "global", "shared"): the
        rate limit's body and ``X-RateLimit-Scope``; a global one also pauses discord.py's other requests.
        When several rules match a request, the first added that fires wins.
        """
        if drop and status is not None:
            raise ValueError("a dropped connection has no status")
        if not drop:
            status = 503 if status is None else status
            if status != 429 and not 500 <= status <= 599:
                raise ValueError(f"status {status}: faults are 429 or 5xx (4xx come from the real checks)")
        if status == 429 and after_create:
            raise ValueError("Discord does not handle a rate-limited request: no after_create with 429")
        if retry_after is not None and status != 429:
            raise ValueError("retry_after belongs to status=429")
        if scope not in RATE_LIMIT_SCOPES or (scope != "user" and status != 429):
            raise ValueError(f"scope must be one of {RATE_LIMIT_SCOPES}, and only with status=429")
        if probability is not None and not 0.0 < probability <= 1.0:
            raise ValueError("probability must be in (0, 1]")
        if times is ...:
            times = 1 if probability is None else None
        if times is not None and times < 1:
            raise ValueError("times must be at least 1 (or None for no limit)")
        rule = FaultRule(
            method=method.upper() if method not in (None, "*") else None,
            path=re.compile(path),
            status=status,
            drop=drop,
            after_create=after_create,
            times=times,
            probability=probability,
            skip=skip,
            retry_after=0.1 if retry_after is None else retry_after,
            scope=scope,
            rng=random.Random(seed),
        )
        self.rules.append(rule)
        return rule

    def remove(self, rule: FaultRule) -> None:
        self.rules.remove(rule)

    def clear(self) -> None:
        """Remove every rule (:attr:`injected` keeps the history)."""
        self.rules.clear()

    def pick(self, method: str, full_path: str) -> FaultRule | None:
        """The rule that makes this request fail, if any; records the fault. ``full_path`` is the
        request's path; only paths under ``/api/v10`` can fail."""
        if not full_path.startswith(API_PREFIX + "/"):
            return None
        path = full_path[len(API_PREFIX) :]
        for rule in self.rules:
            if not rule.exhausted and rule.matches(method, path) and rule.fires():
                self.injected.append(InjectedFault(method, path, rule.kind))
                return rule
        return None

    @staticmethod
    async def respond(request: web.Request, rule: FaultRule) -> web.StreamResponse:
        """The faulty answer to ``request`` (after its handler ran, for ``after_create`` rules).

        A drop closes the connection: aiohttp then fails to write the response returned here and
        drops it, so the client sees the socket close with no answer."""
        if not rule.after_create:
            with contextlib.suppress(OSError):  # a client that hung up mid-body needs no answer either
                await request.read()  # take the whole body, so the client is not cut off mid-send
        if not rule.drop:
            return rule.error_response()
        request.protocol.force_close()
        return web.Response(status=500, text="never sent: the connection was dropped")
