"""How many statements the store's writes run on the SQLite thread: each one gives up the GIL
and waits to take it back while the event loop runs, so a write of fewer statements costs the
loop less (and stores exactly the same rows: the other store tests check those)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator

import pytest

import data.store as store_module
from data import HandResult, Payment, SeatRow, Store, StoredWin, action_log
from engine.actions import Action, ActionKind

PRESET = "hkos-3-v1"


@pytest.fixture
async def store() -> AsyncIterator[Store]:
    s = await Store.open(":memory:", clock=lambda: 1_700_000_000.0)
    yield s
    await s.close()


class Statements:
    """The statements the store's connection runs while counting (SQLite's trace callback
    fires once for each statement run, every row of an executemany included)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.seen: list[str] = []

    async def __aenter__(self) -> list[str]:
        seen = self.seen
        await self.store._call(lambda conn: conn.set_trace_callback(seen.append))
        return seen

    async def __aexit__(self, *_: object) -> None:
        await self.store._call(lambda conn: conn.set_trace_callback(None))


async def tables_in_play(store: Store, count: int) -> list[tuple[int, int]]:
    found = []
    for n in range(count):
        table_id = await store.create_table(PRESET)
        found.append((table_id, await store.start_hand(table_id, 1, n)))
    return found


@pytest.mark.parametrize("count", [1, 128])
async def test_a_group_commit_writes_each_kind_of_row_in_one_statement(
    store: Store, count: int
) -> None:
    """A power of two of appends, runs of four (up to 1,024 lines go in one statement): BEGIN,
    the check for refused appends, the lines, the tables' times, the clocks that changed (the
    runtime says what it stored), COMMIT."""
    tables = await tables_in_play(store, count)
    run = ["0 discard 5m", "1 pass", "2 pass", "3 pass"]
    clocks = {"decision": 5.0, "reserve:0": 20.0}
    async with Statements(store) as seen:
        await asyncio.gather(
            *(store.append_actions(t, h, run, 0, clocks, stored_deadlines={}) for t, h in tables)
        )
    assert len(seen) == 6, seen
    for _, hand_id in tables[:: max(1, count // 7)]:
        assert (await store.hand_log(hand_id)).lines == tuple(run)


@pytest.mark.parametrize(
    "name, width, rows",
    [
        (name, width, rows)
        for name, width in [
            ("_REFUSED_SQL", 4),
            ("_LINES_SQL", 4),
            ("_TIMES_JOINED_SQL", 2),
            ("_TIMES_SCANNED_SQL", 2),
            ("_CLEARED_SQL", 1),
            ("_GONE_SQL", 2),
            ("_CLOCKS_SQL", 3),
        ]
        for rows in (1, 2, 8)
    ]
    + [("_ONE_GONE_SQL", 2, 1)],  # one clock only: two or more pairs would read them all
)
async def test_no_statement_of_a_commit_reads_a_whole_table(
    store: Store, name: str, width: int, rows: int
) -> None:
    """Each statement finds its rows by a key: its cost follows the batch, not the number of
    tables, hands or clocks stored (SQLite's plan has no SCAN of a stored table)."""
    sql = action_log._statement(getattr(action_log, name), width, rows)
    values = [
        n + 1 if w != 1 or width != 2 else "decision" for n in range(rows) for w in range(width)
    ]

    def plan(conn: sqlite3.Connection) -> list[str]:
        return [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, values)]

    steps = await store._call(plan)
    stored = ("tables", "hands", "actions", "clock_deadlines", " h", " a")
    assert not [s for s in steps if s.startswith("SCAN") and s.endswith(stored)], steps


async def test_a_commit_in_several_statements_writes_exactly_its_rows(store: Store) -> None:
    """Five appends (4 + 1 rows of each kind) write exactly their rows."""
    tables = await tables_in_play(store, 5)
    before = await store._call(lambda conn: conn.total_changes)
    await asyncio.gather(
        *(store.append_actions(t, h, ["0 discard 5m"], 0, {"decision": 1.0}) for t, h in tables)
    )
    written = await store._call(lambda conn: conn.total_changes) - before
    assert written == 5 * 3  # per table: its line, its time, its one clock (all cleared first)

    def counts(conn: sqlite3.Connection) -> tuple[int, int]:
        lines = conn.execute("SELECT count(*) FROM actions").fetchone()[0]
        clocks = conn.execute("SELECT count(*) FROM clock_deadlines").fetchone()[0]
        return lines, clocks

    assert await store._call(counts) == (5, 5)


CLOCKS = {"decision_started": 1.0, "decision": 20.0, "deal": 900.0}
CLOCKS |= {f"reserve:{player}": 30.0 for player in range(4)}


async def test_a_hand_starts_in_seven_statements_whatever_its_clocks(store: Store) -> None:
    """BEGIN, the table's check, the hand, the table's phase, its clocks cleared and written
    in one statement, COMMIT."""
    table_id = await store.create_table(PRESET)
    async with Statements(store) as seen:
        hand_id = await store.start_hand(table_id, 1, 7, deadlines=CLOCKS)
    assert len(seen) == 7, seen
    loaded, _ = await store.load_active_tables()
    assert [t.deadlines for t in loaded if t.table.id == table_id] == [CLOCKS]
    assert (await store.hand_log(hand_id)).seed == 7


async def test_a_casual_hand_ends_in_eight_statements(store: Store) -> None:
    """BEGIN, the hand with its table and any result already stored, the result, its seats in
    one statement, the hand's and the table's rows, the clocks cleared, COMMIT."""
    seats = [SeatRow(0, "a", True)] + [SeatRow(n, f"cpu:{n}", False) for n in (1, 2, 3)]
    table_id = await store.create_table(PRESET, seats=seats)
    hand_id = await store.start_hand(table_id, 1, 7, deadlines=CLOCKS)
    result = HandResult(
        preset=PRESET,
        seats=("a", "cpu:1", "cpu:2", "cpu:3"),
        humans=(True, False, False, False),
        deltas=(24, -8, -8, -8),
        wins=(StoredWin(0, 3, (("self_draw", 1),), "self_draw", None),),
        payments=(Payment(1, 0, 8), Payment(2, 0, 8), Payment(3, 0, 8)),
        rated=False,
    )
    async with Statements(store) as seen:
        recorded = await store.record_hand_result(table_id, hand_id, result)
    assert len(seen) == 8, seen
    assert recorded.newly_recorded
    record = await store.hand_record(hand_id)
    assert record is not None and [s.delta for s in record.seats] == [24, -8, -8, -8]
    again = await store.record_hand_result(table_id, hand_id, result)  # exactly once
    assert not again.newly_recorded


def test_an_actions_log_line_is_made_once_and_reads_back() -> None:
    """Equal actions share one line text (looked up, not formatted again); a text is parsed
    and stored in canonical form; the table of lines stays bounded."""
    first, again = Action.parse("2 chow 345p"), Action(2, ActionKind.CHOW, (11, 12, 13))
    assert first == again and first is not again
    assert store_module._line(first) == "2 chow 345p"
    assert store_module._line(again) is store_module._line(first)
    assert store_module._line("0  discard   5m") == "0 discard 5m"
    saved = dict(store_module._LINES)
    try:
        store_module._LINES.update({Action(0, ActionKind.PASS, (n,)): "" for n in range(1 << 16)})
        new = Action(1, ActionKind.CHOW, (0, 1, 2))
        store_module._LINES.pop(new, None)
        assert store_module._line(new) == "1 chow 123m"
        assert dict(store_module._LINES) == {new: "1 chow 123m"}
    finally:
        store_module._LINES.clear()
        store_module._LINES.update(saved)


@pytest.mark.parametrize("times", ["_TIMES_JOINED_SQL", "_TIMES_SCANNED_SQL"])
async def test_both_ways_of_writing_the_tables_times_store_each_its_own(
    store: Store, times: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """UPDATE ... FROM where SQLite has it (3.33) and the round is large enough, a subquery
    otherwise: the same times."""
    monkeypatch.setattr(action_log, "_TIMES_SQL", getattr(action_log, times))
    tables = await tables_in_play(store, action_log._JOINED_FROM + 3)
    await asyncio.gather(
        *(
            store.append_actions(t, h, ["0 discard 5m"], 0, now=100.0 + n)
            for n, (t, h) in enumerate(tables)
        )
    )
    for n, (table_id, _) in enumerate(tables):
        assert (await store.table_row(table_id)).last_action_at == 100.0 + n
