"""Custom ids of every component the bot draws: `mj:{table}:{verb}:{version}[:...]`.

An id names its table, what it does and the decision version it was drawn for, so a click is
understood without any memory of the message (after a restart too) and a click on an outdated
control is recognised. Ids stay far below Discord's 100 characters.

The version is the hand's *decision version* (`decision_version`): the state version at which
the current decision opened. Within one claim window every answer moves the hand's version on,
but the window, and what another player may still answer, stays the same: a Pung button drawn
when the window opened must keep working after someone else passed.

>>> call_id(12, 40, "pung")
'mj:12:call:40:pung'
>>> act_id(12, 40, 2, "discard", "5m")
'mj:12:act:40:2:discard:5m'
"""

from __future__ import annotations

from engine.hand import HandState

PREFIX = "mj"
TABLE_VERBS = ("join", "leave", "cpu", "start", "hand", "ready")
CALL_KINDS = ("chow", "pung", "kong", "win", "pass")

TABLE_TEMPLATE = rf"{PREFIX}:(?P<table>\d+):(?P<verb>{'|'.join(TABLE_VERBS)}):(?P<version>\d+)"
CALL_TEMPLATE = rf"{PREFIX}:(?P<table>\d+):call:(?P<version>\d+):(?P<kind>{'|'.join(CALL_KINDS)})"
ACT_TEMPLATE = (
    rf"{PREFIX}:(?P<table>\d+):act:(?P<version>\d+):(?P<seat>[0-3]):(?P<kind>[a-z_]+)"
    r"(?::(?P<arg>[0-9a-z]+))?"
)
PICK_TEMPLATE = rf"{PREFIX}:(?P<table>\d+):pick:(?P<version>\d+):(?P<seat>[0-3])"
TILES_TEMPLATE = (
    rf"{PREFIX}:(?P<table>\d+):tiles:(?P<version>\d+):(?P<seat>[0-3]):(?P<kind>swap|remove)"
)


def decision_version(hand: HandState | None) -> int:
    """The version at which the hand's current decision opened (0 without a hand)."""
    return 0 if hand is None else hand.decision_version


def table_id(table: int, verb: str, version: int = 0) -> str:
    """A table-message or lobby control: join, leave, cpu, start, hand, ready."""
    if verb not in TABLE_VERBS:
        raise ValueError(f"unknown table verb {verb!r}")
    return f"{PREFIX}:{table}:{verb}:{version}"


def call_id(table: int, version: int, kind: str) -> str:
    """A public call button (chow, pung, kong, win, pass) for the decision at `version`."""
    if kind not in CALL_KINDS:
        raise ValueError(f"unknown call {kind!r}")
    return f"{PREFIX}:{table}:call:{version}:{kind}"


def act_id(table: int, version: int, seat: int, kind: str, arg: str = "") -> str:
    """A private control that plays one action of hand seat `seat` (e.g. discard 5m)."""
    return f"{PREFIX}:{table}:act:{version}:{seat}:{kind}" + (f":{arg}" if arg else "")


def pick_id(table: int, version: int, seat: int) -> str:
    """A private select whose values are actions of `seat` without the seat ('chow 345m')."""
    return f"{PREFIX}:{table}:pick:{version}:{seat}"


def tiles_id(table: int, version: int, seat: int, kind: str) -> str:
    """A private select of three tiles to swap or remove (Sichuan openings)."""
    return f"{PREFIX}:{table}:tiles:{version}:{seat}:{kind}"
