"""Short garbage collections in a process holding thousands of live tables.

A full collection walks every object the collector tracks, and stops the event loop while it
does: about a second at 3,000 tables with nothing frozen, 45-100 ms at 5,000 busy tables with
only the start-up tables frozen (bench/load.py). So the bot keeps the tracked set small: it
freezes what is alive once the tables are restored, and again every `REFREEZE_SECONDS`, so a
collection walks only what was made since. Freezing is safe because hands hold no reference
cycles (tests/test_hand_frees_itself.py): a frozen object still dies when its last reference
goes. What else might form a cycle (an exception caught with its traceback) is swept by a full
collection over everything every `SWEEP_SECONDS`, one long pause a few times a day.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger(__name__)

REFREEZE_SECONDS = 30.0
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


async def keep_collections_short(
    refreeze_seconds: float = REFREEZE_SECONDS, sweep_seconds: float = SWEEP_SECONDS
) -> None:
    """Run for the life of the process, once its long-lived objects exist."""
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
