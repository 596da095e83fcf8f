"""The group commit (data/group_commit.py): the SQLite thread takes a full next batch itself, every
write shares the commit in its own savepoint, a table's writes keep their order, a failed
commit fails all of its batch."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest

from data import (
    HandNotActiveError,
    HandResult,
    Phase,
    SeatRow,
    StaleVersionError,
    Store,
    StoreError,
    TableOptions,
    action_log,
)
from data.group_commit import MAX_BATCH, Write

PRESET = "hkos-3-v1"
PATIENCE = 30.0  # seconds a thread may take to get somewhere on a loaded machine


@pytest.fixture
async def store() -> AsyncIterator[Store]:
    s = await Store.open(":memory:", clock=lambda: 1_700_000_000.0)
    yield s
    await s.close()


class Commits:
    """action_log.append_batch watched: each commit's size and what ran on the thread in
    order; the first commit can be held until `release` (to queue writes behind it)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, hold_first: bool = False) -> None:
        self.real = action_log.append_batch
        self.sizes: list[int] = []
        self.order: list[str] = []
        self.held = hold_first
        self.first_started = threading.Event()
        self.released = threading.Event()
        self.second_started = threading.Event()
        monkeypatch.setattr(action_log, "append_batch", self.commit)

    def commit(self, conn: sqlite3.Connection, batch: Sequence[Any]) -> list[object]:
        self.sizes.append(len(batch))
        self.order.append(f"commit of {len(batch)}")
        if len(self.sizes) == 1:
            self.first_started.set()
            if self.held:
                assert self.released.wait(PATIENCE)
        elif len(self.sizes) == 2:
            self.second_started.set()
        return self.real(conn, batch)

    async def first_in_flight(self) -> None:
        assert await asyncio.to_thread(self.first_started.wait, PATIENCE)


def nothing(conn: sqlite3.Connection) -> None:
    """A write that writes nothing: the group commit's own cost is what is tested."""


async def queued(store: Store, count: int) -> list[asyncio.Task[Any]]:
    """`count` writes given to the group commit (each caller waiting for its commit)."""
    tasks = [asyncio.create_task(store._write(None, nothing)) for _ in range(count)]
    await asyncio.sleep(0)  # each task runs up to its wait: its write is queued
    return tasks


# ---------------------------------------------------------------- the thread takes the next batch


