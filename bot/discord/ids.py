"""Custom ids of every component the bot draws: `mj:{table}:{verb}:{hand}.{version}[:...]`.

An id names its table, what it does, the hand it was drawn for and the version of the moment
it was drawn at, so a click is understood without any memory of the message (after a restart
too) and a click on an outdated control is recognised, even one from an earlier hand whose
version happens to match. Ids stay far below Discord's 100 characters, and the templates take
ASCII digits of bounded length only: anything else is not one of our ids.

The stamp (`Stamp`) is the hand's number (1 for the first hand; between hands, or back in the
lobby, the last finished hand's; 0 before the first deal) and a version: in a hand its *public
moment* (`bot.runtime.snapshots.public_moment`, counted from public facts only: the engine's
own version also counts the answers given in a claim window, which would tell how many seats
could claim); in the lobby the seating's version (`LiveTable.lobby_version`), so Add computer
pressed twice adds one. The Discord layer maps a moment back to the engine's decision version
before it asks the runtime to act.

>>> call_id(12, Stamp(3, 40), "pung")
'mj:12:call:3.40:pung'
>>> act_id(12, Stamp(3, 40), 2, "discard", "5m")
'mj:12:act:3.40:2:discard:5m'
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from bot.runtime.snapshots import control_stamp
from engine.actions import Action

if TYPE_CHECKING:
    from bot.runtime import LiveTable

PREFIX = "mj"
TABLE_VERBS = ("join", "leave", "cpu", "start", "hand", "ready")
CALL_KINDS = ("chow", "pung", "kong", "win", "pass")
NUMBER = "(?:0|[1-9][0-9]{0,17})"  # at most 18 ASCII digits: no sign, no other digits
TABLE = rf"{PREFIX}:(?P<table>{NUMBER})"
STAMP = rf"(?P<hand>{NUMBER})\.(?P<version>{NUMBER})"

TABLE_TEMPLATE = rf"{TABLE}:(?P<verb>{'|'.join(TABLE_VERBS)}):{STAMP}"
CALL_TEMPLATE = rf"{TABLE}:call:{STAMP}:(?P<kind>{'|'.join(CALL_KINDS)})"
ACT_TEMPLATE = (
    rf"{TABLE}:act:{STAMP}:(?P<seat>[0-3]):(?P<kind>[a-z_]{{1,20}})"
    r"(?::(?P<arg>[0-9a-z]{1,12}))?"
)
# a second menu of one message (a declaration's tiles beside the discards) is numbered
PICK_TEMPLATE = rf"{TABLE}:pick:{STAMP}:(?P<seat>[0-3])(?::(?P<menu>[1-9]))?"
TILES_TEMPLATE = rf"{TABLE}:tiles:{STAMP}:(?P<seat>[0-3]):(?P<kind>swap|remove)"
# a player's switch of an automatic move (bot/runtime/automatic.py): no stamp, valid any time
TOGGLE_TEMPLATE = rf"{TABLE}:auto:(?P<toggle>auto_win|no_calls|auto_discard)"
# a replay viewer's controls name the hand and the frame they lead to (bot/discord/cogs/replay.py)
REPLAY_TEMPLATE = (
    rf"{PREFIX}:replay:(?P<hand>{NUMBER}):(?P<verb>first|prev|next|last):(?P<frame>{NUMBER})"
)
REPLAY_JUMP_TEMPLATE = rf"{PREFIX}:replay:(?P<hand>{NUMBER}):jump"
TEMPLATES = tuple(
    re.compile(t)
    for t in (
        TABLE_TEMPLATE,
        CALL_TEMPLATE,
        ACT_TEMPLATE,
        PICK_TEMPLATE,
        TILES_TEMPLATE,
        TOGGLE_TEMPLATE,
    )
)
TEMPLATES += (re.compile(REPLAY_TEMPLATE), re.compile(REPLAY_JUMP_TEMPLATE))


class Stamp(NamedTuple):
    """Which hand and which moment of it a control was drawn for."""

    hand: int
    version: int

    def __str__(self) -> str:
        return f"{self.hand}.{self.version}"

    @classmethod
    def of(cls, match: re.Match[str]) -> Stamp:
        return cls(int(match["hand"]), int(match["version"]))


def ours(custom_id: str) -> bool:
    """Whether a custom id is one the bot draws (a forged or damaged one is not)."""
    return any(template.fullmatch(custom_id) for template in TEMPLATES)


def table_of(custom_id: str) -> int | None:
    """The table a control of ours names, or None for any other id."""
    for template in TEMPLATES:
        found = template.fullmatch(custom_id)
        if found is not None and "table" in template.groupindex:
            return int(found["table"])
    return None


def stamp(table: LiveTable) -> Stamp:
    """The stamp of controls drawn for the table as it stands now."""
    return Stamp(*control_stamp(table))


def table_id(table: int, verb: str, stamp: Stamp) -> str:
    """A table-message or lobby control: join, leave, cpu, start, hand, ready."""
    if verb not in TABLE_VERBS:
        raise ValueError(f"unknown table verb {verb!r}")
    return f"{PREFIX}:{table}:{verb}:{stamp}"


def call_id(table: int, stamp: Stamp, kind: str) -> str:
    """A public call button (chow, pung, kong, win, pass) for the decision at `stamp`."""
    if kind not in CALL_KINDS:
        raise ValueError(f"unknown call {kind!r}")
    return f"{PREFIX}:{table}:call:{stamp}:{kind}"


def act_id(table: int, stamp: Stamp, seat: int, kind: str, arg: str = "") -> str:
    """A private control that plays one action of hand seat `seat` (e.g. discard 5m)."""
    return f"{PREFIX}:{table}:act:{stamp}:{seat}:{kind}" + (f":{arg}" if arg else "")


def action_value(action: Action) -> str:
    """How a private control carries an action of its seat: the engine's notation without the
    seat ('discard 5m', 'chow 345m', 'void s'); `action_of` reads it back.

    >>> action_value(Action.parse("2 concealed_kong 5555m"))
    'concealed_kong 5555m'
    """
    return str(action).split(" ", 1)[1]


def action_of(seat: int, value: str) -> Action:
    """The action a control of seat `seat` carries (raises InvalidNotationError if forged)."""
    return Action.parse(f"{seat} {value}")


def pick_id(table: int, stamp: Stamp, seat: int, menu: int = 0) -> str:
    """A private select whose values are actions of `seat` without the seat ('chow 345m');
    `menu` tells apart the menus of one message (ids must differ)."""
    return f"{PREFIX}:{table}:pick:{stamp}:{seat}" + (f":{menu}" if menu else "")


def tiles_id(table: int, stamp: Stamp, seat: int, kind: str) -> str:
    """A private select of three tiles to swap or remove (Sichuan openings)."""
    return f"{PREFIX}:{table}:tiles:{stamp}:{seat}:{kind}"


def toggle_id(table: int, toggle: str) -> str:
    """The id of a player's switch of an automatic move at a table.

    >>> toggle_id(12, "auto_win")
    'mj:12:auto:auto_win'
    """
    return f"{PREFIX}:{table}:auto:{toggle}"
