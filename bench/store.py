"""Benchmark of the persistence layer (a program, not a test): `python bench/store.py`.

Measures, on a fresh file database in a temporary directory (WAL, as the bot runs it):
  * action appends per second: each one its own transaction (action row + table's last-action
    time + clock deadlines), one after another on one table, with synchronous=FULL (the bot's
    default) and, for comparison, NORMAL; and 100 tables appending concurrently;
  * a leaderboard page over 100,000 rating rows (total + page, at five page positions);
  * restoring 1,000 tables mid-hand: loading their rows and logs from the database (time and
    memory), then rebuilding each through the engine (Session.from_json, HandState.replay);
  * work done under random SIGKILLs: the crash test's writer (tests/data_writer_proc.py) killed
    at random moments over one file, restarted each time; confirmed writes per second alive.

Ends with four lines: appends_per_s, leaderboard_ms, restore_1000_s, writes_under_kills_per_s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.runtime.recipe import HandRecipe, replay_hand
from data import LoadedTable, SeatRow, Store, TableOptions
from engine.hand import HandState
from engine.presets import find_preset
from engine.session import Session

ROOT = Path(__file__).resolve().parent.parent
WRITER = ROOT / "tests" / "data_writer_proc.py"
PRESET = "hkos-3-v1"
# A plausible mix of log lines (what a hand's log is mostly made of).
LINES = ["0 discard 5m", "1 pass", "2 pass", "3 pass", "1 discard 9p", "2 chow 345m", "3 pung 1z"]


def line(i: int) -> str:
    return LINES[i % len(LINES)]


async def bench_appends(directory: str, synchronous: str, n: int) -> float:
    store = await Store.open(
        os.path.join(directory, f"appends-{synchronous}.db"), synchronous=synchronous
    )
    try:
        tid = await store.create_table(PRESET)
        hid = await store.start_hand(tid, 1, 42)
        start = time.perf_counter()
        for i in range(n):
            await store.append_action(tid, hid, line(i), i, {"turn": 1000.0 + i})
        return n / (time.perf_counter() - start)
    finally:
        await store.close()


async def bench_concurrent_appends(
    directory: str, synchronous: str, tables: int, per_table: int
) -> float:
    store = await Store.open(
        os.path.join(directory, f"concurrent-{synchronous}.db"), synchronous=synchronous
    )
    try:
        ids = []
        for _ in range(tables):
            tid = await store.create_table(PRESET)
            ids.append((tid, await store.start_hand(tid, 1, 7)))

        async def play(tid: int, hid: int) -> None:
            for i in range(per_table):
                await store.append_action(tid, hid, line(i), i, {"turn": float(i)})

        start = time.perf_counter()
        await asyncio.gather(*(play(t, h) for t, h in ids))
        return tables * per_table / (time.perf_counter() - start)
    finally:
        await store.close()


async def bench_leaderboard(directory: str, players: int) -> tuple[float, dict[str, float]]:
    """Median ms of a leaderboard page over `players` rating rows, at several page positions.

    Returns (the median at the slowest position, median per position). The total comes from
    a small tally; the page walks the board index, from the top or (lower half) the bottom,
    so the middle page is the slowest.
    """
    store = await Store.open(os.path.join(directory, "board.db"), synchronous="NORMAL")
    try:
        rng = random.Random(1)
        await store.import_ratings(
            PRESET,
            ((str(10**17 + i), rng.gauss(1500, 200), rng.randint(0, 200)) for i in range(players)),
        )
        await store.import_ratings("sichuan-bb", ((str(i), 1500.0, 20) for i in range(1000)))
        board = await store.leaderboard(PRESET, 1, 10)
        positions = {
            "first": 1,
            "10th": 10,
            "quarter": board.pages // 4,
            "middle": board.pages // 2,
            "last": board.pages,
        }
        times: dict[str, list[float]] = {name: [] for name in positions}
        for _ in range(30):
            for name, page in positions.items():
                t0 = time.perf_counter()
                await store.leaderboard(PRESET, page, 10)
                times[name].append((time.perf_counter() - t0) * 1000)
        print(
            f"  board: {board.total} players with >= {board.min_games} games, {board.pages} pages"
        )
        medians = {name: statistics.median(ts) for name, ts in times.items()}
        return max(medians.values()), medians
    finally:
        await store.close()


async def seed_tables(path: str, tables: int, rng: random.Random) -> int:
    """`tables` tables mid-hand, each log a real engine hand cut at a random point.

    The timeout policy (HandState.default_action) plays the seats: legal and cheap, so seeding
    1,000 hands takes seconds. Returns the number of actions written.
    """
    preset = find_preset(PRESET)
    store = await Store.open(path, synchronous="NORMAL")
    written = 0
    try:
        for t in range(tables):
            seats = [SeatRow(s, str(10**17 + 4 * t + s), True) for s in range(4)]
            tid = await store.create_table(
                PRESET, guild_id=1, channel_id=2, seats=seats, options=TableOptions(rated=True)
            )
            session = Session(preset, seed=t)
            state = session.new_hand()
            # as the runtime does: the hand's recipe, with the session it starts from
            recipe = HandRecipe.dealt(session, state, preset, arranged_wall=False)
            hid = await store.start_hand(tid, 1, state.seed, setup=recipe.to_json())
            for _ in range(rng.randint(20, 80)):
                to_act = state.seats_to_act()
                if not to_act:
                    break
                action = state.default_action(to_act[0])
                assert action is not None
                version = state.version
                state.apply(action)
                await store.append_action(tid, hid, action, version, {"turn": 1e9 + version})
                written += 1
    finally:
        await store.close()
    return written


def restore_all(loaded: list[LoadedTable]) -> list[tuple[Session, HandState | None]]:
    """What the bot does at start-up: each table's session, and its hand replayed."""
    out = []
    for lt in loaded:
        if lt.hand is None:
            out.append((Session.from_json(json.loads(lt.table.session_state or "{}")), None))
            continue
        recipe = HandRecipe.stored(lt.hand, lt.table.preset)
        out.append((recipe.dealt_session(), replay_hand(recipe, lt.hand.actions)))
    return out


