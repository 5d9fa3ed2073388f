"""``/metrics`` in Prometheus' text format: tables, connections, actions, action latency."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

__all__ = ["Metrics"]


class Metrics:
    """The server's counters, in a registry of their own (one per app, so tests can run many)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.tables = Gauge("pitch_tables_loaded", "tables held in memory", registry=self.registry)
        self.connections = Gauge("pitch_connections", "open WebSockets", ["role"],
                                 registry=self.registry)
        self.actions = Counter("pitch_actions", "game actions applied", ["by"],
                               registry=self.registry)
        self.refusals = Counter("pitch_refusals", "refused messages and requests", ["reason"],
                                registry=self.registry)
        self.action_latency = Histogram(
            "pitch_action_latency_seconds",
            "from a player's action received to its events queued for every connection "
            "(validated, stored, cut)", registry=self.registry,
            buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0))
        self.dropped = Counter("pitch_slow_clients_dropped",
                               "sockets closed because their send queue was full",
                               registry=self.registry)

    def render(self) -> bytes:
        return generate_latest(self.registry)
