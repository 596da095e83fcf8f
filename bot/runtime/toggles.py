"""A player's automatic-move toggles switched at a table (bot/runtime/automatic.py reads them):
stored with the table's options first, then any decision they now answer is made."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from bot.runtime.automatic import STORED_KEY, TOGGLES
from bot.runtime.conversions import stored_options
from bot.runtime.errors import NotSeatedError, TableError
from engine.i18n import text

if TYPE_CHECKING:
    from bot.runtime.manager import Runtime


async def set_toggle(
    runtime: Runtime, table_id: int, player_id: str, toggle: str, on: bool
) -> frozenset[str]:
    """Switch one of a player's toggles at a table, stored first; a decision it now answers
    is made at once. Returns the player's toggles."""
    if toggle not in TOGGLES:
        raise TableError(text("runtime.unknown_toggle", toggle=toggle, toggles=", ".join(TOGGLES)))
    table = runtime.get(table_id)
    async with table.lock:
        if table.player_of(player_id) is None:
            raise NotSeatedError(text("runtime.not_seated_at", table=table_id))
        stored = dict(table.options.extra.get(STORED_KEY, {}))
        chosen = set(stored.get(player_id, ())) - {toggle} | ({toggle} if on else set())
        stored[player_id] = sorted(chosen)
        options = replace(table.options, extra={**table.options.extra, STORED_KEY: stored})
        await runtime.store.set_options(
            table.id, stored_options(options, table.seats, table.lobby_version)
        )
        table.options = options
    await runtime.play_automatic(table_id)
    return frozenset(chosen)
