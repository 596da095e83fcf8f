"""Coalesced message updates: at most one update per message per interval, the latest wins.

Fast play changes a table many times a second; Discord allows a handful of edits per channel
every few seconds. Each message gets one worker task: a request marks the message dirty and,
if the worker is idle, starts it. The worker runs the *latest* update, then waits out the
interval; requests arriving meanwhile collapse into one more run. The first update of a quiet
message goes out at once.

Time comes from an injectable `clock` and `sleep` (default: the event loop's), so tests can
step through intervals without waiting for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Hashable

log = logging.getLogger(__name__)

Update = Callable[[], Awaitable[None]]
Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[object]]


class Coalescer:
    """Per-key update workers with a minimum interval between runs of one key."""

    def __init__(
        self, interval: float = 1.0, *, clock: Clock | None = None, sleep: Sleep = asyncio.sleep
    ) -> None:
        """`clock` defaults to the running loop's time; `sleep(seconds)` waits on that clock."""
        self.interval = interval
        self._clock = clock
        self._sleep = sleep
        self._pending: dict[Hashable, Update] = {}
        self._workers: dict[Hashable, asyncio.Task[None]] = {}
        self._last_run: dict[Hashable, float] = {}
        self._closed = False

    def request(self, key: Hashable, update: Update) -> None:
        """Run `update` for `key` soon; a later request for the same key replaces it."""
        if self._closed:
            return
        self._pending[key] = update
        if key not in self._workers:
            task = asyncio.create_task(self._work(key), name=f"mahjong-update-{key}")
            self._workers[key] = task

    async def wait(self, key: Hashable) -> None:
        """Wait until `key` has nothing pending and no update running."""
        while (task := self._workers.get(key)) is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(task)

    async def drain(self, timeout: float = 5.0) -> None:
        """Run what is pending (without the interval waits), then refuse new requests."""
        self.interval = 0.0
        workers = list(self._workers.values())
        if workers:
            _, late = await asyncio.wait(workers, timeout=timeout)
            for task in late:
                task.cancel()
        self._closed = True

    @property
    def busy(self) -> bool:
        """Whether any update is pending or running."""
        return bool(self._workers)

    async def _work(self, key: Hashable) -> None:
        now = self._clock or asyncio.get_running_loop().time
        try:
            while key in self._pending:
                wait = self._last_run.get(key, -1e9) + self.interval - now()
                if wait > 0:
                    await self._sleep(wait)
                update = self._pending.pop(key, None)
                if update is None:
                    break
                self._last_run[key] = now()
                try:
                    await update()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("message update %s failed", key)
        finally:
            self._workers.pop(key, None)
