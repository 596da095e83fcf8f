"""Timers for decision clocks: APScheduler in production, a hand-driven clock in tests.

Both keep one deadline per key (`decision:{table_id}`, `deal:{table_id}`, …); scheduling a key
again replaces its deadline, and a fired callback re-checks that it is still current before
acting (the runtime compares the decision it was armed for).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Protocol

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger

log = logging.getLogger(__name__)

Callback = Callable[[], Awaitable[object]]  # what it returns is not read
WAKE_JOB = "timers"  # SchedulerTimers' one APScheduler job
MAX_WAKES = 1_000_000


class Timers(Protocol):
    def now(self) -> float: ...

    def schedule(self, key: str, at: float, callback: Callback) -> None: ...

    def cancel(self, key: str) -> None: ...

    def pending(self) -> dict[str, float]: ...

    def start(self) -> None: ...

    def shutdown(self) -> None: ...


class SchedulerTimers:
    """Every deadline of the process behind one AsyncIOScheduler job in UTC: the earliest.

    Tables re-arm their clocks on almost every move, and an APScheduler job per key made each
    re-arm cost tens of microseconds (a job, a job-store update, a scheduler wake-up). Here a
    key's deadline is a dict entry and a heap entry; the one job moves only when the earliest
    deadline comes earlier, and when it runs it starts every callback then due (each in its own
    task, as APScheduler ran them) and moves itself to the next deadline. A replaced or
    cancelled key's old heap entry is skipped when reached.
    """

    def __init__(
        self, misfire_grace_time: int = 3600, clock: Callable[[], float] = time.time
    ) -> None:
        self.scheduler = AsyncIOScheduler(timezone=UTC)
        self.misfire_grace_time = misfire_grace_time
        self._clock = clock
        self._jobs: dict[str, tuple[float, int, Callback]] = {}
        self._heap: list[tuple[float, int, str]] = []
        self._order = itertools.count()
        self._wake_at: float | None = None  # when the scheduler's one job runs
        self._running: set[asyncio.Task[None]] = set()

    def now(self) -> float:
        return self._clock()

    def schedule(self, key: str, at: float, callback: Callback) -> None:
        order = next(self._order)
        jobs, heap = self._jobs, self._heap
        jobs[key] = (at, order, callback)
        heapq.heappush(heap, (at, order, key))
        if len(heap) > 2 * len(jobs) + 1024:  # mostly replaced entries: drop them
            self._drop_replaced()
        wake_at = self._wake_at
        if wake_at is None or at < wake_at:
            self._wake(at)

    def _drop_replaced(self) -> None:
        """Keep only the heap entries of current jobs: the same tuples, none made anew (a
        heap of thousands of new tuples was thousands of objects for the collector)."""
        jobs = self._jobs
        self._heap = [
            entry for entry in self._heap if (job := jobs.get(entry[2])) and job[1] == entry[1]
        ]
        heapq.heapify(self._heap)

    def cancel(self, key: str) -> None:
        self._jobs.pop(key, None)

    def pending(self) -> dict[str, float]:
        return {key: at for key, (at, _, _) in self._jobs.items()}

    def start(self) -> None:
        if not self.scheduler.running:
            self.scheduler.start()
            if self._wake_at is not None:  # deadlines set before the start
                self._wake(self._wake_at)

    def shutdown(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)
        self._jobs.clear()
        self._heap.clear()
        self._wake_at = None

    async def fire_due(self) -> None:
        """Start every callback whose deadline has come, then wait for the next deadline."""
        now = max(self.now(), self._wake_at or 0.0)
        self._wake_at = None
        while self._heap and self._heap[0][0] <= now:
            _, order, key = heapq.heappop(self._heap)
            job = self._jobs.get(key)
            if job is None or job[1] != order:
                continue  # replaced or cancelled since
            del self._jobs[key]
            task = asyncio.ensure_future(self._run(key, job[2]))
            self._running.add(task)
            task.add_done_callback(self._running.discard)
        while (
            self._heap and self._jobs.get(self._heap[0][2], (0.0, -1, None))[1] != self._heap[0][1]
        ):
            heapq.heappop(self._heap)
        if self._heap:
            self._wake(self._heap[0][0])
        elif self.scheduler.get_job(WAKE_JOB) is not None:
            self.scheduler.remove_job(WAKE_JOB)  # nothing left to wait for

    async def _run(self, key: str, callback: Callback) -> None:
        try:
            await callback()
        except Exception:  # one table's clock failing must not stop the others'
            log.exception("the timer %s failed", key)

    def _wake(self, at: float) -> None:
        """Move the scheduler's one job to `at` (a deadline already past runs at once: a
        restart long after it still plays the timeout)."""
        self._wake_at = at
        if not self.scheduler.running:
            return  # `start` makes the job
        self.scheduler.add_job(
            self.fire_due,
            trigger=DateTrigger(run_date=datetime.fromtimestamp(max(at, self.now()), UTC)),
            id=WAKE_JOB,
            replace_existing=True,
            misfire_grace_time=self.misfire_grace_time,
            # APScheduler counts a run until its task is done, and skips a run due meanwhile
            # (max_instances); fire_due never awaits, so runs cannot overlap: let none be lost
            max_instances=MAX_WAKES,
        )


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
