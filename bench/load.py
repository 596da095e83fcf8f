"""Load: N tables in one process, each one scripted person and three computers, on the real
runtime (APScheduler clocks) and a WAL SQLite file.

For each table count (tables are added to the same runtime, so 3,000 means the first 1,000
plus 2,000 more), it measures:

- latency: from a person's action to its outcome being ready (the computers answered, the
  run stored, the clock armed), p50 and p99 ms, while every person acts after a random think
  time (exponential, mean --think seconds): N tables make about N / think actions a second.
  The persons all start at once, which blocks the event loop for tens of ms at 5,000 tables
  and piles actions up behind it on freshly dealt hands: the first --warmup seconds are played
  but their latencies are only printed apart (the "warm-up p99" column), not counted;
- the saturated rate: every table's person acting as fast as the runtime answers, for
  --burst seconds (actions a second, each a person's action with the computers' answers), or
  until the first person has made --burst-moves moves, so that runs compared (--compare-workers)
  cover the same stretch of their hands: a strong decision costs more as a hand goes on, and
  in a time-boxed burst the faster run goes further;
- memory per table (tracemalloc, at the first count);
- the share of the machine's CPU its host took for other guests while the persons thought
  (steal): on a shared virtual machine a run with much stolen measured a slower machine, and
  its p99 above all says little;
- how late a sleeping process is woken meanwhile (bench/wake_canary.py, p99 of 2 ms sleeps):
  steal comes in bursts, which an average hides, and each pooled decision is two wake-ups (the
  worker's, then the event loop's), so with decision workers an action's p99 follows it (at
  150 tables, 2026-12-07: 32-39 ms with wake-ups ~2 ms late, 99 ms with 6 ms).

The bench's persons decide as `--person` says: by default at once and for next to nothing
(`drawn_tile_choice`), since a person's thinking costs the bot nothing; `--person easy` has them
decide as the easy computer does, on this process's CPU (the bench did so before 2026-12).

The knee is the first count whose p99 passes 50 ms. A full garbage collection walks every
table's objects (about a second at 3,000 tables on a loaded machine), and the SQLite thread
waits for the GIL: by default the bench keeps pauses short as the bot does (bot/pauses.py: a
1 ms switch interval, the tables frozen once made and what is alive every second);
`--no-short-pauses` measures without. `--breakdown` adds where a person's action
spends its CPU time (engine, computer decisions, the SQLite thread, the bench's own person
choosing, the rest of the runtime and asyncio) and how many futures, tasks, callbacks, loop
iterations and SQLite round trips it takes; `--front snapshots` has the runtime build the front
end's snapshots too, as it does for Discord (the default front end builds none).

`--db postgresql://…` puts the store on that PostgreSQL server (a fresh database made on it for
the run and dropped after; synchronous commit on); `--processes N` runs N such benches at once,
one process each, on one database (PostgreSQL) or a file each (SQLite), every one with its own
tables of its own shard (as the bot's processes split guilds), their phases started together;
it prints each process's row and the sum of their saturated rates.

    python bench/load.py --tables 1000,3000,5000 --seconds 20 --think 3 [--synchronous NORMAL]
    python bench/load.py --tables 1000 --level strong --breakdown
    python bench/load.py --tables 500 --level strong --burst 30 --burst-moves 6 \
        --compare-workers 0,2
    python bench/load.py --tables 1000 --db postgresql://localhost/postgres --processes 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# bench/render.py would shadow the render package when run as `python bench/load.py`
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

import data.action_log  # noqa: E402
import engine.hand  # noqa: E402
from bot.discord.config import read_workers, usable_cores  # noqa: E402
from bot.pauses import keep_pauses_short  # noqa: E402
from bot.runtime import (  # noqa: E402
    LiveTable,
    ManualTimers,
    Runtime,
    SchedulerTimers,
    TableError,
    Timers,
)
from bot.runtime.computers import DEFAULT_LEVEL, LEVELS, computer_for  # noqa: E402
from bot.runtime.decisions import DecisionPool  # noqa: E402
from bot.runtime.snapshots import PrivateSnapshot, PublicSnapshot  # noqa: E402
from data import Phase, Store  # noqa: E402
from data.connection import Connection  # noqa: E402
from engine.actions import Action, ActionKind  # noqa: E402
from engine.computer.easy import choose_action  # noqa: E402
from engine.hand import HandState  # noqa: E402

KNEE_MS = 50.0


class SnapshotSink:
    """A front end that takes every snapshot and shows none: the runtime builds them all."""

    async def table_changed(self, snapshot: PublicSnapshot) -> None:
        pass

    async def hand_changed(self, snapshot: PrivateSnapshot) -> None:
        pass


class Breakdown:
    """CPU time (thread time) spent in a few named places, wrapped around their functions."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)
        self._undo: list[Callable[[], None]] = []

    def timed(self, fn: Callable[..., Any], label: str) -> Callable[..., Any]:
        spent = self.spent

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[label] += time.thread_time() - started

        return timed

    def wrap(self, owner: Any, name: str, label: str) -> None:
        self.replace(owner, name, self.timed(owner.__dict__[name], label))

    def replace(self, owner: Any, name: str, value: object) -> None:
        original = owner.__dict__[name]
        setattr(owner, name, value)
        self._undo.append(lambda: setattr(owner, name, original))

    def undoing(self, step: Callable[[], None]) -> None:
        self._undo.append(step)

    def undo(self) -> None:
        for step in reversed(self._undo):
            step()


