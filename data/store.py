"""The store: the one place that talks to SQLite (through aiosqlite).

One connection per process, WAL, foreign keys on. Every method runs as one explicit transaction
(BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error) on aiosqlite's worker thread, handed over
as a single function: a transaction is one thread hop instead of one per statement, and since
the worker runs one function at a time, no other coroutine's statement can ever land inside our
transaction (so no asyncio lock is needed). Other processes on the same file wait on SQLite's
write lock (busy_timeout).

Durability: synchronous=FULL by default, so a committed action survives a power cut, not just a
crash of the process; `synchronous="NORMAL"` trades the last moments before a power cut for
about twice the append rate (still safe against a killed process).

Time comes from the injected `clock` (default time.time) unless a method is given `now`, so tests
control it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import aiosqlite

from data import rating as rating_math
from data.errors import (
    AlreadyOpenError,
    HandNotActiveError,
    NotAStoreError,
    ResultConflictError,
    StaleVersionError,
    StoreError,
    TableNotFoundError,
    TableQuarantinedError,
)
from data.migrations import (
    LATEST_VERSION,
    SchemaTooNewError,
    check_compatible,
    migrate,
    probe_version,
)
from data.rows import (
    ACTIVE_PHASES,
    HandLog,
    HandRecord,
    HandResult,
    HandStatus,
    LeaderboardEntry,
    LeaderboardPage,
    LoadedTable,
    Payment,
    Phase,
    QuarantinedTable,
    RatingChange,
    RatingRow,
    RecordedHand,
    SeatResult,
    SeatRow,
    TableEvent,
    TableOptions,
    TableRow,
    WinRecord,
)
from engine.actions import Action
from engine.presets import PRESETS, find_preset
from engine.tiles import InvalidNotationError

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_DB = "mahjong.db"
IDLE_EXPIRY = 24 * 60 * 60  # RULES.md: a table with no game action for 24 hours expires
LEADERBOARD_MIN_GAMES = 3  # on the board from the third rated hand; provisional ones marked

# ACTIVE_PHASES as an SQL list, for IN clauses: "('lobby', 'playing', 'between_hands')".
_ACTIVE_SQL = "(" + ", ".join(f"'{p.value}'" for p in ACTIVE_PHASES) + ")"

# Paths with an open Store in this process: the bot has one connection per database.
_open_paths: set[str] = set()


def resolve_path(path: str | None) -> str:
    """None -> $MAHJONG_DB, else mahjong.db in the working directory."""
    if path is None:
        path = os.environ.get("MAHJONG_DB") or DEFAULT_DB
    return path


@contextmanager
def _transaction(conn: sqlite3.Connection, mode: str = "IMMEDIATE") -> Iterator[None]:
    """BEGIN <mode> ... COMMIT, or ROLLBACK if anything (the COMMIT included) fails.

    IMMEDIATE takes the write lock up front, so a read-then-write inside cannot be overtaken by
    another process's write (the idempotency checks rely on this).
    """
    conn.execute(f"BEGIN {mode}")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _json_text(text: str | None, what: str) -> str | None:
    """Check that caller-supplied JSON text parses, so nothing unreadable is ever stored."""
    if text is not None:
        try:
            json.loads(text)
        except (TypeError, ValueError) as e:
            raise ValueError(f"{what} must be JSON text: {e}") from None
    return text


def _parse_action(action: Action | str) -> Action:
    return action if isinstance(action, Action) else Action.parse(action)


class _Unreadable(Exception):
    """Stored data that does not read back (the table gets quarantined)."""


_TABLE_COLS = (
    "id, guild_id, channel_id, preset, visibility, rated, time_control, invite_code, "
    "options_json, phase, message_id, session_json, current_hand_id, created_at, "
    "last_action_at, closed_at, closed_reason, quarantine_reason"
)
_HAND_COLS = "id, table_id, hand_no, seed, setup_json, status, started_at, ended_at"


def _table_from(row: Sequence[Any], seats: Iterable[Sequence[Any]]) -> TableRow:
    (
        tid,
        guild_id,
        channel_id,
        preset,
        visibility,
        rated,
        time_control,
        invite_code,
        options_json,
        phase,
        message_id,
        session_json,
        current_hand_id,
        created_at,
        last_action_at,
        closed_at,
        closed_reason,
        quarantine_reason,
    ) = row
    try:
        extra = json.loads(options_json)
    except ValueError as e:
        raise _Unreadable(f"options unreadable: {e}") from None
    return TableRow(
        id=tid,
        guild_id=guild_id,
        channel_id=channel_id,
        preset=preset,
        options=TableOptions(
            visibility=visibility,
            rated=bool(rated),
            time_control=time_control,
            invite_code=invite_code,
            extra=extra,
        ),
        seats=tuple(SeatRow(s, p, bool(h)) for s, p, h in seats),
        phase=Phase(phase),
        message_id=message_id,
        session_state=session_json,
        current_hand_id=current_hand_id,
        created_at=created_at,
        last_action_at=last_action_at,
        closed_at=closed_at,
        closed_reason=closed_reason,
        quarantine_reason=quarantine_reason,
    )


def _hand_from(
    row: Sequence[Any], lines: Sequence[tuple[int, str]], cache: dict[str, Action]
) -> HandLog:
    """A HandLog from its row and (seq, line) pairs; _Unreadable if any part does not parse.

    `cache` maps line text to its Action: logs repeat the same few hundred lines, and Actions
    are immutable, so one parse per distinct line is enough.
    """
    hid, table_id, hand_no, seed, setup_json, status, started_at, ended_at = row
    try:
        seed_value = int(seed)
    except ValueError:
        raise _Unreadable(f"hand {hid}: seed {seed!r} is not an integer") from None
    if setup_json is not None:
        try:
            json.loads(setup_json)
        except ValueError as e:
            raise _Unreadable(f"hand {hid}: setup unreadable: {e}") from None
    actions = []
    for expected, (seq, line) in enumerate(lines):
        if seq != expected:
            raise _Unreadable(f"hand {hid}: action {expected} is missing from the log")
        act = cache.get(line)
        if act is None:
            try:
                act = cache[line] = Action.parse(line)
            except InvalidNotationError as e:
                raise _Unreadable(f"hand {hid}: action {seq} unreadable: {e}") from None
        actions.append(act)
    return HandLog(
        hand_id=hid,
        table_id=table_id,
        hand_no=hand_no,
        seed=seed_value,
        setup=setup_json,
        status=HandStatus(status),
        started_at=started_at,
        ended_at=ended_at,
        actions=tuple(actions),
    )


def _check_table(table: TableRow, hand: HandLog | None) -> None:
    """What a table must satisfy to be restored; _Unreadable names the first thing wrong."""
    if table.preset not in PRESETS:
        raise _Unreadable(f"unknown preset {table.preset!r}")
    if table.session_state is not None:
        try:
            json.loads(table.session_state)
        except ValueError as e:
            raise _Unreadable(f"session state unreadable: {e}") from None
    if table.phase is Phase.PLAYING and (hand is None or hand.status is not HandStatus.PLAYING):
        raise _Unreadable("phase is playing but no hand is in play")


class Store:
    """Persistence for tables, hands, ratings and history. Create with `await Store.open()`."""

    def __init__(self, db: aiosqlite.Connection, path: str, clock: Callable[[], float]) -> None:
        self._db = db
        self.path = path
        self._clock = clock
        self._closed = False
        self._key = ""  # the realpath registered in _open_paths, if any
        self._appends: list[_Append] = []  # waiting for the next group commit
        self._flusher: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls,
        path: str | None = None,
        *,
        clock: Callable[[], float] = time.time,
        synchronous: str = "FULL",
    ) -> Store:
        """Open (creating and migrating as needed) the database at `path`.

        None means $MAHJONG_DB or mahjong.db in the working directory; ":memory:" works.
        Raises SchemaTooNewError (file untouched) for a database from a newer bot.
        """
        path = resolve_path(path)
        if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError("synchronous must be FULL, NORMAL or EXTRA")
        key = path if path == ":memory:" else os.path.realpath(path)
        if key != ":memory:" and key in _open_paths:
            raise AlreadyOpenError(f"{path!r} is already open in this process; share that Store")
        # Read-only first: a newer database must be refused without a byte written to it.
        found = probe_version(path)
        if found > LATEST_VERSION:
            raise SchemaTooNewError(path, found, LATEST_VERSION)
        db = await aiosqlite.connect(path, isolation_level=None)
        store = cls(db, path, clock)
        try:
            await store._call(_configure, path, synchronous.upper())
        except sqlite3.DatabaseError as e:
            await db.close()
            raise NotAStoreError(f"{path!r} cannot be used as the bot's database: {e}") from None
        except BaseException:
            await db.close()
            raise
        if key != ":memory:":
            _open_paths.add(key)
        store._key = key
        return store

    async def close(self) -> None:
        """Close the connection (SQLite checkpoints the WAL into the main file)."""
        if self._closed:
            return
        self._closed = True
        if self._flusher is not None:
            await asyncio.shield(self._flusher)  # appends already accepted get committed
        _open_paths.discard(self._key)
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run fn(sqlite3_connection, *args) on aiosqlite's worker thread.

        aiosqlite has no public way to run a function on its thread; its private _execute has
        been stable since its first releases, and this is the only place that relies on it.
        """
        return await self._db._execute(fn, self._db._conn, *args)

    def _now(self, now: float | None) -> float:
        return self._clock() if now is None else now

    async def schema_version(self) -> int:
        def run(conn: sqlite3.Connection) -> int:
            return int(conn.execute("PRAGMA user_version").fetchone()[0])

        return await self._call(run)

    # ------------------------------------------------------------------ tables

    async def create_table(
        self,
        preset: str,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        options: TableOptions | None = None,
        seats: Iterable[SeatRow] = (),
        now: float | None = None,
    ) -> int:
        """A new table in the lobby; returns its id. The preset must exist (find_preset)."""
        find_preset(preset)
        options = options or TableOptions()
        if options.visibility not in ("public", "private"):
            raise ValueError(f"visibility is public or private, not {options.visibility!r}")
        extra = json.dumps(options.extra, sort_keys=True)
        seat_rows = [(s.seat, s.player_id, int(s.human)) for s in seats]
        at = self._now(now)

        def run(conn: sqlite3.Connection) -> int:
            with _transaction(conn):
                cur = conn.execute(
                    "INSERT INTO tables (guild_id, channel_id, preset, visibility, rated,"
                    " time_control, invite_code, options_json, phase, created_at, last_action_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        preset,
                        options.visibility,
                        int(options.rated),
                        options.time_control,
                        options.invite_code,
                        extra,
                        at,
                        at,
                    ),
                )
                tid = int(cur.lastrowid or 0)
                conn.executemany(
                    "INSERT INTO table_seats (table_id, seat, player_id, human)"
                    " VALUES (?, ?, ?, ?)",
                    [(tid, *s) for s in seat_rows],
                )
                _event(conn, tid, at, "created", preset)
                return tid

        return await self._call(run)

    async def get_table(self, table_id: int) -> TableRow:
        """The table's row as stored (any phase). Raises TableNotFoundError."""

        def run(conn: sqlite3.Connection) -> TableRow:
            with _transaction(conn, "DEFERRED"):
                return _read_table(conn, table_id)

        try:
            return await self._call(run)
        except _Unreadable as e:
            await self._quarantine([(table_id, str(e))], self._now(None))
            raise TableQuarantinedError(table_id, str(e)) from None

    async def set_options(self, table_id: int, options: TableOptions) -> None:
        """Replace the table's options. Whether it is rated can change only in the lobby: a
        hand that started casual must not end rated, nor the reverse."""
        extra = json.dumps(options.extra, sort_keys=True)

        def run(conn: sqlite3.Connection) -> None:
            with _transaction(conn):
                cur = conn.execute(
                    "UPDATE tables SET visibility = ?, rated = ?, time_control = ?,"
                    " invite_code = ?, options_json = ?"
                    " WHERE id = ? AND (phase = 'lobby' OR rated = ?2)",  # ?2: the new rated
                    (
                        options.visibility,
                        int(options.rated),
                        options.time_control,
                        options.invite_code,
                        extra,
                        table_id,
                    ),
                )
                if cur.rowcount == 0:
                    _read_table(conn, table_id)  # raises if there is no such table
                    raise StoreError(f"table {table_id} has left the lobby; rated is fixed")

        await self._call(run)

    async def set_seats(
        self, table_id: int, seats: Iterable[SeatRow], *, now: float | None = None
    ) -> None:
        """Replace who sits where (joining, leaving, adding a computer). Counts as activity."""
        rows = [(table_id, s.seat, s.player_id, int(s.human)) for s in seats]
        at = self._now(now)

        def run(conn: sqlite3.Connection) -> None:
            with _transaction(conn):
                cur = conn.execute(
                    "UPDATE tables SET last_action_at = ? WHERE id = ?", (at, table_id)
                )
                _found(cur, table_id)
                conn.execute("DELETE FROM table_seats WHERE table_id = ?", (table_id,))
                conn.executemany(
                    "INSERT INTO table_seats (table_id, seat, player_id, human)"
                    " VALUES (?, ?, ?, ?)",
                    rows,
                )

        await self._call(run)

    async def set_phase(self, table_id: int, phase: Phase, *, now: float | None = None) -> None:
        """Move an open table between lobby / playing / between_hands (close with close_table).

        Hands start with start_hand and end with record_hand_result, which set the phase
        themselves; this is for the moves around them (e.g. back to the lobby).
        """
        phase = Phase(phase)
        if phase not in ACTIVE_PHASES:
            raise ValueError(f"set_phase moves between open phases; use close_table for {phase}")
        at = self._now(now)

        def run(conn: sqlite3.Connection) -> None:
            with _transaction(conn):
                cur = conn.execute(
                    f"UPDATE tables SET phase = ?, last_action_at = ?"
                    f" WHERE id = ? AND phase IN {_ACTIVE_SQL}",
                    (phase.value, at, table_id),
                )
                if cur.rowcount == 0:
                    _read_table(conn, table_id)  # raises if missing
                    raise StoreError(f"table {table_id} is closed; its phase cannot change")

        await self._call(run)

    async def set_message_id(self, table_id: int, message_id: int | None) -> None:
        """The public table message (not a game action: does not move last_action_at)."""

        def run(conn: sqlite3.Connection) -> None:
            with _transaction(conn):
                cur = conn.execute(
                    "UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id)
                )
                _found(cur, table_id)

        await self._call(run)

    async def save_session_state(
        self, table_id: int, state_json: str, *, now: float | None = None
    ) -> None:
        """The engine's session (dealer, winds, points carried forward) as JSON text."""
        _json_text(state_json, "session state")
        at = self._now(now)

        def run(conn: sqlite3.Connection) -> None:
            with _transaction(conn):
                cur = conn.execute(
                    "UPDATE tables SET session_json = ?, last_action_at = ? WHERE id = ?",
                    (state_json, at, table_id),
                )
                _found(cur, table_id)

        await self._call(run)

    async def touch(self, table_id: int, *, now: float | None = None) -> None:
        """Record activity that writes nothing else (e.g. a Ready press between hands)."""
        at = self._now(now)

        def run(conn: sqlite3.Connection) -> None:
            with _transaction(conn):
                _found(
                    conn.execute(
                        "UPDATE tables SET last_action_at = ? WHERE id = ?", (at, table_id)
                    ),
                    table_id,
                )

        await self._call(run)

    async def set_deadlines(self, table_id: int, deadlines: Mapping[str, float]) -> None:
        """Replace the table's clock deadlines (name -> Unix time) outside an action."""

        def run(conn: sqlite3.Connection) -> None:
            with _transaction(conn):
                _found(
                    conn.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)),
                    table_id,
                    select=True,
                )
                _replace_deadlines(conn, table_id, deadlines)

        await self._call(run)

    async def find_by_invite(self, invite_code: str) -> TableRow | None:
        """The open table with this join code, if any."""

        def run(conn: sqlite3.Connection) -> TableRow | None:
            with _transaction(conn, "DEFERRED"):
                row = conn.execute(
                    f"SELECT id FROM tables WHERE invite_code = ? AND phase IN {_ACTIVE_SQL}",
                    (invite_code,),
                ).fetchone()
                return None if row is None else _read_table(conn, row[0])

        return await self._call(run)

    async def list_tables(
        self, guild_id: int, *, public_only: bool = True, phases: Iterable[Phase] = ACTIVE_PHASES
    ) -> list[TableRow]:
        """A guild's tables in the given phases (for `/mahjong tables`), oldest first."""
        wanted = [Phase(p).value for p in phases]
        marks = ", ".join("?" for _ in wanted)

        def run(conn: sqlite3.Connection) -> list[TableRow]:
            with _transaction(conn, "DEFERRED"):
                ids = conn.execute(
                    f"SELECT id FROM tables WHERE guild_id = ? AND phase IN ({marks})"
                    + (" AND visibility = 'public'" if public_only else "")
                    + " ORDER BY id",
                    (guild_id, *wanted),
                ).fetchall()
                out = []
                for (tid,) in ids:
                    try:
                        out.append(_read_table(conn, tid))
                    except _Unreadable:
                        continue  # load_active_tables quarantines it
                return out

        return await self._call(run)

    async def tables_of_player(self, player_id: str) -> list[int]:
        """Ids of the open tables where this player has a seat."""

        def run(conn: sqlite3.Connection) -> list[int]:
            rows = conn.execute(
                "SELECT s.table_id FROM table_seats s JOIN tables t ON t.id = s.table_id"
                f" WHERE s.player_id = ? AND t.phase IN {_ACTIVE_SQL} ORDER BY s.table_id",
                (player_id,),
            ).fetchall()
            return [r[0] for r in rows]

        return await self._call(run)

    async def table_events(self, table_id: int) -> list[TableEvent]:
        """The table's recorded lifecycle (created, closed, quarantined), oldest first."""

        def run(conn: sqlite3.Connection) -> list[TableEvent]:
            rows = conn.execute(
                "SELECT id, table_id, at, kind, detail FROM table_events"
                " WHERE table_id = ? ORDER BY id",
                (table_id,),
            ).fetchall()
            return [TableEvent(*r) for r in rows]

        return await self._call(run)

    # ------------------------------------------------------------------ hands and actions

    async def start_hand(
        self,
        table_id: int,
        hand_no: int,
        seed: int,
        *,
        setup: str | None = None,
        deadlines: Mapping[str, float] | None = None,
        now: float | None = None,
    ) -> int:
        """Begin a hand: store its seed (and the session setup it starts from, JSON text).

        One transaction: the hand row, phase playing, current hand, last action time, and the
        table's deadlines replaced by `deadlines` (none if None). Returns the hand id.
        """
        _json_text(setup, "hand setup")
        at = self._now(now)

        def run(conn: sqlite3.Connection) -> int:
            with _transaction(conn):
                row = conn.execute(
                    "SELECT t.phase, h.status FROM tables t"
                    " LEFT JOIN hands h ON h.id = t.current_hand_id WHERE t.id = ?",
                    (table_id,),
                ).fetchone()
                if row is None:
                    raise TableNotFoundError(f"no table {table_id}")
                if row[0] not in ACTIVE_PHASES:
                    raise StoreError(f"table {table_id} is {row[0]}; no hand can start")
                if row[1] == HandStatus.PLAYING:
                    raise StoreError(f"table {table_id} already has a hand in play")
                try:
                    cur = conn.execute(
                        "INSERT INTO hands (table_id, hand_no, seed, setup_json, started_at)"
                        " VALUES (?, ?, ?, ?, ?)",
                        (table_id, hand_no, str(int(seed)), setup, at),
                    )
                except sqlite3.IntegrityError:
                    raise StoreError(f"table {table_id} already has a hand {hand_no}") from None
                hid = int(cur.lastrowid or 0)
                conn.execute(
                    "UPDATE tables SET phase = 'playing', current_hand_id = ?, last_action_at = ?"
                    " WHERE id = ?",
                    (hid, at, table_id),
                )
                _replace_deadlines(conn, table_id, deadlines or {})
                return hid

        return await self._call(run)

    async def append_action(
        self,
        table_id: int,
        hand_id: int,
        action: Action | str,
        version: int,
        deadlines: Mapping[str, float] | None = None,
        *,
        now: float | None = None,
    ) -> None:
        """Append one action to a hand's log, with the table's clock; durable on return.

        `version` is the hand's version the action was taken at: the number of actions already
        in the log (0 for the first). Anything else raises StaleVersionError and writes nothing,
        so a log can never have a gap or two actions for one version. `deadlines` replaces the
        table's deadlines (None leaves them as they are). The text is parsed first and stored
        in canonical form, so every stored line reads back.

        The action row, the table's last-action time and its deadlines are written together or
        not at all. Appends from different tables that arrive while a commit is in flight share
        the next transaction (group commit; each in its own savepoint, so one refused append
        does not affect the others): with synchronous=FULL every commit waits for the disk, and
        sharing that wait is what lets many busy tables go faster than one. An append once
        accepted is committed even if its caller is cancelled while waiting.
        """
        item = _Append(
            table_id,
            hand_id,
            str(_parse_action(action)),
            version,
            None if deadlines is None else dict(deadlines),
            self._now(now),
            asyncio.get_running_loop().create_future(),
        )
        self._appends.append(item)
        if self._flusher is None:
            # A task, not the caller, runs the commit: if the caller is cancelled, the other
            # appends in its batch still learn their outcome.
            self._flusher = asyncio.create_task(self._flush_appends())
        await item.done

    async def _flush_appends(self) -> None:
        try:
            while self._appends:
                batch = self._appends[:_MAX_BATCH]
                del self._appends[:_MAX_BATCH]
                try:
                    outcomes = await self._call(_append_batch, batch)
                except BaseException as e:  # the commit failed: nothing in the batch was stored
                    outcomes = [e] * len(batch)
                for item, outcome in zip(batch, outcomes, strict=True):
                    if item.done.done():
                        continue  # its caller was cancelled; the outcome stands regardless
                    if outcome is None:
                        item.done.set_result(None)
                    else:
                        item.done.set_exception(outcome)
        finally:
            self._flusher = None

    async def hand_log(self, hand_id: int) -> HandLog:
        """One hand's seed and log (any status), for replays and bug reports."""

        def run(conn: sqlite3.Connection) -> HandLog:
            with _transaction(conn, "DEFERRED"):
                row = conn.execute(
                    f"SELECT {_HAND_COLS} FROM hands WHERE id = ?", (hand_id,)
                ).fetchone()
                if row is None:
                    raise HandNotActiveError(f"no hand {hand_id}")
                lines = conn.execute(
                    "SELECT seq, action FROM actions WHERE hand_id = ? ORDER BY seq", (hand_id,)
                ).fetchall()
                return _hand_from(row, lines, {})

        try:
            return await self._call(run)
        except _Unreadable as e:
            raise StoreError(str(e)) from None

    async def hand_logs(self, table_id: int) -> list[HandLog]:
        """Every hand the table has played, in order (the whole session as seeds + logs)."""

        def run(conn: sqlite3.Connection) -> list[HandLog]:
            with _transaction(conn, "DEFERRED"):
                hands = conn.execute(
                    f"SELECT {_HAND_COLS} FROM hands WHERE table_id = ? ORDER BY hand_no",
                    (table_id,),
                ).fetchall()
                cache: dict[str, Action] = {}
                return [
                    _hand_from(
                        h,
                        conn.execute(
                            "SELECT seq, action FROM actions WHERE hand_id = ? ORDER BY seq",
                            (h[0],),
                        ).fetchall(),
                        cache,
                    )
                    for h in hands
                ]

        try:
            return await self._call(run)
        except _Unreadable as e:
            raise StoreError(str(e)) from None

    # ------------------------------------------------------------------ restoring

    async def load_table(self, table_id: int) -> LoadedTable:
        """The raw material to rebuild one table: its row, the hand in play, its deadlines.

        A table whose data does not read back is quarantined and TableQuarantinedError raised.
        """

        def run(conn: sqlite3.Connection) -> LoadedTable:
            with _transaction(conn, "DEFERRED"):
                table = _read_table(conn, table_id)
                if table.phase is Phase.QUARANTINED:
                    raise TableQuarantinedError(table_id, table.quarantine_reason or "")
                hand = None
                if table.phase is Phase.PLAYING and table.current_hand_id is not None:
                    hand_row = conn.execute(
                        f"SELECT {_HAND_COLS} FROM hands WHERE id = ?", (table.current_hand_id,)
                    ).fetchone()
                    lines = conn.execute(
                        "SELECT seq, action FROM actions WHERE hand_id = ? ORDER BY seq",
                        (table.current_hand_id,),
                    ).fetchall()
                    hand = _hand_from(hand_row, lines, {})
                _check_table(table, hand)
                deadlines = dict(
                    conn.execute(
                        "SELECT name, at FROM clock_deadlines WHERE table_id = ?", (table_id,)
                    ).fetchall()
                )
                return LoadedTable(table, hand, deadlines)

        try:
            return await self._call(run)
        except _Unreadable as e:
            await self._quarantine([(table_id, str(e))], self._now(None))
            raise TableQuarantinedError(table_id, str(e)) from None

    async def load_active_tables(self) -> tuple[list[LoadedTable], list[QuarantinedTable]]:
        """Every open table, ready to rebuild (at startup), and the ones set aside.

        A table naming an unknown preset, or with a log line, seed, session or option that does
        not read back, is quarantined (phase 'quarantined', reason stored, event recorded,
        logged) and reported; the others load regardless. Reads a consistent snapshot with a
        handful of queries, however many tables there are.
        """

        def read(conn: sqlite3.Connection) -> tuple[list[LoadedTable], list[QuarantinedTable]]:
            with _transaction(conn, "DEFERRED"):
                tables = conn.execute(
                    f"SELECT {_TABLE_COLS} FROM tables WHERE phase IN {_ACTIVE_SQL} ORDER BY id"
                ).fetchall()
                seats: dict[int, list[tuple[int, str, int]]] = {}
                for tid, seat, player, human in conn.execute(
                    "SELECT s.table_id, s.seat, s.player_id, s.human FROM table_seats s"
                    f" JOIN tables t ON t.id = s.table_id WHERE t.phase IN {_ACTIVE_SQL}"
                    " ORDER BY s.table_id, s.seat"
                ):
                    seats.setdefault(tid, []).append((seat, player, human))
                hands = {
                    row[0]: row
                    for row in conn.execute(
                        f"SELECT {', '.join('h.' + c for c in _HAND_COLS.split(', '))}"
                        " FROM hands h JOIN tables t ON t.current_hand_id = h.id"
                        f" WHERE t.phase = 'playing'"
                    )
                }
                lines: dict[int, list[tuple[int, str]]] = {}
                for hid, seq, line in conn.execute(
                    "SELECT a.hand_id, a.seq, a.action FROM tables t"
                    " JOIN actions a ON a.hand_id = t.current_hand_id"
                    " WHERE t.phase = 'playing' ORDER BY a.hand_id, a.seq"
                ):
                    lines.setdefault(hid, []).append((seq, line))
                deadlines: dict[int, dict[str, float]] = {}
                for tid, name, at in conn.execute(
                    "SELECT d.table_id, d.name, d.at FROM clock_deadlines d"
                    f" JOIN tables t ON t.id = d.table_id WHERE t.phase IN {_ACTIVE_SQL}"
                ):
                    deadlines.setdefault(tid, {})[name] = at
            loaded: list[LoadedTable] = []
            bad: list[QuarantinedTable] = []
            cache: dict[str, Action] = {}
            for row in tables:
                tid = row[0]
                try:
                    table = _table_from(row, seats.get(tid, ()))
                    hand = None
                    if table.phase is Phase.PLAYING and table.current_hand_id in hands:
                        hid = table.current_hand_id
                        hand = _hand_from(hands[hid], lines.get(hid, ()), cache)
                    _check_table(table, hand)
                except _Unreadable as e:
                    bad.append(QuarantinedTable(tid, str(e)))
                    continue
                loaded.append(LoadedTable(table, hand, deadlines.get(tid, {})))
            return loaded, bad

        loaded, bad = await self._call(read)
        if bad:
            await self._quarantine([(q.table_id, q.reason) for q in bad], self._now(None))
        return loaded, bad

    async def _quarantine(self, items: Sequence[tuple[int, str]], at: float) -> None:
        """Set tables aside: phase quarantined, reason kept, previous phase in the event."""

        def run(conn: sqlite3.Connection) -> None:
            with _transaction(conn):
                for tid, reason in items:
                    row = conn.execute("SELECT phase FROM tables WHERE id = ?", (tid,)).fetchone()
                    if row is None or row[0] in (Phase.QUARANTINED, Phase.CLOSED):
                        continue
                    conn.execute(
                        "UPDATE tables SET phase = 'quarantined', quarantine_reason = ?"
                        " WHERE id = ?",
                        (reason, tid),
                    )
                    _event(conn, tid, at, "quarantined", f"{reason} (was {row[0]})")

        for tid, reason in items:
            log.error("table %s quarantined: %s", tid, reason)
        await self._call(run)

    # ------------------------------------------------------------------ results and ratings

    async def record_hand_result(
        self,
        table_id: int,
        hand_id: int,
        result: HandResult,
        *,
        session_state: str | None = None,
        deadlines: Mapping[str, float] | None = None,
        now: float | None = None,
    ) -> RecordedHand:
        """End a hand: history, placements and (rated tables) ratings, all in one transaction.

        Exactly once per hand: submitting the same result again changes nothing and returns
        the stored rating changes (newly_recorded False); a different result for a recorded
        hand raises ResultConflictError. The table moves to between_hands, keeps
        `session_state` if given, and its deadlines become `deadlines` (none if None).
        Ratings move only when the table is rated, and only between its human players.
        """
        _json_text(session_state, "session state")
        fingerprint = result.fingerprint()
        places = result.placements
        at = self._now(now)

        def run(conn: sqlite3.Connection) -> RecordedHand:
            with _transaction(conn):
                row = conn.execute(
                    "SELECT h.table_id, h.status, t.preset, t.rated FROM hands h"
                    " JOIN tables t ON t.id = h.table_id WHERE h.id = ?",
                    (hand_id,),
                ).fetchone()
                if row is None or row[0] != table_id:
                    raise HandNotActiveError(f"table {table_id} has no hand {hand_id}")
                _, status, preset, rated = row
                stored = conn.execute(
                    "SELECT fingerprint FROM hand_results WHERE hand_id = ?", (hand_id,)
                ).fetchone()
                if stored is not None:
                    if stored[0] != fingerprint:
                        raise ResultConflictError(
                            f"hand {hand_id} already has a different result; the first stands"
                        )
                    return RecordedHand(hand_id, False, _rating_changes(conn, hand_id))
                if status != HandStatus.PLAYING:
                    raise HandNotActiveError(f"hand {hand_id} is {status}; it takes no result")
                if result.preset != preset:
                    raise ValueError(f"result is for {result.preset!r}, the table plays {preset!r}")
                if result.rated != bool(rated):
                    raise ValueError(
                        f"result says rated={result.rated}, the table is rated={bool(rated)}"
                    )
                conn.execute(
                    "INSERT INTO hand_results (hand_id, table_id, preset, rated, outcome,"
                    " wins_json, payments_json, fingerprint, finished_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        hand_id,
                        table_id,
                        preset,
                        int(result.rated),
                        result.outcome,
                        json.dumps([w.to_json() for w in result.wins]),
                        json.dumps([p.to_json() for p in result.payments]),
                        fingerprint,
                        at,
                    ),
                )
                conn.executemany(
                    "INSERT INTO hand_players (hand_id, seat, player_id, human, delta, placement)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        (hand_id, seat, pid, int(human), delta, place)
                        for seat, (pid, human, delta, place) in enumerate(
                            zip(result.seats, result.humans, result.deltas, places, strict=True)
                        )
                    ],
                )
                changes: tuple[RatingChange, ...] = ()
                if result.rated:
                    changes = _apply_ratings(conn, hand_id, preset, result, places, at)
                conn.execute(
                    "UPDATE hands SET status = 'finished', ended_at = ? WHERE id = ?", (at, hand_id)
                )
                conn.execute(
                    "UPDATE tables SET phase = CASE phase WHEN 'playing' THEN 'between_hands'"
                    " ELSE phase END, current_hand_id = NULL, last_action_at = ?,"
                    " session_json = coalesce(?, session_json) WHERE id = ?",
                    (at, session_state, table_id),
                )
                _replace_deadlines(conn, table_id, deadlines or {})
                return RecordedHand(hand_id, True, changes)

        return await self._call(run)

    async def rating(self, player_id: str, preset: str) -> RatingRow:
        """A player's rating in a preset (the starting 1,500 / 0 games if never rated)."""

        def run(conn: sqlite3.Connection) -> RatingRow:
            row = conn.execute(
                "SELECT rating, games, updated_at FROM ratings WHERE player_id = ? AND preset = ?",
                (player_id, preset),
            ).fetchone()
            if row is None:
                return RatingRow(player_id, preset, rating_math.START_RATING, 0, None)
            return RatingRow(player_id, preset, *row)

        return await self._call(run)

    async def ratings_of(self, player_id: str) -> list[RatingRow]:
        """All of a player's ratings, one per preset played rated, by preset id."""

        def run(conn: sqlite3.Connection) -> list[RatingRow]:
            rows = conn.execute(
                "SELECT preset, rating, games, updated_at FROM ratings WHERE player_id = ?"
                " ORDER BY preset",
                (player_id,),
            ).fetchall()
            return [RatingRow(player_id, *r) for r in rows]

        return await self._call(run)

    async def rating_history(
        self, player_id: str, preset: str, limit: int = 20
    ) -> list[RatingChange]:
        """A player's most recent rating changes in a preset, newest first."""

        def run(conn: sqlite3.Connection) -> list[RatingChange]:
            rows = conn.execute(
                "SELECT player_id, preset, rating_before, rating_after, games_after, placement"
                " FROM rating_history WHERE player_id = ? AND preset = ?"
                " ORDER BY hand_id DESC LIMIT ?",
                (player_id, preset, limit),
            ).fetchall()
            return [RatingChange(*r) for r in rows]

        return await self._call(run)

    async def leaderboard(
        self,
        preset: str,
        page: int = 1,
        page_size: int = 10,
        min_games: int = LEADERBOARD_MIN_GAMES,
    ) -> LeaderboardPage:
        """One page of a preset's board: rating order (ties by player id, so pages are stable),
        players with at least `min_games` rated hands, provisional ones marked."""
        if page < 1 or page_size < 1:
            raise ValueError("page and page_size start at 1")

        offset = (page - 1) * page_size

        def run(conn: sqlite3.Connection) -> LeaderboardPage:
            with _transaction(conn, "DEFERRED"):
                # Counting 100,000 index entries costs milliseconds; the per-games tally is a
                # few hundred rows at most.
                total = conn.execute(
                    "SELECT coalesce(sum(players), 0) FROM rating_counts"
                    " WHERE preset = ? AND games >= ?",
                    (preset, min_games),
                ).fetchone()[0]
                end = min(offset + page_size, total)
                if offset >= total:
                    rows = []
                elif offset <= total - end:
                    # Both walk the ratings_board index (covering; see the migration) and
                    # skip `OFFSET` entries; a page in the lower half is found from the bottom,
                    # so no page skips more than half the board.
                    rows = conn.execute(
                        "SELECT player_id, rating, games FROM ratings"
                        " WHERE preset = ? AND games >= ?"
                        " ORDER BY rating DESC, player_id LIMIT ? OFFSET ?",
                        (preset, min_games, end - offset, offset),
                    ).fetchall()
                else:
                    rows = conn.execute(
                        "SELECT player_id, rating, games FROM ratings"
                        " WHERE preset = ? AND games >= ?"
                        " ORDER BY rating ASC, player_id DESC LIMIT ? OFFSET ?",
                        (preset, min_games, end - offset, total - end),
                    ).fetchall()[::-1]
            entries = tuple(
                LeaderboardEntry(offset + 1 + i, pid, r, g, rating_math.is_provisional(g))
                for i, (pid, r, g) in enumerate(rows)
            )
            return LeaderboardPage(preset, page, page_size, min_games, total, entries)

        return await self._call(run)

    async def import_ratings(
        self, preset: str, rows: Iterable[tuple[str, float, int]], *, now: float | None = None
    ) -> int:
        """Bulk-load (player_id, rating, games) rows for a preset, replacing existing ones.

        For carrying ratings over from elsewhere and for benchmarks; writes no history.
        """
        at = self._now(now)
        batch = [(pid, preset, float(r), int(g), at) for pid, r, g in rows]

        def run(conn: sqlite3.Connection) -> int:
            with _transaction(conn):
                conn.executemany(
                    "INSERT OR REPLACE INTO ratings (player_id, preset, rating, games, updated_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    batch,
                )
                # Replaced rows may have moved between tallies: recount this preset.
                conn.execute("DELETE FROM rating_counts WHERE preset = ?", (preset,))
                conn.execute(
                    "INSERT INTO rating_counts (preset, games, players)"
                    " SELECT preset, games, count(*) FROM ratings WHERE preset = ?"
                    " GROUP BY games",
                    (preset,),
                )
            return len(batch)

        return await self._call(run)

    # ------------------------------------------------------------------ history

    async def recent_hands(
        self, player_id: str, limit: int = 10, *, preset: str | None = None
    ) -> list[HandRecord]:
        """A player's most recent finished hands (optionally in one preset), newest first."""

        def run(conn: sqlite3.Connection) -> list[HandRecord]:
            with _transaction(conn, "DEFERRED"):
                if preset is None:
                    ids = conn.execute(
                        "SELECT hand_id FROM hand_players WHERE player_id = ?"
                        " ORDER BY hand_id DESC LIMIT ?",
                        (player_id, limit),
                    ).fetchall()
                else:
                    ids = conn.execute(
                        "SELECT p.hand_id FROM hand_players p"
                        " JOIN hand_results r ON r.hand_id = p.hand_id"
                        " WHERE p.player_id = ? AND r.preset = ?"
                        " ORDER BY p.hand_id DESC LIMIT ?",
                        (player_id, preset, limit),
                    ).fetchall()
                return [_hand_record(conn, hid) for (hid,) in ids]

        return await self._call(run)

    async def hand_record(self, hand_id: int) -> HandRecord | None:
        """One finished hand's history entry (None if it has no result)."""

        def run(conn: sqlite3.Connection) -> HandRecord | None:
            with _transaction(conn, "DEFERRED"):
                if not conn.execute(
                    "SELECT 1 FROM hand_results WHERE hand_id = ?", (hand_id,)
                ).fetchone():
                    return None
                return _hand_record(conn, hand_id)

        return await self._call(run)

    # ------------------------------------------------------------------ closing and expiry

    async def close_table(self, table_id: int, reason: str, *, now: float | None = None) -> None:
        """Close a table (players ended it): a hand in play is abandoned, no rating changes."""
        at = self._now(now)

        def run(conn: sqlite3.Connection) -> None:
            with _transaction(conn):
                row = conn.execute("SELECT phase FROM tables WHERE id = ?", (table_id,)).fetchone()
                if row is None:
                    raise TableNotFoundError(f"no table {table_id}")
                if row[0] == Phase.CLOSED:
                    return
                _close(conn, [table_id], reason, at)

        await self._call(run)

    async def expire_idle(self, now: float | None = None, idle: float = IDLE_EXPIRY) -> list[int]:
        """Close every open table with no game action for `idle` seconds; returns their ids.

        Found by one query on the (phase, last_action_at) index; closed in the same transaction
        with no rating change (a hand in play is abandoned) and the closing recorded.
        """
        at = self._now(now)

        def run(conn: sqlite3.Connection) -> list[int]:
            with _transaction(conn):
                ids = [r[0] for r in conn.execute(IDLE_TABLES_SQL, (at - idle,))]
                _close(conn, ids, f"expired: no game action for {idle / 3600:g} h", at)
                return ids

        ids = await self._call(run)
        if ids:
            log.info("expired %d idle table(s): %s", len(ids), ids)
        return ids


