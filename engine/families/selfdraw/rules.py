"""Rule components of seed 004's self-draw tables (`guangdong`, `redwild`): settling a win by
tiles set aside at the deal (the horse, the birds) and a held-wilds win (four red dragons).

The set-aside tiles themselves are the wall's (`Preset.set_aside`, engine.wall.WallRule); a
`SetAsideSettlement` (engine/set_aside.py) reads them when a win is settled — the moment they are
revealed — and the same pure function settles a `mahjong-bot score` request that names them
(`horse`, `birds`).

Decisions where RULES.md leaves room:

- The horse and the birds settle each win on its own: with several robbers of one kong, each
  robber's payments are mirrored (or doubled) and get their bird hits.
- A horse on the dealer doubles every win payment to or from the dealer, as its own payment
  (Reason.HORSE), so the ledger shows the doubling apart from the win.
- Birds pay per payer: a robbed player, who pays for all three, pays the birds for three too.
- They stay face down after a wall draw or the deal limit: RULES.md reveals them at a win only.
- A `score` request that leaves out `horse` or `birds` is settled without them.

>>> from engine.tiles import parse_tile, parse_tiles
>>> [horse_seat(parse_tile(name), 4) for name in ("6m", "7z", "5z", "4s")]
[1, 0, 2, 3]
>>> bird_hits(parse_tiles("159m7z")), bird_hits(parse_tiles("2468m"))
([0, 1, 2, 3], [])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from engine.parts import Part, Rule
from engine.scoring.base import WinBy
from engine.set_aside import SetAsideSettlement, SetAsideSettlementPart
from engine.settlement import Payment, Reason
from engine.tiles import RED, Tile

if TYPE_CHECKING:
    pass

DEALER = 0

# seed 004's honour order for the horse count: East 1 … North 4, Red 5, Green 6, White 7
# (tiles 1z-7z are East, South, West, North, White, Green, Red)
_HONOUR_COUNT = (1, 2, 3, 4, 7, 6, 5)


def horse_count(tile: Tile) -> int:
    """A horse tile's count: a suited tile its rank, an honour by seed 004's order."""
    if tile < 27:
        return tile % 9 + 1
    return _HONOUR_COUNT[tile - 27]


def horse_seat(tile: Tile, seat_count: int) -> int:
    """The seat a horse names: counting the dealer as 1 and going round the table."""
    return (horse_count(tile) - 1) % seat_count


def mirror_seat(payments: Sequence[Payment], seat: int, dealer: int = DEALER) -> list[Payment]:
    """Every payment to or from `seat` paid a second time with the dealer in its place (one
    that would run between the dealer and the dealer vanishes), as Reason.HORSE."""
    mirrored = []
    for paid in payments:
        payer = dealer if paid.payer == seat else paid.payer
        payee = dealer if paid.payee == seat else paid.payee
        if (payer, payee) != (paid.payer, paid.payee) and payer != payee:
            mirrored.append(Payment(payer, payee, paid.amount, Reason.HORSE))
    return [*payments, *mirrored]


def horse_settlement(payments: Sequence[Payment], seat: int, dealer: int = DEALER) -> list[Payment]:
    """RULES.md's horse settlement of one win's payments: mirrored onto the dealer, or, when
    the horse names the dealer, every payment to or from the dealer doubled."""
    if seat != dealer:
        return mirror_seat(payments, seat, dealer)
    doubled = [
        Payment(p.payer, p.payee, p.amount, Reason.HORSE)
        for p in payments
        if dealer in (p.payer, p.payee)
    ]
    return [*payments, *doubled]


def bird_hits(birds: Sequence[Tile]) -> list[int]:
    """The indexes of the birds that hit: a 1, 5 or 9 of any suit, or a red dragon."""
    return [i for i, t in enumerate(birds) if t == RED or (t < 27 and t % 9 in (0, 4, 8))]


@dataclass(frozen=True, slots=True)
class Horse(SetAsideSettlement):
    """guangdong's horse: the one set-aside tile names a seat whose win payments are mirrored
    onto the dealer (or doubled, when it names the dealer). Kong payments are not settled here,
    so they are never mirrored."""

    request_field: ClassVar[str] = "horse"
    count: ClassVar[int] = 1
    label: ClassVar[str] = "Horse"

    def settle_shown(
        self,
        shown: Sequence[Tile],
        seat: int,
        by: WinBy,
        payments: list[Payment],
        seat_count: int,
    ) -> list[Payment]:
        (horse,) = shown
        return horse_settlement(payments, horse_seat(horse, seat_count))

    def named_seat(self, shown: Sequence[Tile], seat_count: int) -> int | None:
        return horse_seat(shown[0], seat_count)


Horse.part = SetAsideSettlementPart


@dataclass(frozen=True, slots=True)
class Birds(SetAsideSettlement):
    """redwild's birds: `per_hit` more from each payer per hit, as Reason.BIRD; a robbed
    player, who pays for all three, pays the birds for all three too."""

    per_hit: int = 2
    request_field: ClassVar[str] = "birds"
    count: ClassVar[int] = 4
    label: ClassVar[str] = "Birds"

    def hits(self, shown: Sequence[Tile]) -> frozenset[int]:
        return frozenset(bird_hits(shown))

    def settle_shown(
        self,
        shown: Sequence[Tile],
        seat: int,
        by: WinBy,
        payments: list[Payment],
        seat_count: int,
    ) -> list[Payment]:
        hits = len(bird_hits(shown))
        if not hits:
            return payments
        shares = seat_count - 1 if by is WinBy.ROBBING_KONG else 1
        birds = [
            Payment(p.payer, p.payee, self.per_hit * hits * shares, Reason.BIRD)
            for p in payments
            if p.reason is Reason.WIN
        ]
        return [*payments, *birds]


Birds.part = SetAsideSettlementPart


@dataclass(frozen=True, slots=True)
class AllWildsWin(Rule):
    """A player holding every copy of a wild kind may declare a win on their own turn, whatever
    the rest of the hand (redwild's four red dragons); it scores as a self draw."""

    kind: Tile = RED
    copies: int = 4


class AllWildsWinPart(Part):
    def win_shape(self, seat: int, counts: list[int], by: WinBy) -> bool | None:
        if by is WinBy.SELF_DRAW and counts[self.rule.kind] >= self.rule.copies:
            return True
        return None


AllWildsWin.part = AllWildsWinPart
