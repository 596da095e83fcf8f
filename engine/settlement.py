"""Settlement as payments: every point that moves in a hand is one `Payment`.

A hand's deltas are the sum of its payments, so a rule that changes who pays (a horse mirroring
win payments, a dealer bonus, liability, a cap) is a small function over a list of payments.
A payment may run into or out of the table's pot (`POT` as payer or payee: a stake paid in, the
pot taken by a winner); the seats and the pot together conserve points.

>>> pays = [Payment(1, 0, 8, Reason.WIN), Payment(2, 0, 2, Reason.KONG)]
>>> deltas_of(pays, 4)
[10, -8, -2, 0]
>>> stake = [Payment(2, POT, 10, Reason.DEPOSIT)]
>>> deltas_of(stake, 4), pot_change(stake)
([0, 0, -10, 0], 10)
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
    DEPOSIT = "deposit"  # a stake paid into the table's pot
    POT = "pot"  # the pot taken out (by a winner)
    SETTLEMENT = "settlement"  # losers settling among themselves (chinese-classical)


# the reasons settled at a wall draw (the result picture shows them as one line)
WALL_DRAW_REASONS = frozenset({Reason.FLOWER_PIG, Reason.NOT_READY})
# the reasons a win's settling pays (said with the win itself)
WIN_REASONS = frozenset(
    {
        Reason.WIN,
        Reason.SETTLEMENT,
        Reason.HORSE,
        Reason.BIRD,
        Reason.DEALER_BONUS,
        Reason.LIABILITY,
        Reason.CAP,
    }
)

POT = -1  # the table's pot as a payer or payee (seats are 0 and up)


@dataclass(frozen=True, slots=True)
class Payment:
    """`payer` pays `amount` points to `payee` (hand seats, or `POT`) for `reason`."""

    payer: int
    payee: int
    amount: int
    reason: Reason

    def __post_init__(self) -> None:
        if self.amount < 0 or self.payer == self.payee or min(self.payer, self.payee) < POT:
            raise ValueError(f"a payment runs from one seat (or the pot) to another, got {self}")


def deltas_of(payments: Iterable[Payment], seat_count: int) -> list[int]:
    """Each seat's net change over these payments (with `pot_change`, zero-sum by construction)."""
    deltas = [0] * seat_count
    for payment in payments:
        payer, payee = payment.payer, payment.payee
        if payer != POT:
            deltas[payer] -= payment.amount
        if payee != POT:
            deltas[payee] += payment.amount
    return deltas


def pot_change(payments: Iterable[Payment]) -> int:
    """The pot's net change over these payments (paid in less taken out)."""
    change = 0
    for payment in payments:
        if payment.payee == POT:
            change += payment.amount
        elif payment.payer == POT:
            change -= payment.amount
    return change


def payment_detail(deltas: Iterable[int], pot: int = 0) -> str:
    """A payment event's detail: each seat's change, and the pot's when it moved.

    >>> payment_detail([2, -1, -1, 0]), payment_detail([-5, 0], 5)
    ('2 -1 -1 0', '-5 0 pot=5')
    """
    text = " ".join(map(str, deltas))
    return f"{text} pot={pot}" if pot else text


def reasons_text(payments: Iterable[Payment]) -> str:
    """A payment event's reason: its payments' reasons in order, each once.

    >>> reasons_text([Payment(1, 0, 8, Reason.WIN), Payment(2, 0, 8, Reason.HORSE)])
    'win horse'
    """
    return " ".join(dict.fromkeys(p.reason.value for p in payments))


@dataclass(frozen=True, slots=True)
class PaymentDetail:
    """A payment event read back: why (its reasons), each seat's change, the pot's change."""

    reasons: tuple[Reason, ...]
    deltas: tuple[int, ...]
    pot: int = 0

    @classmethod
    def parse(cls, detail: str, reason: str) -> PaymentDetail:
        """An event's `detail` and `reason`.

        >>> PaymentDetail.parse("-5 0 pot=5", "deposit")
        PaymentDetail(reasons=(<Reason.DEPOSIT: 'deposit'>,), deltas=(-5, 0), pot=5)
        """
        rest = detail.split()
        pot = 0
        if rest and rest[-1].startswith("pot="):
            pot = int(rest.pop()[4:])
        return cls(tuple(map(Reason, reason.split())), tuple(map(int, rest)), pot)

    @property
    def reason(self) -> Reason:
        """The first reason: what the payment was made for (a horse follows a win)."""
        return self.reasons[0]


def from_each(payers: Iterable[int], payee: int, amount: int, reason: Reason) -> list[Payment]:
    """The same amount paid to `payee` by every one of `payers` (the payee itself skipped)."""
    return [Payment(payer, payee, amount, reason) for payer in payers if payer != payee]