# The one query that finds idle tables; tests check its plan uses tables_phase_idle.
IDLE_TABLES_SQL = (
    f"SELECT id FROM tables WHERE phase IN {_ACTIVE_SQL} AND last_action_at <= ? ORDER BY id"
)


def _configure(conn: sqlite3.Connection, path: str, synchronous: str) -> None:
    """Connection settings, then migrations. Nothing is written before the version check."""
    conn.execute("PRAGMA busy_timeout = 10000")
    conn.execute("PRAGMA foreign_keys = ON")
    check_compatible(conn, path)  # before the first write: journal_mode changes the header
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    before, after = migrate(conn, path)
    if before != after:
        log.info("database %s migrated from schema version %d to %d", path, before, after)


def _found(cur: sqlite3.Cursor, table_id: int, *, select: bool = False) -> None:
    missing = cur.fetchone() is None if select else cur.rowcount == 0
    if missing:
        raise TableNotFoundError(f"no table {table_id}")


def _event(conn: sqlite3.Connection, table_id: int, at: float, kind: str, detail: str) -> None:
    conn.execute(
        "INSERT INTO table_events (table_id, at, kind, detail) VALUES (?, ?, ?, ?)",
        (table_id, at, kind, detail),
    )


def _replace_deadlines(
    conn: sqlite3.Connection, table_id: int, deadlines: Mapping[str, float]
) -> None:
    conn.execute("DELETE FROM clock_deadlines WHERE table_id = ?", (table_id,))
    if deadlines:
        conn.executemany(
            "INSERT INTO clock_deadlines (table_id, name, at) VALUES (?, ?, ?)",
            [(table_id, name, float(at)) for name, at in deadlines.items()],
        )


