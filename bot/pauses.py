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

The front end does make such cycles: a discord.py View holds its buttons and each button its
view, and a view lives as long as its message shows it, so it is frozen before it is dropped.
A hand played through the fake Discord left 3,000-43,000 objects in cycles (0.5-3.7 MB by
their shallow sizes). So a sweep also comes as soon as the process's objects (the memory
blocks the interpreter has allocated, frozen garbage among them) have grown to `SWEEP_GROWTH`
times what the last sweep left (and by `SWEEP_FLOOR` blocks at least): frozen garbage never
holds much more memory than what is alive, and each sweep's pause is paid for by a live set's
worth of it. Growth is read from `sys.getallocatedblocks()`, which walks the allocator's arenas
(0.3-1 ms at 9 million blocks), not from `gc.get_freeze_count()`, which walks every frozen
object: read each second, that held the event loop 15-25 ms a second at 300 tables (110,000
frozen) and 35-42 ms at 2,500 (320,000; bench/load.py, 2026-12-07).

Freezing more often was measured and refused: freezing every 0.1 s and after every collection
(young collections after 10,000 allocations) halved the collector's time in a saturated burst,
but at 5,000 tables and a person's 3 s think the p50 went from 2-3 ms to 24-45 ms and the p99
from 20-23 ms to 230-270 ms (bench/load.py, the same tree otherwise).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time

log = logging.getLogger(__name__)

SWITCH_INTERVAL = 0.001
# frozen often enough that a full collection walks at most about a second of new objects
REFREEZE_SECONDS = 1.0
SWEEP_SECONDS = 6 * 3600.0
# ... or sooner, once the allocated blocks have grown this much since the last sweep (and by at
# least SWEEP_FLOOR): cycles frozen while alive and dropped since cannot hold more memory than
# about what is alive
SWEEP_GROWTH = 2.0
SWEEP_FLOOR = 500_000


def freeze_survivors() -> None:
    """Hide every object alive now from later collections. A young collection first, so a
    cycle made since the last freeze and already dropped is freed rather than frozen."""
    gc.collect(1)
    gc.freeze()


def sweep_due(blocks_after_last_sweep: int) -> bool:
    """Whether the process's objects have grown enough since the last sweep to sweep now."""
    grown_to = max(SWEEP_GROWTH * blocks_after_last_sweep, blocks_after_last_sweep + SWEEP_FLOOR)
    return sys.getallocatedblocks() > grown_to


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
    gc.collect()
    gc.freeze()
    last_sweep, blocks_after_sweep = time.monotonic(), sys.getallocatedblocks()
    while True:
        await asyncio.sleep(refreeze_seconds)
        if time.monotonic() - last_sweep >= sweep_seconds or sweep_due(blocks_after_sweep):
            sweep()
            last_sweep, blocks_after_sweep = time.monotonic(), sys.getallocatedblocks()
        else:
            freeze_survivors()
