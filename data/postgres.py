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
transaction. A COMMIT whose answer is lost or late is not run again: the server is asked on a
new connection whether the transaction committed (PgConnection.commit), and if it did the
function's first run stands, with its answer, so every write is exactly once; the natural keys
the writes carry (data/dialect.py `retrying`) remain a second guard. A statement the server
does not answer within `timeout` seconds is abandoned with a StoreError: the connection is
dropped and opened afresh for the next call, so no table waits for ever.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
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


def is_address(path: str) -> bool:
    """Whether `path` is written as an address (`scheme://…`), rightly spelled or not: one
    that is not PostgreSQL's is refused, never taken as a file path (and echoed)."""
    scheme, sep, _ = path.partition("://")
    return bool(sep) and scheme.replace("+", "").replace("-", "").isalnum()


# The query parameters asyncpg reads a secret from.
_SECRET_PARAMETERS = re.compile(r"([?&](?:ssl)?password=)[^&]*")


def redact(address: str) -> str:
    """The address with its secrets as ***, for every message and log that shows it: the
    password of its user information (everything from the user's ":" to the last "@", since
    a password may hold an unescaped "@", "/" or "?"), and `?password=` / `?sslpassword=`.
    A file path is returned as it is."""
    if not is_address(address):
        return address
    scheme, _, rest = address.partition("://")
    rest = _SECRET_PARAMETERS.sub(r"\1***", rest)
    userinfo, at, hosts = rest.rpartition("@")
    if at and ":" in userinfo:
        rest = f"{userinfo.split(':', 1)[0]}:***@{hosts}"
    return f"{scheme}://{rest}"


def check_address(address: str) -> None:
    """Refuse, in one line with the address redacted, what asyncpg could not read: another
    scheme (a typo), an unclosed "[", a port that is not a number from 1 to 65535, a query
    that is not `key=value` pairs. Reads nothing but the text."""
    where = f"MAHJONG_DB {redact(address)!r}"
    if not is_dsn(address):
        raise UnusableDatabaseError(
            f"{where} is not an address the bot reads: give a SQLite file or postgresql://…"
        )
    rest = address.partition("://")[2]
    head, _, query = rest.partition("?")
    hosts = head.rpartition("@")[2].partition("/")[0]
    ports = []
    for host in hosts.split(",") if hosts else []:
        if host.startswith("["):
            if "]" not in host:
                raise UnusableDatabaseError(f"{where}: an IPv6 host without its closing ]")
            host = host[host.index("]") + 1 :]
        ports.append(host.partition(":")[2] or "5432")
    try:
        parameters = urllib.parse.parse_qs(query, strict_parsing=True) if query else {}
    except ValueError:
        raise UnusableDatabaseError(f"{where}: its query is not key=value pairs") from None
    for listed in parameters.get("port", []):
        ports += listed.split(",")
    for port in ports:
        port = urllib.parse.unquote(port)
        if not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
            raise UnusableDatabaseError(f"{where}: the port {port!r} is not from 1 to 65535")


