"""Rule components of the Hong Kong family beyond the shared loop (hk-fw2's insurance).

`InsuranceWatch` tells scoring what the insurance penalties need about a winning discard
(RULES.md `hk-fw2`): the tiles left in the wall, and how many copies of the tile were visible
before it was discarded — in the ponds (tiles still lying there) and in every seat's melds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.events import Phase
from engine.parts import Part, Rule

if TYPE_CHECKING:
    from engine.hand import HandState


@dataclass(frozen=True, slots=True)
class InsuranceWatch(Rule):
    """Report `wall_left` and `seen` for wins on a discard (the last five tiles error)."""


class InsuranceWatchPart(Part):
    def context(self, seat: int) -> dict[str, Any]:
        state = self.state
        tile, source = state.claim_tile, state.claim_from
        if state.phase is not Phase.CLAIMS or tile is None or source is None:
            return {}
        return {"wall_left": state.wall_left, "seen": seen_before_discard(state, tile, source)}


def seen_before_discard(state: HandState, tile: int, source: int) -> int:
    """Copies of `tile` visible on the table besides the discard just made by `source`."""
    seen = 0
    for other in state.seats:
        pond = state.ponds[other]
        claimed = state.claimed[other]
        seen += sum(1 for i, t in enumerate(pond) if t == tile and i not in claimed)
        seen += sum(m.tiles.count(tile) for m in state.melds[other])
    return seen - 1  # the discard itself lies in its pond


InsuranceWatch.part = InsuranceWatchPart
