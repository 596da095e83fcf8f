"""Rule components of Taiwanese sixteen tiles (`tw-16`) beyond those in engine.rules.

The dead wall (engine.wall.WallRule) and the passed-win block (engine.rules.PassRule) are the
shared components; what is Taiwanese is the dealer bonus, a settling rule over a win's payments.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.parts import Part, Rule
from engine.scoring.base import WinBy
from engine.settlement import Payment, Reason

DEALER = 0  # hand seats count from the dealer


@dataclass(frozen=True, slots=True)
class DealerBonus(Rule):
    """Each win payment between the dealer and another seat carries `tai` more, as long as the
    payment's tai (its amount less the base point) stay within `cap` (RULES.md `tw-16`: a payment
    with the bonus is 1 + min(32, tai + 1))."""

    tai: int = 1
    cap: int = 32
    base: int = 1  # the points a payment holds besides its tai

    def bonus_payments(self, payments: list[Payment]) -> list[Payment]:
        """The bonus payments owed on these win payments (the dealer's side only)."""
        extra = []
        for paid in payments:
            if paid.reason is not Reason.WIN or DEALER not in (paid.payer, paid.payee):
                continue
            tai = paid.amount - self.base
            bonus = min(self.cap, tai + self.tai) - tai
            if bonus > 0:
                extra.append(Payment(paid.payer, paid.payee, bonus, Reason.DEALER_BONUS))
        return extra


class DealerBonusPart(Part):
    def settle_win(
        self, seat: int, by: WinBy, source: int | None, payments: list[Payment]
    ) -> list[Payment]:
        return payments + self.rule.bonus_payments(payments)


DealerBonus.part = DealerBonusPart