async def test_a_full_batch_starts_the_moment_the_commit_in_flight_ends(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a full batch waiting behind a commit, the SQLite thread starts the next commit by
    itself: the event loop is blocked from the end of the first commit until the second has
    started (a thread waiting for the loop to send it more would wait for ever)."""
    commits = Commits(monkeypatch, hold_first=True)
    first = await queued(store, 1)
    await commits.first_in_flight()
    rest = await queued(store, MAX_BATCH + 10)
    commits.released.set()
    assert commits.second_started.wait(PATIENCE)  # blocks the loop: only the thread moves
    await asyncio.gather(*first, *rest)
    assert commits.sizes == [1, MAX_BATCH, 10]


async def test_a_partial_batch_waits_for_the_commit_in_flight_and_gathers_more(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writes queued while a commit is in flight all go in the next one, however they came
    (nothing is sent on as soon as it arrives: light load keeps its batching)."""
    commits = Commits(monkeypatch, hold_first=True)
    first = await queued(store, 1)
    await commits.first_in_flight()
    early = await queued(store, 5)
    for _ in range(5):
        await asyncio.sleep(0)
    late = await queued(store, 5)
    assert commits.sizes == [1]
    commits.released.set()
    await asyncio.gather(*first, *early, *late)
    assert commits.sizes == [1, 10]


async def test_after_a_partial_batch_the_thread_waits_for_the_loop_to_send_the_next(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Less than a full batch behind a commit is not taken by the thread at once: it waits for
    the event loop (blocked here), gathering more, so a busy disk sees fewer commits."""
    commits = Commits(monkeypatch, hold_first=True)
    first = await queued(store, 1)
    await commits.first_in_flight()
    rest = await queued(store, 10)
    commits.released.set()
    assert not commits.second_started.wait(0.5)  # the loop is blocked: nothing sent on
    await asyncio.gather(*first, *rest)
    assert commits.sizes == [1, 10]


async def test_a_read_waiting_for_the_thread_goes_between_two_commits(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The thread, committing batch after batch, gives itself back to a read waiting for it
    (a saturated queue does not hold reads back until it is empty)."""
    commits = Commits(monkeypatch, hold_first=True)
    first = await queued(store, 1)
    await commits.first_in_flight()
    rest = await queued(store, 3 * MAX_BATCH)
    read = asyncio.create_task(store._call(lambda conn: commits.order.append("read")))
    await asyncio.sleep(0)
    commits.released.set()
    await asyncio.gather(read, *first, *rest)
    assert commits.order == ["commit of 1", "read"] + [f"commit of {MAX_BATCH}"] * 3


async def test_the_connection_counts_the_calls_waiting_for_its_thread(store: Store) -> None:
    """What the thread asks before taking the next batch: calls given to it, not started."""
    running, released = threading.Event(), threading.Event()

    def hold(conn: sqlite3.Connection) -> None:
        running.set()
        assert released.wait(PATIENCE)

    held = asyncio.create_task(store._call(hold))
    assert await asyncio.to_thread(running.wait, PATIENCE)
    assert store._db.calls_waiting == 0  # the one running is not waiting
    after = asyncio.create_task(store._call(nothing))
    await asyncio.sleep(0)
    assert store._db.calls_waiting == 1
    released.set()
    await asyncio.gather(held, after)
    assert store._db.calls_waiting == 0


# ---------------------------------------------------------------- every write shares the commit


async def tables_in_play(store: Store, count: int) -> list[tuple[int, int]]:
    found = []
    for n in range(count):
        table_id = await store.create_table(PRESET)
        found.append((table_id, await store.start_hand(table_id, 1, n)))
    return found


def casual_result(seats: Sequence[str] = ("a", "cpu:1", "cpu:2", "cpu:3")) -> HandResult:
    return HandResult(
        preset=PRESET,
        seats=tuple(seats),
        humans=(True, False, False, False),
        deltas=(0, 0, 0, 0),
        rated=False,
    )


async def count(store: Store, sql: str) -> int:
    return int(await store._call(lambda conn: conn.execute(sql).fetchone()[0]))


async def test_hands_results_options_and_appends_share_one_commit(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand started, a result recorded, options and seats set, an append: one commit, and
    each caller gets what its write returns."""
    (a, hand_a), (b, hand_b) = await tables_in_play(store, 2)
    c = await store.create_table(PRESET)
    d = await store.create_table(PRESET)
    commits = Commits(monkeypatch)
    seats = [SeatRow(0, "a", True)]
    started, recorded, *_ = await asyncio.gather(
        store.start_hand(c, 1, 5, deadlines={"deal": 9.0}),
        store.record_hand_result(b, hand_b, casual_result()),
        store.set_options(d, TableOptions(visibility="private")),
        store.set_seats(d, seats),
        store.append_actions(a, hand_a, ["0 discard 5m", "1 pass"], 0),
    )
    assert commits.sizes == [5]
    assert (await store.table_row(c)).current_hand_id == started
    assert (await store.hand_log(started)).seed == 5
    assert recorded.hand_id == hand_b and recorded.newly_recorded
    assert (await store.table_row(b)).phase is Phase.BETWEEN_HANDS
    row = await store.table_row(d)
    assert row.options.visibility == "private" and row.seats == tuple(seats)
    assert (await store.hand_log(hand_a)).lines == ("0 discard 5m", "1 pass")


async def test_a_refused_start_in_a_shared_commit_leaves_the_others_stored(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand refused (one is already in play) raises for its caller only: the append and the
    hand started beside it in the same commit are stored."""
    (a, hand_a), (b, _) = await tables_in_play(store, 2)
    c = await store.create_table(PRESET)
    commits = Commits(monkeypatch)
    hands_before = await count(store, "SELECT count(*) FROM hands")
    outcomes = await asyncio.gather(
        store.append_actions(a, hand_a, ["0 discard 5m"], 0, {"decision": 3.0}),
        store.start_hand(b, 2, 7, deadlines={"decision": 1.0}),
        store.start_hand(c, 1, 8),
        return_exceptions=True,
    )
    assert commits.sizes == [3]
    assert outcomes[0] is None
    assert isinstance(outcomes[1], StoreError) and "already has a hand in play" in str(outcomes[1])
    assert isinstance(outcomes[2], int)
    assert await count(store, "SELECT count(*) FROM hands") == hands_before + 1
    assert (await store.hand_log(hand_a)).lines == ("0 discard 5m",)
    assert (await store.table_row(c)).current_hand_id == outcomes[2]


async def test_a_write_refused_after_writing_is_undone_to_its_savepoint(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a refused write wrote before refusing is rolled back, and only that: the writes
    before and after it in the same transaction commit."""
    [(a, hand_a)] = await tables_in_play(store, 1)
    b = await store.create_table(PRESET)
    commits = Commits(monkeypatch)

    def touch_then_refuse(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE tables SET message_id = 99 WHERE id = ?", (b,))
        raise StoreError("refused after writing")

    outcomes = await asyncio.gather(
        store.set_message_id(a, 11),
        store._write(b, touch_then_refuse),
        store.append_action(a, hand_a, "0 discard 5m", 0),
        return_exceptions=True,
    )
    assert commits.sizes == [3]
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], StoreError)
    assert (await store.table_row(a)).message_id == 11
    assert (await store.table_row(b)).message_id is None
    assert (await store.hand_log(hand_a)).lines == ("0 discard 5m",)


async def test_a_failed_commit_fails_every_caller_of_its_batch(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The COMMIT itself raising (as an I/O error would): every append and write of the batch
    gets the error, and nothing of the batch is stored."""
    (a, hand_a), (b, _) = await tables_in_play(store, 2)
    c = await store.create_table(PRESET)
    lines_before = await count(store, "SELECT count(*) FROM actions")

    def refuse_commit(conn: sqlite3.Connection) -> None:
        def authorize(action: int, what: str | None, *_: object) -> int:
            refused = action == sqlite3.SQLITE_TRANSACTION and what == "COMMIT"
            return sqlite3.SQLITE_DENY if refused else sqlite3.SQLITE_OK

        conn.set_authorizer(authorize)

    await store._call(refuse_commit)
    commits = Commits(monkeypatch)
    outcomes = await asyncio.gather(
        store.append_actions(a, hand_a, ["0 discard 5m"], 0),
        store.set_phase(b, Phase.BETWEEN_HANDS),
        store.start_hand(c, 1, 3),
        return_exceptions=True,
    )
    await store._call(lambda conn: conn.set_authorizer(None))
    assert commits.sizes == [3]
    assert all(isinstance(o, sqlite3.DatabaseError) for o in outcomes), outcomes
    assert await count(store, "SELECT count(*) FROM actions") == lines_before
    assert (await store.table_row(b)).phase is Phase.PLAYING
    assert (await store.table_row(c)).current_hand_id is None
    # the store carries on: the next commit stores what it is given
    await store.append_actions(a, hand_a, ["0 discard 5m"], 0)
    assert (await store.hand_log(hand_a)).lines == ("0 discard 5m",)


async def test_a_tables_writes_in_one_commit_apply_in_the_order_they_were_made(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One table's two appends, result and next append, and another's phase and options, all
    in one commit: each applies after the table's earlier ones (the result after both
    appends, the append after the result finds the hand over; options after the table left
    the lobby cannot change rated)."""
    [(a, hand_a)] = await tables_in_play(store, 1)
    b = await store.create_table(PRESET)
    commits = Commits(monkeypatch)
    outcomes = await asyncio.gather(
        store.append_actions(a, hand_a, ["0 discard 5m"], 0),
        store.set_phase(b, Phase.BETWEEN_HANDS),
        store.append_actions(a, hand_a, ["1 pass"], 1),
        store.record_hand_result(a, hand_a, casual_result()),
        store.set_options(b, TableOptions(rated=True)),
        store.append_actions(a, hand_a, ["2 pass"], 2),
        return_exceptions=True,
    )
    assert commits.sizes == [6]
    assert outcomes[:3] == [None, None, None]
    assert not isinstance(outcomes[3], BaseException) and outcomes[3].newly_recorded
    assert isinstance(outcomes[4], StoreError) and "rated is fixed" in str(outcomes[4])
    assert isinstance(outcomes[5], HandNotActiveError)
    assert (await store.hand_log(hand_a)).lines == ("0 discard 5m", "1 pass")
    assert not (await store.table_row(b)).options.rated


async def test_many_appends_of_one_hand_queued_together_follow_each_other(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten appends of one hand in one commit: each follows the one before, in queue order,
    and one out of turn is refused."""
    [(a, hand_a)] = await tables_in_play(store, 1)
    commits = Commits(monkeypatch)
    lines = [f"{n % 4} discard {n % 9 + 1}p" for n in range(10)]
    outcomes = await asyncio.gather(
        *(store.append_action(a, hand_a, line, n) for n, line in enumerate(lines)),
        store.append_action(a, hand_a, "0 pass", 3),
        return_exceptions=True,
    )
    assert commits.sizes == [11]
    assert outcomes[:10] == [None] * 10
    assert isinstance(outcomes[10], StaleVersionError)
    assert (await store.hand_log(hand_a)).lines == tuple(lines)


async def test_a_write_whose_caller_is_cancelled_is_committed_all_the_same(
    tmp_path: Any,
) -> None:
    """A caller that stops waiting does not take its write back, and close waits for it."""
    path = str(tmp_path / "cancel.db")
    s = await Store.open(path)
    table_id = await s.create_table(PRESET)
    start = asyncio.create_task(s.start_hand(table_id, 1, 9))
    await asyncio.sleep(0)
    start.cancel()
    touched = asyncio.ensure_future(s.touch(table_id, now=5.0))
    await asyncio.sleep(0)
    await s.close()
    await touched
    s = await Store.open(path)
    row = await s.table_row(table_id)
    assert row.phase is Phase.PLAYING and row.current_hand_id is not None
    assert row.last_action_at == 5.0
    await s.close()


def test_a_write_is_run_in_a_savepoint_of_its_own() -> None:
    """Outside any store: the write's statements sit between SAVEPOINT and RELEASE, and a
    refusal rolls back to it (the transaction goes on)."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE TABLE t (x)")
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    conn.execute("BEGIN")

    def refuse(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO t VALUES (2)")
        raise ValueError("no")

    def add(conn: sqlite3.Connection, x: int) -> int:
        conn.execute("INSERT INTO t VALUES (?)", (x,))
        return x

    loop = asyncio.new_event_loop()
    try:
        assert Write(None, add, (1,), loop.create_future()).run(conn) == 1
        refused = Write(None, refuse, (), loop.create_future()).run(conn)
    finally:
        loop.close()
    assert isinstance(refused, ValueError)
    assert conn.in_transaction
    conn.execute("COMMIT")
    assert conn.execute("SELECT x FROM t").fetchall() == [(1,)]
    assert seen[1:4] == ["SAVEPOINT write", "INSERT INTO t VALUES (1)", "RELEASE write"]
    assert seen[4:8] == [
        "SAVEPOINT write",
        "INSERT INTO t VALUES (2)",
        "ROLLBACK TO write",
        "RELEASE write",
    ]


async def test_a_write_after_close_fails_instead_of_waiting_for_ever() -> None:
    s = await Store.open(":memory:")
    table_id = await s.create_table(PRESET)
    await s.close()
    with pytest.raises(ValueError, match="closed"):
        await asyncio.wait_for(s.touch(table_id), PATIENCE)
