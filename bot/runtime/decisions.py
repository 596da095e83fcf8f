"""The computers' thinking on every core: strong decisions made in worker processes.

`MAHJONG_DECISION_WORKERS` worker processes (bot/discord/config.py; default: the cores this
process may use; 0: every decision inline, on the event loop) take the strong computer's
decisions. A decision crosses as a value, the seat's view (`engine.computer.strong_view`; its
preset by id and choices), and comes back as the action chosen on it: the table applies it
under its lock, as it applies an inline one, so a pooled decision is the one the same computer
makes inline (bench/strong_digests.py `--workers` checks it).

Only decisions worth the trip cross (measured 2026-12-07 on hkos and sichuan hands): a turn or a
claim with a choice (0.6–0.8 ms at the median, up to 100 ms), against ~0.1–0.2 ms of the event
loop's CPU for the view's trip. One with a single legal action (no thinking) or an opening's
swap or void (~0.07 ms) is made inline.

Each worker is a process forked from a server that imported the computer, joined to this one by
a pipe the event loop watches (no thread: concurrent.futures' pool spent more of the loop's CPU
on its threads than the decisions it took away); it plays a few moves of every preset before
its first decision (engine/computer/worker.py). A worker that dies is replaced and the decision
it held is made inline (more than `MAX_DEATHS` in a minute: the pool stops and every decision is
made inline, with an error in the log). Once the pool is closed, a decision still waited for
raises `DecisionsClosed`: nothing of it is applied (a restarted bot decides again from the
stored log).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import pickle
import time
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerProcess

from bot.runtime.computers import Computer
from engine.actions import Action
from engine.computer import choose_strong, strong_action, strong_view
from engine.computer.worker import serve
from engine.hand import HandState
from engine.hand import Phase as HandPhase
from engine.seat_view import SeatView

log = logging.getLogger(__name__)

MAX_DEATHS = 5  # workers dying within a minute before the pool gives up
MAX_SENT = 2  # messages in a worker's pipe: the one it works on and the next (all busy)


class DecisionsClosed(RuntimeError):
    """The pool closed while a decision waited on it (the runtime is closing)."""


def worth_a_worker(state: HandState, seat: int) -> bool:
    """Whether `seat`'s decision thinks long enough to pay for the trip to a worker."""
    return state.phase is not HandPhase.OPENING and len(state.legal_actions(seat)) > 1


Answer = Action | Exception | None  # None: make it inline


@dataclass(eq=False)
class _Worker:
    process: ForkServerProcess
    connection: Connection
    # per message sent and not answered yet, its decisions in order (the first: the warm-up);
    # empty: it is idle
    sent: deque[list[asyncio.Future[Answer]]] = field(default_factory=deque)
    # the decisions of its hands waiting to be sent, with their views
    queue: deque[tuple[SeatView, asyncio.Future[Answer]]] = field(default_factory=deque)
    ready: asyncio.Event = field(default_factory=asyncio.Event)

    def waiting(self) -> list[asyncio.Future[Answer]]:
        """Every decision it holds, sent or not."""
        return [answer for sent in self.sent for answer in sent] + [a for _, a in self.queue]


