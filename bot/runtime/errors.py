"""What the runtime refuses, each with a message a player can read in their own language."""

from __future__ import annotations

from engine.i18n import Text, WordedError


class TableError(WordedError):
    """A request the table cannot carry out.

    Raised with a catalogue `Text` (`TableError(text("runtime.seat_taken", seat=2))`) so each
    reader gets it in their language via `error.in_language(lang)`; `str(error)` is English.
    A plain string is shown as it is in every language (kept for messages not yet catalogued).
    """


def message_of(error: Exception) -> Text | str:
    """What an engine error says, kept as its catalogue `Text` when it was raised with one
    (`ValueError(text(...))`), so the runtime can re-raise it for each reader's language."""
    said = error.args[0] if len(error.args) == 1 else None
    return said if isinstance(said, Text) else str(error)


class NoSuchTableError(TableError):
    pass


class NotSeatedError(TableError):
    pass


class StaleActionError(TableError):
    """An action made for a state the table has already moved past."""


class NotYourDecisionError(TableError):
    pass
