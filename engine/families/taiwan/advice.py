"""What the strong computer knows about tw-16, as data read from the scoring tables
(engine/advice.py's `FamilyKnowledge`; engine/computer/strong.py decides with it)."""

from __future__ import annotations

from engine.advice import FamilyKnowledge
from engine.families.taiwan import scoring as taiwan
from engine.scoring.base import WinContext
from engine.tiles import Tile


def _taiwan_pay(tai: int) -> tuple[int, int]:
    points = taiwan.BASE_POINTS + min(tai, 32)
    return points, points


def _taiwan_bonus_fan(bonus: tuple[Tile, ...], seat: int) -> int:
    ctx = WinContext(concealed=(), win_tile=0, bonus=bonus, seat=seat)
    return taiwan.total_tai(taiwan.bonus_patterns(ctx))


KNOWLEDGE = FamilyKnowledge(
    pure_flush=taiwan.TAI["full_flush"],
    half_flush=taiwan.TAI["half_flush"],
    all_pungs=taiwan.TAI["all_pungs"],
    seven_pairs=0,
    root=0,
    honour_pung=taiwan.TAI["dragon_pung"],
    self_draw=taiwan.TAI["self_draw"],
    pay=_taiwan_pay,
    bonus_fan=_taiwan_bonus_fan,
    ready_per_discard=0.025,
    ready_per_meld=0.15,
    opponent_value=4.0,
    flush_value=9.0,
    step=0.15,
    danger_share=0.01,
    exact_one_away=False,
    closed_hand=taiwan.TAI["closed_hand"],
    offered_safe=True,
    # honour pungs are most hands' tai; a win pays 1 + tai, so a quick call is worth its
    # cost (measured with bench/strength.py: these gained the most)
    honour_hope=(0.6, 0.3),
    call_margin=1.0,
    call_floor=0.0,
)
