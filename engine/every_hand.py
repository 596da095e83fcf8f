"""Every hand scored (chinese-classical), as the front ends say it: each seat's own score and who
paid whom, read from a finished hand's outcome (its win's seat scores and its payments), so the
words and the pictures say what was paid, not what a rule would pay."""

from __future__ import annotations

from dataclasses import dataclass

from engine.outcome import Outcome
from engine.scoring.base import SeatScore
from engine.settlement import Reason

# the payments a hand where every seat is scored makes: each loser to the winner, then the
# losers among themselves
TRANSFER_REASONS = (Reason.WIN, Reason.SETTLEMENT)


@dataclass(frozen=True, slots=True)
class Transfer:
    """`payer` paid `payee` `amount` for `reason`: `times` the difference of their scores (the
    winner's whole score on a win; x2 where East is one of the two)."""

    payer: int
    payee: int
    amount: int
    reason: Reason
    times: int = 1


def seat_scores(outcome: Outcome) -> tuple[SeatScore, ...]:
    """Every seat's own score, by seat, where the hand's win scored every hand (else empty)."""
    if not outcome.wins:
        return ()
    return tuple(sorted(outcome.wins[0].score.hands, key=lambda hand: hand.seat))


def transfers(outcome: Outcome) -> tuple[Transfer, ...]:
    """Who paid whom, in the order paid, where every hand was scored (else empty).

    >>> from engine.outcome import Termination, WinRecord
    >>> from engine.scoring.base import Score, WinBy
    >>> from engine.settlement import Payment
    >>> hands = tuple(SeatScore(s, p, 0, p) for s, p in enumerate([2, 46, 12, 192]))
    >>> win = WinRecord(3, WinBy.DISCARD, 0, 0, Score(True, hands=hands), (), (), ())
    >>> paid = (Payment(0, 3, 384, Reason.WIN), Payment(2, 1, 34, Reason.SETTLEMENT))
    >>> transfers(Outcome(Termination.WIN, (win,), (), paid))  # doctest: +NORMALIZE_WHITESPACE
    (Transfer(payer=0, payee=3, amount=384, reason=<Reason.WIN: 'win'>, times=2),
     Transfer(payer=2, payee=1, amount=34, reason=<Reason.SETTLEMENT: 'settlement'>, times=1))
    """
    scores = {hand.seat: hand.score for hand in seat_scores(outcome)}
    if not scores:
        return ()
    found = []
    for payment in outcome.payments:
        if payment.reason not in TRANSFER_REASONS:
            continue
        base = scores[payment.payee]
        if payment.reason is Reason.SETTLEMENT:
            base -= scores[payment.payer]
        times = payment.amount // base if base > 0 else 1
        found.append(Transfer(payment.payer, payment.payee, payment.amount, payment.reason, times))
    return tuple(found)
