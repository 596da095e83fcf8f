"""A win settled by tiles set aside at the deal and revealed at the win (guangdong's horse,
redwild's birds: engine/families/selfdraw/rules.py): the contract the pictures, snapshots and the
`score` request read, whatever family's rule it is.

The set-aside tiles themselves are the wall's (`Preset.set_aside`, engine.rules.WallRule); the
rule reads them when a win is settled, and the same pure function settles a `mahjong-bot score`
request that names them (`request_field`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from engine.rules import Part, Rule
from engine.scoring.base import WinBy
from engine.settlement import Payment

if TYPE_CHECKING:
    from engine.hand import HandState
    from engine.tiles import Tile


@dataclass(frozen=True, slots=True)
class SetAsideSettlement(Rule):
    """A win's payments settled by the tiles set aside at the deal, revealed at the win.

    `request_field` names the `score` request field that gives the tiles (`horse`, `birds`);
    `count` says how many there are.
    """

    request_field: ClassVar[str] = ""
    count: ClassVar[int] = 0
    label: ClassVar[str] = ""  # how pictures name the tiles

    def hits(self, shown: Sequence[Tile]) -> frozenset[int]:
        """The indexes of the shown tiles that counted (pictures mark them)."""
        return frozenset()

    def named_seat(self, shown: Sequence[Tile], seat_count: int) -> int | None:
        """The seat the shown tiles name, if they name one (pictures say which)."""
        return None

    def settle_shown(
        self,
        shown: Sequence[Tile],
        seat: int,
        by: WinBy,
        payments: list[Payment],
        seat_count: int,
    ) -> list[Payment]:
        """The win's payments once the shown tiles are settled (here: as they are)."""
        return payments


class SetAsideSettlementPart(Part):
    def settle_win(
        self, seat: int, by: WinBy, source: int | None, payments: list[Payment]
    ) -> list[Payment]:
        state: HandState = self.state
        shown = state.set_aside
        return self.rule.settle_shown(shown, seat, by, payments, state.seat_count)


SetAsideSettlement.part = SetAsideSettlementPart
