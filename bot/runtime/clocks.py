"""The clock arithmetic of a table: when the decision in hand runs out, what a turn spends of a
player's reserve, and the deadlines as the store keeps them.

A decision is named by `HandState.decision_version` (the version at which it opened): answers
inside one claim window or opening stage move the hand's version on but not the decision, so
its deadline stands until the decision itself changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from bot.runtime.host import Host, Notices
from bot.runtime.table import LiveTable
from data import Phase
from engine.actions import Action
from engine.events import Phase as HandPhase
from engine.presets import TIME_CONTROLS, Preset
from engine.tiles import MAX_SEATS

EXPIRY_CHECK_SECONDS = 600.0
OPENING_MIN_SECONDS = 15  # an opening stage (swap, void, discard three) never gets less
_RESERVE_NAMES = tuple(f"reserve:{player}" for player in range(MAX_SEATS))  # made once


def fixed_clock(preset: Preset, rated: bool) -> str | None:
    """The clock `preset` must be played under, if its rules fix one.

    A clock with a deal limit is part of a preset's rules (the seed-004 table clock of the
    Sichuan family), not a choice: such a preset is played under it and no other.
    """
    own = preset.rated_time_control if rated else preset.time_control
    return own if TIME_CONTROLS[own].deal_limit else None


def arm_deadline(table: LiveTable, now: float) -> None:
    """Start the clock of the decision the hand now waits for (none for computers); a
    decision whose clock already runs keeps its deadline."""
    hand = table.hand
    tc = table.time_control
    humans = table.humans_to_act()
    if tc.untimed or hand is None or hand.is_over or not humans:
        table.deadline = None
        table.clock_decision = None
        return
    decision = hand.decision_version
    if decision == table.clock_decision:
        return  # the same window, still open for others: its deadline stands
    table.clock_decision = decision
    table.decision_started = now
    if hand.phase is HandPhase.TURN:
        seconds = tc.base + table.reserves[humans[0]]
    elif hand.phase is HandPhase.OPENING:
        seconds = max(OPENING_MIN_SECONDS, tc.base)
    else:
        seconds = tc.base  # claims use the base only, never the reserve
    table.deadline = now + seconds


def spend_clock(table: LiveTable, player: int, now: float) -> None:
    """Take the time over the base out of the player's reserve (turn decisions only)."""
    hand = table.hand
    tc = table.time_control
    if tc.untimed or hand is None or hand.phase is not HandPhase.TURN:
        return
    used = now - table.decision_started
    table.reserves[player] = max(0.0, table.reserves[player] - max(0.0, used - tc.base))


def stored_deadlines(table: LiveTable) -> dict[str, float]:
    """The table's clocks as the store keeps them (restored by `restore_deadlines`)."""
    deadlines: dict[str, float] = {"decision_started": table.decision_started}
    if table.deadline is not None:
        deadlines["decision"] = table.deadline
    if table.deal_deadline is not None:
        deadlines["deal"] = table.deal_deadline
    for player, reserve in enumerate(table.reserves):
        deadlines[_RESERVE_NAMES[player]] = reserve
    return deadlines


def restore_deadlines(table: LiveTable, deadlines: Mapping[str, float], now: float) -> None:
    """The clocks `stored_deadlines` kept, back on a restored table."""
    table.reserves = [deadlines.get(f"reserve:{p}", 0.0) for p in range(table.seat_count)]
    table.deadline = deadlines.get("decision")
    table.decision_started = deadlines.get("decision_started", now)
    table.deal_deadline = deadlines.get("deal")


class Clocks(Host):
    """The timer jobs of the tables' clocks and the idle check (part of `Runtime`)."""

    def _arm_timers(self, table: LiveTable) -> None:
        """The timer jobs of the table's clocks; a job is (re)made only when its deadline
        changes (answers inside one claim window keep the window's job).

        A job's callback is a `partial`, not a lambda: a lambda's closure made cells for this
        function's variables on every call, armed or not, and a job's closure kept the table
        and three more objects alive for the collector to walk (bot/pauses.py)."""
        decision = table.clock_decision
        deadline = table.deadline
        if deadline is not None and decision is not None:
            armed = table.armed_decision
            if armed is None or armed[0] != deadline or armed[1] != decision:
                table.armed_decision = (deadline, decision)
                self.timers.schedule(
                    table.decision_key, deadline, partial(self._on_timeout, table.id, decision)
                )
        elif table.armed_decision is not None:
            table.armed_decision = None
            self.timers.cancel(table.decision_key)
        if table.deal_deadline is not None and table.armed_deal != table.hand_id:
            hand_id = table.armed_deal = table.hand_id
            self.timers.schedule(
                f"deal:{table.id}",
                table.deal_deadline,
                partial(self._on_deal_limit, table.id, hand_id),
            )

    def _cancel_timers(self, table: LiveTable) -> None:
        table.armed_decision = table.armed_deal = None
        self.timers.cancel(table.decision_key)
        self.timers.cancel(f"deal:{table.id}")

    async def _on_timeout(self, table_id: int, decision: int) -> None:
        """A decision clock ran out: play the timeout policy for everyone still to decide."""
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            hand = table.hand
            if table.armed_decision is not None and table.armed_decision[1] == decision:
                table.armed_decision = None  # this job has fired
            if table.phase is not Phase.PLAYING or hand is None:
                return
            if hand.decision_version != decision or table.clock_decision != decision:
                return  # a timer from a decision that has passed
            timeouts: list[Action] = []
            notices = Notices(timeouts=timeouts)
            # everyone still to decide shares this decision (one turn, or one claim window);
            # RULES.md: the seed-004 table clock lets the computer player decide, every other
            # clock plays "Table play around the hand" (a win taken, calls passed, the drawn
            # tile discarded, Sichuan openings as it says)
            for player in table.players_to_act():
                seat = table.hand_seat(player)
                action: Action | None
                if table.time_control.computer_on_timeout:
                    action = await self._decide(table, table.computer, seat)
                else:
                    action = hand.default_action(seat)
                if action is None:
                    continue
                if hand.phase is HandPhase.TURN:
                    table.reserves[player] = 0.0
                timeouts.append(action)
                self._apply(table, action, notices)
            await self._advance(table, notices)
        await self._notify(table, notices)

    async def _on_deal_limit(self, table_id: int, hand_id: int | None) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            if table.armed_deal == hand_id:
                table.armed_deal = None  # this job has fired
            if table.phase is not Phase.PLAYING or table.hand is None or table.hand_id != hand_id:
                return
            notices = Notices()
            self._apply(table, Action.parse("0 time_up"), notices)
            await self._advance(table, notices)
        await self._notify(table, notices)

    def _schedule_expiry(self) -> None:
        async def check() -> None:
            await self.expire_idle_tables()

        self.timers.schedule("expiry", self.timers.now() + EXPIRY_CHECK_SECONDS, check)

    async def expire_idle_tables(self) -> list[int]:
        """Close tables with no game action for 24 hours (no rating change); re-arm the check."""
        closed = await self.store.expire_idle(now=self.timers.now(), shards=self.shards)
        for table_id in closed:
            table = self.tables.get(table_id)
            if table is not None:
                self._drop(table)
                await self._notify(table, Notices(closed="expired after 24 hours idle"))
        self._schedule_expiry()
        return closed
