"""The store (data/store.py and its modules): tables as action logs, results and ratings,
history, expiry; tested through Store's methods, and the SQLite file where no method reads."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from data import (
    HandNotActiveError,
    HandResult,
    HandStatus,
    LoadedTable,
    Payment,
    Phase,
    RatingRow,
    ResultConflictError,
    SeatRow,
    StaleVersionError,
    Store,
    StoredWin,
    StoreError,
    TableNotFoundError,
    TableOptions,
    TableRow,
    action_log,
    dialect,
    rating,
)
from data.errors import AlreadyOpenError
from data.tables import IDLE_TABLES_SQL
from engine.actions import Action
from engine.tiles import InvalidNotationError
from tests.conftest import Databases, memory_or, run_apart

PRESET = "hkos-3-v1"
DAY = 24 * 3600


class Clock:
    """A controllable clock for the store."""

    def __init__(self, t: float = 1_700_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(clock: Clock, db: Databases) -> AsyncIterator[Store]:
    """An empty store, once on SQLite and once on PostgreSQL."""
    s = await Store.open(memory_or(db, "store"), clock=clock)
    yield s
    await s.close()


@pytest.fixture
async def sqlite_store(clock: Clock) -> AsyncIterator[Store]:
    """For the tests of how SQLite itself is used (its limits, counters and query plans)."""
    s = await Store.open(":memory:", clock=clock)
    yield s
    await s.close()


def change_rows(db: Databases, place: str, *statements: tuple[str, tuple[object, ...]]) -> None:
    """Change stored rows behind the store's back (it is closed): damage for the restore to
    find."""
    if not db.postgres:
        conn = sqlite3.connect(place)
        for sql, params in statements:
            conn.execute(sql, params)
        conn.commit()
        conn.close()
        return

    async def change() -> None:
        conn = await asyncpg.connect(place)
        for sql, params in statements:
            await conn.execute(dialect.statement(sql), *params)
        await conn.close()

    run_apart(change)


def count_rows(db: Databases, place: str, sql: str, params: tuple[object, ...]) -> object:
    if not db.postgres:
        conn = sqlite3.connect(place)
        try:
            return conn.execute(sql, params).fetchone()[0]
        finally:
            conn.close()

    async def count() -> object:
        conn = await asyncpg.connect(place)
        try:
            return await conn.fetchval(dialect.statement(sql), *params)
        finally:
            await conn.close()

    return run_apart(count)


def humans(*ids: str) -> list[SeatRow]:
    return [SeatRow(i, pid, not pid.startswith("cpu")) for i, pid in enumerate(ids)]


def result(
    seats: tuple[str, ...],
    deltas: tuple[int, ...],
    *,
    rated: bool = True,
    preset: str = PRESET,
    winner: int | None = None,
) -> HandResult:
    if winner is None:
        winner = max(range(len(deltas)), key=lambda i: deltas[i])
    loser = min(range(len(deltas)), key=lambda i: deltas[i])
    return HandResult(
        preset=preset,
        seats=seats,
        humans=tuple(not s.startswith("cpu") for s in seats),
        deltas=deltas,
        wins=(StoredWin(winner, 3, (("dragon_pung", 1), ("self_draw", 1)), "discard", loser),),
        payments=(Payment(loser, winner, max(deltas)),),
        rated=rated,
    )


async def rated_table(store: Store, players: tuple[str, ...] = ("a", "b", "c", "d")) -> int:
    return await store.create_table(
        PRESET, guild_id=1, channel_id=2, seats=humans(*players), options=TableOptions(rated=True)
    )


async def table_row(store: Store, tid: int) -> TableRow:
    """The table as stored (any phase)."""
    return await store.table_row(tid)


async def restored(store: Store, tid: int) -> LoadedTable:
    """The table as the runtime rebuilds it at start-up: its entry in load_active_tables."""
    loaded, quarantined = await store.load_active_tables()
    assert quarantined == []
    (table,) = [x for x in loaded if x.table.id == tid]
    return table


async def ratings(store: Store, player: str) -> dict[str, RatingRow]:
    """A player's ratings by preset, as /mahjong rating and /mahjong stats read them; a preset
    never played rated is absent (the command then says everyone starts at 1,500)."""
    return {row.preset: row for row in await store.ratings_of(player)}


async def events(store: Store, tid: int) -> list[tuple[str, str]]:
    """The table's recorded lifecycle (kind, detail), oldest first: an audit trail for bug
    reports that no command reads, so the test reads the table itself."""

    def read(conn: dialect.Db) -> list[tuple[str, str]]:
        rows = conn.execute(
            "SELECT kind, detail FROM table_events WHERE table_id = ? ORDER BY id", (tid,)
        )
        return rows.fetchall()

    return await store._call(read)


async def play_hand(
    store: Store, tid: int, hand_no: int, players: tuple[str, ...], deltas: tuple[int, ...]
):
    hid = await store.start_hand(tid, hand_no, hand_no * 1000)
    for i, line in enumerate(["0 discard 1z", "1 pass", "2 pass", "3 pass"]):
        await store.append_action(tid, hid, line, i)
    table = await table_row(store, tid)
    return await store.record_hand_result(
        tid, hid, result(players, deltas, rated=table.options.rated)
    )


# ---------------------------------------------------------------- opening


async def test_open_uses_mahjong_db_env_then_cwd(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("MAHJONG_DB", str(tmp_path / "env.db"))
    s = await Store.open()
    assert s.path == str(tmp_path / "env.db")
    await s.close()
    assert (tmp_path / "env.db").exists()

    monkeypatch.delenv("MAHJONG_DB")
    monkeypatch.chdir(tmp_path)
    s = await Store.open()
    await s.close()
    assert (tmp_path / "mahjong.db").exists()


async def test_file_store_is_wal_with_foreign_keys(tmp_path: Path) -> None:
    s = await Store.open(str(tmp_path / "x.db"))
    await s.close()
    conn = sqlite3.connect(tmp_path / "x.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    s = await Store.open(str(tmp_path / "x.db"))
    with pytest.raises(Exception, match="FOREIGN KEY"):
        await s._call(lambda c: c.execute("INSERT INTO table_seats VALUES (999, 0, 'x', 1)"))
    await s.close()


async def test_one_store_per_file_per_process(tmp_path: Path) -> None:
    path = str(tmp_path / "one.db")
    s = await Store.open(path)
    with pytest.raises(AlreadyOpenError):
        await Store.open(path)
    await s.close()
    s2 = await Store.open(path)  # free again once closed
    await s2.close()


# ---------------------------------------------------------------- tables


async def test_create_and_update_table(store: Store, clock: Clock) -> None:
    opts = TableOptions(
        visibility="private", rated=True, time_control="blitz", invite_code="K7Q", extra={"x": 1}
    )
    tid = await store.create_table(PRESET, guild_id=10, channel_id=20, options=opts)
    t = await table_row(store, tid)
    assert (t.guild_id, t.channel_id, t.preset, t.options, t.phase) == (
        10,
        20,
        PRESET,
        opts,
        Phase.LOBBY,
    )
    assert t.created_at == t.last_action_at == clock.t

    clock.advance(5)
    await store.set_seats(tid, [SeatRow(0, "111", True), SeatRow(2, "cpu:1", False)])
    await store.set_message_id(tid, 999)
    clock.advance(5)
    await store.set_message_id(tid, 1000)  # not a game action
    t = await table_row(store, tid)
    assert t.seats == (SeatRow(0, "111", True), SeatRow(2, "cpu:1", False))
    assert t.message_id == 1000
    assert t.last_action_at == clock.t - 5

    await store.set_options(tid, TableOptions(rated=False))
    assert (await table_row(store, tid)).options == TableOptions()
    await store.start_hand(tid, 1, 1)
    with pytest.raises(StoreError, match="rated is fixed"):
        await store.set_options(tid, TableOptions(rated=True))
    await store.set_options(tid, TableOptions(invite_code="NEW"))  # anything else may change
    assert (await table_row(store, tid)).options.invite_code == "NEW"
    await store.set_phase(tid, Phase.BETWEEN_HANDS)
    assert (await table_row(store, tid)).phase is Phase.BETWEEN_HANDS
    with pytest.raises(ValueError):
        await store.set_phase(tid, Phase.CLOSED)


async def test_unknown_table_and_unknown_preset(store: Store) -> None:
    with pytest.raises(TableNotFoundError):
        await store.table_row(42)
    with pytest.raises(TableNotFoundError):
        await store.set_seats(42, [])
    with pytest.raises(ValueError, match="unknown preset"):
        await store.create_table("no-such-preset")


async def test_session_state_and_setup_must_be_json(store: Store) -> None:
    tid = await rated_table(store)
    with pytest.raises(ValueError, match="hand setup"):
        await store.start_hand(tid, 1, 1, setup="{not json")
    hid = await store.start_hand(tid, 1, 1, setup='{"dealer": 0}')
    res = result(("a", "b", "c", "d"), (8, -8, 0, 0))
    with pytest.raises(ValueError, match="session state"):
        await store.record_hand_result(tid, hid, res, session_state="{not json")
    assert (await store.hand_log(hid)).status is HandStatus.PLAYING  # nothing was written
    await store.record_hand_result(tid, hid, res, session_state='{"dealer": 2}')
    assert (await table_row(store, tid)).session_state == '{"dealer": 2}'


# ---------------------------------------------------------------- hands and the action log


async def test_append_keeps_log_time_and_deadlines_together(store: Store, clock: Clock) -> None:
    tid = await rated_table(store)
    hid = await store.start_hand(tid, 1, 2**64 + 5, setup='{"dealer": 0}', deadlines={"s0": 1.0})
    lines = ["0 discard 5m", "1 pass", "2 pung 5m", "2 discard 1z", "3 chow 123m"]
    for i, line in enumerate(lines):
        clock.advance(1)
        await store.append_action(tid, hid, line, i, {"seat": 100.0 + i, "reserve": 20.0 - i})
    loaded = await restored(store, tid)
    assert loaded.hand is not None
    assert loaded.hand.lines == tuple(lines)
    assert loaded.hand.actions == tuple(Action.parse(x) for x in lines)
    assert loaded.hand.seed == 2**64 + 5
    assert loaded.hand.setup == '{"dealer": 0}'
    assert loaded.hand.version == 5
    assert loaded.deadlines == {"seat": 104.0, "reserve": 16.0}
    assert loaded.table.last_action_at == clock.t
    assert loaded.table.phase is Phase.PLAYING

    # None leaves the deadlines; {} clears them.
    await store.append_action(tid, hid, Action.parse("0 pass"), 5)
    assert (await restored(store, tid)).deadlines == {"seat": 104.0, "reserve": 16.0}
    await store.append_action(tid, hid, "1 pass", 6, {})
    assert (await restored(store, tid)).deadlines == {}


async def test_append_refuses_stale_future_and_foreign(store: Store) -> None:
    tid = await rated_table(store)
    other = await rated_table(store, ("e", "f", "g", "h"))
    hid = await store.start_hand(tid, 1, 1)
    await store.append_action(tid, hid, "0 discard 5m", 0)
    with pytest.raises(StaleVersionError) as stale:
        await store.append_action(tid, hid, "1 pass", 0)
    assert stale.value.expected == 1
    with pytest.raises(StaleVersionError):
        await store.append_action(tid, hid, "1 pass", 2)
    with pytest.raises(HandNotActiveError):
        await store.append_action(other, hid, "1 pass", 1)
    with pytest.raises(InvalidNotationError):
        await store.append_action(tid, hid, "1 fly 5m", 1)
    assert (await store.hand_log(hid)).lines == ("0 discard 5m",)


async def test_a_run_of_actions_is_stored_whole_or_not_at_all(store: Store) -> None:
    tid = await rated_table(store)
    hid = await store.start_hand(tid, 1, 1)
    run = ["0 discard 5m", "1 pass", "2 pass", "3 pass"]
    await store.append_actions(tid, hid, run, 0, {"decision": 9.0})
    assert (await store.hand_log(hid)).lines == tuple(run)
    assert (await restored(store, tid)).deadlines == {"decision": 9.0}
    # a run whose first version is taken is refused whole, its clock with it
    with pytest.raises(StaleVersionError):
        await store.append_actions(tid, hid, ["3 pass", "1 discard 1z"], 3, {"decision": 1.0})
    with pytest.raises(InvalidNotationError):
        await store.append_actions(tid, hid, ["1 discard 1z", "2 fly 5m"], 4)
    await store.append_actions(tid, hid, ["1 discard 1z", "2 pung 1z"], 4)
    assert (await store.hand_log(hid)).lines == (*run, "1 discard 1z", "2 pung 1z")
    assert (await restored(store, tid)).deadlines == {"decision": 9.0}


async def test_racing_appends_for_one_version_store_exactly_one(store: Store) -> None:
    tid = await rated_table(store)
    hid = await store.start_hand(tid, 1, 1)
    outcomes = await asyncio.gather(
        *(store.append_action(tid, hid, f"{s} pass", 0) for s in range(4)),
        return_exceptions=True,
    )
    assert sum(o is None for o in outcomes) == 1
    assert all(isinstance(o, StaleVersionError) for o in outcomes if o is not None)
    assert len((await store.hand_log(hid)).actions) == 1


async def test_a_refused_run_in_a_shared_commit_leaves_no_trace(store: Store) -> None:
    """Refusals are found before anything of the append is written: the appends sharing its
    commit are stored, and nothing of the refused run (nor its clock) is."""
    tables = []
    for t in range(3):
        tid = await store.create_table(PRESET)
        tables.append((tid, await store.start_hand(tid, 1, t, deadlines={"decision": 1.0})))
    (a, ha), (b, hb), (c, hc) = tables
    await store.append_actions(b, hb, ["0 discard 5m", "1 pass"], 0)
    outcomes = await asyncio.gather(
        store.append_actions(a, ha, ["0 discard 5m", "1 pass"], 0, {"decision": 2.0}),
        store.append_actions(b, hb, ["0 discard 1z", "1 pass", "2 pass"], 1, {"decision": 3.0}),
        store.append_actions(c, hc, ["0 discard 9s", "1 pass"], 0, {"decision": 4.0}),
        store.append_actions(c, hb, ["0 discard 9s"], 2),  # another table's hand
        return_exceptions=True,
    )
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], StaleVersionError) and outcomes[1].expected == 2
    assert isinstance(outcomes[3], HandNotActiveError)
    assert (await store.hand_log(ha)).lines == ("0 discard 5m", "1 pass")
    assert (await store.hand_log(hb)).lines == ("0 discard 5m", "1 pass")
    assert (await store.hand_log(hc)).lines == ("0 discard 9s", "1 pass")
    assert [(await restored(store, t)).deadlines for t in (a, b, c)] == [
        {"decision": 2.0},
        {"decision": 1.0},
        {"decision": 4.0},
    ]


async def test_appends_waiting_together_share_one_commit(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Group commit: the appends of many tables queued while no commit runs go out in one
    transaction (one fsync under FULL), each caller answered once it is committed."""
    batches: list[int] = []
    real = action_log.append_batch

    def counted(conn: dialect.Db, batch: list[action_log.Append]) -> list:
        batches.append(len(batch))
        return real(conn, batch)

    monkeypatch.setattr(action_log, "append_batch", counted)
    tables = []
    for t in range(50):
        tid = await store.create_table(PRESET)
        tables.append((tid, await store.start_hand(tid, 1, t)))
    await asyncio.gather(
        *(store.append_actions(tid, hid, ["0 discard 5m", "1 pass"], 0) for tid, hid in tables)
    )
    assert batches == [50]
    for _, hid in tables:
        assert (await store.hand_log(hid)).lines == ("0 discard 5m", "1 pass")


