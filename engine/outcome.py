"""What a hand leaves behind: each win (`WinRecord`) and how the hand ended (`Outcome`)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import Termination
from engine.scoring.base import Score, WinBy
from engine.settlement import Payment, Reason, deltas_of
from engine.tiles import Meld, Tile


@dataclass(frozen=True, slots=True)
class WinRecord:
    seat: int
    by: WinBy
    tile: Tile
    discarder: int | None
    score: Score
    deltas: tuple[int, ...]
    concealed: tuple[Tile, ...]  # the winning hand's concealed tiles, winning tile included
    melds: tuple[Meld, ...]
    at: int = 0  # discards made in the hand before this win (the same for wins on one tile)


@dataclass(frozen=True, slots=True)
class Outcome:
    termination: Termination
    wins: tuple[WinRecord, ...]
    deltas: tuple[int, ...]  # the whole hand's point changes per seat: the sum of `payments`
    payments: tuple[Payment, ...] = ()  # every point that moved, in the order it moved
    pot: int = 0  # the pot's change (paid in less taken out): seats and pot conserve points
    ready: tuple[int, ...] = ()  # at a wall draw, the seats in play that were ready

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(win.seat for win in self.wins)

    def paid_for(self, *reasons: Reason) -> list[int]:
        """Each seat's net change over the payments made for these reasons."""
        chosen = [p for p in self.payments if p.reason in reasons]
        return deltas_of(chosen, len(self.deltas))

    @property
    def received(self) -> tuple[int, ...]:
        """Each seat's change as the result shows it: the deltas without the stakes a seat put
        into the pot during the hand (a riichi stick leaves its points when declared, as the
        table's points showed), so a winner taking the pot receives its own stick back too:
        Tenhou's +6,200 for a 5,200 ron with one honba and the winner's own stick."""
        deposits = self.paid_for(Reason.DEPOSIT)
        return tuple(d - paid for d, paid in zip(self.deltas, deposits, strict=True))
