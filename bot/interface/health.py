"""An optional HTTP listener for whoever runs the bot: `/healthz` for the supervisor, `/metrics` for
Prometheus. Off unless HEALTH_PORT is set; it uses aiohttp, which discord.py already brings.

`/healthz` answers 200 when the bot can do its job and 503 with the reasons when it cannot: the
gateway is not connected (no interactions arrive), the database does not answer, or the courier is
stuck (posts owed for longer than `STUCK_AFTER` while Discord is reachable would mean moves are made
but never shown). Docker's HEALTHCHECK and the compose file use it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.app.timing import duration_text

log = logging.getLogger(__name__)

STUCK_AFTER = 600.0
"""Seconds the oldest due delivery may wait before the courier counts as stuck (retries back off to
5 minutes, so one Discord outage alone does not trip it at once)."""
DATABASE_PATIENCE = 3.0


class Health:
    def __init__(self, bot: Any, host: str, port: int) -> None:
        self.bot = bot
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        log.info("health and metrics on http://%s:%d/healthz and /metrics", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def problems(self) -> list[str]:
        """Why the bot is not healthy now; empty when it is."""
        found = []
        bot = self.bot
        if bot.is_closed() or not bot.is_ready():
            found.append("the gateway is not connected")
        if getattr(getattr(bot, "lifecycle", None), "stopping", False):
            found.append("the bot is stopping")
        try:
            depth, oldest = await asyncio.wait_for(
                bot.service.store.outbox_backlog(time.time()), DATABASE_PATIENCE
            )
        except Exception as error:  # noqa: BLE001 - any failure to answer means the database is not usable
            found.append(f"the database does not answer ({type(error).__name__})")
        else:
            if oldest > STUCK_AFTER:
                found.append(f"the oldest owed post has waited {duration_text(oldest)} ({depth} waiting)")
        return found

    async def healthz(self, request: web.Request) -> web.Response:
        problems = await self.problems()
        body = {"status": "ok" if not problems else "unhealthy", "problems": problems}
        return web.json_response(body, status=200 if not problems else 503, dumps=json.dumps)

    async def metrics(self, request: web.Request) -> web.Response:
        await self.refresh()
        payload = generate_latest(self.bot.metrics.registry)
        response = web.Response(body=payload)
        response.content_type = CONTENT_TYPE_LATEST.split(";")[0]
        response.charset = "utf-8"
        return response

    async def refresh(self) -> None:
        """The gauges read at scrape time: the outbox backlog and each shard's heartbeat latency."""
        metrics = self.bot.metrics
        try:
            depth, oldest = await asyncio.wait_for(
                self.bot.service.store.outbox_backlog(time.time()), DATABASE_PATIENCE
            )
        except Exception:  # noqa: BLE001 - /healthz says why; /metrics keeps the last values
            log.warning("metrics: the outbox could not be read")
        else:
            metrics.outbox_depth.set(depth)
            metrics.outbox_oldest_due.set(oldest)
        latencies = getattr(self.bot, "latencies", None)
        if latencies is not None:
            for shard, latency in latencies:
                metrics.gateway_latency.labels(str(shard)).set(_finite(latency))
        else:
            metrics.gateway_latency.labels("-1").set(_finite(self.bot.latency))


def _finite(value: float) -> float:
    return value if value == value and value != float("inf") else -1.0
