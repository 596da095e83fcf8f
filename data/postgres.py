"""The PostgreSQL connection (asyncpg): the same store functions, run as on SQLite.

`MAHJONG_DB=postgresql://…` chooses it. The data/ functions are written once, against the part of
sqlite3.Connection they use (data/dialect.py, `Db`); here a PostgreSQL session offers that part,
so every function serves both stores unchanged. As on SQLite, one connection a process runs one
function at a time on its own thread, each function one transaction: the thread holds its own
event loop and its asyncpg connection, and each statement is one turn of that loop (the bot's
loop never waits on the database). Statements are `$N`-parameterised (translated once per text)
and prepared once per connection (asyncpg's statement cache), and run through asyncpg's public
`fetch`: a function that must know what an UPDATE changed says `RETURNING` and counts the rows.

Why one connection on a thread, not STYLE.md's asyncpg pool in `setup_hook`: a pool serves
coroutines, and the data/ functions are plain functions written once for both stores (each one
transaction, run where it cannot yield halfway); a pool would need every one of them written
again as a coroutine for PostgreSQL alone. One connection is also what a process's work needs:
its writes are already batched into shared commits (data/action_log.py `GroupCommit`), its
reads are short, and several processes (not several connections of one) are how the bot grows
(README "Scaling"). The measured cost is in docs/benchmarks.md: a process on PostgreSQL
reaches most of its SQLite rate with strong computers, whose CPU, not the store, sets the rate.

A connection that is lost (the server restarted, the network cut) is logged, opened again and
the function run again from its start, for up to `reconnect_for` seconds: each function is one
transaction, and every write that may have committed before the connection was lost carries a
natural key, so its second run stores nothing twice (data/dialect.py `retrying`). A statement
the server does not answer within `timeout` seconds is abandoned with a StoreError: the
connection is dropped and opened afresh for the next call, so no table waits for ever.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import asyncpg

from data import dialect
from data.errors import NotAStoreError, SchemaTooNewError, StoreError, UnusableDatabaseError
from data.migrations import LATEST_VERSION, MIGRATIONS, statements

log = logging.getLogger(__name__)

T = TypeVar("T")

SCHEMES = ("postgresql://", "postgres://")
TIMEOUT = 10.0  # seconds a statement may take before it is abandoned
RECONNECT_FOR = 60.0  # seconds a lost connection is tried again before calls fail

# The version of the schema, as SQLite keeps it in PRAGMA user_version; one row.
VERSION_TABLE = "mahjong_schema"
# An advisory lock serialises migrations between processes starting together.
MIGRATION_LOCK = 0x6D6A6462  # "mjdb"

_LOST = (
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,  # admin shutdown, crash, still starting
    asyncpg.exceptions.CannotConnectNowError,
    ConnectionError,
    OSError,
)


def is_dsn(path: str) -> bool:
    return path.startswith(SCHEMES)


def redact(dsn: str) -> str:
    """The address without its password, for messages and logs."""
    parts = urllib.parse.urlsplit(dsn)
    if parts.password is None:
        return dsn
    netloc = parts.netloc.replace(":" + parts.password + "@", ":***@", 1)
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


class PgCursor:
    """A statement's rows, tuples as sqlite3 gives them. No `rowcount`: asyncpg's public calls
    give the rows or the status, not both, so a function that needs to know what an UPDATE
    changed says `RETURNING` and reads the rows (on both stores)."""

    def __init__(self, rows: list[tuple[Any, ...]]) -> None:
        self._rows = rows

    def fetchone(self) -> tuple[Any, ...] | None:
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self._rows

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self._rows)


class PgSession:
    """What a data/ function sees of a PostgreSQL connection (data/dialect.py `Db`)."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, conn: asyncpg.Connection, retrying: bool
    ) -> None:
        self._loop = loop
        self._conn = conn
        self.retrying = retrying
        self.in_transaction = False

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> PgCursor:
        text = dialect.statement(sql)
        verb = text.split(None, 1)[0].upper()
        if verb in ("COMMIT", "ROLLBACK"):
            self.in_transaction = False
            if verb == "ROLLBACK" and self._conn.is_closed():
                return PgCursor([])  # the server ended the transaction with the connection
        rows = self._loop.run_until_complete(self._conn.fetch(text, *parameters))
        if verb == "BEGIN":
            self.in_transaction = True
        return PgCursor([tuple(r) for r in rows])

    def executemany(self, sql: str, parameters: Sequence[Sequence[Any]], /) -> None:
        rows = [tuple(p) for p in parameters]
        if rows:
            self._loop.run_until_complete(self._conn.executemany(dialect.statement(sql), rows))


