"""Prometheus metrics and a health check for an operator (`MAHJONG_METRICS`, docs/operations.md).

One `Metrics` object holds its own registry (tests make their own); the runtime counts what
passes through its one place for each fact (an action applied, a person's action answered, a
computer's decision, a run of moves committed), and the figures that are states rather than
events (open tables, the clock's jobs, the DM inbox, the Quick Play queues) are read when
Prometheus scrapes. The server runs on the bot's event loop (aiohttp, which discord.py brings):
a scrape sees the tables between two changes, never in the middle of one.
"""

from __future__ import annotations

import asyncio
import logging
import platform
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    generate_latest,
)
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

if TYPE_CHECKING:
    from bot.runtime.manager import Runtime

log = logging.getLogger(__name__)

# a person's action is answered in milliseconds; a commit waits for the disk or the server
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
DECISION_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5)
STORE_ANSWERS_WITHIN = 2.0  # seconds the health check and a scrape wait for the database


class Metrics:
    """The bot's metrics in a registry of their own, with the client's process collectors."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry = registry or CollectorRegistry()
        ProcessCollector(registry=registry)  # CPU seconds, resident memory, open files
        PlatformCollector(registry=registry)
        GCCollector(registry=registry)
        self.actions = Counter(
            "mahjong_actions",
            "Actions applied to hands (people, computers, clocks)",
            ["kind"],
            registry=registry,
        )
        self.action_seconds = Histogram(
            "mahjong_action_seconds",
            "A person's action from its arrival to its commit and notices",
            ["kind"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.decision_seconds = Histogram(
            "mahjong_computer_decision_seconds",
            "One computer decision's thinking time",
            ["level"],
            buckets=DECISION_BUCKETS,
            registry=registry,
        )
        self.commit_seconds = Histogram(
            "mahjong_store_commit_seconds",
            "A run of moves appended to the log, until its commit",
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.store_retries = Counter(
            "mahjong_store_retries",
            "Transactions run again after a lost PostgreSQL connection",
            registry=registry,
        )
        self.tables_open = Gauge(
            "mahjong_tables_open", "This process's tables", ["preset", "phase"], registry=registry
        )
        self.timer_jobs = Gauge(
            "mahjong_scheduler_jobs_pending", "Clock and queue jobs waiting", registry=registry
        )
        self.inbox_depth = Gauge(
            "mahjong_dm_inbox_depth",
            "DM clicks waiting for their table's process (all processes)",
            registry=registry,
        )
        self.inbox_age = Gauge(
            "mahjong_dm_inbox_oldest_seconds",
            "How long the oldest waiting DM click has waited (0: none)",
            registry=registry,
        )
        self.quickplay_waiting = Gauge(
            "mahjong_quickplay_waiting",
            "People in a Quick Play queue (all processes)",
            ["preset", "rated"],
            registry=registry,
        )
        Info("mahjong_build", "The bot's version", registry=registry).info(
            {"version": _version(), "python": platform.python_version()}
        )
        self._children: dict[tuple[object, str], Any] = {}
        self.retry_counter = RetryCounter(self.store_retries)

    # ------------------------------------------------------------------ events (the runtime)

    def applied(self, kind: str) -> None:
        """An action of `kind` (the loop's own or a rule part's declared kind) applied."""
        self._child(self.actions, kind).inc()

    def answered(self, kind: str, seconds: float) -> None:
        self._child(self.action_seconds, kind).observe(seconds)

    def decided(self, level: str, seconds: float) -> None:
        self._child(self.decision_seconds, level).observe(seconds)

    def committed(self, seconds: float) -> None:
        self.commit_seconds.observe(seconds)

    def _child(self, metric: Counter | Histogram, label: str) -> Any:
        """The metric's child for `label`, made once: `labels()` costs more than the count."""
        child = self._children.get((metric, label))
        if child is None:
            child = self._children[(metric, label)] = metric.labels(str(label))
        return child

    # ------------------------------------------------------------------ states (at a scrape)

    async def refresh(self, runtime: Runtime) -> None:
        """Read the states: the tables and jobs from memory, the inbox and queues from the
        store (left as they were if it does not answer in time)."""
        self.tables_open.clear()
        counts: dict[tuple[str, str], int] = {}
        for table in list(runtime.tables.values()):
            key = (table.preset.id, table.phase.value)
            counts[key] = counts.get(key, 0) + 1
        for (preset, phase), count in counts.items():
            self.tables_open.labels(preset, phase).set(count)
        self.timer_jobs.set(len(runtime.timers.pending()))
        try:
            now = runtime.timers.now()  # the clock the queues' entries are kept alive by
            watched = await asyncio.wait_for(runtime.store.watch(now=now), STORE_ANSWERS_WITHIN)
        except Exception as error:  # the health check says so; the figures stay as they were
            log.warning("metrics: the database did not answer (%s)", error)
            return
        self.inbox_depth.set(watched.inbox_depth)
        oldest = watched.inbox_oldest
        self.inbox_age.set(0.0 if oldest is None else max(0.0, now - oldest))
        self.quickplay_waiting.clear()
        for preset, rated, waiting in watched.queues:
            self.quickplay_waiting.labels(preset, str(rated).lower()).set(waiting)


class RetryCounter(logging.Handler):
    """Counts the PostgreSQL connection's retried transactions from its log: data/postgres.py
    logs "reconnected …; retrying the transaction" once for each (the loss before it is
    logged apart), so the store carries no metrics."""

    def __init__(self, counter: Counter) -> None:
        super().__init__(logging.WARNING)
        self._counter = counter

    def emit(self, record: logging.LogRecord) -> None:
        if "retrying the transaction" in str(record.msg):
            self._counter.inc()

    def attach(self) -> None:
        logging.getLogger("data.postgres").addHandler(self)

    def detach(self) -> None:
        logging.getLogger("data.postgres").removeHandler(self)


def _version() -> str:
    try:
        return version("mahjong-bot")
    except PackageNotFoundError:
        return "unknown"


async def healthy(runtime: Runtime | None, gateway_connected: Callable[[], bool]) -> bool:
    """Whether the gateway is connected and the store answers (a cheap query) in time."""
    if runtime is None or not gateway_connected():
        return False
    try:
        await asyncio.wait_for(runtime.store.watch(), STORE_ANSWERS_WITHIN)
    except Exception:
        return False
    return True


class MetricsServer:
    """`/metrics` and `/healthz` at `address`, on the running event loop."""

    def __init__(
        self,
        metrics: Metrics,
        runtime: Callable[[], Runtime | None],
        gateway_connected: Callable[[], bool],
    ) -> None:
        self.metrics = metrics
        self._runtime = runtime
        self._connected = gateway_connected
        app = web.Application()
        app.router.add_get("/metrics", self._scrape)
        app.router.add_get("/healthz", self._health)
        self._runner = web.AppRunner(app, access_log=None)
        self.port: int | None = None

    async def start(self, host: str, port: int) -> None:
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = self._runner.addresses[0][1]  # the bound one, when asked for port 0 (tests)
        self.metrics.retry_counter.attach()
        log.info("metrics at http://%s:%d/metrics, health at /healthz", host, self.port)

    async def close(self) -> None:
        self.metrics.retry_counter.detach()
        await self._runner.cleanup()

    async def _scrape(self, request: web.Request) -> web.Response:
        runtime = self._runtime()
        if runtime is not None:
            await self.metrics.refresh(runtime)
        body = generate_latest(self.metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _health(self, request: web.Request) -> web.Response:
        if await healthy(self._runtime(), self._connected):
            return web.Response(text="ok\n")
        return web.Response(status=503, text="unavailable\n")
