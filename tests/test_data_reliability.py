"""Crash safety: a writer killed with SIGKILL at random points leaves a consistent database.

The writer (tests/data_writer_proc.py) plays several tables at once into one file and notes
every write the store confirmed. It is killed at a random moment, 30 times over the same file
(some kills land during start-up and migration), and after each kill the database must hold:
no half-applied hand, no rating without its history row (or the reverse), contiguous action
logs, ratings equal to the sum of their history, and every confirmed write.

How much the writer gets done between kills is a speed, so it is a benchmark figure
(`python bench/store.py` prints it), not an assertion here: each kill after start-up waits
for the writer's progress (a few confirmed writes), not for a time.
"""

from __future__ import annotations

import itertools
import math
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

from data import Store
from data.migrations import LATEST_VERSION
from data.rating import START_RATING

WRITER = Path(__file__).with_name("data_writer_proc.py")
ROOT = Path(__file__).resolve().parent.parent
KILLS = 30
PROGRESS = 5  # confirmed writes (after `ready`) before a kill is allowed


def check_invariants(path: Path) -> dict[str, int]:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        q = conn.execute
        version = q("PRAGMA user_version").fetchone()[0]
        if version < LATEST_VERSION:
            # Killed while migrating: each step is whole (its version and its tables agree),
            # nothing else was written yet, and the next start carries on.
            names = {r[0] for r in q("SELECT name FROM sqlite_master WHERE type = 'table'")}
            assert ("tables" in names) == (version >= 1)
            assert ("ratings" in names) == (version >= 2)
            assert ("table_events" in names) == (version >= 3)
            if version >= 1:
                assert q("SELECT count(*) FROM tables").fetchone() == (0,)
            return {"actions": 0, "results": 0, "rating_rows": 0}
        assert version == LATEST_VERSION

        # A hand is finished exactly when it has a result; a result has all its seats.
        assert q(
            "SELECT count(*) FROM hands h LEFT JOIN hand_results r ON r.hand_id = h.id"
            " WHERE (h.status = 'finished') != (r.hand_id IS NOT NULL)"
        ).fetchone() == (0,)
        assert q(
            "SELECT count(*) FROM hand_results r WHERE"
            " (SELECT count(*) FROM hand_players p WHERE p.hand_id = r.hand_id) != 4"
        ).fetchone() == (0,)

        # Rating history exists exactly for rated hands with two or more humans, one row each.
        bad = q(
            "SELECT r.hand_id FROM hand_results r WHERE"
            " (SELECT count(*) FROM rating_history h WHERE h.hand_id = r.hand_id) !="
            " CASE WHEN r.rated = 1 AND (SELECT count(*) FROM hand_players p"
            "       WHERE p.hand_id = r.hand_id AND p.human = 1) >= 2"
            "  THEN (SELECT count(*) FROM hand_players p WHERE p.hand_id = r.hand_id"
            "        AND p.human = 1) ELSE 0 END"
        ).fetchall()
        assert bad == []
        assert q(
            "SELECT count(*) FROM rating_history h LEFT JOIN hand_players p"
            " ON p.hand_id = h.hand_id AND p.player_id = h.player_id"
            " WHERE p.hand_id IS NULL OR p.human = 0"
        ).fetchone() == (0,)

        # Each rating is its history: games = rows, the rows chain before -> after from 1,500.
        history: dict[tuple[str, str], list[tuple[int, float, float]]] = defaultdict(list)
        for pid, preset, games, before, after in q(
            "SELECT player_id, preset, games_after, rating_before, rating_after FROM rating_history"
        ):
            history[pid, preset].append((games, before, after))
        ratings = {
            (pid, preset): (r, g)
            for pid, preset, r, g in q("SELECT player_id, preset, rating, games FROM ratings")
        }
        assert set(ratings) == set(history)
        for key, rows in history.items():
            rows.sort()
            assert [g for g, _, _ in rows] == list(range(1, len(rows) + 1)), key
            assert rows[0][1] == START_RATING
            for (_, _, prev_after), (_, before, _) in itertools.pairwise(rows):
                assert before == prev_after, key
            assert ratings[key] == (rows[-1][2], len(rows)), key
            total = START_RATING + math.fsum(a - b for _, b, a in rows)
            assert ratings[key][0] == pytest.approx(total, abs=1e-6)

        # The leaderboard's per-games tally matches the ratings it summarises.
        tally = set(q("SELECT preset, games, players FROM rating_counts WHERE players > 0"))
        assert tally == set(q("SELECT preset, games, count(*) FROM ratings GROUP BY preset, games"))

        # Logs are contiguous; the table's last-action time covers its latest action.
        assert q(
            "SELECT count(*) FROM (SELECT hand_id FROM actions GROUP BY hand_id"
            " HAVING count(*) != max(seq) + 1 OR min(seq) != 0)"
        ).fetchone() == (0,)
        assert q(
            "SELECT count(*) FROM actions a JOIN hands h ON h.id = a.hand_id"
            " JOIN tables t ON t.id = h.table_id WHERE a.at > t.last_action_at"
        ).fetchone() == (0,)
        # A table in play points at a hand in play; others point at none.
        assert q(
            "SELECT count(*) FROM tables t LEFT JOIN hands h ON h.id = t.current_hand_id"
            " WHERE (t.phase = 'playing') != (h.status IS 'playing')"
        ).fetchone() == (0,)
        return {
            "actions": q("SELECT count(*) FROM actions").fetchone()[0],
            "results": q("SELECT count(*) FROM hand_results").fetchone()[0],
            "rating_rows": q("SELECT count(*) FROM rating_history").fetchone()[0],
        }
    finally:
        conn.close()