async def test_a_shared_commit_keeps_each_hands_appends_in_order(store: Store) -> None:
    """Two runs of one hand queued for one commit are judged in the order they came (the
    second follows the first), beside other tables' runs in the same commit."""
    a = await store.create_table(PRESET)
    ha = await store.start_hand(a, 1, 1)
    b = await store.create_table(PRESET)
    hb = await store.start_hand(b, 1, 2)
    outcomes = await asyncio.gather(
        store.append_actions(a, ha, ["0 discard 5m", "1 pass"], 0, {"decision": 1.0}),
        store.append_actions(b, hb, ["0 discard 1z"], 0),
        store.append_actions(a, ha, ["1 discard 2p"], 2, {"decision": 2.0}),
        store.append_actions(a, ha, ["2 discard 3p"], 2),  # the same version again: refused
        return_exceptions=True,
    )
    assert outcomes[:3] == [None, None, None]
    assert isinstance(outcomes[3], StaleVersionError) and outcomes[3].expected == 3
    assert (await store.hand_log(ha)).lines == ("0 discard 5m", "1 pass", "1 discard 2p")
    assert (await restored(store, a)).deadlines == {"decision": 2.0}


async def test_a_commit_larger_than_one_statement_allows(sqlite_store: Store) -> None:
    """A batch's rows of one kind go in one statement, split where SQLite's limit on a
    statement's parameters would be passed: a tiny limit stores the same rows."""
    tables = []
    for t in range(30):
        tid = await sqlite_store.create_table(PRESET)
        tables.append((tid, await sqlite_store.start_hand(tid, 1, t)))
    run = ["0 discard 5m", "1 pass", "2 pass", "3 pass"]
    clocks = {"decision": 5.0, "reserve:0": 20.0, "reserve:1": 20.0}
    limit = sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER
    usual = await sqlite_store._call(lambda conn: conn.setlimit(limit, 9))
    await asyncio.gather(*(sqlite_store.append_actions(t, h, run, 0, clocks) for t, h in tables))
    await sqlite_store._call(lambda conn: conn.setlimit(limit, usual))
    for tid, hid in tables:
        assert (await sqlite_store.hand_log(hid)).lines == tuple(run)
        assert (await restored(sqlite_store, tid)).deadlines == clocks


