"""What the bot counts for its operator, in Prometheus' terms (served on /metrics, `bot.interface.health`).

One registry per bot, not the library's global one, so two bots in one process (the tests) count
apart. Observations are cheap (a dict lookup and an add), so they are made whether or not a listener
is configured; nothing is sent anywhere unless someone scrapes the port.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

SECONDS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.moves = Counter("ironhost_moves", "Moves committed, by game.", ["game"], registry=self.registry)
        self.move_seconds = Histogram(
            "ironhost_move_seconds",
            "Time to apply and commit one move (with the outbox rows it owes), by game.",
            ["game"],
            buckets=SECONDS,
            registry=self.registry,
        )
        self.deliveries = Counter(
            "ironhost_deliveries",
            "Outbox rows delivered to Discord, by kind (post, edit, repaint, dm, notice, thread).",
            ["kind"],
            registry=self.registry,
        )
        self.retries = Counter(
            "ironhost_delivery_retries",
            "Deliveries retried later, by reason.",
            ["reason"],
            registry=self.registry,
        )
        self.give_ups = Counter(
            "ironhost_delivery_give_ups",
            "Deliveries given up (retrying cannot help), by reason.",
            ["reason"],
            registry=self.registry,
        )
        self.render_seconds = Histogram(
            "ironhost_render_seconds",
            "Time to draw one picture, by kind (board, overlay, changes, replay).",
            ["kind"],
            buckets=SECONDS,
            registry=self.registry,
        )
        self.outbox_depth = Gauge(
            "ironhost_outbox_depth", "Outbox rows waiting to be delivered.", registry=self.registry
        )
        self.outbox_oldest_due = Gauge(
            "ironhost_outbox_oldest_due_seconds",
            "How long the oldest due outbox row has waited (0 when none is due).",
            registry=self.registry,
        )
        self.gateway_latency = Gauge(
            "ironhost_gateway_latency_seconds",
            "Heartbeat latency of each gateway connection, by shard (-1: not sharded).",
            ["shard"],
            registry=self.registry,
        )
        self.interactions = Counter("ironhost_interactions", "Interactions handled.", registry=self.registry)


def reason_label(reason: str) -> str:
    """A bounded label from a free-text reason ("Discord 503", "rate limited"): the first words only,
    digits kept, so the number of series stays small."""
    words = reason.replace(":", " ").split()
    return " ".join(words[:2]).lower()[:40] or "unknown"
