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
import logging
import multiprocessing
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
    # the decisions it is thinking about, in the order sent (empty: idle)
    answers: list[asyncio.Future[Answer]] = field(default_factory=list)
    ready: asyncio.Event = field(default_factory=asyncio.Event)


class DecisionPool:
    """Worker processes taking the strong computer's decisions (see the module's words).

    Made in the running event loop, which watches the workers' pipes. The processes are
    started in a thread (the fork server's start, an import of the computer, would hold the
    loop for a second or more); until they are, and while they warm up, decisions are made
    inline."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError("a decision pool has at least one worker")
        self.size = workers
        self.replaced = 0  # workers started again after one died
        self._loop = asyncio.get_running_loop()
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(["engine.computer.worker"])
        self._workers: list[_Worker] = []
        self._idle: deque[_Worker] = deque()
        self._queue: deque[tuple[SeatView, asyncio.Future[Answer]]] = deque()
        self._deaths: deque[float] = deque()
        self._closed = False
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
        warmed.add_done_callback(lambda _: worker.ready.set())
        worker.answers.append(warmed)
        self._workers.append(worker)
        self._loop.add_reader(worker.connection.fileno(), self._on_answer, worker)

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
        if not self._warm() or not worth_a_worker(state, seat):
            return None
        view = strong_view(state, seat)
        if view is None:
            return None
        answer: asyncio.Future[Answer] = self._loop.create_future()
        self._queue.append((view, answer))
        self._dispatch()
        chosen = await answer
        if isinstance(chosen, Exception):
            raise chosen
        return None if chosen is None else strong_action(state, chosen)

    def _warm(self) -> bool:
        """Whether a worker is there to ask (none yet, or none left: decisions are inline)."""
        return any(worker.ready.is_set() for worker in self._workers)

    def _dispatch(self) -> None:
        """Give the waiting decisions to the idle workers, shared out: one message each."""
        queue = self._queue
        while self._idle and queue:
            worker = self._idle.popleft()
            share = -(-len(queue) // (len(self._idle) + 1))
            views = []
            for _ in range(share):
                view, answer = queue.popleft()
                views.append(view)
                worker.answers.append(answer)
            try:
                worker.connection.send(views)
            except OSError:  # it died: its reader will say so
                continue

    def _on_answer(self, worker: _Worker) -> None:
        try:
            answers: list[Answer] | None = worker.connection.recv()
        except (EOFError, OSError):
            self._died(worker)
            return
        waiting, worker.answers = worker.answers, []
        if answers is None:  # warm, or the views could not be read there: made inline
            answers = [None] * len(waiting)
        for future, answer in zip(waiting, answers, strict=True):
            if not future.done():
                future.set_result(answer)
        self._idle.append(worker)
        self._dispatch()

    def _died(self, worker: _Worker) -> None:
        """A worker's pipe closed: its decision is made inline, another worker starts."""
        self._forget(worker)
        self._inline(worker.answers)
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
        if worker in self._idle:
            self._idle.remove(worker)

    def _give_up(self) -> None:
        """Stop every worker; the decisions waiting on them are made inline."""
        for worker in list(self._workers):
            self._forget(worker)
            worker.process.kill()
            self._inline(worker.answers)
        self._inline([answer for _, answer in self._queue])
        self._queue.clear()

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
        waiting = [answer for _, answer in self._queue]
        self._queue.clear()
        for worker in workers:
            self._forget(worker)  # the worker reads the end of its pipe and returns
            if worker.ready.is_set():
                waiting += worker.answers
            else:  # still warming up: it would read the end of its pipe only after
                worker.process.kill()
                self._inline(worker.answers)
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