# Statements that never make a transaction write (a function call in a SELECT aside, which no
# data/ function uses to write)
_READS = frozenset({"SELECT", "SHOW", "SET"})
# What txid_status says of a transaction whose end is settled
_COMMITTED, _ABORTED = "committed", "aborted"


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
    """What a data/ function sees of a PostgreSQL connection (data/dialect.py `Db`). With an
    `owner`, a COMMIT whose answer is lost or late is settled by asking the server
    (PgConnection.commit), and every statement runs on the owner's connection of the moment."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        conn: asyncpg.Connection,
        retrying: bool,
        owner: PgConnection | None = None,
    ) -> None:
        self._loop = loop
        self._conn = conn
        self._owner = owner
        self.retrying = retrying
        self.in_transaction = False
        self.wrote = False  # whether the transaction ran a statement that may write

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> PgCursor:
        text = dialect.statement(sql)
        verb = text.split(None, 1)[0].upper()
        if self._owner is not None:
            if verb == "ROLLBACK" and not self._owner.connected:
                self.in_transaction = False
                return PgCursor([])  # the transaction ended with its connection
            self._conn = self._owner.live()
        if verb in ("COMMIT", "ROLLBACK"):
            self.in_transaction = False
            if verb == "ROLLBACK" and self._conn.is_closed():
                return PgCursor([])  # the server ended the transaction with the connection
            if verb == "COMMIT" and self._owner is not None:
                self._owner.commit(self.wrote)
                return PgCursor([])
        rows = self._loop.run_until_complete(self._conn.fetch(text, *parameters))
        if verb == "BEGIN":
            self.in_transaction = True
            self.wrote = False
        elif verb not in _READS:
            self.wrote = True
        return PgCursor([tuple(r) for r in rows])

    def executemany(self, sql: str, parameters: Sequence[Sequence[Any]], /) -> None:
        rows = [tuple(p) for p in parameters]
        if rows:
            self._loop.run_until_complete(self._conn.executemany(dialect.statement(sql), rows))


class PgConnection:
    """The process's one PostgreSQL connection, run on its own thread (as SQLite's is)."""

    def __init__(
        self, dsn: str, timeout: float, reconnect_for: float, read_only: bool = False
    ) -> None:
        self.path = dsn
        self.timeout = timeout
        self.read_only = read_only
        self.reconnect_for = reconnect_for
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="postgres")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._conn: asyncpg.Connection | None = None

    @classmethod
    async def open(
        cls,
        dsn: str,
        *,
        timeout: float = TIMEOUT,
        reconnect_for: float = RECONNECT_FOR,
        read_only: bool = False,
    ) -> PgConnection:
        """Connect, check the schema version, migrate. UnusableDatabaseError if the server
        cannot be reached; SchemaTooNewError / NotAStoreError as for a SQLite file.
        `read_only`: every transaction read-only (the server refuses any write or DDL), and
        a database not at this bot's schema version refused instead of migrated."""
        check_address(dsn)
        connection = cls(dsn, timeout, reconnect_for, read_only)
        try:
            await connection._on_worker(connection._first_connect)
            await connection.call(check_current if read_only else migrate)
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
                timeout=min(self.timeout, TIMEOUT),
                command_timeout=self.timeout,
                server_settings=self._settings(),
            )
        )

    def _settings(self) -> dict[str, str]:
        # durability as SQLite's synchronous=FULL: a move is on disk when acknowledged
        settings = {"synchronous_commit": "on", "application_name": "mahjong-bot"}
        if self.read_only:
            settings["default_transaction_read_only"] = "on"
        return settings

    def _first_connect(self) -> None:
        try:
            self._connect()
        except (*_LOST, TimeoutError, asyncpg.PostgresError, ValueError) as error:
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
            session = PgSession(self._loop, self._conn, retrying, self)
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
                # ROLLBACK after it, say): a closed connection says it was lost. A StoreError
                # is the function's own refusal, or a COMMIT whose outcome is not known
                if isinstance(error, StoreError) or (
                    not isinstance(error, _LOST) and self.connected
                ):
                    if session.in_transaction and self.connected:
                        self._rollback_quietly()
                    raise
                lost_since = self._wait_after_loss(error, lost_since)
                retrying = True

    @property
    def connected(self) -> bool:
        return self._conn is not None and not self._conn.is_closed()

    def live(self) -> asyncpg.Connection:
        """The connection, opened again if a settled COMMIT dropped it."""
        if self._conn is None or self._conn.is_closed():
            self._connect()
        assert self._conn is not None
        return self._conn

    def commit(self, wrote: bool) -> None:
        """COMMIT; when its answer is lost (the link cut) or late (past `timeout`), ask the
        server on a new connection whether the transaction committed (txid_status), rather
        than run it again or say nothing was kept: it returns if it committed, raises the
        loss if it did not (so the caller runs it again, or says, truly, that nothing was
        kept), and raises a StoreError saying the outcome is unknown if the server cannot be
        asked within `reconnect_for` seconds."""
        assert self._loop is not None and self._conn is not None
        conn = self._conn
        xid = None
        if wrote:  # a transaction that wrote nothing has nothing to lose
            xid = self._loop.run_until_complete(conn.fetchval("SELECT txid_current_if_assigned()"))
        try:
            self._loop.run_until_complete(conn.fetch("COMMIT"))
            return
        except (*_LOST, TimeoutError, asyncpg.exceptions.QueryCanceledError) as error:
            pid = conn.get_server_pid()
            self._drop()
            if xid is None:
                return
            if self._settled(int(xid), pid, error) == _COMMITTED:
                log.warning(
                    "the answer to a COMMIT was lost (%s); the server says it committed",
                    _reason(error),
                )
                return
            raise

    def _settled(self, xid: int, pid: int, error: BaseException) -> str:
        """How the transaction `xid` (of the server process `pid`) ended, asked on a new
        connection; one still in progress is ended (its process terminated) and asked again."""
        since = time.monotonic()
        while True:
            try:
                conn = self.live()
                assert self._loop is not None
                status = self._loop.run_until_complete(conn.fetchval("SELECT txid_status($1)", xid))
                if status in (_COMMITTED, _ABORTED):
                    return str(status)
                if status is None:
                    break  # too old to be known (never, a second after its COMMIT)
                self._loop.run_until_complete(conn.fetchval("SELECT pg_terminate_backend($1)", pid))
            except (*_LOST, TimeoutError) as lost:
                self._drop()
                log.debug("asking whether a transaction committed failed: %s", _reason(lost))
            if time.monotonic() - since > self.reconnect_for:
                break
            time.sleep(0.05)
        raise StoreError(
            f"PostgreSQL at {redact(self.path)} was lost while committing ({_reason(error)}), "
            "and whether this change was kept is not known"
        ) from None

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


