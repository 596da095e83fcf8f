"""Quick Play: queues per preset (rated or casual) that become a table once full.

A queue fills one table size (`quickplay_seats`); a casual queue that waits too long is
completed with computers. The table is made through the runtime's own lobby calls, so it is
stored and announced like any other.

The queues live in the store (data/quickplay.py), so processes sharing one PostgreSQL share
them: a person queued on one process meets people queued on another. **Which process makes
the table**: the one whose join completed the queue, or, for a casual queue filled with
computers, the one serving its earliest person's guild whose wait ran out. That process posts
the table in the channel of the earliest matched person of its own guilds (the joiner's guild
is its own, since Discord sent it the command), so the table lives where its process owns it.
On one process (SQLite, or unsharded) that is the earliest person's channel, as before.

While this process has people queued it renews their entries every RENEW_EVERY seconds; if
it dies they lapse (data/quickplay.py LAPSE) and nobody is matched with them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.runtime.clocks import fixed_clock
from bot.runtime.errors import TableError
from bot.runtime.table import LiveTable, seat_count_for
from data.quickplay import RENEW_EVERY, OwnQueue, Queued, QueueEntry
from data.tables import owns
from engine.i18n import text
from engine.presets import Preset, find_preset

if TYPE_CHECKING:
    from bot.runtime.manager import Runtime

__all__ = ["QUICK_PLAY_CLOCK", "QueueEntry", "QuickPlay", "quickplay_seats"]

QUICK_PLAY_CLOCK = "standard"
RENEW_KEY = "quickplay-renew"


def quickplay_seats(preset: Preset) -> int:
    """Quick Play makes tables of the preset's first seat count (four for every preset that
    seats four): a queue fills one table size."""
    return preset.seat_counts[0]


def _fill_key(preset_id: str) -> str:
    return f"quickplay:{preset_id}"


class QuickPlay:
    """One runtime's part in the queues: its joins, its casual queues' waits, its renewals."""

    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime

    async def join(self, preset: Preset, entry: QueueEntry, rated: bool) -> LiveTable | None:
        """Queue `entry`; the table once a table's worth of players are found, else None."""
        seats = seat_count_for(preset, quickplay_seats(preset), rated)
        runtime = self._runtime
        outcome = await runtime.store.quickplay_join(
            preset.id, rated, entry, seats, now=runtime.timers.now()
        )
        if outcome.already:
            raise TableError(text("runtime.already_queued"))
        if outcome.matched:
            return await self._seat(preset, rated, outcome.matched, computers=0)
        if not rated:
            self._arm_fill(preset.id, runtime.timers.now() + runtime.quickplay_fill_after)
        self._arm_renewal()
        return None

    async def waiting(self, preset_id: str, rated: bool) -> int:
        runtime = self._runtime
        return await runtime.store.quickplay_waiting(preset_id, rated, now=runtime.timers.now())

    async def leave(self, player_id: str) -> bool:
        """Take `player_id` out of every queue; whether they were in one."""
        return await self._runtime.store.quickplay_leave(player_id)

    async def resume(self) -> None:
        """At start-up: keep this process's people queued before a restart (if their entries
        have not lapsed meanwhile) and wait for their casual queues again."""
        self._arm(await self._renew())

    # ------------------------------------------------------------------ timers

    def _arm_fill(self, preset_id: str, at: float) -> None:
        timers = self._runtime.timers
        key = _fill_key(preset_id)
        if key not in timers.pending():  # the earliest wait already armed stands

            async def fill() -> None:
                await self._fill(preset_id)

            timers.schedule(key, at, fill)

    def _arm_renewal(self) -> None:
        timers = self._runtime.timers
        if RENEW_KEY not in timers.pending():

            async def renew() -> None:
                self._arm(await self._renew())

            timers.schedule(RENEW_KEY, timers.now() + RENEW_EVERY, renew)

    def _arm(self, queues: list[OwnQueue]) -> None:
        """Renew again while this process has people queued; wait for their casual queues."""
        for queue in queues:
            if not queue.rated:
                self._arm_fill(
                    queue.preset, queue.first_queued_at + self._runtime.quickplay_fill_after
                )
        if queues:
            self._arm_renewal()

    async def _renew(self) -> list[OwnQueue]:
        runtime = self._runtime
        return await runtime.store.quickplay_renew(shards=runtime.shards, now=runtime.timers.now())

    async def _fill(self, preset_id: str) -> None:
        """A casual queue's wait ran out: computers take the empty seats (if this process's
        earliest person has waited long enough; else wait for them)."""
        runtime = self._runtime
        preset = find_preset(preset_id)
        seats = quickplay_seats(preset)
        outcome = await runtime.store.quickplay_fill(
            preset_id,
            seats,
            runtime.quickplay_fill_after,
            shards=runtime.shards,
            now=runtime.timers.now(),
        )
        if outcome.matched:
            computers = seats - len(outcome.matched)
            await self._seat(preset, False, outcome.matched, computers=computers)
        elif outcome.again_at is not None:
            self._arm_fill(preset_id, outcome.again_at)

    async def _seat(
        self, preset: Preset, rated: bool, matched: tuple[Queued, ...], computers: int
    ) -> LiveTable:
        """The table for the matched people, posted where the earliest of this process's own
        guilds' people queued (see the module)."""
        runtime = self._runtime
        entries = [queued.entry for queued in matched]
        own = [e for e in entries if owns(runtime.shards, e.guild_id)]
        host = own[0] if own else entries[0]
        table = await runtime.create_table(
            preset.id,
            creator_id=host.player_id,
            creator_name=host.name,
            guild_id=host.guild_id,
            channel_id=host.channel_id,
            rated=rated,
            time_control=fixed_clock(preset, rated) or QUICK_PLAY_CLOCK,
            computers=computers,
            name="Quick Play",
            players=quickplay_seats(preset),
        )
        for entry in entries:
            if entry is not host:
                await runtime.join(table.id, entry.player_id, entry.name)
        return await runtime.start_table(table.id, host.player_id)