class PgConnection:
    """The process's one PostgreSQL connection, run on its own thread (as SQLite's is)."""

    def __init__(self, dsn: str, timeout: float, reconnect_for: float) -> None:
        self.path = dsn
        self.timeout = timeout
        self.reconnect_for = reconnect_for
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="postgres")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._conn: asyncpg.Connection | None = None

    @classmethod
    async def open(
        cls, dsn: str, *, timeout: float = TIMEOUT, reconnect_for: float = RECONNECT_FOR
    ) -> PgConnection:
        """Connect, check the schema version, migrate. UnusableDatabaseError if the server
        cannot be reached; SchemaTooNewError / NotAStoreError as for a SQLite file."""
        connection = cls(dsn, timeout, reconnect_for)
        try:
            await connection._on_worker(connection._first_connect)
            await connection.call(migrate)
        except BaseException:
            await connection.close()
            raise
        return connection

    async def _on_worker(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._worker, fn, *args)

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run fn(session, *args) on the connection's thread; again from its start, with
        session.retrying set, when the connection was lost on the way (see the module)."""
        return await self._on_worker(self._run, fn, args)

    async def close(self) -> None:
        await self._on_worker(self._close_on_worker)
        self._worker.shutdown(wait=True)

    # ------------------------------------------------------------------ on the worker thread

    def _connect(self) -> None:
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        self._conn = self._loop.run_until_complete(
            asyncpg.connect(
                self.path,
                timeout=self.timeout,
                command_timeout=self.timeout,
                # durability as SQLite's synchronous=FULL: a move is on disk when acknowledged
                server_settings={"synchronous_commit": "on", "application_name": "mahjong-bot"},
            )
        )

    def _first_connect(self) -> None:
        try:
            self._connect()
        except (*_LOST, TimeoutError, asyncpg.PostgresError) as error:
            raise UnusableDatabaseError(
                f"PostgreSQL at {redact(self.path)} cannot be used: {_reason(error)}. "
                "Check that the server runs and the address, user and password in MAHJONG_DB"
            ) from None

    def _run(self, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        retrying = False
        lost_since: float | None = None
        while True:
            try:
                if self._conn is None or self._conn.is_closed():
                    self._connect()
            except (*_LOST, TimeoutError) as error:
                lost_since = self._wait_after_loss(error, lost_since)
                retrying = True
                continue
            assert self._loop is not None and self._conn is not None
            if lost_since is not None:
                log.warning(
                    "reconnected to PostgreSQL after %.1f s; retrying the transaction",
                    time.monotonic() - lost_since,
                )
                lost_since = None
            session = PgSession(self._loop, self._conn, retrying)
            try:
                return fn(session, *args)
            except (TimeoutError, asyncpg.exceptions.QueryCanceledError):
                self._drop()
                raise StoreError(
                    f"PostgreSQL did not answer within {self.timeout:g} s; nothing of this "
                    "change was kept (the connection is opened afresh for the next one)"
                ) from None
            except Exception as error:
                # what a lost connection raises varies with the moment it is noticed (the
                # ROLLBACK after it, say): a closed connection says it was lost
                if not isinstance(error, _LOST) and not self._conn.is_closed():
                    if session.in_transaction:
                        self._rollback_quietly()
                    raise
                lost_since = self._wait_after_loss(error, lost_since)
                retrying = True

    def _wait_after_loss(self, error: BaseException, lost_since: float | None) -> float:
        """Drop the connection, log the first loss, wait a little (longer each time); a
        StoreError once the server has been away for `reconnect_for` seconds."""
        self._drop()
        now = time.monotonic()
        if lost_since is None:
            lost_since = now
            log.warning(
                "lost the PostgreSQL connection (%s); reconnecting, then retrying",
                _reason(error),
            )
        if now - lost_since > self.reconnect_for:
            raise StoreError(
                f"PostgreSQL at {redact(self.path)} has been unreachable for "
                f"{self.reconnect_for:g} s ({_reason(error)})"
            ) from None
        time.sleep(min(2.0, 0.1 * (1 + now - lost_since)))
        return lost_since

    def _rollback_quietly(self) -> None:
        assert self._loop is not None and self._conn is not None
        try:
            self._loop.run_until_complete(self._conn.execute("ROLLBACK"))
        except Exception:  # the connection is gone or broken: drop it, the next call reopens
            self._drop()

    def _drop(self) -> None:
        if self._conn is not None:
            self._conn.terminate()
            self._conn = None

    def _close_on_worker(self) -> None:
        if self._conn is not None and self._loop is not None:
            try:
                self._loop.run_until_complete(self._conn.close(timeout=self.timeout))
            except Exception:
                self._conn.terminate()
        self._conn = None
        if self._loop is not None:
            self._loop.close()
            self._loop = None


def _reason(error: BaseException) -> str:
    return str(error) or type(error).__name__


# ------------------------------------------------------------------ schema versions


def schema_version(conn: dialect.Db) -> int | None:
    """The stored version; None when the database has no version table."""
    if not conn.execute("SELECT to_regclass(?)", (VERSION_TABLE,)).fetchone()[0]:
        return None
    row = conn.execute(f"SELECT version FROM {VERSION_TABLE}").fetchone()
    return 0 if row is None else int(row[0])


def check_compatible(conn: dialect.Db, where: str) -> int:
    """The database's version if this bot can use it (reads only)."""
    found = schema_version(conn)
    if found is None:
        others = conn.execute(
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()"
        ).fetchone()[0]
        if others:
            raise NotAStoreError(
                f"{where} holds tables that are not the mahjong bot's (no {VERSION_TABLE} "
                "table); refusing to touch it: give the bot a database of its own"
            )
        return 0
    if found > LATEST_VERSION:
        raise SchemaTooNewError(where, found, LATEST_VERSION)
    return found