_MAX_BATCH = 256  # appends per group commit: bounds the latency one commit adds


@dataclass(slots=True)
class _Append:
    table_id: int
    hand_id: int
    line: str
    version: int
    deadlines: dict[str, float] | None
    at: float
    done: asyncio.Future[None]


def _append_one(conn: sqlite3.Connection, a: _Append) -> None:
    # Inserted only if the hand is this table's, still in play, and `version` is the next
    # number (the primary key refuses a version already taken).
    try:
        cur = conn.execute(
            "INSERT INTO actions (hand_id, seq, action, at)"
            " SELECT ?1, ?2, ?3, ?4"
            " WHERE EXISTS (SELECT 1 FROM hands WHERE id = ?1 AND table_id = ?5"
            "                AND status = 'playing')"
            "   AND (?2 = 0 OR EXISTS (SELECT 1 FROM actions WHERE hand_id = ?1 AND seq = ?2 - 1))",
            (a.hand_id, a.version, a.line, a.at, a.table_id),
        )
        inserted = cur.rowcount == 1
    except sqlite3.IntegrityError:
        inserted = False
    if not inserted:
        _explain_refused_append(conn, a.table_id, a.hand_id, a.version)
    conn.execute("UPDATE tables SET last_action_at = ? WHERE id = ?", (a.at, a.table_id))
    if a.deadlines is not None:
        _replace_deadlines(conn, a.table_id, a.deadlines)


