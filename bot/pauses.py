"""Short pauses of the event loop in a process holding thousands of live tables.

Two things stop it besides its own work. The SQLite thread gives the GIL back at each statement
and waits for it to return, and the interpreter makes a busy thread hand it over only every
switch interval (5 ms by default): a group commit of a few statements waited tens of
milliseconds behind a busy loop, and every action in it with it (bench/load.py at 5,000 tables:
p50 about 30 ms at 5 ms, about 10 ms at `SWITCH_INTERVAL`).

And the collector: a full collection walks every object it tracks, about a second at 3,000
tables with nothing frozen, 45-120 ms at 5,000 busy tables with only the start-up tables frozen.
So the bot keeps the tracked set small: it freezes what is alive once the tables are restored,
and again every `REFREEZE_SECONDS`, so a collection walks only what was made since. Freezing is
safe because hands hold no reference cycles (tests/test_hand_frees_itself.py): a frozen object
still dies when its last reference goes. What else might form a cycle (an exception caught with
its traceback) is swept by a full collection over everything every `SWEEP_SECONDS`, one long
pause a few times a day.

What a collection walks between freezes is mostly the actions waiting on their commit: at 3,000
busy tables, a census after a 1 s freeze found 46,000 new objects alive, 24 for each of 1,890
actions in flight (five coroutines, their notices, future, append and lists) plus each table's
timer job, and a saturated commit keeps an action waiting 0.5-1 s. Each was walked two or three
times: by young collections every 700 allocations, by a middle one every ten of those (12-20
ms) and by the freeze's own collection. And a young collection's allocation count does not
bound what it walks: an in-flight action dying counts down what its successor counts up. So
the bot freezes every 0.1 s, young collections wait for `YOUNG_THRESHOLD` allocations, and
what any collection finds alive is frozen at once (`freeze_after_collection`): each object is
walked about once. The collector's processor time per person action fell by about half
(bench/load.py's saturated bursts at 5,000 tables: 32-58 µs before, 19-22 after; a 3,000-table
burst on an in-memory store: 27-35 before, 15-16 after), and its longest pause, in processor
time, from 50-95 ms (a middle or full collection) to 14-26 ms. A cycle dropped before the next
collection is still freed by it; the action path itself makes none (a full collection after
4,810 actions on 50 tables found only the language catalogue's one-off parse), and a cycle
still alive at a freeze, now one older than about 0.1 s where it was 1 s, waits for the sweep.

The front end does make such cycles: a discord.py View holds its buttons and each button its
view, and a view lives as long as its message shows it, so it is frozen before it is dropped.
A hand played through the fake Discord left 3,000-43,000 objects in cycles (0.5-3.7 MB by
their shallow sizes). So a sweep also comes as soon as the frozen set has grown to
`SWEEP_GROWTH` times what the last sweep left (and by `SWEEP_FLOOR` objects at least): frozen
garbage never holds much more memory than what is alive, and each sweep's pause is paid for
by a live set's worth of it.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time

log = logging.getLogger(__name__)

SWITCH_INTERVAL = 0.001
# frozen this often, so a collection walks at most a tenth of a second of new objects
REFREEZE_SECONDS = 0.1
# young collections (each followed by a freeze) only after this many new objects, where
# CPython's default is 700: between freezes they are a safety net for a burst of allocations
YOUNG_THRESHOLD = 10_000
SWEEP_SECONDS = 6 * 3600.0
# ... or sooner, once the frozen set has grown this much since the last sweep (and by at least
# SWEEP_FLOOR objects): cycles frozen while alive and dropped since then (discord.py's views are
# cyclic and outlive a collection) cannot hold more memory than about what is alive
SWEEP_GROWTH = 2.0
SWEEP_FLOOR = 250_000


def freeze_survivors() -> None:
    """Hide every object alive now from later collections. A young collection first, so a
    cycle made since the last freeze and already dropped is freed rather than frozen."""
    gc.collect(1)
    gc.freeze()


def freeze_after_collection(phase: str, info: dict[str, int]) -> None:
    """A `gc.callbacks` entry: what a collection found alive is frozen at once, so no later
    collection walks it again (the collection itself freed what it found dropped)."""
    if phase == "stop":
        gc.freeze()


def sweep_due(frozen_after_last_sweep: int) -> bool:
    """Whether the frozen set has grown enough since the last sweep to sweep it now."""
    grown_to = max(SWEEP_GROWTH * frozen_after_last_sweep, frozen_after_last_sweep + SWEEP_FLOOR)
    return gc.get_freeze_count() > grown_to


def sweep() -> int:
    """A full collection over everything, frozen objects included; frozen again afterwards."""
    started = time.perf_counter()
    gc.unfreeze()
    freed = gc.collect()
    gc.freeze()
    log.info(
        "full garbage collection: %d objects freed in %.0f ms",
        freed,
        (time.perf_counter() - started) * 1000,
    )
    return freed


async def keep_pauses_short(
    refreeze_seconds: float = REFREEZE_SECONDS, sweep_seconds: float = SWEEP_SECONDS
) -> None:
    """Run for the life of the process, once its long-lived objects exist."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    gc.collect()
    gc.freeze()
    gc.callbacks.append(freeze_after_collection)
    last_sweep, frozen_after_sweep = time.monotonic(), gc.get_freeze_count()
    try:
        while True:
            await asyncio.sleep(refreeze_seconds)
            if time.monotonic() - last_sweep >= sweep_seconds or sweep_due(frozen_after_sweep):
                sweep()
                last_sweep, frozen_after_sweep = time.monotonic(), gc.get_freeze_count()
            else:
                freeze_survivors()
    finally:
        gc.callbacks.remove(freeze_after_collection)
