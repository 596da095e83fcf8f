"""Hands as seed + action log: starting a hand, appending actions with shared commits, reading.

A hand's log has no gaps and never two actions for one version: an append carries the version
it was taken at (the number of actions already stored) and is refused otherwise. One append may
carry a run of actions (a person's move and the computers' answers to it): the run is stored
whole or not at all, with the table's clock as it stands after its last action. Appends from
different tables that arrive while a commit is in flight share the next transaction (group
commit; an append is checked before any of it is written, so one refused append does not
affect the others): with synchronous=FULL every commit waits for the disk, and sharing that
wait is what lets many busy tables go faster than one.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from data.connection import transaction
from data.dialect import INTEGRITY_ERRORS, Db, max_parameters, retrying, typed
from data.errors import (
    HandNotActiveError,
    StaleVersionError,
    StoreError,
    TableNotFoundError,
    UnreadableError,
)
from data.rows import ACTIVE_PHASES, HandLog, HandStatus
from data.tables import deadline_changes, replace_deadlines
from engine.actions import Action
from engine.tiles import InvalidNotationError

HAND_COLS = "id, table_id, hand_no, seed, setup_json, status, started_at, ended_at"
MAX_BATCH = 256  # appends per group commit: bounds the latency one commit adds


# ------------------------------------------------------------------ rows (shared)


def hand_from(
    row: Sequence[Any], lines: Sequence[tuple[int, str]], cache: dict[str, Action]
) -> HandLog:
    """A HandLog from its row and (seq, line) pairs; UnreadableError if any part does not parse.

    `cache` maps line text to its Action: logs repeat the same few hundred lines, and Actions
    are immutable, so one parse per distinct line is enough.
    """
    hid, table_id, hand_no, seed, setup_json, status, started_at, ended_at = row
    try:
        seed_value = int(seed)
    except ValueError:
        raise UnreadableError(f"hand {hid}: seed {seed!r} is not an integer") from None
    if setup_json is not None:
        try:
            json.loads(setup_json)
        except ValueError as e:
            raise UnreadableError(f"hand {hid}: setup unreadable: {e}") from None
    actions = []
    for expected, (seq, line) in enumerate(lines):
        if seq != expected:
            raise UnreadableError(f"hand {hid}: action {expected} is missing from the log")
        act = cache.get(line)
        if act is None:
            try:
                act = cache[line] = Action.parse(line)
            except InvalidNotationError as e:
                raise UnreadableError(f"hand {hid}: action {seq} unreadable: {e}") from None
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


def read_hand(conn: Db, hand_id: int) -> HandLog | None:
    """One hand with its log (any status), None if there is no such hand; UnreadableError."""
    row = conn.execute(f"SELECT {HAND_COLS} FROM hands WHERE id = ?", (hand_id,)).fetchone()
    if row is None:
        return None
    lines = conn.execute(
        "SELECT seq, action FROM actions WHERE hand_id = ? ORDER BY seq", (hand_id,)
    ).fetchall()
    return hand_from(row, lines, {})


def hand_log(conn: Db, hand_id: int) -> HandLog:
    with transaction(conn, "DEFERRED"):
        try:
            hand = read_hand(conn, hand_id)
        except UnreadableError as e:
            raise StoreError(str(e)) from None
    if hand is None:
        raise HandNotActiveError(f"no hand {hand_id}")
    return hand


def last_hand(conn: Db, table_id: int) -> HandLog | None:
    """The table's latest hand with its log, None before its first deal; StoreError."""
    with transaction(conn, "DEFERRED"):
        row = conn.execute(
            "SELECT id FROM hands WHERE table_id = ? ORDER BY hand_no DESC LIMIT 1", (table_id,)
        ).fetchone()
        try:
            return None if row is None else read_hand(conn, row[0])
        except UnreadableError as e:
            raise StoreError(str(e)) from None


def table_hands(conn: Db, table_id: int) -> list[HandLog]:
    """Every hand of a table with its log, in the order dealt (a whole game's, for its
    export); StoreError."""
    with transaction(conn, "DEFERRED"):
        rows = conn.execute(
            "SELECT id FROM hands WHERE table_id = ? ORDER BY hand_no", (table_id,)
        ).fetchall()
        try:
            hands = [read_hand(conn, row[0]) for row in rows]
        except UnreadableError as e:
            raise StoreError(str(e)) from None
    return [hand for hand in hands if hand is not None]


# ------------------------------------------------------------------ starting a hand


