"""What the runtime refuses, each with a message a player can read."""

from __future__ import annotations


class TableError(ValueError):
    """A request the table cannot carry out; `str(error)` is meant for the player."""


class NoSuchTableError(TableError):
    pass


class NotSeatedError(TableError):
    pass


class StaleActionError(TableError):
    """An action made for a state the table has already moved past."""


class NotYourDecisionError(TableError):
    pass
