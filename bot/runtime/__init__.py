"""The discord-free table runtime shared by the Discord layer and the terminal."""

from bot.runtime.errors import (
    NoSuchTableError,
    NotSeatedError,
    NotYourDecisionError,
    StaleActionError,
    TableError,
)
from bot.runtime.events import FrontEnd, NullFrontEnd
from bot.runtime.manager import Runtime
from bot.runtime.snapshots import Decision, PrivateSnapshot, PublicSnapshot, SeatLine
from bot.runtime.table import COMPUTER_PREFIX, LiveTable, Seat
from bot.runtime.timers import ManualTimers, SchedulerTimers, Timers

__all__ = [
    "COMPUTER_PREFIX",
    "Decision",
    "FrontEnd",
    "LiveTable",
    "ManualTimers",
    "NoSuchTableError",
    "NotSeatedError",
    "NotYourDecisionError",
    "NullFrontEnd",
    "PrivateSnapshot",
    "PublicSnapshot",
    "Runtime",
    "SchedulerTimers",
    "Seat",
    "SeatLine",
    "StaleActionError",
    "TableError",
    "Timers",
]
