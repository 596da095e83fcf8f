"""Rule components of Chinese Classical beyond the shared loop: every hand is scored.

`EveryHand` tells scoring what it needs besides the winner's own hand (RULES.md
`chinese-classical`): every other seat's hand as it stands (concealed tiles, declared sets,
flowers and seasons), and East's run of hands kept (`east_nine`: the hand setup's repeat count,
this hand included).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.parts import Part, Rule
from engine.scoring.base import SeatFacts


@dataclass(frozen=True, slots=True)
class EveryHand(Rule):
    """Report every other seat's hand and the dealer's run to the win's scoring."""


class EveryHandPart(Part):
    def context(self, seat: int) -> dict[str, Any]:
        state = self.state
        others = tuple(
            SeatFacts(
                other,
                tuple(state.melds[other]),
                concealed=tuple(state.hands[other]),
                bonus=tuple(state.bonus[other]),
            )
            for other in state.seats
            if other != seat
        )
        return {"others": others, "streak": state.setup.honba + 1}


EveryHand.part = EveryHandPart
