"""What a scoring family is: the hooks the shared loop calls, written down as one `Protocol`.

A family's scoring module (engine/families/<family>/scoring*.py) satisfies `ScoringFamily`
itself, and a preset carries it by reference (`Preset.scoring`): mypy checks each module where
a preset names it. A family without a hook of its own names the default below (a win paid by
the discarder or by every seat in play, no kong payments, nothing paid when the wall runs out,
no circumstances read).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from engine.scoring.base import Score, WinBy, WinContext
from engine.settlement import Payment, Reason, from_each
from engine.tiles import MeldKind

if TYPE_CHECKING:
    from engine.hand import HandState
    from engine.preset import Preset


class ScoringFamily(Protocol):
    """A scoring family's module: a win's score and the payments the loop settles."""

    # the circumstances of a win (`wall_left`, `seen`, `wild`, …) the family's scoring reads;
    # a score request giving any other is refused
    CIRCUMSTANCES: frozenset[str]

    def score(self, preset: Preset, ctx: WinContext, /) -> Score:
        """Score a winning hand (an invalid `Score` says why it is none)."""
        ...

    def win_payments(
        self,
        preset: Preset,
        result: Score,
        winner: int,
        by: WinBy,
        discarder: int | None,
        in_play: Sequence[int],
        /,
    ) -> list[Payment]:
        """The payments of one win."""
        ...

    def kong_payments(
        self,
        preset: Preset,
        kind: MeldKind,
        seat: int,
        discarder: int | None,
        in_play: Sequence[int],
        /,
    ) -> list[Payment]:
        """Immediate kong payments."""
        ...

    def wall_draw_payments(self, preset: Preset, state: HandState, /) -> list[Payment]:
        """Payments when the wall runs out."""
        ...


NO_CIRCUMSTANCES: frozenset[str] = frozenset()


def table_win_payments(
    preset: Preset,
    result: Score,
    winner: int,
    by: WinBy,
    discarder: int | None,
    in_play: Sequence[int],
) -> list[Payment]:
    """The discarder (or robbed player) pays the table value, or every other seat still in play
    pays its share of a self draw."""
    if by is WinBy.SELF_DRAW:
        return from_each(in_play, winner, result.points["each"], Reason.WIN)
    assert discarder is not None
    return [Payment(discarder, winner, result.points["discarder"], Reason.WIN)]


def no_kong_payments(
    preset: Preset, kind: MeldKind, seat: int, discarder: int | None, in_play: Sequence[int]
) -> list[Payment]:
    """A kong pays nothing when it is made."""
    return []


def no_wall_draw_payments(preset: Preset, state: HandState) -> list[Payment]:
    """Nothing is paid when the wall runs out."""
    return []
