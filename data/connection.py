"""Connection and transaction policy: which file, checked before use, one connection a process.

One connection per process, WAL, foreign keys on. Every store operation is one function run on
aiosqlite's worker thread as one explicit transaction (BEGIN IMMEDIATE ... COMMIT, or ROLLBACK
on any error): a transaction is one thread hop instead of one per statement, and since the
worker runs one function at a time, no other coroutine's statement can ever land inside it (so
no asyncio lock is needed). Other processes on the same file wait on SQLite's write lock
(busy_timeout).

Durability: synchronous=FULL by default, so a committed action survives a power cut, not just a
crash of the process; `synchronous="NORMAL"` trades the last moments before a power cut for
about twice the append rate (still safe against a killed process).

Before anything is written, the path is checked: a directory, a missing folder, a read-only file
or folder, a file that is not SQLite, a newer schema or damaged pages each raise a StoreError
whose message is one line saying what to do, and leave the disk as it was (no -wal/-shm files).
A read-only database is refused rather than opened read-only: the bot writes every move, so it
could not play a single hand on it.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import aiosqlite

from data.dialect import Db
from data.errors import AlreadyOpenError, NotAStoreError, UnusableDatabaseError
from data.migrations import (
    LATEST_VERSION,
    SchemaTooNewError,
    _uri_path,
    check_compatible,
    migrate,
    probe_version,
)
from data.postgres import check_database as check_postgres
from data.postgres import is_address

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_DB = "mahjong.db"
MEMORY = ":memory:"
SYNCHRONOUS = ("FULL", "NORMAL", "EXTRA")

# Paths with an open connection in this process: the bot has one connection per database.
_open_paths: set[str] = set()


def resolve_path(path: str | None) -> str:
    """None -> $MAHJONG_DB, else mahjong.db in the working directory."""
    if path is None:
        path = os.environ.get("MAHJONG_DB") or DEFAULT_DB
    return path


@contextmanager
def transaction(conn: Db, mode: str = "IMMEDIATE") -> Iterator[None]:
    """BEGIN <mode> ... COMMIT, or ROLLBACK if anything (the COMMIT included) fails.

    IMMEDIATE takes the write lock up front, so a read-then-write inside cannot be overtaken by
    another process's write (the idempotency checks rely on this). DEFERRED is for reads: one
    consistent snapshot.
    """
    conn.execute(f"BEGIN {mode}")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def check_path(path: str) -> None:
    """Refuse, with one line saying what to do, a path the bot could not write a database at.

    Reads only the file system. A file with no write permission bit at all counts as read-only
    even for root (who could write it anyway): someone marked it so on purpose.
    """
    where = f"set MAHJONG_DB to a file the bot may write (now {path!r})"
    if os.path.isdir(path):
        raise UnusableDatabaseError(
            f"the database path {path!r} is a directory, not a file: "
            f"name a file inside it, e.g. {os.path.join(path, DEFAULT_DB)!r}"
        )
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UnusableDatabaseError(
            f"the folder {folder!r} for the database does not exist: create it, or {where}"
        )
    if os.path.exists(path):
        mode = os.stat(path).st_mode
        if not os.access(path, os.R_OK):
            raise UnusableDatabaseError(
                f"the database {path!r} cannot be read (permissions): let the bot's user read "
                f"and write it, or {where}"
            )
        if not os.access(path, os.W_OK) or not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
            raise UnusableDatabaseError(
                f"the database {path!r} is read-only: the bot writes every move, so it does not "
                f"start on it. Make it writable (chmod u+w), or {where}. Nothing was changed"
            )
    if not os.access(folder, os.W_OK):
        raise UnusableDatabaseError(
            f"the folder {folder!r} is read-only: SQLite keeps its -wal and -shm files beside "
            f"the database, so the folder must be writable, or {where}"
        )


def check_database(path: str) -> None:
    """Whether Store.open would accept `path`, found by reading only (for start-up, before
    anything else happens): raises what Store.open would, and changes nothing on disk."""
    if is_address(path):
        check_postgres(path)
        return
    if path == MEMORY or not _check_before_connecting(path):
        return
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        if check_compatible(conn, path):
            check_pages(conn, path)
    except sqlite3.DatabaseError as error:
        raise NotAStoreError(f"{path!r} cannot be used as the bot's database: {error}") from None
    finally:
        conn.close()  # the last connection: SQLite removes the -wal and -shm files it made


def _check_before_connecting(path: str) -> bool:
    """The file-system checks and the header's schema version; whether the file has data."""
    check_path(path)
    # Read-only first: a newer database must be refused without a byte written to it.
    try:
        found = probe_version(path)
    except OSError as error:
        message = f"the database {path!r} cannot be read ({error.strerror or error})"
        raise UnusableDatabaseError(message) from None
    if found > LATEST_VERSION:
        raise SchemaTooNewError(path, found, LATEST_VERSION)
    return os.path.exists(path) and os.path.getsize(path) > 0