async def test_deadlines_written_as_a_difference_equal_a_full_replace(
    sqlite_store: Store,
) -> None:
    """Given what the table holds, an append writes only the clocks that changed, and the
    table ends with exactly the clocks a full replace would leave."""
    rng = random.Random(7)
    names = ["decision", "decision_started", "deal", "reserve:0", "reserve:1"]
    tid = await sqlite_store.create_table(PRESET)
    hid = await sqlite_store.start_hand(tid, 1, 1)
    stored: dict[str, float] = {}
    for version in range(60):
        wanted = {n: float(rng.randint(0, 3)) for n in names if rng.random() < 0.7}
        known = stored if version % 2 else None  # the runtime knows them, or it does not
        before = await sqlite_store._call(lambda conn: conn.total_changes)
        await sqlite_store.append_actions(
            tid, hid, ["0 pass"], version, wanted, stored_deadlines=known
        )
        written = await sqlite_store._call(lambda conn: conn.total_changes) - before
        assert (await restored(sqlite_store, tid)).deadlines == wanted
        if known is not None:  # the action, the table's time, and the changed clocks only
            changed = {n for n in wanted if known.get(n) != wanted[n]} | (known.keys() - wanted)
            assert written == 2 + len(changed)
        stored = wanted


async def test_one_hand_at_a_time_and_unique_hand_numbers(store: Store) -> None:
    tid = await rated_table(store)
    await store.start_hand(tid, 1, 1)
    with pytest.raises(Exception, match="already has a hand in play"):
        await store.start_hand(tid, 2, 2)
    await play_hand_end(store, tid)
    with pytest.raises(Exception, match="already has a hand 1"):
        await store.start_hand(tid, 1, 3)


