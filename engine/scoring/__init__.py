"""Scoring per preset family.

Each family module `engine.scoring.<family>` exposes `score(preset, ctx) -> Score` and may
override the settling hooks below (`win_payments`, `kong_payments`, `wall_draw_payments`); the
shared hand loop calls only these functions, each giving `engine.settlement.Payment` records, so
a family is scoring data plus these few hooks.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

from engine.scoring.base import Score, WinBy, WinContext
from engine.settlement import Payment, Reason, from_each
from engine.tiles import MeldKind

if TYPE_CHECKING:
    from engine.hand import HandState
    from engine.presets import Preset


# per family name, its module: found once instead of on every win check and payment
_FAMILIES: dict[str, ModuleType] = {}
# where each scoring family lives (engine/families/<family>/)
SCORING_MODULES = {
    "hkos": "engine.families.hongkong.scoring_hkos",
    "hk3fan": "engine.families.hongkong.scoring_hk3fan",
    "fourwinds": "engine.families.hongkong.scoring_fourwinds",
    "taiwan": "engine.families.taiwan.scoring",
    "sichuan": "engine.families.sichuan.scoring",
    "guangdong": "engine.families.selfdraw.scoring_guangdong",
    "redwild": "engine.families.selfdraw.scoring_redwild",
    "hubei": "engine.families.hubei.scoring",
    "riichi": "engine.families.riichi.scoring",
}


def family_module(preset: Preset) -> ModuleType:
    module = _FAMILIES.get(preset.family)
    if module is None:
        module = _FAMILIES[preset.family] = import_module(SCORING_MODULES[preset.family])
    return module


def _hook(preset: Preset, name: str) -> Any:
    return getattr(family_module(preset), name, None)


def circumstances(preset: Preset) -> frozenset[str]:
    """The circumstances of a win (`wall_left`, `seen`) the family's scoring reads, as its module
    declares them in `CIRCUMSTANCES`; a score request giving any other is refused."""
    return frozenset(getattr(family_module(preset), "CIRCUMSTANCES", ()))


def score(preset: Preset, ctx: WinContext) -> Score:
    """Score a winning hand under its preset's family rules."""
    return family_module(preset).score(preset, ctx)


def win_payments(
    preset: Preset,
    result: Score,
    winner: int,
    by: WinBy,
    discarder: int | None,
    in_play: Sequence[int],
) -> list[Payment]:
    """The payments of one win: the discarder (or robbed player) pays the table value, or every
    other seat still in play pays its share of a self draw."""
    hook = _hook(preset, "win_payments")
    if hook is not None:
        return hook(preset, result, winner, by, discarder, in_play)
    if by is WinBy.SELF_DRAW:
        return from_each(in_play, winner, result.points["each"], Reason.WIN)
    assert discarder is not None
    return [Payment(discarder, winner, result.points["discarder"], Reason.WIN)]


def kong_payments(
    preset: Preset, kind: MeldKind, seat: int, discarder: int | None, in_play: Sequence[int]
) -> list[Payment]:
    """Immediate kong payments (none unless the family defines them)."""
    hook = _hook(preset, "kong_payments")
    return hook(preset, kind, seat, discarder, in_play) if hook is not None else []


def wall_draw_payments(preset: Preset, state: HandState) -> list[Payment]:
    """Payments when the wall runs out (none unless the family defines them)."""
    hook = _hook(preset, "wall_draw_payments")
    return hook(preset, state) if hook is not None else []
