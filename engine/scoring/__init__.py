"""Scoring, dispatched through the preset: a preset carries its scoring family by reference
(`Preset.scoring`, a module satisfying `engine.scoring.family.ScoringFamily`).

Each family module exposes `score(preset, ctx) -> Score` and the settling hooks below
(`win_payments`, `kong_payments`, `wall_draw_payments`, or the defaults of
engine/scoring/family.py); the shared hand loop calls only these functions, each giving
`engine.settlement.Payment` records, so a family is scoring data plus these few hooks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.scoring.base import Score, WinBy, WinContext
from engine.settlement import Payment
from engine.tiles import MeldKind

if TYPE_CHECKING:
    from engine.hand import HandState
    from engine.preset import Preset


def circumstances(preset: Preset) -> frozenset[str]:
    """The circumstances of a win (`wall_left`, `seen`) the family's scoring reads, as its module
    declares them in `CIRCUMSTANCES`; a score request giving any other is refused."""
    return preset.scoring.CIRCUMSTANCES


def score(preset: Preset, ctx: WinContext) -> Score:
    """Score a winning hand under its preset's family rules."""
    return preset.scoring.score(preset, ctx)


def win_payments(
    preset: Preset,
    result: Score,
    winner: int,
    by: WinBy,
    discarder: int | None,
    in_play: Sequence[int],
) -> list[Payment]:
    """The payments of one win: the discarder (or robbed player) pays the table value, or every
    other seat still in play pays its share of a self draw (unless the family pays otherwise)."""
    return preset.scoring.win_payments(preset, result, winner, by, discarder, in_play)


def kong_payments(
    preset: Preset, kind: MeldKind, seat: int, discarder: int | None, in_play: Sequence[int]
) -> list[Payment]:
    """Immediate kong payments (none unless the family defines them)."""
    return preset.scoring.kong_payments(preset, kind, seat, discarder, in_play)


def wall_draw_payments(preset: Preset, state: HandState) -> list[Payment]:
    """Payments when the wall runs out (none unless the family defines them)."""
    return preset.scoring.wall_draw_payments(preset, state)