@dataclass
class Row:
    tables: int
    offered: float  # person actions a second under think time
    p50: float
    p99: float
    saturated: float
    stale: int  # actions refused because a clock had already played for the person
    full_collections: int  # during the think phase
    longest_collection_ms: float  # of any generation, during the think phase
    warmup_p99: float  # of the actions started in the warm-up, not counted above
    # CPU seconds per 1,000 person actions, from the OS: this bot process (its decision
    # workers included) and the PostgreSQL server, in the think phase and saturated
    bot_cpu_think: float = 0.0
    bot_cpu_saturated: float = 0.0
    loop_cpu_think: float = 0.0  # of which the event loop's process (not the workers)
    loop_cpu_saturated: float = 0.0
    server_cpu_think: float = 0.0
    server_cpu_saturated: float = 0.0
    # of the machine's CPU time in the think phase, the share its host took for others
    # (/proc/stat's steal): a run with much stolen measured a slower machine, p99 above all
    stolen_think: float = 0.0
    # how late a sleeping process's 2 ms sleeps ended in the think phase, p99 ms
    # (bench/wake_canary.py): each pooled decision is two wake-ups, so p99 moves with it
    late_wakeups_p99: float = 0.0


class Collections:
    """The garbage collector's pauses while it is watched: how many full collections, and the
    longest pause of any generation (each stops the event loop)."""

    def __init__(self) -> None:
        self.full = 0
        self.longest = 0.0
        self._started = 0.0

    def _watch(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        self.longest = max(self.longest, time.perf_counter() - self._started)
        self.full += info["generation"] == 2

    def __enter__(self) -> Collections:
        gc.callbacks.append(self._watch)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self._watch)


async def make_tables(
    runtime: Runtime, n: int, first: int, level: str, guild_id: int | None = None
) -> list[int]:
    ids = []
    for i in range(first, first + n):
        table = await runtime.create_table(
            "hkos-3-v1",
            creator_id=str(1000 + i),
            creator_name=f"P{i}",
            computers=3,
            time_control="standard",
            level=level,
            guild_id=guild_id,
        )
        await runtime.start_table(table.id, str(1000 + i))
        ids.append(table.id)
    return ids


def drawn_tile_choice(hand: HandState, seat: int) -> Action:
    """A person who decides at once: a win when offered, else the tile just drawn thrown
    (the first offered discard when the turn began with a call), a claim passed, and the first
    offer of anything else (an opening's swap or void). Next to nothing on the bot's CPU, as a
    person deciding on their own device."""
    offered = hand.legal_actions(seat)
    for action in offered:
        if action.kind is ActionKind.WIN:
            return action
    drawn = hand.drawn if hand.turn == seat else None
    for action in offered:
        if action.kind is ActionKind.DISCARD and action.tiles[0] == drawn:
            return action
    for kind in (ActionKind.DISCARD, ActionKind.PASS):
        for action in offered:
            if action.kind is kind:
                return action
    return offered[0]


