"""Who deals next (RULES.md "Who deals next"): each `Rotation` names a function of how a hand
ended.

A rotation reads a `HandEnd`, the few facts of an outcome it needs: the wins, who was ready at a
wall draw, and whether the hand ended in an abortive draw. `hand_end` is the one reader of the
engine's `Outcome`, so a rotation never depends on more of it than this.

>>> ROTATIONS[Rotation.DEALER_READY](HandEnd(wins=(), ready=frozenset({0})))
0
>>> ROTATIONS[Rotation.DEALER_READY](HandEnd(wins=(), ready=frozenset({2})))
1
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from engine.events import Termination
from engine.kinds import Rotation
from engine.scoring.base import WinBy

if TYPE_CHECKING:
    from engine.outcome import Outcome


class Win(Protocol):
    """What a rotation reads of one win (engine.outcome.WinRecord has it)."""

    @property
    def seat(self) -> int: ...
    @property
    def by(self) -> WinBy: ...
    @property
    def discarder(self) -> int | None: ...
    @property
    def at(self) -> int: ...


@dataclass(frozen=True, slots=True)
class HandEnd:
    """How a hand ended, as far as the deal's rotation cares. Seats are the hand's (0 = its
    dealer); `ready` names the seats ready at a wall draw."""

    wins: Sequence[Win]
    ready: frozenset[int] = frozenset()
    abortive: bool = False
    passes_deal: bool = False  # a win after which the deal passes whatever the rotation


def hand_end(outcome: Outcome) -> HandEnd:
    """The facts of `outcome` a rotation reads: its wins, who was ready at a wall draw, and
    whether a rule ended it as an abortive draw."""
    return HandEnd(
        wins=outcome.wins,
        ready=frozenset(outcome.ready),
        abortive=outcome.termination is Termination.ABORTIVE_DRAW,
        passes_deal=any(win.score.passes_deal for win in outcome.wins),
    )


def _dealer_won(end: HandEnd) -> bool:
    return any(win.seat == 0 for win in end.wins)


def hong_kong(end: HandEnd) -> int:
    """The dealer keeps the deal after a hand the dealer won or a hand with no win."""
    return 0 if _dealer_won(end) or not end.wins else 1


def four_winds(end: HandEnd) -> int:
    """hk-fw2: the dealer keeps the deal only by winning."""
    return 0 if _dealer_won(end) else 1


def winner_deals(end: HandEnd) -> int:
    """The first winner deals; several winners on one discard (or one robbed kong): the
    discarder; no win: the dealer keeps the deal."""
    if not end.wins:
        return 0
    first = end.wins[0]
    if first.by is not WinBy.SELF_DRAW:
        same_tile = [w for w in end.wins if w.at == first.at and w.discarder == first.discarder]
        if len(same_tile) > 1:
            assert first.discarder is not None
            return first.discarder
    return first.seat


def dealer_ready(end: HandEnd) -> int:
    """Riichi: the dealer keeps the deal after a dealer win, an abortive draw, or a hand with
    no win at which the dealer was ready."""
    if _dealer_won(end) or end.abortive:
        return 0
    if not end.wins and 0 in end.ready:
        return 0
    return 1


ROTATIONS: dict[Rotation, Callable[[HandEnd], int]] = {
    Rotation.HONG_KONG: hong_kong,
    Rotation.FOUR_WINDS: four_winds,
    Rotation.WINNER_DEALS: winner_deals,
    Rotation.DEALER_READY: dealer_ready,
}


def next_dealer_seat(rotation: Rotation, outcome: Outcome) -> int:
    """The hand seat (0 = this hand's dealer) who deals the next hand.

    >>> from engine.events import Termination
    >>> from engine.outcome import Outcome
    >>> next_dealer_seat(Rotation.WINNER_DEALS, Outcome(Termination.WALL_DRAW, (), (0, 0, 0, 0)))
    0
    """
    end = hand_end(outcome)
    return 1 if end.passes_deal else ROTATIONS[rotation](end)