def start_hand(
    conn: Db,
    table_id: int,
    hand_no: int,
    seed: int,
    setup: str | None,
    deadlines: Mapping[str, float],
    at: float,
) -> int:
    with transaction(conn):
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
            started = _started_before(conn, table_id, hand_no, seed)
            if started is not None:
                return started
            raise StoreError(f"table {table_id} already has a hand in play")
        try:
            cur = conn.execute(
                "INSERT INTO hands (table_id, hand_no, seed, setup_json, started_at)"
                " VALUES (?, ?, ?, ?, ?) RETURNING id",
                (table_id, hand_no, str(int(seed)), setup, at),
            )
        except INTEGRITY_ERRORS:
            raise StoreError(f"table {table_id} already has a hand {hand_no}") from None
        hid = int(cur.fetchone()[0])
        conn.execute(
            "UPDATE tables SET phase = 'playing', current_hand_id = ?, last_action_at = ?"
            " WHERE id = ?",
            (hid, at, table_id),
        )
        replace_deadlines(conn, table_id, deadlines)
        return hid


def _started_before(conn: Db, table_id: int, hand_no: int, seed: int) -> int | None:
    """On a retry after a lost connection, the hand this start already began (its table's
    current hand, with this number and seed; the natural key (table, hand_no)), else None."""
    if not retrying(conn):
        return None
    row = conn.execute(
        "SELECT h.id FROM hands h JOIN tables t ON t.current_hand_id = h.id"
        " WHERE t.id = ? AND h.hand_no = ? AND h.seed = ?",
        (table_id, hand_no, str(int(seed))),
    ).fetchone()
    return None if row is None else int(row[0])


# ------------------------------------------------------------------ appending, group commits


@dataclass(slots=True)
class Append:
    """A run of actions waiting for the next group commit; `done` gets its outcome."""

    table_id: int
    hand_id: int
    lines: tuple[str, ...]  # canonical text (Action.__str__), so every stored line reads back
    version: int  # the first line's
    deadlines: dict[str, float] | None  # None leaves the table's deadlines as they are
    at: float
    done: asyncio.Future[None]
    # the deadlines the table holds before this append, if the caller knows them: only the
    # difference is written (None: all of them are replaced)
    stored_deadlines: dict[str, float] | None = None


# Why an append is refused, checked for a round of appends at once (one statement): the hand is
# not this table's or not in play, `version` does not follow the last stored line, or something
# is stored from `version` on (so no line of the run can collide with a stored one).
_REFUSED_SQL = (
    "WITH j(k, hand, tab, ver) AS ({values})"
    " SELECT k FROM j"
    " WHERE NOT EXISTS (SELECT 1 FROM hands h WHERE h.id = j.hand AND h.table_id = j.tab"
    "                   AND h.status = 'playing')"
    "    OR (j.ver != 0 AND NOT EXISTS"
    "        (SELECT 1 FROM actions a WHERE a.hand_id = j.hand AND a.seq = j.ver - 1))"
    "    OR EXISTS (SELECT 1 FROM actions a WHERE a.hand_id = j.hand AND a.seq >= j.ver)"
)
# A line stored meanwhile by another process holding the same table (which the check above did
# not see: it was not committed yet) is not written again: the append that meets it is refused
# alone (StaleVersionError), not the whole group commit with a unique violation
_LINES_SQL = (
    "INSERT INTO actions (hand_id, seq, action, at) {values}"
    " ON CONFLICT (hand_id, seq) DO NOTHING RETURNING hand_id, seq"
)
# UPDATE ... FROM (SQLite 3.33 on) joins each table's row to its time; before it, a subquery
# finds the time by scanning `j` once per table
_TIMES_JOINED_SQL = (
    "WITH j(id, at) AS ({values})"
    " UPDATE tables SET last_action_at = j.at FROM j WHERE tables.id = j.id"
)
_TIMES_SCANNED_SQL = (
    "WITH j(id, at) AS ({values})"
    " UPDATE tables SET last_action_at = (SELECT at FROM j WHERE j.id = tables.id)"
    " WHERE id IN (SELECT id FROM j)"
)
_TIMES_SQL = _TIMES_JOINED_SQL
# the join first builds its rows apart: for a few tables, scanning `j` costs less
_JOINED_FROM = 32
_CLEARED_SQL = "DELETE FROM clock_deadlines WHERE table_id IN ({values})"
# One clock gone is found by the primary key; for two or more, the tables first, so SQLite
# still finds them by the key: `(table_id, name) IN` a list of two or more pairs alone reads
# every table's clocks
_ONE_GONE_SQL = "DELETE FROM clock_deadlines WHERE (table_id, name) IN ({values})"
_GONE_SQL = (
    "WITH j(tab, name) AS ({values})"
    " DELETE FROM clock_deadlines"
    " WHERE table_id IN (SELECT tab FROM j) AND (table_id, name) IN (SELECT tab, name FROM j)"
)
_CLOCKS_SQL = (
    "INSERT INTO clock_deadlines (table_id, name, at) {values}"
    " ON CONFLICT (table_id, name) DO UPDATE SET at = excluded.at"
)
# The types of each statement's rows where a CTE's columns take them (PostgreSQL asks)
_REFUSED_TYPES = ("bigint", "bigint", "bigint", "bigint")
_TIMES_TYPES = ("bigint", "float8")
_GONE_TYPES = ("bigint", "text")
_CLEARED_TYPES = ("bigint",)