def migrate(conn: dialect.Db) -> tuple[int, int]:
    """The same numbered migrations as SQLite's (data/migrations.py), each in a transaction
    with its version; an advisory lock keeps two processes from migrating at once."""
    where = "the PostgreSQL database"
    found: int | None = None
    while True:
        conn.execute("BEGIN")
        try:
            # read under the lock only: another process may be migrating right now
            conn.execute("SELECT pg_advisory_xact_lock(?::bigint)", (MIGRATION_LOCK,))
            version = check_compatible(conn, where)
            if found is None:
                found = version
            if version == LATEST_VERSION:
                conn.execute("COMMIT")
                if found != version:
                    log.info("PostgreSQL schema migrated from version %d to %d", found, version)
                return found, version
            if schema_version(conn) is None:
                conn.execute(f"CREATE TABLE {VERSION_TABLE} (version BIGINT NOT NULL)")
                conn.execute(f"INSERT INTO {VERSION_TABLE} (version) VALUES (0)")
            for sql in dialect.schema_statements(statements(MIGRATIONS[version])):
                conn.execute(sql)
            conn.execute(f"UPDATE {VERSION_TABLE} SET version = ?", (version + 1,))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise


def check_database(dsn: str, timeout: float = TIMEOUT) -> None:
    """Whether Store.open would accept the server at `dsn`, found by reading only (start-up,
    before Discord): raises what Store.open would."""

    async def probe() -> None:
        try:
            conn = await asyncpg.connect(dsn, timeout=timeout, command_timeout=timeout)
        except (*_LOST, TimeoutError, asyncpg.PostgresError) as error:
            raise UnusableDatabaseError(
                f"PostgreSQL at {redact(dsn)} cannot be used: {_reason(error)}. "
                "Check that the server runs and the address, user and password in MAHJONG_DB"
            ) from None
        try:
            # one statement, one snapshot: another process may be creating the schema
            exists, tables = await conn.fetchrow(
                "SELECT to_regclass($1),"
                " (SELECT count(*) FROM pg_tables WHERE schemaname = current_schema())",
                VERSION_TABLE,
            )
            found = 0
            if exists:
                found = int(await conn.fetchval(f"SELECT version FROM {VERSION_TABLE}") or 0)
            elif tables:
                raise NotAStoreError(
                    f"PostgreSQL at {redact(dsn)} holds tables that are not the mahjong "
                    "bot's; refusing to touch it: give the bot a database of its own"
                )
            if found > LATEST_VERSION:
                raise SchemaTooNewError(redact(dsn), found, LATEST_VERSION)
        finally:
            await conn.close()

    asyncio.run(probe())


# ------------------------------------------------------------------ LISTEN


class Listener:
    """LISTEN on a connection of its own, on the caller's loop: `wake()` on every NOTIFY of
    `channel`, and once each time the connection comes back after a loss (a NOTIFY sent while
    it was away is gone, so whoever listens reads again what it was listening for)."""

    CHECK_EVERY = 5.0  # seconds between looks at whether the connection still stands

    def __init__(self, dsn: str, channel: str, wake: Callable[[], None]) -> None:
        self.dsn = dsn
        self.channel = channel
        self.wake = wake
        self._conn: asyncpg.Connection | None = None
        self._gone = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @classmethod
    async def start(cls, dsn: str, channel: str, wake: Callable[[], None]) -> Listener:
        listener = cls(dsn, channel, wake)
        await listener._connect()
        listener._task = asyncio.create_task(listener._watch(), name="postgres-listener")
        return listener

    async def _connect(self) -> None:
        conn = await asyncpg.connect(self.dsn, timeout=TIMEOUT, command_timeout=TIMEOUT)
        await conn.add_listener(self.channel, self._notified)
        conn.add_termination_listener(lambda _: self._gone.set())
        self._conn = conn
        self._gone.clear()

    def _notified(self, conn: object, pid: int, channel: str, payload: str) -> None:
        self.wake()

    async def _watch(self) -> None:
        while True:
            try:
                await asyncio.wait_for(self._gone.wait(), self.CHECK_EVERY)
            except TimeoutError:
                if self._conn is not None and not self._conn.is_closed():
                    continue
            log.warning("the LISTEN connection to PostgreSQL was lost; reconnecting")
            lost_since = time.monotonic()
            while True:
                await asyncio.sleep(min(2.0, 0.1 * (1 + time.monotonic() - lost_since)))
                try:
                    await self._connect()
                except (*_LOST, TimeoutError) as error:
                    log.debug("listening again failed: %s", _reason(error))
                    continue
                break
            log.warning("listening to PostgreSQL again; reading what may have come meanwhile")
            self.wake()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._conn is not None:
            self._conn.terminate()
            self._conn = None