def _append_batch(conn: sqlite3.Connection, batch: Sequence[_Append]) -> list[Exception | None]:
    """One transaction for the batch; per append None (stored) or the StoreError refusing it.

    Any other error (I/O, disk full) propagates: the whole batch rolls back and every caller
    gets the error, so nobody believes in an append that was not committed.
    """
    if len(batch) == 1:  # the common case needs no savepoint
        try:
            with _transaction(conn):
                _append_one(conn, batch[0])
        except StoreError as e:
            return [e]
        return [None]
    outcomes: list[Exception | None] = []
    with _transaction(conn):
        for a in batch:
            conn.execute("SAVEPOINT one_append")
            try:
                _append_one(conn, a)
                outcomes.append(None)
            except StoreError as e:
                conn.execute("ROLLBACK TO one_append")
                outcomes.append(e)
            conn.execute("RELEASE one_append")
    return outcomes


def _read_table(conn: sqlite3.Connection, table_id: int) -> TableRow:
    row = conn.execute(f"SELECT {_TABLE_COLS} FROM tables WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        raise TableNotFoundError(f"no table {table_id}")
    seats = conn.execute(
        "SELECT seat, player_id, human FROM table_seats WHERE table_id = ? ORDER BY seat",
        (table_id,),
    ).fetchall()
    return _table_from(row, seats)


def _explain_refused_append(
    conn: sqlite3.Connection, table_id: int, hand_id: int, version: int
) -> None:
    """Raise the precise reason an action was not appended (the transaction rolls back)."""
    row = conn.execute("SELECT table_id, status FROM hands WHERE id = ?", (hand_id,)).fetchone()
    if row is None or row[0] != table_id:
        raise HandNotActiveError(f"table {table_id} has no hand {hand_id}")
    if row[1] != HandStatus.PLAYING:
        raise HandNotActiveError(f"hand {hand_id} is {row[1]}; it takes no more actions")
    expected = conn.execute(
        "SELECT coalesce(max(seq) + 1, 0) FROM actions WHERE hand_id = ?", (hand_id,)
    ).fetchone()[0]
    raise StaleVersionError(hand_id, version, expected)


def _apply_ratings(
    conn: sqlite3.Connection,
    hand_id: int,
    preset: str,
    result: HandResult,
    places: Sequence[int],
    at: float,
) -> tuple[RatingChange, ...]:
    """Elo between the hand's humans (computers take no part); rows for each, or nothing."""
    humans = [i for i, h in enumerate(result.humans) if h]
    if len(humans) < 2:
        return ()
    before: list[tuple[float, int]] = []
    for i in humans:
        row = conn.execute(
            "SELECT rating, games FROM ratings WHERE player_id = ? AND preset = ?",
            (result.seats[i], preset),
        ).fetchone()
        before.append(row if row is not None else (rating_math.START_RATING, 0))
    deltas = rating_math.elo_deltas(
        [r for r, _ in before], [g for _, g in before], [result.deltas[i] for i in humans]
    )
    changes = tuple(
        RatingChange(result.seats[i], preset, r, r + d, g + 1, places[i])
        for i, (r, g), d in zip(humans, before, deltas, strict=True)
    )
    conn.executemany(
        "INSERT INTO ratings (player_id, preset, rating, games, updated_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (player_id, preset) DO UPDATE SET rating = excluded.rating,"
        " games = excluded.games, updated_at = excluded.updated_at",
        [(c.player_id, preset, c.after, c.games, at) for c in changes],
    )
    # Keep the per-games tally in step: each player moves from `games` to `games + 1`.
    conn.executemany(
        "UPDATE rating_counts SET players = players - 1 WHERE preset = ? AND games = ?",
        [(preset, g) for _, g in before if g > 0],
    )
    conn.executemany(
        "INSERT INTO rating_counts (preset, games, players) VALUES (?, ?, 1)"
        " ON CONFLICT (preset, games) DO UPDATE SET players = players + 1",
        [(preset, c.games) for c in changes],
    )
    conn.executemany(
        "INSERT INTO rating_history (hand_id, player_id, preset, rating_before, rating_after,"
        " games_after, placement, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (hand_id, c.player_id, preset, c.before, c.after, c.games, c.placement, at)
            for c in changes
        ],
    )
    return changes