def configure(conn: sqlite3.Connection, path: str, synchronous: str) -> None:
    """Connection settings, checks, then migrations. Nothing is written before the checks."""
    conn.execute("PRAGMA busy_timeout = 10000")
    conn.execute("PRAGMA foreign_keys = ON")
    found = check_compatible(conn, path)  # before the first write: journal_mode changes it
    if found:
        check_pages(conn, path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    before, after = migrate(conn, path)
    if before != after:
        log.info("database %s migrated from schema version %d to %d", path, before, after)


def check_pages(conn: sqlite3.Connection, path: str) -> None:
    """A damaged database is refused at start-up, not discovered one failed command at a time.

    quick_check reads every page once (well under a second for a database of tens of MB).
    """
    try:
        problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
    except sqlite3.DatabaseError as error:
        problems = [str(error)]
    if problems != ["ok"]:
        first = " ".join(problems[0].replace("*", " ").split())[:160]  # SQLite's may span lines
        raise UnusableDatabaseError(
            f"the database {path!r} is damaged ({first}; {len(problems)} problem(s) "
            "found): restore it from a backup, or set MAHJONG_DB to another file. "
            "Nothing was changed"
        )


class Connection:
    """The process's one connection to a database, run on aiosqlite's worker thread."""

    def __init__(self, db: aiosqlite.Connection, path: str, key: str) -> None:
        self._db = db
        self.path = path
        self._key = key  # the realpath registered in _open_paths ("" for :memory:)

    @classmethod
    async def open(cls, path: str, synchronous: str = "FULL") -> Connection:
        """Check, open, configure and migrate the database at `path` (":memory:" works).

        Raises UnusableDatabaseError, NotAStoreError or SchemaTooNewError with the file (and
        its folder) untouched, and AlreadyOpenError for a second connection in this process.
        """
        synchronous = synchronous.upper()
        if synchronous not in SYNCHRONOUS:
            raise ValueError("synchronous must be FULL, NORMAL or EXTRA")
        key = ""
        if path != MEMORY:
            key = os.path.realpath(path)
            if key in _open_paths:
                raise AlreadyOpenError(
                    f"{path!r} is already open in this process; share that Store"
                )
            _check_before_connecting(path)
        try:
            db = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as error:
            message = f"the database {path!r} cannot be opened: {error}"
            raise UnusableDatabaseError(message) from None
        connection = cls(db, path, key)
        try:
            await connection.call(configure, path, synchronous)
        except sqlite3.DatabaseError as error:
            await db.close()
            message = f"{path!r} cannot be used as the bot's database: {error}"
            raise NotAStoreError(message) from None
        except BaseException:
            await db.close()
            raise
        if key:
            _open_paths.add(key)
        return connection

    @classmethod
    async def open_read_only(cls, path: str) -> Connection:
        """Open an existing database of this bot's latest schema for reading only (`mode=ro`):
        nothing is created, migrated or written (`mahjong-bot replay`). A database written by
        an older bot is refused, since bringing it up to date would write to it."""
        if not os.path.isfile(path):
            raise UnusableDatabaseError(f"the database {path!r} does not exist")
        found = probe_version(path)
        if found > LATEST_VERSION:
            raise SchemaTooNewError(path, found, LATEST_VERSION)
        if found < LATEST_VERSION:
            raise UnusableDatabaseError(
                f"the database {path!r} has schema version {found}, older than this bot's "
                f"{LATEST_VERSION}: start the bot on it once to bring it up to date"
            )
        # With no -wal file beside it every page is in the file itself, and no bot has it
        # open: read it as immutable, or SQLite would leave new -wal and -shm files behind.
        # A bot that has it open keeps a -wal, which a plain read-only connection then reads.
        immutable = "" if os.path.exists(f"{path}-wal") else "&immutable=1"
        try:
            db = await aiosqlite.connect(
                f"file:{_uri_path(path)}?mode=ro{immutable}", isolation_level=None, uri=True
            )
        except sqlite3.Error as error:
            message = f"the database {path!r} cannot be opened: {error}"
            raise UnusableDatabaseError(message) from None
        return cls(db, path, "")

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run fn(sqlite3_connection, *args) on aiosqlite's worker thread.

        aiosqlite has no public way to run a function on its thread; its private _execute has
        been stable since its first releases, and this is the only place that relies on it.
        """
        return await self._db._execute(fn, self._db._conn, *args)

    async def close(self) -> None:
        """Close the connection (SQLite checkpoints the WAL into the main file)."""
        _open_paths.discard(self._key)
        await self._db.close()
