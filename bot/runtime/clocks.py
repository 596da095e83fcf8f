"""The clock arithmetic of a table: when the decision in hand runs out, what a turn spends of a
player's reserve, and the deadlines as the store keeps them.

A decision is named by `HandState.decision_version` (the version at which it opened): answers
inside one claim window or opening stage move the hand's version on but not the decision, so
its deadline stands until the decision itself changes.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.runtime.table import LiveTable
from engine.events import Phase as HandPhase
from engine.presets import TIME_CONTROLS, Preset
from engine.tiles import MAX_SEATS

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
