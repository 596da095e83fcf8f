"""A process that takes the strong computer's decisions for another (bot/runtime/decisions.py):
`serve` answers each list of seats' views it receives on its connection with the actions
chosen (a list: the decisions waiting when it was sent, so a busy bot wakes it once for many),
or None: the bot is to make them itself.

Before its first answer it plays a few moves of a hand of every preset the computer knows
(`warm_up`), so the tables and caches a family's first decisions build (~0.2 s each) are built
before anyone waits on them; then it says it is ready (None).
"""

from __future__ import annotations

import pickle
import signal
from multiprocessing.connection import Connection

from engine.actions import Action
from engine.computer import choose_strong, strong
from engine.computer.knowledge import knows
from engine.hand import HandState
from engine.presets import PRESETS
from engine.seat_view import SeatView

MOVES = 24  # a hand's opening and first turns: every kind of decision but the late ones


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
    """Answer lists of views until the other end closes: for each view the action, or the
    exception choosing raised."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the bot, which closes us
    warm_up()
    answers: list[Action | Exception] | None = None  # the first: warm
    while True:
        try:
            connection.send(answers)
            message = connection.recv_bytes()
        except (EOFError, OSError):  # the bot closed the pool (or is gone)
            return
        try:
            views = pickle.loads(message)
        except Exception:  # a preset only the bot has (registered by a test): decided there
            answers = None
            continue
        answers = [_answer(view) for view in views]


def _answer(view: SeatView) -> Action | Exception:
    try:
        return strong.choose(view)
    except Exception as error:  # the bot raises it where the decision was asked
        return error
