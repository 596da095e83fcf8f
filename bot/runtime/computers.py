"""Which computer decides a table's computer seats: one function, `computer_for(level)`.

`easy` is the first player (`engine.computer.easy.choose_action`, the level `simulate` and the
recorded goldens keep). `strong`, the default for the tables people create, lives in
`engine.computer`, which is imported only when a table asks for it, so a build without it still
runs every easy table and refuses a strong one with a clear sentence. An mjai engine the
operator configured (bot/mjai_engines.py) is a level too: it plays the table's computer seats
(`LiveTable.seat_computer`), the strong computer its time-outs and suggestions.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from bot.mjai_engines import engine_levels
from bot.runtime.errors import TableError
from engine.actions import Action
from engine.computer.easy import choose_action
from engine.formats.mjai import refusal
from engine.hand import HandState
from engine.i18n import text

Computer = Callable[[HandState, int], Action]

LEVELS = ("easy", "strong")
DEFAULT_LEVEL = "strong"  # tables people create, Quick Play, `play`
# a table stored before tables named their level was played by the easy computer, and still is
STORED_LEVEL = "easy"


def computer_for(level: str) -> Computer:
    """The decision function `(state, seat) -> action` of a computer level; TableError if
    the level does not exist or is not in this build."""
    if level == "easy":
        return choose_action
    if level in engine_levels():  # timeouts and suggestions: an engine plays its own seats only
        level = "strong"
    if level not in LEVELS:
        raise TableError(text("fixups.computer.level", level=repr(level)))
    try:
        module = importlib.import_module("engine.computer")
    except ImportError:
        raise TableError(
            f"the {level} computer is not in this build yet: choose the easy one"
        ) from None
    chosen: Computer = module.computer_for(level)
    return chosen


def check_level(level: str, preset_id: str) -> None:
    """A TableError if `level` is no computer level of `preset_id` (an mjai engine plays
    Riichi's four-seat presets only)."""
    computer_for(level)
    if level in engine_levels() and level not in engine_levels(preset_id):
        raise TableError(refusal(preset_id, engine=level))