async def play_hand_end(store: Store, tid: int) -> None:
    t = await table_row(store, tid)
    assert t.current_hand_id is not None
    await store.record_hand_result(
        tid, t.current_hand_id, result(("a", "b", "c", "d"), (8, -8, 0, 0))
    )


async def test_restore_mid_hand_and_between_hands_matches_what_was_written(
    db: Databases, clock: Clock
) -> None:
    path = db("r")
    s = await Store.open(path, clock=clock)
    tid = await rated_table(s)
    await s.set_message_id(tid, 77)
    hid = await s.start_hand(tid, 1, 99, setup='{"dealer": 0, "points": [0, 0, 0, 0]}')
    for i in range(30):
        await s.append_action(tid, hid, f"{i % 4} discard {i % 9 + 1}p", i, {"t": float(i)})
    live = await restored(s, tid)
    assert live.table.message_id == 77 and live.hand is not None and live.hand.seed == 99
    assert live.hand.lines == tuple(f"{i % 4} discard {i % 9 + 1}p" for i in range(30))
    assert live.deadlines == {"t": 29.0}
    await s.close()

    s = await Store.open(path, clock=clock)
    (after_restart,), bad = await s.load_active_tables()
    assert bad == []
    assert after_restart == live

    await s.record_hand_result(
        tid,
        hid,
        result(("a", "b", "c", "d"), (8, -8, 0, 0)),
        session_state='{"dealer": 1, "points": [8, -8, 0, 0]}',
        deadlines={"ready": 5.0},
    )
    between = await restored(s, tid)
    await s.close()
    s = await Store.open(path, clock=clock)
    (after_restart,), _ = await s.load_active_tables()
    assert after_restart == between
    assert after_restart.table.phase is Phase.BETWEEN_HANDS
    assert after_restart.hand is None
    assert after_restart.table.session_state == '{"dealer": 1, "points": [8, -8, 0, 0]}'
    assert after_restart.deadlines == {"ready": 5.0}
    assert (await s.hand_log(hid)).status is HandStatus.FINISHED
    await s.close()