PERSONS: dict[str, Callable[[HandState, int], Action]] = {
    "drawn": drawn_tile_choice,
    "easy": choose_action,
}
person_choice = drawn_tile_choice  # set from --person


async def human_move(runtime: Runtime, table_id: int, latencies: list[float]) -> bool:
    """One move of the table's person, if it has one (else False); its latency recorded."""
    table = runtime.get(table_id)
    player_id = table.seat(0).player_id
    if table.phase is Phase.BETWEEN_HANDS:
        await runtime.ready(table_id, player_id)
        return True
    if table.hand is None or 0 not in table.players_to_act():
        return False
    action = person_choice(table.hand, table.hand_seat(0))
    started = time.perf_counter()
    await runtime.act(table_id, player_id, action, table.version)
    latencies.append((time.perf_counter() - started) * 1000)
    return True


async def think_phase(
    runtime: Runtime, ids: list[int], seconds: float, think: float, warmup: float
) -> tuple[list[float], list[float], float, int]:
    """Every person acts after a random think time, for `warmup` then `seconds` seconds: the
    latencies of actions started after the warm-up, those started in it, the measured seconds,
    and how many actions a clock had already played.

    The persons all start at once, so the first moments are the bench's own start-up: every
    table's first think timer made in one go (the event loop blocked for tens of ms), then the
    actions that piled up behind it, on the cold caches of freshly dealt hands (a restarted bot
    meets those too, but not 5,000 people acting in the same instant). Their latencies are kept
    apart and printed, not mixed into the steady state's."""
    latencies: list[float] = []
    warm: list[float] = []
    stale = 0
    started = time.perf_counter()
    measure_from = started + warmup
    deadline = measure_from + seconds

    async def person(table_id: int, rng: random.Random) -> None:
        nonlocal stale
        while True:
            pause = rng.expovariate(1 / think)
            if time.perf_counter() + pause > deadline:
                return
            await asyncio.sleep(pause)
            record = latencies if time.perf_counter() >= measure_from else warm
            try:
                await human_move(runtime, table_id, record)
            except TableError:  # the clock played for them first (a claim window's 5 s)
                stale += 1

    await asyncio.gather(*(person(t, random.Random(t)) for t in ids))
    return latencies, warm, time.perf_counter() - measure_from, stale


async def burst_phase(
    runtime: Runtime, ids: list[int], seconds: float, moves: int = 0
) -> tuple[int, float]:
    """Every person acting as soon as their last action is answered, for `seconds`: how many
    person actions were answered, in how many seconds (those under way at the end finish and
    count).

    With `moves`, the burst instead ends when the first person has made that many: two runs
    compared cover the same stretch of their hands, however fast each goes. (A strong decision
    costs more as a hand goes on: 0.95 ms in its first 12 discards, 1.13 in the next 12, 1.34
    after; in a time-boxed burst the faster run goes further into its hands and pays more an
    action.)"""
    done: list[float] = []
    deadline = time.perf_counter() + seconds

    async def person(table_id: int) -> None:
        nonlocal deadline
        made = 0
        while time.perf_counter() < deadline:
            try:
                moved = await human_move(runtime, table_id, done)
            except TableError:
                moved = True
            if not moved:
                await asyncio.sleep(0.01)  # a clock is about to play: let it
            elif moves:
                made += 1
                if made == moves:
                    deadline = min(deadline, time.perf_counter())

    started = time.perf_counter()
    await asyncio.gather(*(person(t) for t in ids))
    return len(done), time.perf_counter() - started


# ------------------------------------------------------------------ several processes


