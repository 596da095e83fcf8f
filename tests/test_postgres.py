"""What only PostgreSQL has: a server that restarts under the bot, a connection lost between a
commit and its answer, a statement that hangs. Nothing lost, nothing doubled, no table blocked
for ever. (Everything the two stores share is tested on both: the `db` and `store` fixtures.)"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import asyncpg
import pytest

from data import SeatRow, Store, StoreError, TableOptions, action_log, dialect, results
from data.postgres import redact
from tests.conftest import PgAdmin, run_apart
from tests.test_data_store import result

PRESET = "hkos-3-v1"
PLAYERS = ("a", "b", "c", "d")


@pytest.fixture
def admin(postgres: PgAdmin | None) -> PgAdmin:
    if postgres is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql) nor MAHJONG_TEST_PG")
    return postgres


@pytest.fixture
def dsn(admin: PgAdmin) -> Any:
    name = admin.create()
    yield admin.dsn_of(name)
    admin.drop([name])


@pytest.fixture
async def pg(dsn: str) -> AsyncIterator[Store]:
    s = await Store.open(dsn, timeout=2.0, reconnect_for=30.0)
    yield s
    await s.close()


async def rated_table(store: Store) -> int:
    seats = [SeatRow(i, p, True) for i, p in enumerate(PLAYERS)]
    return await store.create_table(PRESET, seats=seats, options=TableOptions(rated=True))


def lose_the_connection_after(fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn`, whose first run commits and then loses its connection before it can answer (the
    server ends the session): the store must run it again, and the second run store nothing
    twice."""

    def first_commits_then_the_connection_goes(conn: dialect.Db, *args: Any) -> Any:
        answer = fn(conn, *args)
        if not dialect.retrying(conn):
            conn.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        return answer

    first_commits_then_the_connection_goes.__qualname__ = fn.__qualname__
    return first_commits_then_the_connection_goes


