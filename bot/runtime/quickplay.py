"""Quick Play: queues per preset (rated or casual) that become a table once full.

A queue fills one table size (`quickplay_seats`); a casual queue that waits too long is
completed with computers. The table is made through the runtime's own lobby calls, so it is
stored and announced like any other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.runtime.clocks import fixed_clock
from bot.runtime.errors import TableError
from bot.runtime.table import LiveTable, seat_count_for
from engine.i18n import text
from engine.presets import Preset, find_preset

if TYPE_CHECKING:
    from bot.runtime.manager import Runtime

QUICK_PLAY_CLOCK = "standard"

QueueKey = tuple[str, bool]  # (preset id, rated)


@dataclass(frozen=True, slots=True)
class QueueEntry:
    """One person waiting, and where the table should be posted if they open it."""

    player_id: str
    name: str
    guild_id: int | None
    channel_id: int | None


def quickplay_seats(preset: Preset) -> int:
    """Quick Play makes tables of the preset's first seat count (four for every preset that
    seats four): a queue fills one table size."""
    return preset.seat_counts[0]


class QuickPlay:
    """The queues of one runtime."""

    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime
        self._queues: dict[QueueKey, list[QueueEntry]] = {}

    async def join(self, preset: Preset, entry: QueueEntry, rated: bool) -> LiveTable | None:
        """Queue `entry`; the table once a table's worth of players are found, else None."""
        seats = seat_count_for(preset, quickplay_seats(preset), rated)
        key = (preset.id, rated)
        queue = self._queues.setdefault(key, [])
        if any(waiting.player_id == entry.player_id for waiting in queue):
            raise TableError(text("runtime.already_queued"))
        queue.append(entry)
        if len(queue) >= seats:
            return await self._seat(key, queue[:seats], computers=0)
        if not rated and len(queue) == 1:
            timers = self._runtime.timers
            timers.schedule(
                f"quickplay:{preset.id}",
                timers.now() + self._runtime.quickplay_fill_after,
                lambda: self._fill(key),
            )
        return None

    def waiting(self, preset_id: str, rated: bool) -> int:
        return len(self._queues.get((preset_id, rated), []))

    def leave(self, player_id: str) -> bool:
        """Take `player_id` out of every queue; whether they were in one."""
        found = False
        for key, queue in self._queues.items():
            kept = [entry for entry in queue if entry.player_id != player_id]
            found = found or len(kept) != len(queue)
            self._queues[key] = kept
        return found

    async def _fill(self, key: QueueKey) -> None:
        """A casual queue waited long enough: computers take the empty seats."""
        queue = self._queues.get(key, [])
        seats = quickplay_seats(find_preset(key[0]))
        if queue:
            entries = list(queue[:seats])
            await self._seat(key, entries, computers=seats - len(entries))

    async def _seat(self, key: QueueKey, entries: list[QueueEntry], computers: int) -> LiveTable:
        preset_id, rated = key
        self._queues[key] = [entry for entry in self._queues[key] if entry not in entries]
        if not self._queues[key]:
            self._runtime.timers.cancel(f"quickplay:{preset_id}")
        preset = find_preset(preset_id)
        first = entries[0]
        runtime = self._runtime
        table = await runtime.create_table(
            preset_id,
            creator_id=first.player_id,
            creator_name=first.name,
            guild_id=first.guild_id,
            channel_id=first.channel_id,
            rated=rated,
            time_control=fixed_clock(preset, rated) or QUICK_PLAY_CLOCK,
            computers=computers,
            name="Quick Play",
            players=quickplay_seats(preset),
        )
        for entry in entries[1:]:
            await runtime.join(table.id, entry.player_id, entry.name)
        return await runtime.start_table(table.id, first.player_id)
