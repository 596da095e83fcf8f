"""Guangdong scoring (RULES.md `guangdong`): seed 004's table fan — the Sichuan tables' own code
(engine.families.sichuan.scoring) — capped at 8, thirteen orphans at the cap, and kong payments at
once.

Fan: basic win 0; all pungs 1; seven pairs 2; full flush 2 (one suit, no honours); each root 1;
kong bloom 1; self draw 1; thirteen orphans scores the cap. Points per payer are 2^fan. A self
draw is paid by each other player; a robbed kong by the robbed player for all three (3 × 2^fan).
The horse is settled by its rule component (engine.families.selfdraw.rules.Horse), after these
payments.

Decisions where RULES.md leaves room:

- Thirteen orphans is worth the cap whatever else came with it (self draw, kong bloom): the
  answer lists the one pattern `thirteen_orphans` at 8.
- Honours are ordinary tiles for the table fan: they make no pattern, and a hand with any
  honour is no full flush (an all-honours hand neither).
- As at the Sichuan tables, a basic win lists no pattern and `fan` is the capped fan.
- A win on a discard cannot happen here; scoring one is refused (`score` exits 2).
"""

from __future__ import annotations

from dataclasses import replace

from engine.families.sichuan import scoring as sichuan
from engine.families.sichuan.scoring import kong_payments
from engine.preset import Preset
from engine.scoring.base import Pattern, Score, WinBy, WinContext
from engine.scoring.family import NO_CIRCUMSTANCES, no_wall_draw_payments, table_win_payments
from engine.tiles import ORPHANS

__all__ = [
    "CIRCUMSTANCES",
    "kong_payments",
    "payment",
    "score",
    "wall_draw_payments",
    "win_payments",
]


def score(preset: Preset, ctx: WinContext) -> Score:
    """Score a Guangdong win: thirteen orphans at the cap, else the table fan; who pays what."""
    if is_thirteen_orphans(ctx):
        fan = preset.fan_cap
        result = Score(
            valid=True, fan=fan, unit=preset.unit, patterns=(Pattern("thirteen_orphans", fan),)
        )
    else:
        result = sichuan.score(preset, ctx)
    if not result.valid:
        return result
    return replace(result, points=payment(result.fan, ctx.by, others=preset.seat_counts[0] - 1))


def is_thirteen_orphans(ctx: WinContext) -> bool:
    """A closed hand of one of each terminal and honour plus a second of one of them."""
    return not ctx.melds and len(ctx.concealed) == 14 and set(ctx.concealed) == set(ORPHANS)


def payment(fan: int, by: WinBy, others: int) -> dict[str, int]:
    """2^fan from each other player on a self draw; the robbed player pays for all of them.

    >>> payment(1, WinBy.SELF_DRAW, 3), payment(2, WinBy.ROBBING_KONG, 3)
    ({'each': 2}, {'discarder': 12})
    """
    if by is WinBy.SELF_DRAW:
        return {"each": 2**fan}
    return {"discarder": others * 2**fan}


# the loop's hooks this family settles as the default does (engine.scoring.family)
CIRCUMSTANCES = NO_CIRCUMSTANCES
win_payments = table_win_payments
wall_draw_payments = no_wall_draw_payments