# ---------------------------------------------------------------- results and ratings


async def test_result_records_history_and_ratings_once(store: Store) -> None:
    tid = await rated_table(store)
    hid = await store.start_hand(tid, 1, 1)
    res = result(("a", "b", "c", "d"), (32, -32, 0, 0))
    first = await store.record_hand_result(tid, hid, res)
    again = await store.record_hand_result(tid, hid, res)
    assert first.newly_recorded and not again.newly_recorded
    assert again.rating_changes == first.rating_changes
    expected = rating.elo_deltas([1500.0] * 4, [0] * 4, [32, -32, 0, 0])
    assert [c.delta for c in first.rating_changes] == pytest.approx(expected)
    assert [c.placement for c in first.rating_changes] == [1, 4, 2, 2]
    assert [(await ratings(store, p))[PRESET].games for p in "abcd"] == [1, 1, 1, 1]
    assert (await ratings(store, "a"))[PRESET].rating == pytest.approx(1500 + expected[0])

    with pytest.raises(ResultConflictError):
        await store.record_hand_result(tid, hid, result(("a", "b", "c", "d"), (0, 0, 32, -32)))
    assert [(await ratings(store, p))[PRESET].games for p in "abcd"] == [1, 1, 1, 1]
    t = await table_row(store, tid)
    assert t.phase is Phase.BETWEEN_HANDS and t.current_hand_id is None


async def test_concurrent_duplicate_results_apply_once(store: Store) -> None:
    tid = await rated_table(store)
    hid = await store.start_hand(tid, 1, 1)
    res = result(("a", "b", "c", "d"), (16, -16, 0, 0))
    outs = await asyncio.gather(*(store.record_hand_result(tid, hid, res) for _ in range(5)))
    assert sum(o.newly_recorded for o in outs) == 1
    assert len({o.rating_changes for o in outs}) == 1
    assert (await ratings(store, "a"))[PRESET].games == 1
    (hand,) = await store.recent_hands("a")
    assert [c.player_id for c in hand.rating_changes] == ["a", "b", "c", "d"]


async def test_computers_are_left_out_of_ratings(store: Store) -> None:
    players = ("a", "cpu:1", "b", "cpu:2")
    tid = await rated_table(store, players)
    hid = await store.start_hand(tid, 1, 1)
    rec = await store.record_hand_result(tid, hid, result(players, (-10, 30, 0, -20)))
    # Only a and b are paired: b placed above a -> a two-player game, provisional K=40.
    assert [c.player_id for c in rec.rating_changes] == ["a", "b"]
    assert [c.delta for c in rec.rating_changes] == pytest.approx([-20.0, 20.0])
    assert await ratings(store, "cpu:1") == {}

    solo = ("a", "cpu:1", "cpu:2", "cpu:3")
    tid2 = await rated_table(store, solo)
    hid2 = await store.start_hand(tid2, 1, 1)
    rec = await store.record_hand_result(tid2, hid2, result(solo, (30, -10, -10, -10)))
    assert rec.rating_changes == ()
    assert (await ratings(store, "a"))[PRESET].games == 1


async def test_casual_tables_never_change_ratings(store: Store) -> None:
    tid = await store.create_table(PRESET, seats=humans("a", "b", "c", "d"))
    hid = await store.start_hand(tid, 1, 1)
    with pytest.raises(ValueError, match="rated"):
        await store.record_hand_result(tid, hid, result(("a", "b", "c", "d"), (8, -8, 0, 0)))
    rec = await store.record_hand_result(
        tid, hid, result(("a", "b", "c", "d"), (8, -8, 0, 0), rated=False)
    )
    assert rec.rating_changes == ()
    assert await ratings(store, "a") == {}
    assert len(await store.recent_hands("a")) == 1


async def test_k_drops_after_ten_games_and_ratings_are_per_preset(store: Store) -> None:
    players = ("a", "b", "c", "d")
    tid = await rated_table(store, players)
    for n in range(1, 12):
        rec = await play_hand(store, tid, n, players, (16, -16, 0, 0))
        a = rec.rating_changes[0]
        assert a.games == n
        assert a.provisional == (n < 10)
    hands = {h.hand_no: h for h in await store.recent_hands("a", limit=20)}
    assert sorted(hands) == list(range(1, 12)) and all(h.rating_changes for h in hands.values())
    for hand_no, k in ((10, 40.0), (11, 20.0)):  # hand 10 had 9 games behind it, 11 had 10
        changes = hands[hand_no].rating_changes
        before = [c.before for c in changes]
        a = changes[0]
        expected_total = sum(
            rating.actual_score(16, d) - rating.expected_score(a.before, b)
            for b, d in zip(before[1:], (-16, 0, 0), strict=True)
        )
        assert a.delta == pytest.approx(k / 3 * expected_total)
        assert [c.delta for c in changes] == pytest.approx(
            rating.elo_deltas(before, [c.games - 1 for c in changes], [16, -16, 0, 0])
        )
    assert (await store.leaderboard(PRESET, min_games=11)).total == 4
    assert (await store.leaderboard(PRESET, min_games=12)).total == 0
    board = await store.leaderboard(PRESET, page_size=3, min_games=1)
    assert [e.player_id for e in board.entries] == ["a", "c", "d"] and board.pages == 2
    assert [e.player_id for e in (await store.leaderboard(PRESET, 2, 3, 1)).entries] == ["b"]
    assert list(await ratings(store, "a")) == [PRESET]  # none in sichuan-bb


