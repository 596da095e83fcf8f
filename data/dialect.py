"""The one SQL the data/ modules write, and what PostgreSQL needs of it.

The modules write SQLite's SQL with `?` parameters, kept to what both databases read the same
(`INSERT … ON CONFLICT`, `RETURNING`, `WITH … AS (VALUES …)`), so one function serves both
stores. For PostgreSQL a statement's `?` and `?N` become `$N`, and `BEGIN IMMEDIATE` /
`BEGIN DEFERRED` the matching transaction start; a migration script's types become
PostgreSQL's (64-bit integers: Discord ids do not fit in 32 bits; identity columns for ids).
Everything is translated once per text and cached.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from typing import Any, Protocol

import asyncpg

# SQLite's limit on a statement's parameters is asked of SQLite; PostgreSQL's protocol counts
# them in 16 bits
POSTGRES_MAX_PARAMETERS = 32767

# A read-then-write (IMMEDIATE) takes SQLite's write lock up front; on PostgreSQL the natural
# keys and the rows' own locks do that work. A read (DEFERRED) is one consistent snapshot.
_BEGINS = {
    "BEGIN IMMEDIATE": "BEGIN",
    "BEGIN DEFERRED": "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
}


class Cursor(Protocol):
    """What the data/ functions read of a statement's result (no row count: an UPDATE that
    must know whether it matched says `RETURNING`, data/postgres.py `PgCursor`)."""

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Any: ...


class Db(Protocol):
    """The part of sqlite3.Connection the data/ functions use; the PostgreSQL session has it
    too (data/postgres.py), so each function serves both stores."""

    @property
    def in_transaction(self) -> bool: ...

    def execute(self, sql: str, parameters: Any = (), /) -> Any: ...

    def executemany(self, sql: str, parameters: Any, /) -> Any: ...


def is_postgres(conn: Db) -> bool:
    return not isinstance(conn, sqlite3.Connection)


def max_parameters(conn: Db) -> int:
    if isinstance(conn, sqlite3.Connection):
        return conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    return POSTGRES_MAX_PARAMETERS


def retrying(conn: Db) -> bool:
    """Whether this run of a function is a retry after a lost connection (PostgreSQL): its
    first run may have committed, so what it finds already stored may be its own work."""
    return bool(getattr(conn, "retrying", False))


def typed(conn: Db, types: tuple[str, ...]) -> str:
    """A row of parameters for a `VALUES` list whose types nothing else decides (a CTE's
    columns): plain `?` on SQLite, `?::type` on PostgreSQL (which would take them as text)."""
    if isinstance(conn, sqlite3.Connection):
        return "(" + ", ".join("?" * len(types)) + ")"
    return "(" + ", ".join(f"?::{t}" for t in types) + ")"


def lock_ratings(conn: Db, preset: str) -> None:
    """Inside a write transaction, before a preset's ratings are read to be changed: on
    PostgreSQL, processes finishing rated hands of one preset at once take turns (each reads the
    ratings the other wrote); SQLite's write transaction already holds the only write lock."""
    take_turns(conn, "ratings " + preset)


def take_turns(conn: Db, name: str) -> None:
    """Inside a write transaction: on PostgreSQL, processes whose transactions read and then
    change the same thing (`name`) run them one after the other (an advisory lock held to the
    end of the transaction); on SQLite the write transaction already holds the only write lock."""
    if not isinstance(conn, sqlite3.Connection):
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(?))", (name,))


INTEGRITY_ERRORS: tuple[type[Exception], ...] = (
    sqlite3.IntegrityError,
    asyncpg.exceptions.IntegrityConstraintViolationError,
)


# ------------------------------------------------------------------ statements


@functools.lru_cache(maxsize=1024)
def statement(sql: str) -> str:
    """One statement as PostgreSQL reads it: `?` numbered as SQLite numbers it (one more than
    the largest number so far), `?N` kept as `$N`; quoted text left alone."""
    begin = _BEGINS.get(sql.strip())
    if begin is not None:
        return begin
    out: list[str] = []
    highest = 0
    i = 0
    n = len(sql)
    while i < n:
        c = sql[i]
        if c == "'":
            end = sql.index("'", i + 1)
            while end + 1 < n and sql[end + 1] == "'":  # '' inside a literal
                end = sql.index("'", end + 2)
            out.append(sql[i : end + 1])
            i = end + 1
            continue
        if c == "?":
            j = i + 1
            while j < n and sql[j].isdigit():
                j += 1
            number = int(sql[i + 1 : j]) if j > i + 1 else highest + 1
            highest = max(highest, number)
            out.append(f"${number}")
            i = j
            continue
        out.append(c)
        i += 1
    return "".join(out)


# ------------------------------------------------------------------ migrations

_TYPES = (
    # a rowid alias: ids from an identity column (never max(id) + 1)
    (
        re.compile(r"\bINTEGER PRIMARY KEY(?=\s*(,|$))", re.MULTILINE),
        "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    ),
    (re.compile(r"\bINTEGER\b"), "BIGINT"),
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
    (re.compile(r"\bBLOB\b"), "BYTEA"),
    (re.compile(r"\)\s*WITHOUT ROWID"), ")"),
)
_CREATE = re.compile(r"CREATE TABLE (\w+)", re.IGNORECASE)
_REFERENCE = re.compile(r"^(\s*)(\w+)(\s.*?)\s+REFERENCES\s+(\w+)\s*\((\w+)\)(.*)$")


def schema_statements(script_statements: list[str]) -> list[str]:
    """A migration's statements as PostgreSQL reads them.

    Foreign keys are DEFERRABLE (a copy of a database may load its rows in any order inside
    one transaction); one naming a table that a later statement of the same script creates
    (SQLite allows that, PostgreSQL does not) is added by an ALTER TABLE after that statement.
    """
    created_later: list[set[str]] = []
    names: set[str] = set()
    for sql in reversed(script_statements):
        created_later.append(set(names))
        m = _CREATE.match(sql)
        if m:
            names.add(m.group(1))
    created_later.reverse()
    out: list[str] = []
    pending: list[str] = []
    for sql, later in zip(script_statements, created_later, strict=True):
        table = _CREATE.match(sql)
        lines = []
        for line in sql.splitlines():
            ref = _REFERENCE.match(line)
            if ref:
                indent, column, kind, target, key, rest = ref.groups()
                if table and target in later:
                    lines.append(f"{indent}{column}{kind}{rest}")
                    pending.append(
                        f"ALTER TABLE {table.group(1)} ADD FOREIGN KEY ({column})"
                        f" REFERENCES {target} ({key}) DEFERRABLE"
                    )
                    continue
                line = f"{indent}{column}{kind} REFERENCES {target} ({key}) DEFERRABLE{rest}"
            lines.append(line)
        text = "\n".join(lines)
        for pattern, replacement in _TYPES:
            text = pattern.sub(replacement, text)
        out.append(text)
        if table:
            ready = [p for p in pending if _references_existing(p, later)]
            out += ready
            pending = [p for p in pending if p not in ready]
    return out + pending


def _references_existing(alter: str, later: set[str]) -> bool:
    target = alter.split(" REFERENCES ")[1].split()[0]
    return target not in later
