"""A process that takes the strong computer's decisions for another (bot/runtime/decisions.py):
`serve` reads lists of seats' views on its connection (the decisions waiting when the list was
sent, so a busy bot wakes it once for many) and answers the list with the actions chosen, or
with None: the bot is to make them itself.

Before its first answer it plays a few moves of a hand of every preset the computer knows
(`warm_up`), so the tables and caches a family's first decisions build (~0.2 s each) are built
before anyone waits on them; then it says it is ready (None).

The collector is off in a worker: a decision leaves no reference cycle behind (1,500 made:
none unreachable), so reference counts free all it makes, and young collections took 4-7% of a
busy worker's CPU. Every `SWEEP_SECONDS` a collection frees what a cycle might have made
since, then freezes what is alive (the caches, growing with every decision), so the next walks
only what is new. It comes between two lists when none waits (at the latest `SWEEP_LATEST`
after the last), so a list seldom waits on one: a full collection each second held a worker
10-20 ms (it also empties the interpreter's free lists), its decisions with it; a young one
each tenth of a second walks only what was made since the last freeze: 0.03-1.2 ms (hkos
hands, offline; the more while the caches fill), and leaves the free lists be.
"""

from __future__ import annotations

import gc
import pickle
import signal
import time
from multiprocessing.connection import Connection

from engine.actions import Action
from engine.computer import choose_strong, strong
from engine.computer.knowledge import knows
from engine.hand import HandState
from engine.presets import PRESETS
from engine.seat_view import SeatView

MOVES = 24  # a hand's opening and first turns: every kind of decision but the late ones
SWEEP_SECONDS = 0.1
SWEEP_LATEST = 1.0  # ... put off while lists wait, as at saturation, at most this long


def warm_up() -> None:
    for preset in PRESETS.values():
        if not knows(preset):
            continue
        state = HandState(preset, seed=1)
        for _ in range(MOVES):
            if state.is_over:
                break
            seat = state.seats_to_act()[0]
            state.apply(choose_strong(state, seat))


def serve(connection: Connection) -> None:
    """Answer lists of views until the other end closes: for each view the action or the
    exception choosing raised, in a list; None for a list it cannot read."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the bot, which closes us
    warm_up()
    gc.disable()
    swept_at = -SWEEP_SECONDS
    try:
        _send(connection, None)  # warm
        while True:
            since = time.monotonic() - swept_at
            if since >= SWEEP_SECONDS and (since >= SWEEP_LATEST or not connection.poll()):
                gc.collect(1)
                gc.freeze()
                swept_at = time.monotonic()
            message = connection.recv_bytes()
            try:
                views: list[SeatView] = pickle.loads(message)
            except Exception:  # a preset only the bot has (registered by a test): decided there
                _send(connection, None)
                continue
            _send(connection, [_answer(view) for view in views])
    except (EOFError, OSError):  # the bot closed the pool (or is gone)
        return


def _send(connection: Connection, answers: list[Action | Exception] | None) -> None:
    # pickled here: Connection.send's pickler copies the copyreg table for each message
    connection.send_bytes(pickle.dumps(answers, pickle.HIGHEST_PROTOCOL))


def _answer(view: SeatView) -> Action | Exception:
    try:
        return strong.choose(view)
    except Exception as error:  # the bot raises it where the decision was asked
        return error