def check_confirmed_writes(path: Path, ack: Path) -> int:
    """Every write the writer saw confirmed is in the database. Returns how many."""
    text = ack.read_text() if ack.exists() else ""
    lines = text.split("\n")[:-1]  # a torn last line was never confirmed
    conn = sqlite3.connect(path)
    try:
        for line in lines:
            kind, *rest = line.split()
            if kind == "A":
                hid, seq = map(int, rest)
                assert conn.execute(
                    "SELECT 1 FROM actions WHERE hand_id = ? AND seq = ?", (hid, seq)
                ).fetchone(), f"confirmed action {hid}/{seq} lost"
            elif kind == "R":
                assert conn.execute(
                    "SELECT 1 FROM hand_results WHERE hand_id = ?", (int(rest[0]),)
                ).fetchone(), f"confirmed result of hand {rest[0]} lost"
    finally:
        conn.close()
    return len(lines)


def wait_for_ready(ack: Path, proc: subprocess.Popen, writes: int = 0, timeout: float = 60) -> None:
    """Until the writer has opened the store and confirmed `writes` writes (the timeout is
    only there so a broken writer fails the test instead of hanging it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = ack.read_text() if ack.exists() else ""
        if text.startswith("ready\n") and text.count("\n") > writes:
            return
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        time.sleep(0.005)
    raise AssertionError(f"writer did not start and confirm {writes} writes")


def test_sigkill_at_random_points_leaves_a_consistent_database(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    rng = random.Random(2024)
    confirmed = 0
    for kill in range(KILLS):
        ack = tmp_path / f"ack{kill}.txt"
        proc = subprocess.Popen(
            [sys.executable, str(WRITER), str(db), str(ack), str(kill)],
            cwd=ROOT,
            stderr=subprocess.PIPE,
        )
        try:
            if kill % 6 == 0:
                time.sleep(rng.uniform(0.0, 0.4))  # during start-up, imports or migrations
            else:
                wait_for_ready(ack, proc, writes=PROGRESS)
                time.sleep(rng.uniform(0.0, 0.25))
            assert proc.poll() is None, f"writer exited early: {proc.stderr.read().decode()}"
            proc.send_signal(signal.SIGKILL)
        finally:
            proc.wait()
        assert proc.returncode == -signal.SIGKILL
        if db.exists():
            stats = check_invariants(db)
            confirmed += check_confirmed_writes(db, ack)
    # Every kill after start-up came after PROGRESS confirmed writes, all of them checked.
    assert confirmed >= PROGRESS * sum(1 for kill in range(KILLS) if kill % 6) and stats["actions"]


async def test_store_reopens_and_continues_after_the_crashes(tmp_path: Path) -> None:
    """After a kill, the bot's start-up path (open, load, expire) works on the file."""
    db = tmp_path / "after.db"
    ack = tmp_path / "ack.txt"
    proc = subprocess.Popen([sys.executable, str(WRITER), str(db), str(ack), "7"], cwd=ROOT)
    try:
        wait_for_ready(ack, proc)
        time.sleep(0.3)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    store = await Store.open(str(db))
    loaded, bad = await store.load_active_tables()
    assert bad == []
    for lt in loaded:
        if lt.hand is not None:
            # The restored log is exactly the prefix the writer got to; the next append fits.
            await store.append_action(lt.table.id, lt.hand.hand_id, "0 pass", lt.hand.version)
    closed = await store.expire_idle(now=time.time() + 2 * 86400)
    assert sorted(closed) == sorted(lt.table.id for lt in loaded)
    await store.close()
    check_invariants(db)