async def bench_restore(path: str) -> tuple[float, float, int, int]:
    """(load s, replay s, tables, peak traced bytes) to restore every active table."""
    store = await Store.open(path)
    try:
        start = time.perf_counter()
        loaded, bad = await store.load_active_tables()
        load_s = time.perf_counter() - start
        start = time.perf_counter()
        restored = restore_all(loaded)
        replay_s = time.perf_counter() - start
        assert not bad, bad
        assert all(hand is not None for _, hand in restored)
    finally:
        await store.close()
    # The memory run is separate: tracing allocations slows the timed run. The peak covers
    # the loaded rows and the 1,000 live HandStates held at the end.
    store = await Store.open(path)
    try:
        tracemalloc.start()
        loaded, _ = await store.load_active_tables()
        kept = restore_all(loaded)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        del kept, loaded
    finally:
        await store.close()
    return load_s, replay_s, len(restored), peak


def bench_kills(directory: str, kills: int, rng: random.Random) -> tuple[float, int, int]:
    """(confirmed writes per second alive, confirmed writes, results) over `kills` SIGKILLs.

    Each run: start the writer on the same file, wait for it to open the store, let it write
    for a random 0.05-0.5 s, SIGKILL it. "Alive" counts from the store being open to the kill.
    """
    db = os.path.join(directory, "kills.db")
    alive = 0.0
    confirmed = results = 0
    for kill in range(kills):
        ack = Path(directory) / f"kill-ack{kill}.txt"
        proc = subprocess.Popen([sys.executable, str(WRITER), db, str(ack), str(kill)], cwd=ROOT)
        try:
            while not (ack.exists() and ack.read_text().startswith("ready\n")):
                if proc.poll() is not None:
                    raise SystemExit(f"the writer exited with {proc.returncode}")
                time.sleep(0.002)
            opened = time.perf_counter()
            time.sleep(rng.uniform(0.05, 0.5))
            proc.send_signal(signal.SIGKILL)
            alive += time.perf_counter() - opened
        finally:
            proc.wait()
        lines = ack.read_text().split("\n")[1:-1]  # after "ready"; a torn last line is not one
        confirmed += len(lines)
        results += sum(1 for line in lines if line.startswith("R "))
    return confirmed / alive, confirmed, results


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--tables", type=int, default=1_000)
    parser.add_argument("--kills", type=int, default=20)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="mahjong-bench-") as directory:
        print(f"SQLite files in {directory} (WAL)")
        full = await bench_appends(directory, "FULL", args.appends)
        normal = await bench_appends(directory, "NORMAL", args.appends)
        concurrent = await bench_concurrent_appends(directory, "FULL", 100, args.appends // 100)
        concurrent_normal = await bench_concurrent_appends(
            directory, "NORMAL", 100, args.appends // 100
        )
        for label, rate in (
            ("one table in a loop, synchronous=FULL (default)", full),
            ("one table in a loop, synchronous=NORMAL", normal),
            ("100 tables concurrently, FULL", concurrent),
            ("100 tables concurrently, NORMAL", concurrent_normal),
        ):
            print(f"  appends, {label:<48} {rate:>9,.0f}/s")

        board_ms, by_position = await bench_leaderboard(directory, args.players)
        print(
            f"  leaderboard page (total + 10 rows) over {args.players:,} rating rows, median ms: "
            + ", ".join(f"{name} {ms:.2f}" for name, ms in by_position.items())
        )

        path = os.path.join(directory, "restore.db")
        t0 = time.perf_counter()
        written = await seed_tables(path, args.tables, random.Random(3))
        print(
            f"  seeded {args.tables} tables mid-hand ({written / args.tables:.0f} actions each"
            f" on average, real engine hands) in {time.perf_counter() - t0:.1f} s"
        )
        load_s, replay_s, count, peak = await bench_restore(path)
        restore_s = load_s + replay_s
        print(
            f"  restore {count} tables mid-hand: {restore_s:.3f} s = load from SQLite "
            f"{load_s:.3f} s + engine replay {replay_s:.3f} s; peak traced memory "
            f"{peak / 2**20:.1f} MiB ({peak / max(count, 1) / 1024:.1f} KiB per table)"
        )
        print(f"  restore database size: {os.path.getsize(path) / 2**20:.1f} MiB")

        under_kills, confirmed, results = bench_kills(directory, args.kills, random.Random(2024))
        print(
            f"  {args.kills} SIGKILLs of a writer on one file: {confirmed:,} confirmed writes"
            f" ({results} hand results), {under_kills:,.0f} per second alive"
        )

    print(
        "appends_per_s = 100 tables appending concurrently, synchronous=FULL "
        f"(one table in a loop: {full:,.0f}/s FULL, {normal:,.0f}/s NORMAL)"
    )
    print(f"appends_per_s: {concurrent:.0f}")
    print("leaderboard_ms = median at the slowest page position (the middle of the board)")
    print(f"leaderboard_ms: {board_ms:.2f}")
    print(f"restore_1000_s: {restore_s:.3f}")
    print(f"writes_under_kills_per_s: {under_kills:.0f}")


if __name__ == "__main__":
    asyncio.run(main())
