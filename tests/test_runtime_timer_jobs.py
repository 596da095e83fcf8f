"""What a pending timer job holds on to: the collector walks every job of every table."""

from __future__ import annotations

import weakref

from bot.runtime import ManualTimers, Runtime, SchedulerTimers
from data import Store


async def test_a_pending_decision_job_holds_its_table_s_id_not_the_table(
    store: Store, no_collector: None
) -> None:
    timers = ManualTimers()
    runtime = Runtime(store, None, timers, seed_source=lambda: 77)
    await runtime.open()
    table = await runtime.create_table(
        "hkos-3-v1", creator_id="1", creator_name="A", computers=3, time_control="standard"
    )
    await runtime.start_table(table.id, "1")
    key = table.decision_key
    assert key in timers.pending()
    runtime.tables.pop(table.id)  # gone from the runtime, its job not cancelled
    freed = weakref.ref(table)
    del table
    assert freed() is None  # reference counting alone freed it: the job kept no part of it
    await timers.advance(60)  # the job still fires, and finds no table to play for
    assert key not in timers.pending()


def test_dropping_replaced_heap_entries_keeps_the_current_ones_themselves() -> None:
    timers = SchedulerTimers(clock=lambda: 4_000_000_000.0)

    async def nothing() -> None:
        pass

    timers.schedule("deal:1", 4_000_000_100.0, nothing)
    (kept,) = [entry for entry in timers._heap if entry[2] == "deal:1"]
    for n in range(3000):  # enough replaced entries to drop them
        timers.schedule("decision:1", 4_000_000_050.0 + n, nothing)
    assert len(timers._heap) < 3000  # dropped once, and filling up again since
    current = {(at, order, key) for key, (at, order, _) in timers._jobs.items()}
    assert current <= set(timers._heap)
    assert any(entry is kept for entry in timers._heap)  # the same tuple, not a new one
    assert timers.pending() == {"deal:1": 4_000_000_100.0, "decision:1": 4_000_003_049.0}
