"""How late a sleeping process is woken on this machine: sleeps of 2 ms, each one's lateness.

    python bench/wake_canary.py SECONDS

prints `late p50 X p99 Y max Z` (ms) after SECONDS. bench/load.py runs it beside its persons'
think phase: every pooled decision wakes a sleeping worker and its answer a sleeping event loop,
so an action's p99 moves with how late wake-ups come. That is this machine's load and, on a
shared virtual machine, its host's: steal comes in bursts, and a run whose average steal is 2%
can still hold some wake-ups 10 ms or more. Only the standard library, so that starting it
costs the run next to nothing (about 500 wake-ups a second, ~1% of a core).
"""

from __future__ import annotations

import sys
import time

SLEEP = 0.002


def lateness(seconds: float) -> list[float]:
    """Each 2 ms sleep's lateness (s) over `seconds`, sorted."""
    late: list[float] = []
    clock = time.perf_counter
    end = clock() + seconds
    while (started := clock()) < end:
        time.sleep(SLEEP)
        late.append(clock() - started - SLEEP)
    late.sort()
    return late


def summary(late: list[float]) -> str:
    """The line bench/load.py reads: p50, p99 and the most late, in ms."""
    if not late:
        return "late p50 0 p99 0 max 0"
    p50, p99 = late[len(late) // 2], late[min(len(late) - 1, int(0.99 * len(late)))]
    return f"late p50 {p50 * 1000:.3f} p99 {p99 * 1000:.3f} max {late[-1] * 1000:.3f}"


if __name__ == "__main__":
    print(summary(lateness(float(sys.argv[1]))), flush=True)
