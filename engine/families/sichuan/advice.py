"""What the strong computer knows about Sichuan (sichuan-bb and its variants), as data read
from the scoring tables (engine/advice.py's `FamilyKnowledge`; engine/computer/strong.py decides
with it)."""

from __future__ import annotations

from engine.advice import FamilyKnowledge
from engine.families.sichuan import scoring as sichuan


def _sichuan_pay(fan: int) -> tuple[int, int]:
    points = 2 ** min(fan, 4)
    return points, points


KNOWLEDGE = FamilyKnowledge(
    pure_flush=sichuan.FAN["full_flush"],
    half_flush=0,
    all_pungs=sichuan.FAN["all_pungs"],
    seven_pairs=sichuan.FAN["seven_pairs"],
    root=sichuan.FAN["root"],
    honour_pung=0,
    self_draw=sichuan.FAN["self_draw"],
    pay=_sichuan_pay,
    bonus_fan=lambda bonus, seat: 0,
    ready_per_discard=0.045,
    ready_per_meld=0.15,
    opponent_value=3.0,
    flush_value=8.0,
    step=0.15,
    danger_share=0.01,
    exact_one_away=False,
)
