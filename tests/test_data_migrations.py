"""Schema migrations: older databases upgrade in place, newer ones are refused untouched."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from data import HandResult, NotAStoreError, Phase, SchemaTooNewError, Store
from data import migrations as m

PRESET = "hkos-3-v1"


def build(path: Path, version: int, *, wal: bool = False) -> sqlite3.Connection:
    """A database at `version`, built by hand from the first `version` migrations."""
    conn = sqlite3.connect(path, isolation_level=None)
    if wal:
        conn.execute("PRAGMA journal_mode = WAL")
    for script in m.MIGRATIONS[:version]:
        for sql in m.statements(script):
            conn.execute(sql)
    conn.execute(f"PRAGMA user_version = {version}")
    return conn


async def schema_version(store: Store) -> int:
    """The version the open database is at (PRAGMA user_version)."""
    return await store._call(lambda conn: conn.execute("PRAGMA user_version").fetchone()[0])


def digest(path: Path) -> dict[str, str]:
    """Every file of the database (main, -wal, -shm, -journal) by name -> sha256."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(path.parent.iterdir())
        if p.name.startswith(path.name)
    }


def test_migrations_are_numbered_and_split_cleanly() -> None:
    assert m.LATEST_VERSION == len(m.MIGRATIONS) >= 2
    for script in m.MIGRATIONS:
        stmts = m.statements(script)
        assert stmts and all(sqlite3.complete_statement(s) for s in stmts)
    with pytest.raises(ValueError):
        m.statements("CREATE TABLE x (a")


async def test_fresh_database_is_at_latest(tmp_path: Path) -> None:
    s = await Store.open(str(tmp_path / "new.db"))
    assert await schema_version(s) == m.LATEST_VERSION
    await s.close()


async def test_v1_database_with_a_game_in_progress_upgrades_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = build(path, 1)
    conn.execute(
        "INSERT INTO tables (id, guild_id, channel_id, preset, rated, time_control, phase,"
        " session_json, current_hand_id, created_at, last_action_at)"
        " VALUES (1, 5, 6, ?, 1, 'classic', 'playing', '{\"dealer\": 0}', 1, 100.0, 200.0)",
        (PRESET,),
    )
    conn.executemany(
        "INSERT INTO table_seats VALUES (1, ?, ?, 1)", [(i, f"u{i}") for i in range(4)]
    )
    conn.execute(
        "INSERT INTO hands (id, table_id, hand_no, seed, started_at) VALUES (1,1,1,'77',1)"
    )
    conn.executemany(
        "INSERT INTO actions VALUES (1, ?, ?, 150.0)",
        [(0, "0 discard 5m"), (1, "1 pass"), (2, "2 pung 5m")],
    )
    conn.execute("INSERT INTO clock_deadlines VALUES (1, 'turn', 260.0)")
    conn.close()

    s = await Store.open(str(path), clock=lambda: 300.0)
    assert await schema_version(s) == m.LATEST_VERSION
    (lt,), bad = await s.load_active_tables()
    assert bad == []
    assert lt.table.phase is Phase.PLAYING and lt.table.session_state == '{"dealer": 0}'
    assert lt.hand.seed == 77 and lt.hand.lines == ("0 discard 5m", "1 pass", "2 pung 5m")
    assert lt.deadlines == {"turn": 260.0}
    # The upgraded file works for everything the later versions added.
    await s.append_action(1, 1, "2 discard 1z", 3)
    rec = await s.record_hand_result(
        1,
        1,
        HandResult(PRESET, ("u0", "u1", "u2", "u3"), (True,) * 4, (8, -8, 0, 0), rated=True),
    )
    assert len(rec.rating_changes) == 4
    assert await s.expire_idle(now=300.0 + 2 * 86400) == [1]
    await s.close()


@pytest.mark.parametrize("version", range(m.LATEST_VERSION + 1))
async def test_every_older_version_upgrades(tmp_path: Path, version: int) -> None:
    build(tmp_path / "v.db", version).close()
    s = await Store.open(str(tmp_path / "v.db"))
    assert await schema_version(s) == m.LATEST_VERSION
    tid = await s.create_table(PRESET)
    (lt,), bad = await s.load_active_tables()
    assert bad == [] and lt.table.id == tid and lt.table.phase is Phase.LOBBY
    await s.close()


@pytest.mark.parametrize("wal", [False, True])
async def test_newer_database_is_refused_and_left_untouched(tmp_path: Path, wal: bool) -> None:
    path = tmp_path / "future.db"
    conn = build(path, m.LATEST_VERSION, wal=wal)
    conn.execute(
        "INSERT INTO tables (preset, time_control, phase, created_at, last_action_at)"
        " VALUES ('hkos-9', 'classic', 'lobby', 1, 1)"
    )
    conn.execute(f"PRAGMA user_version = {m.LATEST_VERSION + 1}")
    conn.close()
    before = digest(path)

    with pytest.raises(SchemaTooNewError) as err:
        await Store.open(str(path))
    message = str(err.value)
    assert f"schema version {m.LATEST_VERSION + 1}" in message
    assert f"up to {m.LATEST_VERSION}" in message
    assert "not modified" in message and "upgrade the bot" in message
    assert digest(path) == before
    # And it can be opened again later (nothing registered as open).
    with pytest.raises(SchemaTooNewError):
        await Store.open(str(path))


async def test_a_file_that_is_not_a_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite at all" * 100)
    before = digest(path)
    with pytest.raises(NotAStoreError):
        await Store.open(str(path))
    assert digest(path) == before


async def test_someone_elses_sqlite_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.commit()
    conn.close()
    before = digest(path)
    with pytest.raises(NotAStoreError, match="not the mahjong bot's"):
        await Store.open(str(path))
    assert digest(path) == before


def test_a_failing_migration_leaves_the_previous_version(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "half.db"
    build(path, m.LATEST_VERSION).close()
    broken = "CREATE TABLE new_thing (a INTEGER);\nINSERT INTO no_such_table VALUES (1);\n"
    monkeypatch.setattr(m, "MIGRATIONS", (*m.MIGRATIONS, broken))
    monkeypatch.setattr(m, "LATEST_VERSION", m.LATEST_VERSION + 1)
    conn = sqlite3.connect(path, isolation_level=None)
    with pytest.raises(sqlite3.OperationalError):
        m.migrate(conn, str(path))
    assert not conn.in_transaction
    assert conn.execute("PRAGMA user_version").fetchone()[0] == m.LATEST_VERSION - 1
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert "new_thing" not in names
    conn.close()