async def test_result_for_wrong_table_or_preset_is_refused(store: Store) -> None:
    tid = await rated_table(store)
    other = await rated_table(store, ("e", "f", "g", "h"))
    hid = await store.start_hand(tid, 1, 1)
    res = result(("a", "b", "c", "d"), (8, -8, 0, 0))
    with pytest.raises(HandNotActiveError):
        await store.record_hand_result(other, hid, res)
    with pytest.raises(ValueError, match="plays"):
        await store.record_hand_result(
            tid, hid, result(("a", "b", "c", "d"), (8, -8, 0, 0), preset="sichuan-bb")
        )
    assert (await store.hand_record(hid)) is None
    assert (await store.record_hand_result(tid, hid, res)).newly_recorded


# ---------------------------------------------------------------- history and leaderboards


async def test_recent_hands_newest_first_with_details(store: Store, clock: Clock) -> None:
    players = ("a", "b", "c", "d")
    tid = await rated_table(store, players)
    for n in range(1, 6):
        clock.advance(60)
        await play_hand(store, tid, n, players, (8 * n, -8 * n, 0, 0))
    recent = await store.recent_hands("b", limit=3)
    assert [h.hand_no for h in recent] == [5, 4, 3]
    h = recent[0]
    assert h.preset == PRESET and h.rated and h.outcome == "win" and h.winners == (0,)
    assert [s.delta for s in h.seats] == [40, -40, 0, 0]
    assert [s.placement for s in h.seats] == [1, 4, 2, 2]
    assert h.wins[0].patterns == (("dragon_pung", 1), ("self_draw", 1))
    assert h.payments == (Payment(1, 0, 40),)
    assert {c.player_id for c in h.rating_changes} == set(players)
    assert await store.recent_hands("b", preset="sichuan-bb") == []
    assert await store.recent_hands("nobody") == []


