"""What happened in a hand: the events `HandState.apply` returns, the phase a hand is in, and how
it ended."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.tiles import Tile


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened; `private` events concern only `seat`'s hidden tiles.

    A payment event's `detail` gives each seat's change (and the pot's, `pot=N`, when it moved;
    engine.settlement.PaymentDetail reads it) and `reason` why: the reasons of its payments
    (engine.settlement.Reason values), in order, space-separated.
    """

    kind: str
    seat: int | None = None
    tile: Tile | None = None
    detail: str = ""
    private: bool = False
    reason: str = ""


class Termination(StrEnum):
    """How a hand ended."""

    WIN = "win"  # the hand ended with at least one win
    WALL_DRAW = "wall_draw"  # the wall ran out (wins may have happened before, blood battle)
    DEAL_LIMIT = "deal_limit"  # the table clock's deal limit ended it
    ABORTIVE_DRAW = "abortive_draw"  # a rule ended the hand with no win and no wall-draw check


class Phase(StrEnum):
    """Whose decision a hand waits for."""

    OPENING = "opening"  # Sichuan swap / discard three / void choice: all seats at once
    TURN = "turn"  # the seat on turn has drawn (or claimed) and must discard, kong or win
    CLAIMS = "claims"  # a discard is open to claims from the seats in `pending`
    ROB = "rob"  # a kong's tile is open to robbing wins
    OVER = "over"