def _rating_changes(conn: sqlite3.Connection, hand_id: int) -> tuple[RatingChange, ...]:
    rows = conn.execute(
        "SELECT r.player_id, r.preset, r.rating_before, r.rating_after, r.games_after,"
        " r.placement FROM rating_history r"
        " JOIN hand_players p ON p.hand_id = r.hand_id AND p.player_id = r.player_id"
        " WHERE r.hand_id = ? ORDER BY p.seat",
        (hand_id,),
    ).fetchall()
    return tuple(RatingChange(*r) for r in rows)


def _hand_record(conn: sqlite3.Connection, hand_id: int) -> HandRecord:
    table_id, preset, rated, outcome, wins_json, payments_json, finished_at, hand_no = conn.execute(
        "SELECT r.table_id, r.preset, r.rated, r.outcome, r.wins_json, r.payments_json,"
        " r.finished_at, h.hand_no FROM hand_results r JOIN hands h ON h.id = r.hand_id"
        " WHERE r.hand_id = ?",
        (hand_id,),
    ).fetchone()
    seats = conn.execute(
        "SELECT seat, player_id, human, delta, placement FROM hand_players"
        " WHERE hand_id = ? ORDER BY seat",
        (hand_id,),
    ).fetchall()
    return HandRecord(
        hand_id=hand_id,
        table_id=table_id,
        hand_no=hand_no,
        preset=preset,
        finished_at=finished_at,
        rated=bool(rated),
        outcome=outcome,
        seats=tuple(SeatResult(s, p, bool(h), d, pl) for s, p, h, d, pl in seats),
        wins=tuple(WinRecord.from_json(w) for w in json.loads(wins_json)),
        payments=tuple(Payment.from_json(p) for p in json.loads(payments_json)),
        rating_changes=_rating_changes(conn, hand_id),
    )


def _close(conn: sqlite3.Connection, table_ids: Sequence[int], reason: str, at: float) -> None:
    """Close tables inside the caller's transaction: the hand in play is abandoned (no result,
    so no rating change), clocks cleared, the closing recorded as an event."""
    if not table_ids:
        return
    params = [(tid,) for tid in table_ids]
    conn.executemany(
        "UPDATE hands SET status = 'abandoned', ended_at = ?1"
        " WHERE id = (SELECT current_hand_id FROM tables WHERE id = ?2) AND status = 'playing'",
        [(at, tid) for tid in table_ids],
    )
    conn.executemany(
        "UPDATE tables SET phase = 'closed', closed_at = ?, closed_reason = ?,"
        " current_hand_id = NULL WHERE id = ?",
        [(at, reason, tid) for tid in table_ids],
    )
    conn.executemany("DELETE FROM clock_deadlines WHERE table_id = ?", params)
    conn.executemany(
        "INSERT INTO table_events (table_id, at, kind, detail) VALUES (?, ?, 'closed', ?)",
        [(tid, at, reason) for tid in table_ids],
    )