class DecisionPool:
    """Worker processes taking the strong computer's decisions (see the module's words).

    Made in the running event loop, which watches the workers' pipes. The processes are
    started in a thread (the fork server's start, an import of the computer, would hold the
    loop for a second or more); until they are, and while they warm up, decisions are made
    inline.

    A seat's decisions in a hand go to one worker, so the facts its last decision cached
    there (its tiles' shapes, waits and one-away draws) serve its next one: split at random
    between two workers the same decisions cost 7-14% more CPU. What waits for a worker is
    sent in one message, gathered over a turn of the event loop, and answered in one. An idle
    worker with nothing of its own takes half of the longest queue of a busy one, so a long
    decision (up to ~100 ms) holds up no other that an idle worker could make. When every
    worker is busy, each is sent its next decisions behind those it is making: a write that
    wakes a sleeping worker cost the event loop ~0.2 ms (and its answer the worker as much),
    while one into a busy worker's pipe is nearly free, and the worker finds the next list
    without sleeping (2026-12-07, bench/load.py --level strong: the loop's CPU an action
    1.2 ms this way, 1.7 with workers left to sleep between lists)."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError("a decision pool has at least one worker")
        self.size = workers
        self.replaced = 0  # workers started again after one died
        self._loop = asyncio.get_running_loop()
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(["engine.computer.worker"])
        self._workers: list[_Worker] = []
        self._ready: list[_Worker] = []  # the warm ones, in the order hands are shared out
        self._deaths: deque[float] = deque()
        self._closed = False
        self._flush_due = False
        self._spawning = self._loop.create_task(self._spawn_all(workers))

    async def _spawn_all(self, workers: int) -> None:
        for worker in await asyncio.to_thread(lambda: [self._spawn() for _ in range(workers)]):
            if self._closed:  # closed while they started
                worker.connection.close()
                worker.process.kill()
            else:
                self._watch(worker)

    def _spawn(self) -> _Worker:
        mine, theirs = self._context.Pipe()
        process = self._context.Process(target=serve, args=(theirs,), daemon=True)
        process.start()
        theirs.close()
        return _Worker(process, mine)

    def _watch(self, worker: _Worker) -> None:
        warmed: asyncio.Future[Answer] = self._loop.create_future()  # answered None when warm
        warmed.add_done_callback(lambda _: self._warmed(worker))
        worker.sent.append([warmed])
        self._workers.append(worker)
        self._loop.add_reader(worker.connection.fileno(), self._on_answer, worker)

    def _warmed(self, worker: _Worker) -> None:
        if worker in self._workers:  # not dead meanwhile
            worker.ready.set()
            self._ready.append(worker)

    async def ready(self) -> None:
        """Once every worker is started and warm (a bench waits for it; the bot need not)."""
        await self._spawning
        await asyncio.gather(*(worker.ready.wait() for worker in self._workers))

    def thinks_for(self, computer: Computer) -> bool:
        """Whether the pool takes this computer's decisions (the strong one's)."""
        return computer is choose_strong

    async def choose(self, state: HandState, seat: int) -> Action | None:
        """The strong computer's choice for `seat`, thought in a worker; None where it is to
        be made inline (not worth the trip, a family the strong computer does not know, the
        worker died, the pool gave up). DecisionsClosed if the pool closes meanwhile."""
        if self._closed:
            raise DecisionsClosed("the decision pool is closed")
        if not self._ready or not worth_a_worker(state, seat):
            return None
        view = strong_view(state, seat)
        if view is None:
            return None
        answer: asyncio.Future[Answer] = self._loop.create_future()
        # the seat's worker (a hand is one object from its deal to its end; a tuple's hash
        # mixes the address's aligned low bits)
        worker = self._ready[hash((id(state), seat)) % len(self._ready)]
        worker.queue.append((view, answer))
        if not self._flush_due:  # the other decisions asked in this turn of the loop go along
            self._flush_due = True
            self._loop.call_soon(self._flush)
        chosen = await answer
        if isinstance(chosen, Exception):
            raise chosen
        return None if chosen is None else strong_action(state, chosen)

    def _flush(self) -> None:
        """Send each idle worker what waits for it, or else a share of another's queue; when
        none is idle, send each its next decisions behind those it thinks about."""
        self._flush_due = False
        ready = self._ready
        for worker in ready:
            if worker.sent:  # busy: what waits for it goes with its next message
                continue
            if not worker.queue:  # a share of the longest queue of a busy worker
                longest = max(ready, key=lambda other: len(other.queue) if other.sent else 0)
                for _ in range((len(longest.queue) + 1) // 2 if longest.sent else 0):
                    worker.queue.appendleft(longest.queue.pop())
            if worker.queue:
                self._send(worker)
        if all(worker.sent for worker in ready):
            for worker in ready:
                if worker.queue and len(worker.sent) < MAX_SENT:
                    self._send(worker)

    def _send(self, worker: _Worker) -> None:
        views: list[SeatView] = []
        answers: list[asyncio.Future[Answer]] = []
        for view, answer in worker.queue:
            views.append(view)
            answers.append(answer)
        worker.queue.clear()
        worker.sent.append(answers)
        # pickled here, not by Connection.send: multiprocessing's pickler copies the whole
        # copyreg table for each message (60 us a one-view message against 35)
        message = pickle.dumps(views, pickle.HIGHEST_PROTOCOL)
        with contextlib.suppress(OSError):  # it died: its reader will say so
            worker.connection.send_bytes(message)

    def _on_answer(self, worker: _Worker) -> None:
        """Read every answer the worker has written: per message, the actions or exceptions of
        its decisions, or None (the warm-up, or views it could not read: made inline)."""
        connection = worker.connection
        try:
            while True:
                answers: list[Answer] | None = pickle.loads(connection.recv_bytes())
                waiting = worker.sent.popleft()
                for future, answer in zip(waiting, answers or [None] * len(waiting), strict=True):
                    if not future.done():
                        future.set_result(answer)
                if not connection.poll():
                    break
        except (EOFError, OSError):
            self._died(worker)
            return
        if len(worker.sent) < MAX_SENT:
            self._flush()

    def _died(self, worker: _Worker) -> None:
        """A worker's pipe closed: its decisions are made inline, another worker starts."""
        self._forget(worker)
        self._inline(worker.waiting())
        if self._closed:
            return
        now = time.monotonic()
        self._deaths.append(now)
        while self._deaths and self._deaths[0] < now - 60:
            self._deaths.popleft()
        if len(self._deaths) > MAX_DEATHS:
            log.error("decision workers keep dying: every decision is made inline from now on")
            self._give_up()
            return
        log.warning("a decision worker died (exit code %s): replaced", worker.process.exitcode)
        self.replaced += 1
        self._watch(self._spawn())  # the fork server runs: a fork, no import

    def _forget(self, worker: _Worker) -> None:
        self._loop.remove_reader(worker.connection.fileno())
        worker.connection.close()
        if worker in self._workers:
            self._workers.remove(worker)
        if worker in self._ready:
            self._ready.remove(worker)

    def _give_up(self) -> None:
        """Stop every worker; the decisions waiting on them are made inline."""
        for worker in list(self._workers):
            self._forget(worker)
            worker.process.kill()
            self._inline(worker.waiting())

    @staticmethod
    def _inline(answers: list[asyncio.Future[Answer]]) -> None:
        """These decisions are made inline (where they were asked)."""
        for answer in answers:
            if not answer.done():
                answer.set_result(None)

    def worker_pids(self) -> list[int]:
        """The workers' process ids (a bench reads their CPU, tests kill one)."""
        return [pid for worker in self._workers if (pid := worker.process.pid) is not None]

    async def close(self) -> None:
        """Stop the workers; a decision still waited for raises DecisionsClosed."""
        if self._closed:
            return
        self._closed = True
        await self._spawning
        closed = DecisionsClosed("the decision pool closed during a decision")
        workers = list(self._workers)
        waiting = []
        for worker in workers:
            self._forget(worker)  # the worker reads the end of its pipe and returns
            if worker.ready.is_set():
                waiting += worker.waiting()
            else:  # still warming up: it would read the end of its pipe only after
                worker.process.kill()
                self._inline(worker.waiting())
        for answer in waiting:
            if not answer.done():
                answer.set_exception(closed)

        def join() -> None:
            for worker in workers:
                worker.process.join(timeout=5)
                if worker.process.is_alive():
                    worker.process.kill()
                    worker.process.join()

        await asyncio.to_thread(join)
