"""What the strong computer knows about the self-draw tables (guangdong, redwild), as data read
from the scoring tables (engine/advice.py's `FamilyKnowledge`; engine/computer/strong.py decides
with it)."""

from __future__ import annotations

from engine.advice import FamilyKnowledge
from engine.families.sichuan import scoring as sichuan


def _guangdong_pay(fan: int) -> tuple[int, int]:
    points = 2 ** min(fan, 8)
    return 3 * points, points


# redwild: a base of 2 per payer, 4 without a red dragon (the `no_wild` fan), and four birds,
# each a hit (2 more) with a chance of 52 in 112: about 4 points per payer on every win
_REDWILD_BIRDS = 4


def _redwild_pay(fan: int) -> tuple[int, int]:
    points = 2 ** (min(fan, 1) + 1) + _REDWILD_BIRDS
    return 3 * points, points


# self draw only: no discard is ever dangerous, and the horse mirrors payments whatever
# is played (it does not change play)
KNOWLEDGE_GUANGDONG = FamilyKnowledge(
    pure_flush=sichuan.FAN["full_flush"],
    half_flush=0,
    all_pungs=sichuan.FAN["all_pungs"],
    seven_pairs=sichuan.FAN["seven_pairs"],
    root=sichuan.FAN["root"],
    honour_pung=0,
    self_draw=sichuan.FAN["self_draw"],
    pay=_guangdong_pay,
    bonus_fan=lambda bonus, seat: 0,
    ready_per_discard=0.0,
    ready_per_meld=0.0,
    opponent_value=0.0,
    flush_value=0.0,
    step=0.15,
    danger_share=0.0,
    exact_one_away=False,
    # the first self draw ends the hand: a call that speeds it up is taken
    call_margin=1.0,
    call_floor=0.0,
)

# self draw only, the red dragons wild: kept (each is any tile), a win pays the same
# whatever its shape, twice without a red dragon
KNOWLEDGE_REDWILD = FamilyKnowledge(
    pure_flush=0,
    half_flush=0,
    all_pungs=0,
    seven_pairs=0,
    root=0,
    honour_pung=0,
    self_draw=0,
    pay=_redwild_pay,
    bonus_fan=lambda bonus, seat: 0,
    ready_per_discard=0.0,
    ready_per_meld=0.0,
    opponent_value=0.0,
    flush_value=0.0,
    step=0.15,
    danger_share=0.0,
    exact_one_away=False,
    no_wild=1,
    call_margin=1.0,
    call_floor=0.0,
)
