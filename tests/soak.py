"""The kill soak: random SIGKILLs of a table writer during whole hands, with restarts.

    python -m tests.soak --kills 200 [--seed 1] [--hands 3]

Tables of one human and three computers (casual), of four humans (rated) and of four humans
playing a game that ends after two hands and rates once (per-game ratings, as Riichi's) are
played by tests/runtime_writer_proc.py, hand after hand. Each run is killed with SIGKILL:
either right after a random database call (a kill between two commits), or from outside after
a random delay (anywhere, a commit in flight included); then the writer is started again on the
same database, restores the table and plays on, until the table has played its hands. After
every kill the database is checked: `PRAGMA integrity_check` ok, the log only grew (nothing
stored changed or went), every action the runtime confirmed is in the log, each finished hand
has its result and (rated) ratings exactly once, a finished game its standings and ratings
with its last hand's result. A restarted table that cannot move on counts as stuck. The last
line reads `kills: N, tables stuck: 0, actions lost: 0, doubled: 0`; the exit status is 1 if
any count but kills is not zero.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tests.runtime_writer_proc import Audit, audit, read_acks, run_writer

MODES = ("cpu", "rated", "game")
CALLS_PER_RUN = {"cpu": 25, "rated": 60, "game": 60}  # kill points: about a hand's calls at most
CLICKS_PER_RUN = 12  # a click-timed kill falls after one of a run's first clicks
RUNS_PER_TABLE = 400  # a table that needs more restarts than this to play its hands is stuck


@dataclass
class Tally:
    kills: int = 0
    stuck: int = 0
    lost: int = 0
    doubled: int = 0
    other: list[str] = field(default_factory=list)
    tables: int = 0
    hands: int = 0

    @property
    def clean(self) -> bool:
        return not (self.stuck or self.lost or self.doubled or self.other)

    def line(self) -> str:
        return (
            f"kills: {self.kills}, tables stuck: {self.stuck}, actions lost: {self.lost}, "
            f"doubled: {self.doubled}"
        )


def run_once(db: str, ack: Path, mode: str, hands: int, rng: random.Random) -> int:
    """One writer run, killed after a random database call or at a random moment."""
    kill_at = 0
    delay = None
    after_click = ""
    chance = rng.random()
    if chance < 0.4:
        kill_at = rng.randint(1, CALLS_PER_RUN[mode])
    elif chance < 0.8:  # 0-400 ms after a click began: its commit, the moves after it
        after_click = f"{rng.randint(1, CLICKS_PER_RUN)}:{rng.randint(0, 400)}"
    else:
        delay = rng.uniform(0.05, 1.0)
    return run_writer(db, ack, mode, kill_at, hands, after_click, kill_after=delay, seconds=120)


def check(db: str, ack: Path, previous: Audit | None, tally: Tally) -> Audit:
    """Check the database after a run; count what was lost or doubled."""
    acked, _ = read_acks(str(ack))
    found = audit(db, acked)
    name = ack.stem
    if found.integrity != "ok":
        tally.other.append(f"{name}: integrity_check says {found.integrity}")
    for problem in found.problems:
        if problem.startswith("lost"):
            tally.lost += 1
        elif "rating rows" in problem or "games" in problem or "placement" in problem:
            tally.doubled += 1
        else:
            tally.other.append(f"{name}: {problem}")
    if previous is not None:
        for hand_id, lines in previous.hands.items():
            now = found.hands.get(hand_id, [])
            if now[: len(lines)] != lines:
                tally.lost += 1
                tally.other.append(f"{name}: the log of hand {hand_id} changed")
        if found.finished < previous.finished:
            tally.other.append(f"{name}: a recorded result went away")
    return found


def soak(
    kills: int,
    seed: int = 1,
    hands: int = 3,
    folder: Path | None = None,
    place: Callable[[str], str] | None = None,
    modes: Sequence[str] = MODES,
) -> Tally:
    """Play tables under random kills until `kills` kills were made; return the counts.

    `place(name)` gives each table's database (a fresh PostgreSQL one, say); by default a
    SQLite file in a temporary folder. The tables take turns at `modes`."""
    rng = random.Random(seed)
    tally = Tally()
    with tempfile.TemporaryDirectory(dir=folder) as work:
        while tally.kills < kills:
            mode = modes[tally.tables % len(modes)]
            name = f"table-{tally.tables}-{mode}"
            ack = Path(work) / f"{name}.ack"
            db = place(name) if place is not None else str(Path(work) / f"{name}.db")
            tally.tables += 1
            previous: Audit | None = None
            for _ in range(RUNS_PER_TABLE):
                code = run_once(db, ack, mode, hands, rng)
                if code == -signal.SIGKILL:
                    tally.kills += 1
                elif code == 3:  # the writer found its restored table unable to move on
                    tally.stuck += 1
                elif code == 4:  # a control used before would have been accepted again
                    tally.doubled += 1
                elif code != 0:
                    tally.other.append(f"{name}: the writer exited {code}")
                if place is not None or os.path.exists(db):
                    previous = check(db, ack, previous, tally)
                if code != -signal.SIGKILL:
                    break  # played to the end, or stuck, or failed: the next table
            else:
                tally.stuck += 1
            tally.hands += previous.finished if previous else 0
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.soak", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--kills", type=int, default=200, help="SIGKILLs to make (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the kill points")
    parser.add_argument("--hands", type=int, default=3, help="hands each table plays")
    args = parser.parse_args(argv)
    started = time.monotonic()
    tally = soak(args.kills, args.seed, args.hands)
    for problem in tally.other[:20]:
        print(f"problem: {problem}")
    print(
        f"tables: {tally.tables}, hands recorded: {tally.hands}, {time.monotonic() - started:.0f} s"
    )
    print(tally.line())
    return 0 if tally.clean else 1


if __name__ == "__main__":
    sys.exit(main())