def check_current(conn: dialect.Db) -> None:
    """A database this bot reads as it is: at its schema version (read only, for `db copy`'s
    source, which must never be changed)."""
    conn.execute("BEGIN")
    try:
        found = check_compatible(conn, "the PostgreSQL database")
    finally:
        conn.execute("ROLLBACK")
    if found == 0:
        raise UnusableDatabaseError("the PostgreSQL database holds no mahjong bot's tables")
    if found < LATEST_VERSION:
        raise UnusableDatabaseError(
            f"the PostgreSQL database has schema version {found}, older than this bot's "
            f"{LATEST_VERSION}: start the bot on it once to bring it up to date"
        )


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

    check_address(dsn)

    async def probe() -> None:
        try:
            conn = await asyncpg.connect(dsn, timeout=timeout, command_timeout=timeout)
        except (*_LOST, TimeoutError, asyncpg.PostgresError, ValueError) as error:
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


async def answers(conn: asyncpg.Connection | None, within: float, what: str) -> bool:
    """Whether a connection of its own (LISTEN, the shard lease) answers a query in time: a
    half-open connection (no RST) never says it is gone."""
    if conn is None or conn.is_closed():
        return False
    try:
        await asyncio.wait_for(conn.fetchval("SELECT 1"), within)
    except (*_LOST, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        log.warning("%s does not answer (%s)", what, _reason(error))
        return False
    return True


class Listener:
    """LISTEN on a connection of its own, on the caller's loop: `wake()` on every NOTIFY of
    `channel`, and once each time the connection comes back after a loss (a NOTIFY sent while
    it was away is gone, so whoever listens reads again what it was listening for)."""

    # Seconds between looks at whether the connection still stands: a query on it, answered
    # within ANSWER_WITHIN, since a half-open connection (no RST) never says it is gone.
    CHECK_EVERY = 5.0
    ANSWER_WITHIN = 5.0

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
                if await answers(self._conn, self.ANSWER_WITHIN, "the LISTEN connection"):
                    continue
            if self._conn is not None:
                self._conn.terminate()
                self._conn = None
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


# ------------------------------------------------------------------ shard leases


class ShardLease:
    """The shards a process runs, held so that no other process runs one of them (two would
    play one table): advisory locks on a connection of its own. Every process holds the key
    ALL_SHARDS shared, and each of its shards' keys alone; a process of every shard (no
    MAHJONG_SHARDS) holds ALL_SHARDS alone. A process killed releases its locks at once (its
    connection closes), so a restart after a crash is never refused, as a lease row would be
    until it lapsed. The connection is asked a query every CHECK_EVERY seconds; when it was
    lost the locks are taken again, and if another process took them meanwhile, `lost` is told
    (the process must stop serving)."""

    CHECK_EVERY = 5.0
    ANSWER_WITHIN = 5.0

    def __init__(
        self, dsn: str, shards: tuple[int, tuple[int, ...]] | None, lost: Callable[[str], None]
    ) -> None:
        self.dsn = dsn
        self.shards = shards
        self.lost = lost
        self._conn: asyncpg.Connection | None = None
        self._task: asyncio.Task[None] | None = None

    @classmethod
    async def hold(
        cls,
        dsn: str,
        shards: tuple[int, tuple[int, ...]] | None,
        lost: Callable[[str], None],
    ) -> ShardLease:
        """Take the shards' locks; StoreError, saying who to stop, if another process holds
        one of them."""
        lease = cls(dsn, shards, lost)
        await lease._take()
        lease._task = asyncio.create_task(lease._watch(), name="postgres-shard-lease")
        return lease

    def what(self) -> str:
        if self.shards is None:
            return "every shard (MAHJONG_SHARDS is not set)"
        count, ids = self.shards
        return f"shard(s) {', '.join(map(str, ids))} of {count}"

    async def _take(self) -> None:
        conn = await asyncpg.connect(self.dsn, timeout=TIMEOUT, command_timeout=TIMEOUT)
        try:
            if self.shards is None:
                taken = [await conn.fetchval(_LOCK, SHARD_LOCKS, ALL_SHARDS)]
            else:
                count, ids = self.shards
                taken = [await conn.fetchval(_LOCK_SHARED, SHARD_LOCKS, ALL_SHARDS)]
                taken += [await conn.fetchval(_LOCK, SHARD_LOCKS, _key(count, i)) for i in ids]
        except BaseException:
            conn.terminate()
            raise
        if not all(taken):
            conn.terminate()
            raise UnusableDatabaseError(
                f"another running process on this database holds {self.what()}, or all of "
                "them: two processes would play the same tables. Stop it, or give each "
                "process its own MAHJONG_SHARDS"
            )
        self._conn = conn

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.CHECK_EVERY)
            conn = self._conn
            if await answers(conn, self.ANSWER_WITHIN, "the shard lease's connection"):
                continue
            if conn is not None:
                conn.terminate()
                self._conn = None
            try:
                await self._take()
            except UnusableDatabaseError as error:
                self.lost(str(error))
                return
            except (*_LOST, TimeoutError) as error:
                log.warning("taking the shard lease again failed (%s)", _reason(error))

    async def release(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close(timeout=TIMEOUT)
            self._conn = None


SHARD_LOCKS = 0x6D6A7368  # "mjsh": the first key of every shard lease's advisory lock
ALL_SHARDS = 0
_LOCK = "SELECT pg_try_advisory_lock($1::int4, $2::int4)"
_LOCK_SHARED = "SELECT pg_try_advisory_lock_shared($1::int4, $2::int4)"


def _key(count: int, shard: int) -> int:
    """A shard's lock key: its count and its id (ALL_SHARDS is none of them)."""
    return count * 65536 + shard + 1
