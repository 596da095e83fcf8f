"""Load: N tables in one process, each one scripted human and three computers, on the real
runtime and a WAL SQLite file. Prints p50/p99 ms from a human's action to its outcome being
ready (computers answered, stored, clock armed) and the memory each table holds.

Humans act as people do: each waits a random think time (exponential, mean --think seconds)
between its actions, so N tables make about N / think actions a second. A second phase drives
every table as fast as it can to show the saturated throughput.

    python bench/load.py --tables 1000 --seconds 20 --think 3
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from bot.runtime import ManualTimers, Runtime
from data import Phase, Store
from engine.ai import choose_action


async def make_tables(runtime: Runtime, n: int) -> list[int]:
    ids = []
    for i in range(n):
        table = await runtime.create_table(
            "hkos-3-v1",
            creator_id=str(1000 + i),
            creator_name=f"P{i}",
            computers=3,
            time_control="standard",
        )
        await runtime.start_table(table.id, str(1000 + i))
        ids.append(table.id)
    return ids


async def human_move(runtime: Runtime, table_id: int, latencies: list[float]) -> None:
    table = runtime.get(table_id)
    player_id = table.seat(0).player_id
    if table.phase is Phase.BETWEEN_HANDS:
        await runtime.ready(table_id, player_id)
        return
    if table.hand is None or not table.players_to_act():
        return
    action = choose_action(table.hand, table.hand_seat(0))
    started = time.perf_counter()
    await runtime.act(table_id, player_id, action, table.version)
    latencies.append((time.perf_counter() - started) * 1000)


async def run(tables: int, seconds: float, think: float, sync: str = "FULL") -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "load.db"), synchronous=sync)
        runtime = Runtime(store, timers=ManualTimers(), seed_source=lambda: random.getrandbits(32))
        await runtime.open()
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        started = time.perf_counter()
        ids = await make_tables(runtime, tables)
        setup_s = time.perf_counter() - started
        gc.collect()
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        held = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
        latencies: list[float] = []
        deadline = time.perf_counter() + seconds

        async def person(table_id: int, rng: random.Random) -> None:
            while True:
                pause = rng.expovariate(1 / think)
                if time.perf_counter() + pause > deadline:
                    return
                await asyncio.sleep(pause)
                await human_move(runtime, table_id, latencies)

        started = time.perf_counter()
        await asyncio.gather(*(person(t, random.Random(t)) for t in ids))
        elapsed = time.perf_counter() - started
        burst: list[float] = []
        burst_started = time.perf_counter()
        await asyncio.gather(*(human_move(runtime, t, burst) for t in ids))
        burst_s = time.perf_counter() - burst_started
        await runtime.close()
        await store.close()
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(f"tables created and started: {tables} in {setup_s:.2f} s")
    rate = len(latencies) / elapsed
    print(f"human actions: {len(latencies)} in {elapsed:.1f} s ({rate:.0f}/s, think {think} s)")
    print(
        f"saturated: {len(burst)} actions at once in {burst_s:.2f} s ({len(burst) / burst_s:.0f}/s)"
    )
    print(f"latency ms: p50 {statistics.median(ordered):.2f}  p99 {p99:.2f}  max {ordered[-1]:.2f}")
    print(f"tables: {tables}")
    print(f"p99_ms: {p99:.2f}")
    print(f"kb_per_table: {held / tables / 1024:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=3.0)
    parser.add_argument("--synchronous", default="FULL", choices=["FULL", "NORMAL"])
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.seconds, args.think, args.synchronous))


if __name__ == "__main__":
    main()
