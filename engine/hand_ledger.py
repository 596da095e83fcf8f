"""What a hand records of its points and its end: every point that moves goes through `pay` (a
`Payment`, engine.settlement, and one payment event naming its reasons); `outcome` says how the
hand ended. `engine.hand.HandState` keeps the records and plays the loop that makes them."""

from __future__ import annotations

from collections.abc import Sequence

from engine.events import Event, Termination
from engine.hand_tables import shared_event
from engine.outcome import Outcome, WinRecord
from engine.settlement import (
    WALL_DRAW_REASONS,
    Payment,
    Reason,
    deltas_of,
    payment_detail,
    pot_change,
    reasons_text,
)


class HandLedger:
    """A hand's points, wins and end (see the module docstring)."""

    seat_count: int
    points: list[int]  # this hand's running point changes: the sum of `payments`
    pot_change: int  # the pot's running change: paid in less taken out
    payments: list[Payment]
    wins: list[WinRecord]
    _termination: Termination | None
    _ready: tuple[int, ...]  # at a wall draw, the seats in play that were ready
    _events: list[Event]

    def pay(self, payments: Sequence[Payment]) -> None:
        """Record payments (seats and the pot); every point that moves in a hand goes through
        here, and each call is one payment event naming its reasons."""
        if not payments:
            return
        self.payments.extend(payments)
        deltas = deltas_of(payments, self.seat_count)
        pot = pot_change(payments)
        for seat, delta in enumerate(deltas):
            self.points[seat] += delta
        self.pot_change += pot
        if pot or any(deltas):
            detail = payment_detail(deltas, pot)
            self._events.append(shared_event("payment", None, None, detail, reasons_text(payments)))

    @property
    def kong_points(self) -> list[int]:
        """The part of `points` paid for kongs at once."""
        return self._paid_for(Reason.KONG)

    @property
    def draw_points(self) -> list[int]:
        """The part of `points` paid in wall-draw checks."""
        return self._paid_for(*WALL_DRAW_REASONS)

    def _paid_for(self, *reasons: Reason) -> list[int]:
        chosen = [p for p in self.payments if p.reason in reasons]
        return deltas_of(chosen, self.seat_count)

    def outcome(self) -> Outcome | None:
        """How the hand ended, or None while it goes on."""
        if self._termination is None:
            return None
        return Outcome(
            self._termination,
            tuple(self.wins),
            tuple(self.points),
            tuple(self.payments),
            self.pot_change,
            self._ready,
        )