async def test_leaderboard_pages_min_games_and_provisional(store: Store) -> None:
    rows = [(f"p{i:03}", 1500.0 + (i % 50) * 3.5, i % 15) for i in range(120)]
    await store.import_ratings(PRESET, rows)
    await store.import_ratings("sichuan-bb", [("zz", 9999.0, 99)])
    eligible = sorted((r for r in rows if r[2] >= 3), key=lambda r: (-r[1], r[0]))

    first = await store.leaderboard(PRESET, 1, 25)
    assert first.total == len(eligible) and first.pages == -(-len(eligible) // 25)
    seen = []
    for page in range(1, first.pages + 1):
        p = await store.leaderboard(PRESET, page, 25)
        assert [e.rank for e in p.entries] == list(
            range((page - 1) * 25 + 1, (page - 1) * 25 + 1 + len(p.entries))
        )
        seen.extend(p.entries)
    assert [(e.player_id, e.rating, e.games) for e in seen] == eligible
    assert all(e.provisional == (e.games < 10) for e in seen)
    assert any(e.provisional for e in seen) and not all(e.provisional for e in seen)
    assert (await store.leaderboard(PRESET, 1, 10, min_games=14)).total == sum(
        1 for r in rows if r[2] >= 14
    )
    assert (await store.leaderboard(PRESET, 99, 25)).entries == ()
    assert seen[0].display == round(seen[0].rating + 1e-9)


async def test_leaderboard_query_reads_only_the_board_index(sqlite_store: Store) -> None:
    def plan(conn: sqlite3.Connection) -> str:
        rows = conn.execute(
            "EXPLAIN QUERY PLAN SELECT player_id, rating, games FROM ratings"
            " WHERE preset = ? AND games >= ? ORDER BY rating DESC, player_id LIMIT 10",
            (PRESET, 3),
        ).fetchall()
        return " | ".join(r[-1] for r in rows)

    text = await sqlite_store._call(plan)
    assert "ratings_board" in text and "TEMP B-TREE" not in text, text


# ---------------------------------------------------------------- expiry


async def test_expire_idle_closes_quietly_and_records_it(store: Store, clock: Clock) -> None:
    players = ("a", "b", "c", "d")
    lobby = await store.create_table(PRESET)
    playing = await rated_table(store, players)
    hid = await store.start_hand(playing, 1, 1, deadlines={"turn": 1.0})
    await store.append_action(playing, hid, "0 discard 5m", 0)
    clock.advance(DAY - 10)
    busy = await rated_table(store, ("e", "f", "g", "h"))
    clock.advance(10)

    assert await store.expire_idle() == [lobby, playing]
    assert await store.expire_idle() == []
    for tid in (lobby, playing):
        t = await table_row(store, tid)
        assert t.phase is Phase.CLOSED and t.closed_reason.startswith("expired")
        assert t.closed_at == clock.t
        assert [kind for kind, _ in await events(store, tid)] == ["created", "closed"]
    assert (await table_row(store, busy)).phase is Phase.LOBBY
    assert (await store.hand_log(hid)).status is HandStatus.ABANDONED
    assert await ratings(store, "a") == {}
    with pytest.raises(HandNotActiveError):
        await store.append_action(playing, hid, "1 pass", 1)
    with pytest.raises(HandNotActiveError):
        await store.record_hand_result(playing, hid, result(players, (8, -8, 0, 0)))
    loaded, _ = await store.load_active_tables()
    assert [x.table.id for x in loaded] == [busy]


async def test_an_action_keeps_a_table_alive(store: Store, clock: Clock) -> None:
    tid = await rated_table(store)
    hid = await store.start_hand(tid, 1, 1)
    clock.advance(DAY - 1)
    await store.append_action(tid, hid, "0 discard 5m", 0)
    clock.advance(DAY - 1)
    assert await store.expire_idle() == []
    clock.advance(1)
    assert await store.expire_idle() == [tid]


async def test_idle_query_uses_the_phase_time_index(sqlite_store: Store) -> None:
    def plan(conn: sqlite3.Connection) -> str:
        rows = conn.execute("EXPLAIN QUERY PLAN " + IDLE_TABLES_SQL, (0.0,)).fetchall()
        return " | ".join(r[-1] for r in rows)

    text = await sqlite_store._call(plan)
    assert "USING COVERING INDEX tables_phase_idle" in text, text
    assert "SCAN" not in text, text


async def test_close_table_abandons_hand_without_rating(store: Store) -> None:
    tid = await rated_table(store)
    hid = await store.start_hand(tid, 1, 1)
    await store.close_table(tid, "ended by players")
    assert (await table_row(store, tid)).closed_reason == "ended by players"
    assert (await store.hand_log(hid)).status is HandStatus.ABANDONED
    await store.close_table(tid, "again")  # no-op
    assert (await events(store, tid))[-1] == ("closed", "ended by players")


# ---------------------------------------------------------------- quarantine


async def test_unreadable_tables_are_quarantined_the_rest_load(db: Databases) -> None:
    path = db("q")
    s = await Store.open(path)
    good = await rated_table(s)
    ghid = await s.start_hand(good, 1, 1)
    await s.append_action(good, ghid, "0 discard 5m", 0)
    bad_preset = await rated_table(s, ("e", "f", "g", "h"))
    bad_log = await rated_table(s, ("i", "j", "k", "l"))
    bhid = await s.start_hand(bad_log, 1, 1)
    for i in range(3):
        await s.append_action(bad_log, bhid, "1 pass", i)
    bad_session = await s.create_table(PRESET)
    lobby = await s.create_table(PRESET)
    await s.close()

    change_rows(
        db,
        path,
        ("UPDATE tables SET preset = 'gone-v9' WHERE id = ?", (bad_preset,)),
        ("UPDATE actions SET action = '1 ???' WHERE hand_id = ? AND seq = 1", (bhid,)),
        ("UPDATE tables SET session_json = '{oops' WHERE id = ?", (bad_session,)),
    )

    s = await Store.open(path)
    loaded, bad = await s.load_active_tables()
    assert sorted(x.table.id for x in loaded) == [good, lobby]
    reasons = {q.table_id: q.reason for q in bad}
    assert set(reasons) == {bad_preset, bad_log, bad_session}
    assert "unknown preset 'gone-v9'" in reasons[bad_preset]
    assert f"hand {bhid}: action 1 unreadable" in reasons[bad_log]
    assert "session state" in reasons[bad_session]
    for tid in reasons:
        set_aside = await s.table_row(tid)
        assert set_aside.phase is Phase.QUARANTINED
        assert set_aside.quarantine_reason == reasons[tid]
        assert (await events(s, tid))[-1][0] == "quarantined"
    # Set aside once: the next start loads the good ones and reports nothing new.
    loaded, bad = await s.load_active_tables()
    assert sorted(x.table.id for x in loaded) == [good, lobby] and bad == []
    (kept,) = [x for x in loaded if x.table.id == good]
    assert kept.hand is not None and kept.hand.lines == ("0 discard 5m",)
    # Nothing was deleted: the log is still there for a bug report.
    assert count_rows(db, path, "SELECT count(*) FROM actions WHERE hand_id = ?", (bhid,)) == 3
    await s.close()


async def test_restore_quarantines_a_table_whose_options_do_not_read(db: Databases) -> None:
    path = db("q1")
    s = await Store.open(path)
    tid = await rated_table(s)
    await s.close()
    change_rows(db, path, ("UPDATE tables SET options_json = 'nope' WHERE id = ?", (tid,)))
    s = await Store.open(path)
    loaded, (set_aside,) = await s.load_active_tables()
    assert loaded == [] and set_aside.table_id == tid and "options" in set_aside.reason
    assert (await events(s, tid))[-1] == ("quarantined", f"{set_aside.reason} (was lobby)")
    assert await s.load_active_tables() == ([], [])
    await s.close()


# ---------------------------------------------------------------- concurrency


async def test_many_tables_appending_concurrently(db: Databases, clock: Clock) -> None:
    s = await Store.open(db("c"), clock=clock)
    tables = []
    for t in range(40):
        tid = await s.create_table(PRESET, seats=humans(*(f"t{t}p{i}" for i in range(4))))
        tables.append((tid, await s.start_hand(tid, 1, t)))
    n = 60

    async def play(tid: int, hid: int) -> None:
        for i in range(n):
            await s.append_action(tid, hid, f"{i % 4} discard {i % 9 + 1}s", i, {"turn": i})
            if i % 7 == 0:
                await asyncio.sleep(0)

    await asyncio.gather(*(play(t, h) for t, h in tables))
    loaded, bad = await s.load_active_tables()
    assert bad == [] and len(loaded) == 40
    for lt in loaded:
        assert lt.hand.lines == tuple(f"{i % 4} discard {i % 9 + 1}s" for i in range(n))
        assert lt.deadlines == {"turn": float(n - 1)}
    await s.close()
    if not db.postgres:
        conn = sqlite3.connect(db("c"))
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        conn.close()


async def test_session_json_round_trip(store: Store) -> None:
    tid = await rated_table(store)
    hid = await store.start_hand(tid, 1, 1)
    state = {"dealer": 3, "prevailing": 1, "points": [10, -4, -3, -3], "ready": [0, 2]}
    res = result(("a", "b", "c", "d"), (8, -8, 0, 0))
    await store.record_hand_result(tid, hid, res, session_state=json.dumps(state))
    assert json.loads((await table_row(store, tid)).session_state) == state


async def test_a_cancelled_append_does_not_strand_the_others(store: Store) -> None:
    tables = []
    for t in range(3):
        tid = await store.create_table(PRESET)
        tables.append((tid, await store.start_hand(tid, 1, t)))
    tasks = [
        asyncio.create_task(store.append_action(tid, hid, "0 discard 5m", 0)) for tid, hid in tables
    ]
    await asyncio.sleep(0)  # all three queued for one group commit
    tasks[1].cancel()
    done = await asyncio.gather(*tasks, return_exceptions=True)
    assert done[0] is None and done[2] is None
    assert isinstance(done[1], asyncio.CancelledError)
    # The cancelled caller stopped waiting, but its append was already on its way: the log
    # has it, and the next version is 1 either way.
    for tid, _ in tables:
        assert (await restored(store, tid)).hand.version == 1


async def test_close_commits_appends_already_accepted(db: Databases) -> None:
    path = db("close")
    s = await Store.open(path)
    tid = await s.create_table(PRESET)
    hid = await s.start_hand(tid, 1, 1)
    pending = asyncio.ensure_future(s.append_action(tid, hid, "0 discard 5m", 0))
    await asyncio.sleep(0)
    await s.close()
    await pending
    s = await Store.open(path)
    assert (await restored(s, tid)).hand.lines == ("0 discard 5m",)
    await s.close()


def test_hand_result_validates_its_shape() -> None:
    with pytest.raises(ValueError):
        HandResult(PRESET, ("a", "b"), (True,), (1, -1))
    with pytest.raises(ValueError, match="two seats"):
        HandResult(PRESET, ("a", "a", "b", "c"), (True,) * 4, (0, 0, 0, 0))
    with pytest.raises(ValueError, match="winner seat"):
        HandResult(PRESET, ("a", "b"), (True, True), (1, -1), wins=(StoredWin(5, 3),))


# ---------------------------------------------------------------- processes sharing a database


async def test_each_process_restores_and_expires_only_its_shards_tables(
    store: Store, clock: Clock
) -> None:
    """Shards 0 and 1 of 2: a guild's shard is (guild_id >> 22) % 2; a table of no guild is
    shard 0's (DMs and the terminal). Table ids come from one sequence for all of them."""
    guilds = {0: (4 << 22) | 9, 1: (7 << 22) | 3}
    by_shard = {
        0: [
            await store.create_table(PRESET, guild_id=guilds[0]),
            await store.create_table(PRESET),
        ],
        1: [await store.create_table(PRESET, guild_id=guilds[1])],
    }
    assert sorted(by_shard[0] + by_shard[1]) == [1, 2, 3]
    for shard, ids in by_shard.items():
        loaded, _ = await store.load_active_tables(shards=(2, (shard,)))
        assert sorted(t.table.id for t in loaded) == sorted(ids)
    loaded, _ = await store.load_active_tables(shards=(2, (0, 1)))
    assert len(loaded) == 3
    clock.advance(DAY)
    assert await store.expire_idle(shards=(2, (1,))) == by_shard[1]
    assert sorted(await store.expire_idle(shards=(2, (0,)))) == sorted(by_shard[0])
    with pytest.raises(ValueError, match="among 0 to 1"):
        await store.load_active_tables(shards=(2, (2,)))


async def test_dm_clicks_wait_in_the_inbox_for_their_tables_owner(store: Store) -> None:
    """Posted by the process that received the click, taken once, oldest first, by the process
    whose shards hold the table (a table of no guild is shard 0's)."""
    mine = await store.create_table(PRESET, guild_id=(7 << 22) | 3)  # shard 1 of 2
    other = await store.create_table(PRESET)  # shard 0 of 2
    await store.post_to_inbox(mine, '{"click": 1}')
    await store.post_to_inbox(other, '{"click": 2}')
    await store.post_to_inbox(mine, '{"click": 3}')
    with pytest.raises(ValueError):
        await store.post_to_inbox(mine, "{not json")
    assert await store.take_inbox((2, (1,))) == [(mine, '{"click": 1}'), (mine, '{"click": 3}')]
    assert await store.take_inbox((2, (1,))) == []
    assert await store.take_inbox((2, (0,))) == [(other, '{"click": 2}')]