async def test_an_append_retried_after_its_commit_is_stored_once(
    pg: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    tid = await rated_table(pg)
    hid = await pg.start_hand(tid, 1, 5)
    await pg.append_action(tid, hid, "0 discard 5m", 0)
    monkeypatch.setattr(
        action_log, "append_batch", lose_the_connection_after(action_log.append_batch)
    )
    with caplog.at_level(logging.WARNING, logger="data.postgres"):
        await pg.append_actions(tid, hid, ["1 pass", "2 pass"], 1, {"turn": 9.0})
    assert "lost the PostgreSQL connection" in caplog.text
    assert "reconnected to PostgreSQL" in caplog.text
    assert (await pg.hand_log(hid)).lines == ("0 discard 5m", "1 pass", "2 pass")
    # a genuinely stale append (not a retry) is still refused
    monkeypatch.undo()
    with pytest.raises(StoreError, match="refused"):
        await pg.append_action(tid, hid, "1 pass", 1)


async def test_a_result_retried_after_its_commit_counts_once(
    pg: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    tid = await rated_table(pg)
    hid = await pg.start_hand(tid, 1, 5)
    monkeypatch.setattr(
        results, "record_hand_result", lose_the_connection_after(results.record_hand_result)
    )
    recorded = await pg.record_hand_result(tid, hid, result(PLAYERS, (8, -8, 0, 0)))
    assert [c.games for c in recorded.rating_changes] == [1, 1, 1, 1]
    monkeypatch.undo()
    assert [r.games for r in await pg.ratings_of("a")] == [1]
    assert (await pg.leaderboard(PRESET, min_games=1)).total == 4
    history = await pg.rating_history("a", PRESET)
    assert len(history) == 1


async def test_a_hand_start_retried_after_its_commit_starts_one_hand(
    pg: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    tid = await rated_table(pg)
    monkeypatch.setattr(action_log, "start_hand", lose_the_connection_after(action_log.start_hand))
    hid = await pg.start_hand(tid, 1, 5)
    monkeypatch.undo()
    assert (await pg.last_hand(tid)).hand_id == hid  # type: ignore[union-attr]
    with pytest.raises(StoreError, match="already has a hand in play"):
        await pg.start_hand(tid, 1, 5)  # not a retry: refused as before


async def test_the_server_restarted_mid_hand_loses_nothing(
    admin: PgAdmin, dsn: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Appends keep coming while the server stops and starts again: the store says so in its
    log, waits for it, retries, and every acknowledged action is in the log exactly once."""
    if admin.server is None:
        pytest.skip("MAHJONG_TEST_PG names a server these tests do not restart")
    store = await Store.open(dsn, timeout=5.0, reconnect_for=60.0)
    tid = await rated_table(store)
    hid = await store.start_hand(tid, 1, 5)
    acknowledged: list[str] = []
    restarted = threading.Event()

    def restart() -> None:
        assert admin.server is not None
        admin.server.restart()
        restarted.set()

    with caplog.at_level(logging.WARNING, logger="data.postgres"):
        for version in range(200):
            line = f"{version % 4} discard {version % 9 + 1}p"
            await store.append_action(tid, hid, line, version, {"turn": float(version)})
            acknowledged.append(line)
            if version == 20:
                threading.Thread(target=restart).start()
            if version > 20 and restarted.is_set() and version > 40:
                break
            await asyncio.sleep(0.01)
    assert restarted.is_set()
    assert "lost the PostgreSQL connection" in caplog.text
    assert (await store.hand_log(hid)).lines == tuple(acknowledged)
    loaded, bad = await store.load_active_tables()
    assert bad == [] and loaded[0].deadlines == {"turn": float(len(acknowledged) - 1)}
    recorded = await store.record_hand_result(tid, hid, result(PLAYERS, (8, -8, 0, 0)))
    assert recorded.newly_recorded
    await store.close()


async def test_a_hanging_statement_times_out_and_the_table_goes_on(pg: Store, dsn: str) -> None:
    """Another session holds the table's row locked: the store's write gives up after its
    timeout with a StoreError (no table waits for ever), and works again once the lock goes."""
    tid = await rated_table(pg)
    hid = await pg.start_hand(tid, 1, 5)
    holder = await asyncpg.connect(dsn)
    try:
        await holder.execute("BEGIN")
        await holder.execute("SELECT 1 FROM tables WHERE id = $1 FOR UPDATE", tid)
        started = time.monotonic()
        with pytest.raises(StoreError, match="did not answer within 2 s"):
            await pg.append_action(tid, hid, "0 discard 5m", 0)
        assert time.monotonic() - started < 10
        await holder.execute("ROLLBACK")
    finally:
        await holder.close()
    await pg.append_action(tid, hid, "0 discard 5m", 0)
    assert (await pg.hand_log(hid)).lines == ("0 discard 5m",)


async def test_an_unreachable_server_is_one_clear_error(admin: PgAdmin) -> None:
    base = admin.dsn_of("no_such_database_here")
    with pytest.raises(StoreError, match="cannot be used") as caught:
        await Store.open(base)
    assert "no_such_database_here" in str(caught.value)


def test_passwords_stay_out_of_messages() -> None:
    assert (
        redact("postgresql://bot:s3cret@db:5432/mahjong") == "postgresql://bot:***@db:5432/mahjong"
    )
    assert redact("postgresql://bot@db/mahjong") == "postgresql://bot@db/mahjong"


def test_one_sql_for_both_numbers_parameters_as_sqlite_does() -> None:
    assert dialect.statement("SELECT ? WHERE a = ?2 AND b = ? AND c = '?'") == (
        "SELECT $1 WHERE a = $2 AND b = $3 AND c = '?'"
    )
    assert dialect.statement("BEGIN IMMEDIATE") == "BEGIN"


def test_migrations_become_postgresql_types_and_forward_references() -> None:
    from data.migrations import MIGRATIONS, statements

    v1 = dialect.schema_statements(statements(MIGRATIONS[0]))
    tables = next(s for s in v1 if s.startswith("CREATE TABLE tables"))
    assert "id              BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" in tables
    assert "REFERENCES hands" not in tables  # hands is created later in the same script
    hands_at = next(i for i, s in enumerate(v1) if s.startswith("CREATE TABLE hands"))
    assert any(
        "ALTER TABLE tables ADD FOREIGN KEY (current_hand_id) REFERENCES hands" in s
        for s in v1[hands_at:]
    )
    assert not any("WITHOUT ROWID" in s or " REAL" in s for s in v1)


def test_run_apart_answers_from_a_loop_of_its_own() -> None:
    async def answer() -> int:
        return 42

    assert run_apart(answer) == 42


async def test_the_inbox_listener_wakes_on_a_post_and_after_a_lost_connection(
    admin: PgAdmin, dsn: str
) -> None:
    """A NOTIFY wakes the owner; so does its listening connection coming back after the server
    restarted (a wake-up sent meanwhile is lost, so the inbox is read again)."""
    if admin.server is None:
        pytest.skip("MAHJONG_TEST_PG names a server these tests do not restart")
    store = await Store.open(dsn, reconnect_for=60.0)
    wakes: list[float] = []
    listener = await store.listen_inbox(lambda: wakes.append(time.monotonic()))
    assert listener is not None
    try:
        table = await store.create_table(PRESET)
        await store.post_to_inbox(table, "{}")
        for _ in range(100):
            if wakes:
                break
            await asyncio.sleep(0.05)
        assert len(wakes) == 1
        await asyncio.to_thread(admin.server.restart)
        for _ in range(400):
            if len(wakes) > 1:
                break
            await asyncio.sleep(0.05)
        assert len(wakes) == 2  # woken once more, to read what came while it was away
        assert await store.take_inbox(None) == [(table, "{}")]
    finally:
        await listener.close()
        await store.close()


async def test_sqlite_has_no_inbox_listener(tmp_path: object) -> None:
    async with await Store.open(":memory:") as store:
        assert not store.shared
        assert await store.listen_inbox(lambda: None) is None
