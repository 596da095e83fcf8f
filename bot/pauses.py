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


def freeze_survivors() -> None:
    """Hide every object alive now from later collections. A young collection first, so a
    cycle made since the last freeze and already dropped is freed rather than frozen."""
    gc.collect(1)
    gc.freeze()


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
    last_sweep = time.monotonic()
    while True:
        await asyncio.sleep(refreeze_seconds)
        if time.monotonic() - last_sweep >= sweep_seconds:
            sweep()
            last_sweep = time.monotonic()
        else:
            freeze_survivors()
