"""The production timers: every deadline behind one APScheduler job, moved only when needed."""

from __future__ import annotations

import asyncio

from bot.runtime import SchedulerTimers


class Clock:
    """Time by hand, far in the future: the scheduler's own job never comes due by itself."""

    def __init__(self) -> None:
        self.t = 4_000_000_000.0

    def __call__(self) -> float:
        return self.t


def wake_time(timers: SchedulerTimers) -> float:
    (job,) = timers.scheduler.get_jobs()  # one job, whatever the number of keys
    return float(job.trigger.run_date.timestamp())


async def test_many_keys_share_one_job_at_the_earliest_deadline() -> None:
    clock = Clock()
    timers = SchedulerTimers(clock=clock)
    timers.start()
    fired: list[str] = []

    def note(key: str):  # type: ignore[no-untyped-def]
        async def callback() -> None:
            fired.append(key)

        return callback

    for n in range(50):
        timers.schedule(f"decision:{n}", clock.t + 30 + n, note(f"decision:{n}"))
    assert wake_time(timers) == clock.t + 30
    timers.schedule("decision:0", clock.t + 100, note("decision:0 again"))  # later: job stays
    assert wake_time(timers) == clock.t + 30
    timers.schedule("deal:7", clock.t + 5, note("deal:7"))  # earlier: the job moves
    assert wake_time(timers) == clock.t + 5
    timers.cancel("decision:1")
    assert len(timers.pending()) == 50 and "decision:1" not in timers.pending()

    clock.t += 32  # deal:7 and decision:2 are due; decision:0 moved, decision:1 cancelled
    await timers.fire_due()
    await asyncio.sleep(0)
    assert sorted(fired) == ["deal:7", "decision:2"]
    assert wake_time(timers) == clock.t - 32 + 33  # the next: decision:3
    assert "deal:7" not in timers.pending() and len(timers.pending()) == 48
    timers.shutdown()


async def test_a_failing_callback_does_not_stop_the_others() -> None:
    clock = Clock()
    timers = SchedulerTimers(clock=clock)
    timers.start()
    fired: list[str] = []

    async def broken() -> None:
        raise RuntimeError("boom")

    async def fine() -> None:
        fired.append("fine")

    timers.schedule("a", clock.t + 1, broken)
    timers.schedule("b", clock.t + 1, fine)
    clock.t += 1
    await timers.fire_due()
    for _ in range(3):
        await asyncio.sleep(0)
    assert fired == ["fine"] and timers.pending() == {}
    assert timers.scheduler.get_jobs() == []
    timers.shutdown()


async def test_deadlines_close_together_all_fire_on_the_real_scheduler() -> None:
    timers = SchedulerTimers()
    timers.start()
    fired: list[int] = []

    def note(n: int):  # type: ignore[no-untyped-def]
        async def callback() -> None:
            fired.append(n)

        return callback

    start = timers.now()
    for n in range(30):  # each due while the run for the one before may still be counted
        timers.schedule(f"decision:{n}", start + 0.02 + n * 0.001, note(n))
    for _ in range(1000):  # up to 10 s on a loaded machine; usually well under one
        if len(fired) == 30:
            break
        await asyncio.sleep(0.01)
    timers.shutdown()
    assert sorted(fired) == list(range(30))
