"""Settlement as payments: every point that moves in a hand is one `Payment`.

A hand's deltas are the sum of its payments, so a rule that changes who pays (a horse mirroring
win payments, a dealer bonus, liability, a cap) is a small function over a list of payments.

>>> pays = [Payment(1, 0, 8, Reason.WIN), Payment(2, 0, 2, Reason.KONG)]
>>> deltas_of(pays, 4)
[10, -8, -2, 0]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class Reason(StrEnum):
    WIN = "win"
    KONG = "kong"  # paid at once when a kong is committed
    FLOWER_PIG = "flower_pig"  # wall-draw check: still holding the void suit
    NOT_READY = "not_ready"  # wall-draw check: not ready pays each ready player
    HORSE = "horse"
    BIRD = "bird"
    DEALER_BONUS = "dealer_bonus"
    LIABILITY = "liability"
    CAP = "cap"


# the reasons settled at a wall draw (the result picture shows them as one line)
WALL_DRAW_REASONS = frozenset({Reason.FLOWER_PIG, Reason.NOT_READY})


@dataclass(frozen=True, slots=True)
class Payment:
    """`payer` pays `amount` points to `payee` (hand seats) for `reason`."""

    payer: int
    payee: int
    amount: int
    reason: Reason

    def __post_init__(self) -> None:
        if self.amount < 0 or self.payer == self.payee:
            raise ValueError(f"a payment runs from one seat to another, got {self}")


def deltas_of(payments: Iterable[Payment], seat_count: int) -> list[int]:
    """Each seat's net change over these payments (zero-sum by construction)."""
    deltas = [0] * seat_count
    for payment in payments:
        deltas[payment.payer] -= payment.amount
        deltas[payment.payee] += payment.amount
    return deltas


def from_each(payers: Iterable[int], payee: int, amount: int, reason: Reason) -> list[Payment]:
    """The same amount paid to `payee` by every one of `payers` (the payee itself skipped)."""
    return [Payment(payer, payee, amount, reason) for payer in payers if payer != payee]
