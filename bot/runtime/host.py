"""What the lobby, the play and the clocks of the runtime share: the live tables, the store, the
timers and the front end; finding a table and a seated player; telling the front end about a
stored change. `Runtime` (manager.py) is made of the three parts on this base; the methods
one part asks of another are declared here, so each part reads on its own.
"""

from __future__ import annotations

import asyncio
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.runtime.computers import Computer
from bot.runtime.errors import NoSuchTableError, NotSeatedError, StaleActionError
from bot.runtime.events import FrontEnd, NullFrontEnd
from bot.runtime.snapshots import private_snapshot, public_snapshot
from bot.runtime.table import LiveTable
from bot.runtime.timers import Timers
from data import Phase, Shards, Store
from engine.actions import Action
from engine.hand import Event
from engine.i18n import text

if TYPE_CHECKING:
    from bot.metrics import Metrics
    from bot.runtime.decisions import DecisionPool

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Notices:
    """What to tell the front end once the change is stored and the lock released.

    One is alive for every action waiting on its commit, and the collector walks each of them
    (bot/pauses.py): no field holds an object it does not need (`timeouts` is a list only
    where the clock plays)."""

    table: bool = False
    hands: set[int] = field(default_factory=set)
    decisions: bool = False
    ended: bool = False
    closed: str | None = None
    dealt: bool = False  # a new hand was dealt
    events: list[Event] = field(default_factory=list)  # the engine's events of this change
    wins_before: int | None = None  # wins the hand held before the first of `events`
    timeouts: Sequence[Action] = ()  # what the clock played for people


def seated(table: LiveTable, player_id: str) -> int:
    """The table seat of `player_id`, or a NotSeatedError."""
    player = table.player_of(player_id)
    if player is None:
        raise NotSeatedError(text("runtime.not_seated"))
    return player


class Host(ABC):
    """The state every part of the runtime works on (made by `Runtime.__init__`)."""

    store: Store
    shards: Shards | None  # several processes on one database: this one's shards' tables only
    front: FrontEnd
    timers: Timers
    tables: dict[int, LiveTable]
    metrics: Metrics | None  # an operator watches (bot/metrics.py): counted where it happens
    decisions: DecisionPool | None  # worker processes thinking for the strong computer

    # ------------------------------------------------------------------ asked across the parts

    @abstractmethod
    async def _begin_hand(self, table: LiveTable) -> Notices:
        """Deal the next hand (play.py)."""

    @abstractmethod
    def _apply(self, table: LiveTable, action: Action, notices: Notices) -> None:
        """Apply one action in memory (play.py)."""

    @abstractmethod
    async def _advance(self, table: LiveTable, notices: Notices) -> None:
        """Let computers act, store the run, arm the clocks (play.py)."""

    @abstractmethod
    def _arm_timers(self, table: LiveTable) -> None:
        """(Re)make the timer jobs of the table's clocks (clocks.py)."""

    @abstractmethod
    def _cancel_timers(self, table: LiveTable) -> None:
        """Cancel the table's clock jobs (clocks.py)."""

    # ------------------------------------------------------------------ shared

    async def _decide(self, table: LiveTable, computer: Computer, seat: int) -> Action:
        """The computer's decision for hand seat `seat`, its thinking timed for the operator:
        a strong one in a worker process where the runtime has a pool (decisions.py), an mjai
        engine's in a thread (its process may think for seconds: other tables go on), any
        other here."""
        hand = table.hand
        assert hand is not None
        started = time.perf_counter()
        action: Action | None = None
        pool = self.decisions
        if pool is not None and pool.thinks_for(computer):
            action = await pool.choose(hand, seat)
            # an expiry closes a table without its lock: one closed while it thought moves no more
            if table.phase is not Phase.PLAYING or table.hand is not hand:
                raise StaleActionError(text("runtime.no_hand_in_play"))
        if action is None:
            if computer is table.engines:
                action = await asyncio.to_thread(computer, hand, seat)
            else:
                action = computer(hand, seat)
        if self.metrics is not None:
            self.metrics.decided(table.level, time.perf_counter() - started)
        return action

    def get(self, table_id: int) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None:
            raise NoSuchTableError(text("runtime.no_such_table", table=table_id))
        return table

    def _drop(self, table: LiveTable) -> None:
        self._cancel_timers(table)
        table.close_engines()
        table.phase = Phase.CLOSED
        self.tables.pop(table.id, None)

    async def _notify(self, table: LiveTable, notices: Notices) -> None:
        """Tell the front end about a stored change: one public snapshot of the table, and one
        private snapshot for each player whose own view changed (their hand, their decision)."""
        front = self.front
        if isinstance(front, NullFrontEnd):
            return  # nobody looks: build nothing
        players: set[int] = set(notices.hands)
        if notices.ended or notices.closed is not None:
            players.update(table.humans)
        elif notices.decisions and table.phase is Phase.PLAYING:
            players.update(table.players_to_act())
        calls: list[Awaitable[None]] = []
        # each player first hears what happened to them (the clock played for them), then
        # what the table saw
        for player in sorted(players):
            seat = table.seats[player]
            if seat is not None and seat.human:
                private = private_snapshot(table, player, notices.events, notices.timeouts)
                calls.append(front.hand_changed(private))
        if notices.table or notices.ended or notices.closed is not None:
            public = public_snapshot(
                table,
                notices.events,
                wins_before=notices.wins_before or 0,
                ended=notices.ended,
                dealt=notices.dealt,
                closed=notices.closed,
            )
            calls.append(front.table_changed(public))
        for call in calls:
            try:
                await call
            except Exception:  # a front end failing must not break the table
                log.exception("front end failed on table %s", table.id)
