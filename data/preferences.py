"""Language preferences: a server's language for its public table messages, a person's for
their replies and DMs.

Each function takes the connection (data/dialect.py) on the store's worker thread. A preference is a
(scope, subject) pair — scope `guild` with a guild id, or `user` with a user id — and one of
the catalogue's languages; clearing it (None) returns the subject to its Discord locale. The
`guild_seen`/`user_seen` scopes remember the language of the locale an interaction last carried,
so DMs and table messages sent after a restart, before anyone clicks, keep it.
"""

from __future__ import annotations

from data.connection import transaction
from data.dialect import Db

# a choice made with /mahjong language, and the language of the Discord locale last seen
SCOPES = ("guild", "user", "guild_seen", "user_seen")
Preferences = dict[tuple[str, str], str]  # (scope, subject id) -> language


def _check_scope(scope: str) -> None:
    if scope not in SCOPES:
        raise ValueError(f"a language preference is for a guild or a user, not {scope!r}")


def set_language(conn: Db, scope: str, subject: str, language: str | None, now: float) -> None:
    """Store (or, with None, clear) one subject's language."""
    _check_scope(scope)
    with transaction(conn):
        if language is None:
            conn.execute(
                "DELETE FROM language_preferences WHERE scope = ? AND subject = ?",
                (scope, subject),
            )
        else:
            conn.execute(
                "INSERT INTO language_preferences (scope, subject, language, updated_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (scope, subject)"
                " DO UPDATE SET language = excluded.language, updated_at = excluded.updated_at",
                (scope, subject, language, now),
            )


def languages(conn: Db) -> Preferences:
    """Every stored preference (a few rows per server: read once at start-up)."""
    rows = conn.execute("SELECT scope, subject, language FROM language_preferences")
    return {(scope, subject): language for scope, subject, language in rows}