# Rows one statement carries at most: statements are made for 1, 2, 4 ... _MOST_ROWS rows only,
# so a few dozen prepared statements serve every batch from SQLite's statement cache (a text
# for every batch size would be prepared anew for nearly every commit).
_MOST_ROWS = 1024


@functools.lru_cache(maxsize=256)
def _statement(sql: str, width: int, rows: int, one: str = "") -> str:
    """`sql` for `rows` rows of `width` parameters each (`one`: a row's text, if not `?`s)."""
    one = one or "(" + ", ".join("?" * width) + ")"
    return sql.format(values="VALUES " + ", ".join([one] * rows))


def _each(
    conn: Db, sql: str, width: int, values: list[Any], types: tuple[str, ...] = ()
) -> list[Any]:
    """Run `sql` with `{values}` standing for `VALUES (?, ...), ...` over `values`, rows of
    `width` values one after another, in statements of power-of-two sizes (a few, where a
    statement per row would step the SQLite thread once a row, each step giving up the GIL and
    waiting to take it back while the event loop runs), within the database's limit on a
    statement's parameters. `types` are the columns' types where nothing else gives them
    (data/dialect.py `typed`). The rows they return."""
    rows = len(values) // width
    if not rows:
        return []
    most = min(_MOST_ROWS, max(1, max_parameters(conn) // width))
    one = typed(conn, types) if types else ""
    size = 1 << (most.bit_length() - 1)  # the largest power of two allowed
    found: list[Any] = []
    start = 0
    while start < rows:
        while size > rows - start:
            size >>= 1
        chunk = values[start * width : (start + size) * width]
        found += conn.execute(_statement(sql, width, size, one), chunk).fetchall()
        start += size
    return found


def _append_round(conn: Db, batch: Sequence[Append], outcomes: list[Exception | None]) -> None:
    """Store the appends of `batch` (indexes into `outcomes`), no two for one hand or one
    table, so none can change whether another is refused: the refused ones are found first,
    and only the others are written, each kind of row in a few statements."""
    keys: list[Any] = []
    for k, a in enumerate(batch):
        keys += (k, a.hand_id, a.table_id, a.version)
    refused = {k for (k,) in _each(conn, _REFUSED_SQL, 4, keys, _REFUSED_TYPES)}
    for k in refused:
        a = batch[k]
        if retrying(conn) and _stored_already(conn, a):
            continue  # its first run committed before the connection was lost: done
        try:
            _explain_refused_append(conn, a.table_id, a.hand_id, a.version)
        except StoreError as error:
            outcomes[k] = error
    lines: list[Any] = []
    for k, a in enumerate(batch):
        if k not in refused:
            for seq, line in enumerate(a.lines, a.version):
                lines += (a.hand_id, seq, line, a.at)
    written: dict[int, list[int]] = {}
    for hand_id, seq in _each(conn, _LINES_SQL, 4, lines):
        written.setdefault(hand_id, []).append(seq)
    for k, a in enumerate(batch):
        if k in refused or len(written.get(a.hand_id, ())) == len(a.lines):
            continue
        refused.add(k)  # met lines another process stored meanwhile: this append is undone
        for seq in written.get(a.hand_id, ()):
            conn.execute("DELETE FROM actions WHERE hand_id = ? AND seq = ?", (a.hand_id, seq))
        try:
            _explain_refused_append(conn, a.table_id, a.hand_id, a.version)
        except StoreError as error:
            outcomes[k] = error
    times: list[Any] = []
    cleared: list[Any] = []
    gone: list[Any] = []
    clocks: list[Any] = []
    for k, a in enumerate(batch):
        if k in refused:
            continue
        table_id, at = a.table_id, a.at
        times += (table_id, at)
        if a.deadlines is None:
            continue
        clear_all, names_gone, changed = deadline_changes(a.deadlines, a.stored_deadlines)
        if clear_all:
            cleared.append(table_id)
        for name in names_gone:
            gone += (table_id, name)
        for name, deadline in changed.items():
            clocks += (table_id, name, float(deadline))
    joined = len(times) >= 2 * _JOINED_FROM
    _each(conn, _TIMES_SQL if joined else _TIMES_SCANNED_SQL, 2, times, _TIMES_TYPES)
    _each(conn, _CLEARED_SQL, 1, cleared, _CLEARED_TYPES)
    _each(conn, _GONE_SQL if len(gone) > 2 else _ONE_GONE_SQL, 2, gone, _GONE_TYPES)
    _each(conn, _CLOCKS_SQL, 3, clocks)


def _stored_already(conn: Db, a: Append) -> bool:
    """Whether the hand's log ends with exactly this append's lines at its versions (the
    natural key (hand, seq)): what a retry finds when the first run's commit went through."""
    stored = conn.execute(
        "SELECT seq, action FROM actions WHERE hand_id = ? AND seq >= ? ORDER BY seq",
        (a.hand_id, a.version),
    ).fetchall()
    return [tuple(r) for r in stored] == list(enumerate(a.lines, a.version))


def _explain_refused_append(conn: Db, table_id: int, hand_id: int, version: int) -> None:
    """Raise the precise reason an action was not appended (nothing of it was written)."""
    row = conn.execute("SELECT table_id, status FROM hands WHERE id = ?", (hand_id,)).fetchone()
    if row is None or row[0] != table_id:
        raise HandNotActiveError(f"table {table_id} has no hand {hand_id}")
    if row[1] != HandStatus.PLAYING:
        raise HandNotActiveError(f"hand {hand_id} is {row[1]}; it takes no more actions")
    expected = conn.execute(
        "SELECT coalesce(max(seq) + 1, 0) FROM actions WHERE hand_id = ?", (hand_id,)
    ).fetchone()[0]
    raise StaleVersionError(hand_id, version, expected)


def append_batch(conn: Db, batch: Sequence[Append]) -> list[Exception | None]:
    """One transaction for the batch; per append None (stored) or the StoreError refusing it.

    The batch goes in rounds: each takes, in batch order, the appends whose hand and table no
    earlier append of the round has (almost always the whole batch: a table waits for its
    append before it makes the next), so appends for one hand are judged in the order they came.
    A refused append writes nothing, so the others commit as if it had not been sent. A
    constraint failing anyway (a damaged file), or any other error (I/O, disk full),
    propagates: the whole batch rolls back and every caller gets the error, so nobody believes
    in an append that was not committed.
    """
    outcomes: list[Exception | None] = [None] * len(batch)
    waiting = list(range(len(batch)))
    with transaction(conn):
        while waiting:
            this_round: list[int] = []
            later: list[int] = []
            hands: set[int] = set()
            tables: set[int] = set()
            for index in waiting:
                a = batch[index]
                if a.hand_id in hands or a.table_id in tables:
                    later.append(index)
                    continue
                this_round.append(index)
                hands.add(a.hand_id)
                tables.add(a.table_id)
            found: list[Exception | None] = [None] * len(this_round)
            _append_round(conn, [batch[index] for index in this_round], found)
            for index, outcome in zip(this_round, found, strict=True):
                outcomes[index] = outcome
            waiting = later
    return outcomes


RunBatch = Callable[[Sequence[Append]], Awaitable[list[Exception | None]]]


class GroupCommit:
    """Appends queued while a commit is in flight go out together in the next one.

    A task, not the caller, runs the commit: if a caller is cancelled, the other appends in its
    batch still learn their outcome, and an append once accepted is committed regardless.
    """

    def __init__(self, run_batch: RunBatch) -> None:
        self._run_batch = run_batch
        self._queue: list[Append] = []
        self._flusher: asyncio.Task[None] | None = None

    async def append(self, item: Append) -> None:
        """Queue `item` and wait for the commit that stores it (or the error refusing it)."""
        self._queue.append(item)
        if self._flusher is None:
            self._flusher = asyncio.create_task(self._flush())
        await item.done

    async def drain(self) -> None:
        """Wait until every append already accepted is committed (on close)."""
        if self._flusher is not None:
            await asyncio.shield(self._flusher)

    async def _flush(self) -> None:
        try:
            while self._queue:
                batch = self._queue[:MAX_BATCH]
                del self._queue[:MAX_BATCH]
                outcomes: list[BaseException | None]
                try:
                    outcomes = list(await self._run_batch(batch))
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
