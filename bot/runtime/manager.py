"""The table runtime: lobbies, hands under the clock, computer players, persistence, restore.

Every change happens under the table's lock, is checked by the engine, is written through
`data.Store` and only then announced to the front end (after the lock is released, so a front
end may call back in).
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.runtime.clocks import Clocks, arm_deadline
from bot.runtime.conversions import restored_table
from bot.runtime.events import FrontEnd, NullFrontEnd
from bot.runtime.host import Notices
from bot.runtime.lobby import Lobby, playable
from bot.runtime.play import Play
from bot.runtime.quickplay import QueueEntry, QuickPlay
from bot.runtime.recipe import HandRecipe, replay_hand
from bot.runtime.table import LiveTable
from bot.runtime.timers import ManualTimers, Timers
from data import Phase, QuarantinedTable, RecordedHand, Shards, Store
from engine.hand import HandState
from engine.presets import UnknownPresetError
from engine.session import Session

if TYPE_CHECKING:
    from bot.metrics import Metrics
    from bot.runtime.decisions import DecisionPool

log = logging.getLogger(__name__)


class Runtime(Lobby, Play, Clocks):
    """All live tables of one process: the one object the front ends use.

    Made of three parts on one base (host.py), as mixins rather than three objects: they share
    every piece of state (the tables, the store, the timers, the front end) and call each other
    both ways (a start deals a hand, a hand arms the clocks, a clock plays a move), so parts
    as objects would each hold the others and the front ends would need forwarding methods.
    Here the runtime's own life: restoring tables, carrying them on, the queries, quick play.
    """

    def __init__(
        self,
        store: Store,
        front: FrontEnd | None = None,
        timers: Timers | None = None,
        *,
        quickplay_fill_after: float = 60.0,
        seed_source: Callable[[], int] | None = None,
        hand_factory: Callable[[Session], HandState] | None = None,
        no_call_wait: float = 0.0,
        shards: Shards | None = None,
        metrics: Metrics | None = None,
        decisions: DecisionPool | None = None,
    ) -> None:
        self.store = store
        # several processes on one database: this one's tables are its shards' guilds' only
        self.shards = shards
        self.front: FrontEnd = front or NullFrontEnd()
        self.timers: Timers = timers or ManualTimers()
        self.tables: dict[int, LiveTable] = {}
        self.metrics = metrics
        self.decisions = decisions  # the strong computer's thinking in worker processes
        self.quickplay_fill_after = quickplay_fill_after
        self._seed_source = seed_source or (lambda: secrets.randbits(48))
        # tests and demos deal chosen walls; the wall is then stored with the hand
        self._hand_factory = hand_factory
        # where calls are public (Discord), every discard opens a claim window for the people
        # at the table, and one with nothing to claim passes after this many seconds: how
        # long a window stays open then does not tell whether anyone could call. 0: nobody
        # watches (the terminal, tests), windows open only for those who can claim.
        self.no_call_wait = no_call_wait
        self._quickplay = QuickPlay(self)

    async def open(self) -> list[QuarantinedTable]:
        """Restore every open table from the database, re-arm its clocks, start the timers."""
        loaded, quarantined = await self.store.load_active_tables(shards=self.shards)
        for item in loaded:
            try:
                table = restored_table(item, self.timers.now())
            except (ValueError, KeyError, IndexError, UnknownPresetError) as error:
                log.error("table %s could not be restored: %s", item.table.id, error)
                quarantined.append(QuarantinedTable(item.table.id, str(error)))
                continue
            self.tables[table.id] = table
        self.timers.start()
        # before the tables carry on: the caller marks the restored tables once open() returns,
        # and an await after their last notices would let their DMs go out unmarked first
        await self._quickplay.resume()
        for table in list(self.tables.values()):
            try:
                await self._carry_on(table)
            except Exception:  # one table failing to move on must not keep the others down
                log.exception("table %s could not carry on after the restore", table.id)
        self._schedule_expiry()
        return quarantined

    async def _carry_on(self, table: LiveTable) -> None:
        """Finish what the log implies after a restart, and show the table as it stands.

        A kill may fall between two commits: a hand stored but its computer dealer's first
        move not, a hand's last move stored but not its result, all four ready but the next
        hand not dealt. Each is carried on here (results are recorded exactly once by the
        store); then clocks are armed and whoever must decide is asked again.
        """
        notices = Notices(table=True, decisions=True)
        async with table.lock:
            if table.phase is Phase.PLAYING and table.hand is not None:
                if table.deadline is None:
                    arm_deadline(table, self.timers.now())
                else:  # the stored deadline is this decision's: answers in it keep it
                    table.clock_decision = table.hand.decision_version
                await self._advance(table, notices)
            elif table.phase is Phase.BETWEEN_HANDS:
                await self._show_last_hand(table)
                if table.full and len(table.ready) == len(table.seats):
                    notices = await self._begin_hand(table)
        await self._notify(table, notices)

    async def _show_last_hand(self, table: LiveTable) -> None:
        """Between hands: the finished hand and its recorded result, for the table message."""
        last = await self.store.last_hand(table.id)
        if last is None:
            return
        if "session" not in json.loads(last.setup or "{}"):
            return
        recipe = HandRecipe.stored(last, table.preset)
        table.recipe, table.hand = recipe, replay_hand(recipe, last.actions)
        table.seating = recipe.dealt_session().seating
        table.hand_id = last.hand_id
        record = await self.store.hand_record(last.hand_id)
        if record is not None:
            table.last_result = RecordedHand(last.hand_id, False, record.rating_changes)

    async def close(self) -> None:
        self.timers.shutdown()
        if self.decisions is not None:  # a decision still thinking is never applied
            await self.decisions.close()
        for table in self.tables.values():  # no engine process outlives the bot
            table.close_engines()

    def public_tables(self, guild_id: int | None) -> list[LiveTable]:
        return [
            t
            for t in self.tables.values()
            if t.guild_id == guild_id and t.options.visibility == "public"
        ]

    def tables_of(self, player_id: str) -> list[LiveTable]:
        return [t for t in self.tables.values() if t.player_of(player_id) is not None]

    async def quickplay(
        self,
        preset_id: str,
        player_id: str,
        name: str,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        rated: bool = False,
    ) -> LiveTable | None:
        """Queue for a table; returns the table once a table's worth of players are found
        (else None: queued)."""
        entry = QueueEntry(player_id, name, guild_id, channel_id)
        return await self._quickplay.join(playable(preset_id), entry, rated)

    async def quickplay_waiting(self, preset_id: str, rated: bool = False) -> int:
        """How many people wait in the queue, on every process sharing the database."""
        return await self._quickplay.waiting(preset_id, rated)

    async def leave_queue(self, player_id: str) -> bool:
        return await self._quickplay.leave(player_id)
