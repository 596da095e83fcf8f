"""Errors the store raises; every one says what happened and what to do about it."""

from __future__ import annotations


class StoreError(Exception):
    """Base class for persistence errors."""


class SchemaTooNewError(StoreError):
    """The database was written by a newer version of the bot; it is left untouched."""

    def __init__(self, path: str, found: int, supported: int) -> None:
        self.path = path
        self.found = found
        self.supported = supported
        super().__init__(
            f"database {path!r} has schema version {found}, but this version of the bot only "
            f"knows versions up to {supported}. It was written by a newer release: upgrade the "
            "bot, or point MAHJONG_DB at another file. The database was not modified."
        )


class NotAStoreError(StoreError):
    """The file is not a SQLite database, or a SQLite database that is not ours."""


class AlreadyOpenError(StoreError):
    """A second Store on the same file in one process (there is one connection per process)."""


class TableNotFoundError(StoreError, LookupError):
    """No table with this id."""


class HandNotActiveError(StoreError):
    """The hand does not exist, is not this table's, or has already ended."""


class StaleVersionError(StoreError):
    """An action for a version the hand has already moved past (or not reached yet).

    `expected` is the sequence number the next action must carry.
    """

    def __init__(self, hand_id: int, given: int, expected: int) -> None:
        self.hand_id = hand_id
        self.given = given
        self.expected = expected
        super().__init__(
            f"hand {hand_id}: action numbered {given} refused, the next action is {expected}"
        )


class ResultConflictError(StoreError):
    """A second, different result for a hand that already has one (the first one stands)."""


class UnusableDatabaseError(StoreError):
    """The database cannot be used where it is: the path is a directory or in a missing folder,
    the file or its folder is read-only, or its pages are damaged. Nothing was written; the
    message says what is wrong and what to do (one line, for the start-up error)."""


class UnreadableError(Exception):
    """Stored data that does not read back (the table it belongs to gets quarantined).

    Internal to data/: restore quarantines the table (QuarantinedTable); reads raise StoreError.
    """
