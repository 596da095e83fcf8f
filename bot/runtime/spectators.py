"""Who may watch a table: spectators see only its public snapshot, never a hand.

The table's players choose whether anyone may watch (`extra["spectators"]`, allowed unless
they forbid it); a private table is watched only by the people its players invited to watch
(`extra["watchers"]`) or to play (`extra["invited"]`). Both are table options, stored with the
table, so they survive a restart.
"""

from __future__ import annotations

from dataclasses import replace

from bot.runtime.conversions import stored_options
from bot.runtime.errors import NotSeatedError, TableError
from bot.runtime.manager import Runtime
from bot.runtime.table import LiveTable
from engine.i18n import Text, text


def watch_refusal(table: LiveTable, viewer_id: str) -> Text | None:
    """Why `viewer_id` may not watch the table (worded by whoever shows it, in the reader's
    language), or None if they may (its players always may)."""
    if table.player_of(viewer_id) is not None:
        return None
    extra = table.options.extra
    if not extra.get("spectators", True):
        return text("fixups.watch.no_spectators", table=table.id)
    invited = set(extra.get("watchers", [])) | set(extra.get("invited", []))
    if table.options.visibility == "private" and viewer_id not in invited:
        return text("fixups.watch.private", table=table.id)
    return None


async def set_spectators(
    runtime: Runtime,
    table_id: int,
    by_id: str,
    *,
    allow: bool | None = None,
    invite: str | None = None,
) -> LiveTable:
    """A player allows or forbids spectators, or invites someone to watch; stored first."""
    table = runtime.get(table_id)
    async with table.lock:
        if table.player_of(by_id) is None:
            raise NotSeatedError(text("runtime.not_seated_at", table=table_id))
        if allow is None and invite is None:
            raise TableError(text("runtime.spectators_what"))
        extra = dict(table.options.extra)
        if allow is not None:
            extra["spectators"] = allow
        if invite is not None:
            extra["watchers"] = sorted({*extra.get("watchers", []), invite})
        options = replace(table.options, extra=extra)
        await runtime.store.set_options(
            table.id, stored_options(options, table.seats, table.lobby_version)
        )
        table.options = options
    return table
