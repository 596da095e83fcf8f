"""Timers for decision clocks: APScheduler in production, a hand-driven clock in tests.

Both keep one job per key (`decision:{table_id}`, `deal:{table_id}`, …); scheduling a key again
replaces its job, and a fired job re-checks that it is still current before acting (the
runtime compares the state version it was armed for).
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Protocol

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger

Callback = Callable[[], Awaitable[object]]  # what it returns is not read


class Timers(Protocol):
    def now(self) -> float: ...

    def schedule(self, key: str, at: float, callback: Callback) -> None: ...

    def cancel(self, key: str) -> None: ...

    def pending(self) -> dict[str, float]: ...

    def start(self) -> None: ...

    def shutdown(self) -> None: ...


class SchedulerTimers:
    """One AsyncIOScheduler in UTC; a job per key, replaced when re-armed."""

    def __init__(self, misfire_grace_time: int = 3600) -> None:
        # a restart may come long after a deadline: still run the job (it applies the timeout)
        self.scheduler = AsyncIOScheduler(timezone=UTC)
        self.misfire_grace_time = misfire_grace_time
        self._deadlines: dict[str, float] = {}

    def now(self) -> float:
        return time.time()

    def schedule(self, key: str, at: float, callback: Callback) -> None:
        self._deadlines[key] = at

        async def fire() -> None:
            self._deadlines.pop(key, None)
            await callback()

        self.scheduler.add_job(
            fire,
            trigger=DateTrigger(run_date=datetime.fromtimestamp(at, UTC)),
            id=key,
            replace_existing=True,
            misfire_grace_time=self.misfire_grace_time,
        )

    def cancel(self, key: str) -> None:
        if self._deadlines.pop(key, None) is not None:
            job = self.scheduler.get_job(key)
            if job is not None:
                job.remove()

    def pending(self) -> dict[str, float]:
        return dict(self._deadlines)

    def start(self) -> None:
        if not self.scheduler.running:
            self.scheduler.start()

    def shutdown(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)


class ManualTimers:
    """A clock that moves only when told: `await timers.advance(seconds)` fires what is due."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._jobs: dict[str, tuple[float, int, Callback]] = {}
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def schedule(self, key: str, at: float, callback: Callback) -> None:
        self._jobs[key] = (at, next(self._order), callback)

    def cancel(self, key: str) -> None:
        self._jobs.pop(key, None)

    def pending(self) -> dict[str, float]:
        return {key: at for key, (at, _, _) in self._jobs.items()}

    def start(self) -> None:
        pass

    def shutdown(self) -> None:
        self._jobs.clear()

    async def advance(self, seconds: float) -> None:
        """Move time forward, firing every job that falls due, in deadline order."""
        target = self._now + seconds
        while True:
            due = [(at, order, key) for key, (at, order, _) in self._jobs.items() if at <= target]
            if not due:
                break
            at, _, key = heapq.nsmallest(1, due)[0]
            _, _, callback = self._jobs.pop(key)
            self._now = max(self._now, at)
            await callback()
        self._now = target
