"""What the strong computer knows about Chinese Classical, as data read from the scoring tables
(engine/advice.py's `FamilyKnowledge`; engine/computer/strong.py decides with it).

A plan's "fan" here is its doubles: a winning hand is worth about `BASE_POINTS` x 2^doubles, and
every loser pays it (the discarder no more than the others), so dealing in costs little more than
another seat's self draw: defence is worth less than in the Hong Kong games. A first entry, not
yet tuned with bench/strength.py (docs/benchmarks.md has its first measurement).
"""

from __future__ import annotations

from engine.advice import FamilyKnowledge
from engine.families.classical import scoring
from engine.scoring.base import Score, WinBy
from engine.tiles import FLOWERS, SEASONS, Tile

# going out 10, a pung or two and a pair: what a plain winning hand scores before its doubles
BASE_POINTS = 20
LOSERS = 3


def _pay(doubles: int) -> tuple[int, int]:
    """(what a win on a discard brings, what each loser pays a self draw): every loser pays."""
    each = min(BASE_POINTS * 2**doubles, scoring.LIMIT)
    return LOSERS * each, each


def _bonus_doubles(bonus: tuple[Tile, ...], seat: int) -> int:
    held = set(bonus)
    return (
        int(FLOWERS[seat] in held and SEASONS[seat] in held)
        + int(held.issuperset(FLOWERS))
        + int(held.issuperset(SEASONS))
    )


def _gain(score: Score, by: WinBy, payers: int) -> float:
    """Every loser pays the winner's score, however the winning tile came."""
    return float(payers * score.fan)


KNOWLEDGE = FamilyKnowledge(
    pure_flush=scoring.ONE_SUIT_ONLY,
    half_flush=scoring.ONE_SUIT_WITH_HONOURS,
    all_pungs=1,  # no chows
    seven_pairs=0,
    root=0,
    honour_pung=1,  # a dragon, own-wind or prevailing-wind pung doubles
    self_draw=0,  # two points, not a double
    pay=_pay,
    bonus_fan=_bonus_doubles,
    ready_per_discard=0.03,
    ready_per_meld=0.18,
    opponent_value=4.0,
    flush_value=12.0,
    step=0.2,
    danger_share=0.002,
    exact_one_away=False,
    gain=_gain,
)