@contextlib.contextmanager
def fresh_database(server: str | None, given: str | None) -> Iterator[str | None]:
    """The run's database: `given` (a process of --processes), else a fresh one made on the
    PostgreSQL `server` and dropped afterwards, else None (a SQLite file)."""
    if given or not server:
        yield given
        return
    import asyncpg

    name = f"mahjong_load_{uuid.uuid4().hex[:12]}"

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(server)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(admin(f"CREATE DATABASE {name}"))
    base, _, _ = server.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        asyncio.run(admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


class Peers:
    """The processes of one --processes run: each waits for the others before a phase (a file
    each in the barrier folder), so their think phases and bursts overlap."""

    def __init__(self, folder: str | None, count: int, shard: int) -> None:
        self.folder = folder
        self.count = count
        # one shard of `count` a process, its tables in a guild of that shard
        self.shards = (count, (shard,)) if folder else None
        self.guild = (shard << 22) if folder else None
        self.shard = shard

    async def meet(self, phase: str) -> None:
        if not self.folder:
            return
        Path(self.folder, f"{phase}.{self.shard}").touch()
        while len(list(Path(self.folder).glob(f"{phase}.*"))) < self.count:
            await asyncio.sleep(0.05)


def run_processes(args: argparse.Namespace) -> int:
    """--processes N: N benches at once on one database; each one's row, and the sums."""
    own: list[str] = []
    skip = False
    for word in sys.argv[1:]:  # this run's arguments but --processes (and --db: made here)
        if skip:
            skip = False
        elif word in ("--processes", "--db"):
            skip = True
        elif not word.startswith(("--processes=", "--db=")):
            own.append(word)
    with tempfile.TemporaryDirectory() as barrier, fresh_database(args.db, None) as db:
        children = []
        for shard in range(args.processes):
            command = [sys.executable, __file__, *own, "--barrier", barrier]
            command += ["--peers", str(args.processes), "--shard", str(shard)]
            if db:
                command += ["--use-db", db]
            children.append(
                subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=os.environ)
            )
        outputs = [child.communicate()[0] for child in children]
    rows = []
    for shard, output in enumerate(outputs):
        print(f"--- process {shard}\n{output}")
        found = [line for line in output.splitlines() if line.startswith("ROWS ")]
        if not found:
            print(f"process {shard} gave no figures", file=sys.stderr)
            return 1
        rows.append(json.loads(found[-1][5:]))
    print(f"{args.processes} processes, {'PostgreSQL' if db else 'a SQLite file each'}:")
    print(
        "| tables a process | actions/s offered (sum) | p99 ms (worst) | saturated (sum) "
        "| bot CPU s/1k actions, each process (think; saturated) | server CPU s/1k (think; "
        "saturated) |"
    )
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for at in range(len(rows[0])):
        each = [r[at] for r in rows]
        offered = sum(r["offered"] for r in each)
        saturated = sum(r["saturated"] for r in each)
        bots = ", ".join(f"{r['bot_cpu_think']:.2f}; {r['bot_cpu_saturated']:.2f}" for r in each)
        # every process meters the whole server over phases they share: the first one's
        # reading, over all the processes' actions
        first = each[0]
        server_think = first["server_cpu_think"] * first["offered"] / max(offered, 1e-9)
        server_saturated = first["server_cpu_saturated"] * first["saturated"] / max(saturated, 1e-9)
        print(
            f"| {first['tables']} | {offered:.0f} | {max(r['p99'] for r in each):.1f} | "
            f"{saturated:.0f} | {bots} | {server_think:.2f}; {server_saturated:.2f} |"
        )
    return 0


def run_compared(args: argparse.Namespace) -> int:
    """--compare-workers A,B: the same bench with A decision workers, then B, alternating
    for --rounds rounds (one process each, one after the other: they share the machine's
    cores with nothing of each other's); every run's rows, then the range of each figure."""
    own: list[str] = []
    skip = False
    for word in sys.argv[1:]:
        if skip:
            skip = False
        elif word in ("--compare-workers", "--rounds", "--workers"):
            skip = True
        elif not word.startswith(("--compare-workers=", "--rounds=", "--workers=")):
            own.append(word)
    settings = [read_workers(w) for w in args.compare_workers.split(",")]
    found: dict[int, list[list[dict[str, float]]]] = {w: [] for w in settings}
    for round_ in range(args.rounds):
        for workers in settings:
            command = [sys.executable, __file__, *own, "--workers", str(workers)]
            output = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=True).stdout
            rows = [line for line in output.splitlines() if line.startswith("ROWS ")]
            print(f"--- round {round_ + 1}, {workers} decision workers\n{output}", flush=True)
            found[workers].append(json.loads(rows[-1][5:]))
    cores = usable_cores()
    print("decision workers compared, ranges over the rounds (low–high):")
    print(
        "| tables | workers | saturated actions/s | p99 ms, each round (wake-ups late, p99 ms) "
        "| bot CPU s/1k actions (saturated) "
        f"| of which the event loop's | capacity from CPU on {cores} idle cores, actions/s |"
    )
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")

    def spread(values: list[float], form: str) -> str:
        return f"{min(values):{form}}–{max(values):{form}}"

    for at in range(len(found[settings[0]][0])):
        for workers in settings:
            rows = [run[at] for run in found[workers]]
            # the event loop's process is one core; the workers take what the others give
            usable = min(cores, workers + 1)
            capacity = [
                min(1000 / r["loop_cpu_saturated"], usable * 1000 / r["bot_cpu_saturated"])
                for r in rows
            ]
            p99s = [f"{r['p99']:.1f} ({r['late_wakeups_p99']:.1f})" for r in rows]
            print(
                f"| {rows[0]['tables']:.0f} | {workers} | "
                f"{spread([r['saturated'] for r in rows], '.0f')} | "
                f"{', '.join(p99s)} | "
                f"{spread([r['bot_cpu_saturated'] for r in rows], '.2f')} | "
                f"{spread([r['loop_cpu_saturated'] for r in rows], '.2f')} | "
                f"{spread(capacity, '.0f')} |"
            )
    return 0


def percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


_TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int) -> float | None:
    """CPU seconds (user and system) the OS has charged process `pid` so far (/proc); None
    once it has ended."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / _TICKS  # utime, stime


class WakeCanary:
    """bench/wake_canary.py in a process apart for `seconds`: how late wake-ups came then."""

    def __init__(self, seconds: float) -> None:
        script = str(ROOT / "bench" / "wake_canary.py")
        command = [sys.executable, script, f"{seconds:.3f}"]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)

    async def p99_ms(self) -> float:
        """Its p99 lateness in ms, once it has run its time."""
        out, _ = await asyncio.to_thread(self.process.communicate)
        words = out.split()
        return float(words[words.index("p99") + 1])


def machine_stolen() -> float:
    """CPU seconds the host of this virtual machine has taken from all its CPUs so far, for
    other guests (/proc/stat's steal; 0 where the OS does not count it)."""
    try:
        return int(Path("/proc/stat").read_text().split("\n", 1)[0].split()[8]) / _TICKS
    except (OSError, IndexError, ValueError):
        return 0.0


class CpuMeter:
    """CPU seconds of this bot process (with its decision workers) and of the PostgreSQL
    server it writes to (every process the server lists in pg_stat_activity: backends,
    WAL writer, checkpointer...), read from the OS: `cpu()` is a reading, `per_thousand`
    the CPU between two readings per 1,000 actions. The server is read from /proc, so only on
    this machine; a process that started or ended between two readings is not counted."""

    def __init__(self, runtime: Runtime, server_pids: list[int]) -> None:
        self.runtime = runtime
        self.server_pids = server_pids

    def cpu(self) -> dict[str, float]:
        """Per process, CPU seconds so far: "loop" is the bot's own process (the event loop
        and its threads), "worker <pid>" its decision workers, "server <pid>" PostgreSQL's."""
        own = os.times()
        found: dict[str, float | None] = {"loop": own.user + own.system}
        pool = self.runtime.decisions
        for pid in pool.worker_pids() if pool is not None else ():
            found[f"worker {pid}"] = process_cpu(pid)
        for pid in self.server_pids:
            found[f"server {pid}"] = process_cpu(pid)
        return {name: seconds for name, seconds in found.items() if seconds is not None}


def per_thousand(
    before: dict[str, float], after: dict[str, float], actions: int
) -> tuple[float, float, float]:
    """CPU seconds per 1,000 actions between two readings: the bot (its workers included),
    the server, the bot's event loop alone."""
    n = max(1, actions) / 1000
    spent = {name: after[name] - before[name] for name in after.keys() & before.keys()}
    bot = sum(v for name, v in spent.items() if not name.startswith("server"))
    server = sum(v for name, v in spent.items() if name.startswith("server"))
    return bot / n, server / n, spent["loop"] / n


async def server_pids(db: str | None) -> list[int]:
    """The PostgreSQL server's processes (none for a SQLite file)."""
    if not db or not db.startswith("postgres"):
        return []
    import asyncpg

    conn = await asyncpg.connect(db)
    try:
        rows = await conn.fetch("SELECT pid FROM pg_stat_activity")
    finally:
        await conn.close()
    return [row["pid"] for row in rows]


async def run(args: argparse.Namespace) -> None:
    global person_choice
    person_choice = PERSONS[args.person]
    counts = sorted(int(n) for n in args.tables.split(","))
    computer_for(args.level)  # refuses a level this build lacks, before any table is made
    breakdown = Breakdown() if args.breakdown else None
    peers = Peers(args.barrier, args.peers, args.shard)
    with tempfile.TemporaryDirectory() as folder:
        db = args.use_db or str(Path(folder) / "load.db")
        store = await Store.open(db, synchronous=args.synchronous)
        timers: Timers = SchedulerTimers() if args.timers == "scheduler" else ManualTimers()
        front = SnapshotSink() if args.front == "snapshots" else None
        runtime = Runtime(
            store,
            front,
            timers,
            seed_source=lambda: random.getrandbits(32),
            shards=peers.shards,
            decisions=DecisionPool(args.workers) if args.workers else None,
        )
        await runtime.open()
        if runtime.decisions is not None:
            await runtime.decisions.ready()
        meter: CpuMeter | None = None
        ids: list[int] = []
        rows: list[Row] = []
        kb_per_table = 0.0
        pauses: asyncio.Task[None] | None = None
        for count in counts:
            adding = count - len(ids)
            started = time.perf_counter()
            if not ids:
                gc.collect()
                tracemalloc.start()
                before = tracemalloc.take_snapshot()
                ids += await make_tables(runtime, adding, len(ids), args.level, peers.guild)
                gc.collect()
                after = tracemalloc.take_snapshot()
                tracemalloc.stop()
                held = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
                kb_per_table = held / adding / 1024
            else:
                ids += await make_tables(runtime, adding, len(ids), args.level, peers.guild)
            print(f"{count} tables ready ({adding} made in {time.perf_counter() - started:.1f} s)")
            if meter is None:  # the store's connections are open by now
                meter = CpuMeter(runtime, await server_pids(args.use_db))
            if args.short_pauses and pauses is None:  # as the bot does once restored
                pauses = asyncio.create_task(keep_pauses_short())
                await asyncio.sleep(0)
            elif args.short_pauses:  # tables added since: long-lived, like restored ones
                gc.collect()
                gc.freeze()
            await peers.meet(f"think-{count}")
            think_from = meter.cpu()
            stolen_from, think_started = machine_stolen(), time.perf_counter()
            canary = WakeCanary(args.warmup + args.seconds)
            with Collections() as collections:
                latencies, warm, elapsed, stale = await think_phase(
                    runtime, ids, args.seconds, args.think, args.warmup
                )
            late_wakeups = await canary.p99_ms()
            think_cpu = per_thousand(think_from, meter.cpu(), len(latencies) + len(warm))
            machine_seconds = (time.perf_counter() - think_started) * (os.cpu_count() or 1)
            stolen = (machine_stolen() - stolen_from) / machine_seconds * 100
            if breakdown is not None and count == counts[-1]:
                await show_breakdown(runtime, ids, args.burst, breakdown)
            await peers.meet(f"burst-{count}")
            burst_from = meter.cpu()
            answered, burst_s = await burst_phase(runtime, ids, args.burst, args.burst_moves)
            burst_cpu = per_thousand(burst_from, meter.cpu(), answered)
            saturated = answered / burst_s
            ordered = sorted(latencies)
            row = Row(
                count,
                len(ordered) / elapsed,
                statistics.median(ordered) if ordered else 0.0,
                percentile(ordered, 0.99),
                saturated,
                stale,
                collections.full,
                collections.longest * 1000,
                percentile(sorted(warm), 0.99),
                bot_cpu_think=think_cpu[0],
                bot_cpu_saturated=burst_cpu[0],
                server_cpu_think=think_cpu[1],
                server_cpu_saturated=burst_cpu[1],
                loop_cpu_think=think_cpu[2],
                loop_cpu_saturated=burst_cpu[2],
                stolen_think=stolen,
                late_wakeups_p99=late_wakeups,
            )
            rows.append(row)
            print(
                f"  {row.offered:.0f} actions/s offered: p50 {row.p50:.1f} ms, p99 "
                f"{row.p99:.1f} ms; saturated {row.saturated:.0f}/s; the {args.warmup:g} s "
                f"warm-up, not counted: {len(warm)} actions, p99 {row.warmup_p99:.1f} ms; CPU s "
                f"per 1,000 actions: bot {row.bot_cpu_think:.2f} thinking, "
                f"{row.bot_cpu_saturated:.2f} saturated (its event loop "
                f"{row.loop_cpu_think:.2f}, {row.loop_cpu_saturated:.2f}); the host took "
                f"{row.stolen_think:.0f}% of the machine's CPU while thinking, and a sleeping "
                f"process woke up to {row.late_wakeups_p99:.1f} ms late (p99)"
                + (
                    f", server {row.server_cpu_think:.2f}, {row.server_cpu_saturated:.2f}"
                    if args.use_db
                    else ""
                )
            )
        if pauses is not None:
            pauses.cancel()
        await runtime.close()
        await store.close()
    print()
    print(
        f"synchronous={args.synchronous}, level={args.level}, think {args.think} s, "
        f"timers={args.timers}, front={args.front}, short_pauses={args.short_pauses}, "
        f"person={args.person}, decision workers={args.workers}"
    )
    print(
        "| tables | actions/s offered | p50 ms | p99 ms | saturated actions/s | clock first "
        "| full collections | longest collection ms | warm-up p99 ms "
        "| bot CPU s/1k actions (think; saturated) | server CPU s/1k | stolen while thinking "
        "| wake-ups late, p99 ms |"
    )
    print("| ---: " * 13 + "|")
    for row in rows:
        print(
            f"| {row.tables} | {row.offered:.0f} | {row.p50:.1f} | {row.p99:.1f} | "
            f"{row.saturated:.0f} | {row.stale} | {row.full_collections} | "
            f"{row.longest_collection_ms:.1f} | {row.warmup_p99:.1f} | "
            f"{row.bot_cpu_think:.2f}; {row.bot_cpu_saturated:.2f} | "
            f"{row.server_cpu_think:.2f}; {row.server_cpu_saturated:.2f} | "
            f"{row.stolen_think:.0f}% | {row.late_wakeups_p99:.1f} |"
        )
    knee = next((row.tables for row in rows if row.p99 > KNEE_MS), None)
    print(f"knee (p99 > {KNEE_MS:.0f} ms): {knee if knee is not None else f'beyond {counts[-1]}'}")
    print(f"memory: {kb_per_table:.1f} KB per table")
    print("ROWS " + json.dumps([dataclasses.asdict(row) for row in rows]))


class Counts:
    """How often the event loop and the store do a few things, counted on the running loop's
    methods and the store's functions (wrapped, like Breakdown's timings)."""

    def __init__(self, breakdown: Breakdown) -> None:
        self.seen: dict[str, int] = defaultdict(int)
        loop = asyncio.get_running_loop()
        for name, label in (
            ("create_future", "futures made"),
            ("create_task", "tasks made"),
            ("call_soon", "callbacks scheduled"),
            ("call_soon_threadsafe", "wake-ups from the SQLite thread"),
            ("_run_once", "event loop iterations"),
        ):
            self._count(breakdown, loop, name, label, getattr(loop, name))
        self._count(breakdown, Connection, "call", "SQLite round trips", Connection.call)
        self._count(breakdown, Store, "append_actions", "appends (one per run)", None)

    def _count(
        self, breakdown: Breakdown, owner: Any, name: str, label: str, fn: Any | None
    ) -> None:
        seen, original = self.seen, fn if fn is not None else owner.__dict__[name]

        def counted(*args: Any, **kwargs: Any) -> Any:
            seen[label] += 1
            return original(*args, **kwargs)

        if isinstance(owner, type):
            breakdown.replace(owner, name, counted)
        else:  # an instance: its own attribute hides the class's method until deleted
            setattr(owner, name, counted)
            breakdown.undoing(lambda: delattr(owner, name))


async def show_breakdown(
    runtime: Runtime, ids: list[int], seconds: float, breakdown: Breakdown
) -> None:
    """A saturated burst with the CPU time of each part measured per person action, and how
    many futures, tasks, loop iterations and SQLite round trips each action takes."""
    breakdown.wrap(engine.hand.HandState, "apply", "engine: applying actions")
    computer = breakdown.timed(computer_for(runtime.get(ids[0]).level), "computer decisions")
    breakdown.replace(LiveTable, "computer", property(lambda table: computer))
    breakdown.wrap(data.action_log, "append_batch", "SQLite: group commits (worker thread)")
    breakdown.wrap(sys.modules[__name__], "person_choice", "the bench's person choosing (load)")
    counts = Counts(breakdown)
    main_before, process_before = time.thread_time(), time.process_time()
    answered, wall = await burst_phase(runtime, ids, seconds)
    main = time.thread_time() - main_before
    process = time.process_time() - process_before
    breakdown.undo()
    n = max(1, answered)
    spent = breakdown.spent
    in_main = sum(v for k, v in spent.items() if not k.startswith("SQLite"))
    print(f"  breakdown: {answered} person actions in {wall:.2f} s wall, {process:.2f} s CPU")
    for label, seconds_spent in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(f"    {label:44s} {seconds_spent * 1e6 / n:7.1f} us")
    rest = (main - in_main) * 1e6 / n
    print(f"    {'runtime and asyncio (the rest)':44s} {rest:7.1f} us")
    print(f"    {'CPU per person action':44s} {process * 1e6 / n:7.1f} us")
    print(f"    {'so one core saturates at':44s} {n / process:7.0f} actions/s")
    print("    per person action:")
    for label, seen in counts.seen.items():
        print(f"      {label:42s} {seen / n:7.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--tables", default="1000,3000,5000", help="table counts, rising")
    parser.add_argument("--seconds", type=float, default=20.0, help="think phase per count")
    parser.add_argument("--burst", type=float, default=5.0, help="saturated phase per count")
    parser.add_argument(
        "--burst-moves",
        type=int,
        default=0,
        help="end the saturated phase when the first person has made this many moves (at"
        " most --burst seconds): runs compared cover the same stretch of their hands",
    )
    parser.add_argument("--think", type=float, default=3.0)
    parser.add_argument(
        "--warmup",
        type=float,
        default=3.0,
        help="seconds of the think phase played before latencies count (its p99 is printed"
        " apart): every person starting at once is the bench's own transient",
    )
    parser.add_argument("--synchronous", default="FULL", choices=["FULL", "NORMAL"])
    parser.add_argument("--level", default=DEFAULT_LEVEL, choices=LEVELS)
    parser.add_argument("--timers", default="scheduler", choices=["scheduler", "manual"])
    parser.add_argument("--front", default="none", choices=["none", "snapshots"])
    parser.add_argument(
        "--person",
        default="drawn",
        choices=sorted(PERSONS),
        help="how the bench's persons decide: 'drawn' wins when offered and else throws the"
        " drawn tile and passes claims, costing the process next to nothing as a person's own"
        " decision does; 'easy' decides as the easy computer, on the process's CPU (the"
        " bench's choice before 2026-12)",
    )
    parser.add_argument("--breakdown", action="store_true")
    parser.add_argument(
        "--workers",
        type=read_workers,
        default=read_workers("0"),
        help="decision worker processes for the strong computer (bot/runtime/decisions.py; "
        "the bot's MAHJONG_DECISION_WORKERS; '' is the cores this process may use); "
        "default 0, inline",
    )
    parser.add_argument(
        "--compare-workers",
        help="e.g. 0,2: the bench with each count of decision workers, alternating",
    )
    parser.add_argument("--rounds", type=int, default=2, help="rounds of --compare-workers")
    parser.add_argument("--db", help="a postgresql://… server: the run's database is made on it")
    parser.add_argument("--processes", type=int, default=1, help="benches at once, one database")
    parser.add_argument("--use-db", help=argparse.SUPPRESS)  # a process of --processes: this one
    parser.add_argument("--barrier", help=argparse.SUPPRESS)  # ... meeting its peers here
    parser.add_argument("--peers", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--shard", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument(
        "--short-pauses",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the bot's policy against event-loop pauses (bot/pauses.py, the default): a 1 ms"
        " switch interval, the tables frozen once made and what is alive every second",
    )
    args = parser.parse_args()
    if args.compare_workers:
        sys.exit(run_compared(args))
    if args.processes > 1:
        sys.exit(run_processes(args))
    with fresh_database(args.db, args.use_db) as db:
        args.use_db = db
        asyncio.run(run(args))


if __name__ == "__main__":
    main()
