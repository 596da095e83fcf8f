"""Group commit: the store's writes queue up and share transactions, run by the SQLite thread.

Every write the runtime makes during play (an append of actions, starting a hand, recording a
result, options, seats, phase...) is an item on one queue. The SQLite thread takes the items in
the order they came, up to MAX_BATCH at a time, and commits them in one transaction (one fsync
under synchronous=FULL, shared by all of them): what arrives while a commit is in flight goes
out in the next one. When a commit ends with a full batch waiting, the thread takes it itself,
at once: it does not wait for the event loop to learn the outcome and send more (at saturation
the loop is busy running the callers the last commit released, and a thread waiting for it
would idle with thousands of writes queued). Less than a full batch waits for the loop to send
it, gathering what arrives meanwhile: each commit is an fsync under FULL, and on a busy disk
more of them make the stalls that set the tail (bench/load.py at 5,000 tables: the thread
taking every batch itself doubled the commits a second, 446 of 4 writes against 230 of 7, and
the p99 of five runs was 57-565 ms against 34-163). It also hands the thread back when another
call (a read) is waiting for it.

Nothing is reported stored before its COMMIT has returned; an item once queued is committed
even if its caller stops waiting; a commit that fails fails every item of its batch.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

MAX_BATCH = 256  # items per commit: bounds the latency one commit adds


class Item(Protocol):
    """What the queue holds: a write for one table (None: a write no other write of a table
    has to wait for), and the future its caller waits on."""

    @property
    def table_id(self) -> int | None: ...

    @property
    def done(self) -> asyncio.Future[Any]: ...


@dataclass(slots=True)
class Write:
    """One write, `fn(conn, *args)`, run in its own savepoint of a shared transaction (so
    refusing it undoes only it); `done` gets what `fn` returns or the error refusing it."""

    table_id: int | None
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    done: asyncio.Future[Any]

    def run(self, conn: sqlite3.Connection) -> object:
        """Inside the caller's transaction: what `fn` returns, or the exception refusing the
        write (rolled back to its savepoint, the rest of the transaction untouched). An error
        of the file or the disk propagates: the transaction is not to be trusted, the whole
        batch fails."""
        conn.execute("SAVEPOINT write")
        try:
            value = self.fn(conn, *self.args)
        except Exception as refusal:
            if isinstance(refusal, sqlite3.DatabaseError) and not isinstance(
                refusal, sqlite3.IntegrityError
            ):
                raise
            conn.execute("ROLLBACK TO write")
            conn.execute("RELEASE write")
            return refusal
        conn.execute("RELEASE write")
        return value


# One transaction for a batch, on the SQLite thread: per item its outcome, an exception for an
# item refused (what its caller gets raised), anything else the value its caller gets. It
# raises when the transaction failed as a whole (nothing of the batch was stored).
CommitBatch = Callable[[sqlite3.Connection, Sequence[Any]], Sequence[object]]


class Worker(Protocol):
    """The thread that owns the connection (data/connection.py's Connection)."""

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """fn(sqlite3_connection, *args) on the thread, after the calls already waiting."""

    @property
    def calls_waiting(self) -> int:
        """Calls given to the thread that it has not started yet."""


class GroupCommit:
    """The queue of writes and the commits that empty it (see the module's docstring)."""

    def __init__(self, worker: Worker, commit_batch: CommitBatch) -> None:
        self._worker = worker
        self._commit_batch = commit_batch
        # appended to by the event loop, taken from by the SQLite thread only: a deque's
        # append and popleft are atomic, so neither side needs a lock
        self._queue: deque[Item] = deque()
        self._flusher: asyncio.Task[None] | None = None

    async def put(self, item: Item) -> Any:
        """Queue `item` and wait for the commit that stores it: its value, or the error
        refusing it (raised)."""
        self._queue.append(item)
        if self._flusher is None:
            self._flusher = asyncio.create_task(self._flush())
        return await item.done

    async def drain(self) -> None:
        """Wait until every item already queued is committed (on close)."""
        if self._flusher is not None:
            await asyncio.shield(self._flusher)

    async def _flush(self) -> None:
        """Give the queue to the thread until it is empty (the thread hands it back after a
        partial batch, or when another call waits: then the queue goes back behind it)."""
        loop = asyncio.get_running_loop()
        try:
            while self._queue:
                try:
                    await self._worker.call(self._commit_queued, loop)
                except Exception as failure:  # the thread took nothing more (closed)
                    _settle(self._queue, [failure] * len(self._queue))
                    self._queue.clear()
        finally:
            self._flusher = None

    def _commit_queued(self, conn: sqlite3.Connection, loop: asyncio.AbstractEventLoop) -> None:
        """On the SQLite thread: commit a batch, and the next at once while a full one waits
        and no other call does; each batch's outcomes go to the loop as soon as its COMMIT has
        returned."""
        queue = self._queue
        while queue:
            batch = [queue.popleft() for _ in range(min(len(queue), MAX_BATCH))]
            outcomes: Sequence[object]
            try:
                outcomes = self._commit_batch(conn, batch)
            except BaseException as failure:  # nothing in the batch was stored
                outcomes = [failure] * len(batch)
            loop.call_soon_threadsafe(_settle, batch, outcomes)
            if self._worker.calls_waiting or len(queue) < MAX_BATCH:
                return


def _settle(batch: Sequence[Item], outcomes: Sequence[object]) -> None:
    """On the loop: each caller gets its outcome (one whose caller stopped waiting keeps it
    regardless: it was committed, or refused, all the same)."""
    for item, outcome in zip(batch, outcomes, strict=True):
        done = item.done
        if done.done():
            continue
        if isinstance(outcome, BaseException):
            done.set_exception(outcome)
        else:
            done.set_result(outcome)
