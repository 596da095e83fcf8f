"""Scoring per preset family.

Each family module `engine.scoring.<family>` exposes `score(preset, ctx) -> Score` and may
override the settling hooks below (`win_deltas`, `kong_deltas`, `wall_draw_deltas`); the shared
hand loop calls only these functions, so a family is scoring data plus these few hooks.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

from engine.presets import Preset
from engine.scoring.base import Score, WinBy, WinContext
from engine.tiles import MeldKind

if TYPE_CHECKING:
    from engine.hand import HandState


def family_module(preset: Preset) -> ModuleType:
    return import_module(f"engine.scoring.{preset.family}")


def _hook(preset: Preset, name: str) -> Any:
    return getattr(family_module(preset), name, None)


def score(preset: Preset, ctx: WinContext) -> Score:
    """Score a winning hand under its preset's family rules."""
    return family_module(preset).score(preset, ctx)


def win_deltas(
    preset: Preset,
    result: Score,
    winner: int,
    by: WinBy,
    discarder: int | None,
    in_play: Sequence[int],
) -> list[int]:
    """Point changes per seat for one win: the discarder (or robbed player) pays the table value,
    or every other seat still in play pays its share of a self draw."""
    hook = _hook(preset, "win_deltas")
    if hook is not None:
        return hook(preset, result, winner, by, discarder, in_play)
    deltas = [0] * 4
    if by is WinBy.SELF_DRAW:
        for seat in in_play:
            if seat != winner:
                deltas[seat] -= result.points["each"]
                deltas[winner] += result.points["each"]
    else:
        assert discarder is not None
        deltas[discarder] -= result.points["discarder"]
        deltas[winner] += result.points["discarder"]
    return deltas


def kong_deltas(
    preset: Preset, kind: MeldKind, seat: int, discarder: int | None, in_play: Sequence[int]
) -> list[int]:
    """Immediate kong payments (none unless the family defines them)."""
    hook = _hook(preset, "kong_deltas")
    return hook(preset, kind, seat, discarder, in_play) if hook is not None else [0] * 4


def wall_draw_deltas(preset: Preset, state: HandState) -> list[int]:
    """Payments when the wall runs out (none unless the family defines them)."""
    hook = _hook(preset, "wall_draw_deltas")
    return hook(preset, state) if hook is not None else [0] * 4
