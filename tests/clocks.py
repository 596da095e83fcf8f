"""A clock for tests: time moves only when the test says so (the coalescer's edits, say)."""

from __future__ import annotations

import asyncio


class SteppedClock:
    """Time that moves only when the test says so; sleepers wake once it passes their hour.

    Call it for the time; `sleep` is the matching sleep (pass both to `Coalescer`).
    """

    def __init__(self) -> None:
        self.now = 0.0
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        woken = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.now + seconds, woken))
        await woken

    @property
    def wake_times(self) -> list[float]:
        """When the tasks sleeping on this clock wake, earliest first."""
        return sorted(at for at, woken in self._sleepers if not woken.done())

    async def advance(self, seconds: float) -> None:
        self.now += seconds
        for sleeper in [s for s in self._sleepers if s[0] <= self.now]:
            self._sleepers.remove(sleeper)
            if not sleeper[1].done():
                sleeper[1].set_result(None)
        await settle()


async def settle() -> None:
    """Let every task that can run, run (a woken worker and the update it starts)."""
    for _ in range(5):
        await asyncio.sleep(0)
