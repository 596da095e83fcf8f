"""Moving a community's data: every row of one store copied into another (`mahjong-bot db copy
--from mahjong.db --to postgresql://…`; either side may be SQLite or PostgreSQL).

The source is opened for reading only and never changed (SQLite `mode=ro`, PostgreSQL read-only
transactions): it must exist and be at this bot's schema version (a missing source is an error,
never an empty database created, nor a target emptied by `replace` for it). The target is opened
(and so migrated) as the bot opens it, then every table of the schema is copied in one
transaction of the target, ids kept (a hand's log still names its
table, a rating history its hands); foreign keys are checked at the commit, so the rows may
come in any order. The DM inbox and the Quick Play queues are not copied (NOT_COPIED). A
target that holds any row already is refused unless `replace` is given, which empties it first
(in the same transaction): two communities' ids would collide.

A copy's statements are not bound by the play timeout (a large copy's COMMIT runs every
deferred check at once): COPY_TIMEOUT each. `progress` is told of each table read and written.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg

from data import dialect
from data.connection import transaction
from data.errors import StoreError
from data.store import Store

# Every table of the schema, parents before children (the order a delete goes backwards).
TABLES = (
    "tables",
    "table_seats",
    "hands",
    "actions",
    "clock_deadlines",
    "hand_results",
    "hand_players",
    "game_results",
    "game_players",
    "ratings",
    "rating_counts",
    "rating_history",
    "table_events",
    "language_preferences",
    "hand_declarations",
)
# The tables not copied: what they hold lives only while the processes that wrote it run, and a
# copy is made with the bot stopped. A DM click in the inbox was answered "played" to nobody
# yet, but its interaction expires within minutes; a Quick Play entry lapses 90 s after its
# process stops renewing it (data/quickplay.py), and its person was never told of a table.
NOT_COPIED = ("dm_inbox", "quickplay_queue")
# The tables whose ids come from an identity column (PostgreSQL) or the rowid (SQLite): after
# a copy, the next id must follow the copied ones.
WITH_IDS = ("tables", "hands", "table_events")
CHUNK = 5000  # rows a statement batch carries
COPY_TIMEOUT = 3600.0  # seconds one statement of a copy may take (its COMMIT checks every row)


@dataclass(frozen=True)
class Copied:
    """How many rows of each table were copied."""

    rows: dict[str, int]

    def line(self) -> str:
        return ", ".join(f"{table} {count}" for table, count in self.rows.items() if count)


def columns(conn: dialect.Db, table: str) -> list[str]:
    """The table's columns, in their order."""
    if dialect.is_postgres(conn):
        rows = conn.execute(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
            (table,),
        ).fetchall()
    else:
        rows = [(r[1],) for r in conn.execute(f"PRAGMA table_info({table})").fetchall()]
    return [r[0] for r in rows]


def read_table(conn: dialect.Db, table: str, names: Sequence[str]) -> list[tuple[Any, ...]]:
    with transaction(conn, "DEFERRED"):
        rows = conn.execute(f"SELECT {', '.join(names)} FROM {table}").fetchall()
    return [tuple(r) for r in rows]


def count_rows(conn: dialect.Db) -> int:
    return sum(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES)


def write_all(
    conn: dialect.Db,
    names: dict[str, list[str]],
    rows: dict[str, list[tuple[Any, ...]]],
    replace: bool,
    progress: Callable[[str], None],
) -> None:
    """Every table's rows in one transaction of the target; StoreError if it is not empty and
    `replace` was not given."""
    with transaction(conn):
        if dialect.is_postgres(conn):
            conn.execute("SET CONSTRAINTS ALL DEFERRED")
        else:
            conn.execute("PRAGMA defer_foreign_keys = ON")
        held = count_rows(conn)
        if held and not replace:
            raise StoreError(
                f"the target already holds {held} rows: refusing to mix two communities' "
                "data (ids would collide). Copy into an empty database, or pass --replace "
                "to empty it first"
            )
        if held:
            # the tables point at their current hand, the hands at their table
            conn.execute("UPDATE tables SET current_hand_id = NULL")
            for table in reversed(TABLES):
                conn.execute(f"DELETE FROM {table}")
        for table in TABLES:
            cols = names[table]
            sql = f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"
            batch = rows[table]
            for start in range(0, len(batch), CHUNK):
                conn.executemany(sql, batch[start : start + CHUNK])
            if batch:
                progress(f"wrote {table}: {len(batch)} rows")
        if dialect.is_postgres(conn):
            for table in WITH_IDS:
                conn.execute(
                    "SELECT setval(pg_get_serial_sequence(?, 'id'),"
                    f" coalesce((SELECT max(id) FROM {table}), 0) + 1, false)",
                    (table,),
                )
        progress("committing (every row's references are checked now)")


async def copy_store(
    source: str,
    target: str,
    *,
    replace: bool = False,
    progress: Callable[[str], None] = lambda line: None,
) -> Copied:
    """Copy every row of the store at `source` into the store at `target` (paths or
    addresses, as MAHJONG_DB takes them). Raises StoreError, leaving both as they were."""
    if source == target:
        raise StoreError("--from and --to name the same database")
    try:
        src = await Store.open_read_only(source, timeout=COPY_TIMEOUT)
    except StoreError as error:
        raise StoreError(f"--from: {error}") from None
    try:
        async with await Store.open(target, timeout=COPY_TIMEOUT) as dst:
            names: dict[str, list[str]] = {}
            rows: dict[str, list[tuple[Any, ...]]] = {}
            for table in TABLES:
                source_cols = await src._call(columns, table)
                target_cols = set(await dst._call(columns, table))
                names[table] = [c for c in source_cols if c in target_cols]
                rows[table] = await src._call(read_table, table, names[table])
                if rows[table]:
                    progress(f"read {table}: {len(rows[table])} rows")
            await dst._call(write_all, names, rows, replace, progress)
    except (sqlite3.Error, asyncpg.PostgresError) as error:
        raise StoreError(f"the copy failed, and the target is as it was: {error}") from None
    finally:
        await src.close()
    return Copied({table: len(rows[table]) for table in TABLES})
