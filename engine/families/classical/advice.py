"""What the strong computer knows about Chinese Classical, as data read from the scoring tables
(engine/advice.py's `FamilyKnowledge`; engine/computer/strong.py decides with it).

A plan's "fan" here is its doubles: a winning hand is worth about `BASE_POINTS` x 2^doubles, and
every loser pays it (the discarder no more than the others), so dealing in costs no more than
another seat's self draw: the strong computer does not defend. A losing hand is scored too and
settled with the other losers, so the hand as it stands is worth its score (`_standing`: pungs and
honours are worth points, their doubles multiply them, win or lose). Tuned with
`bench/strength.py --preset chinese-classical --per-hand` (docs/benchmarks.md).
"""

from __future__ import annotations

from engine.advice import FamilyKnowledge
from engine.families.classical import scoring
from engine.scoring.base import Score, WinBy
from engine.seat_view import SeatView
from engine.tiles import FLOWERS, SEASONS, Meld, Tile

# going out 10, a pung or two and a pair: what a plain winning hand scores before its doubles
BASE_POINTS = 20
LOSERS = 3
# what a point of a hand as it stands is worth to its seat should another win: the losers
# settle the differences of their scores, two of them per loser (x2 with East)
STANDING_WEIGHT = 1.5


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


def _standing(view: SeatView, counts: tuple[int, ...], melds: tuple[Meld, ...]) -> float:
    """A loser's hand is scored as it stands (its pungs and kongs, valued pairs, flowers and
    their doubles) and settled with the other losers: each of its points is worth something."""
    concealed = tuple(kind for kind, count in enumerate(counts) for _ in range(count))
    hand = scoring.SeatHand(concealed, melds, tuple(view.bonus[view.seat]))
    return STANDING_WEIGHT * scoring.score_loser(hand, view.seat, view.round_wind).score


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
    # a win on this seat's discard costs it no more than another's self draw: no defence
    # (measured with bench/strength.py --per-hand: any guarded discard cost points)
    opponent_value=0.0,
    flush_value=0.0,
    step=0.2,
    danger_share=0.002,
    exact_one_away=False,
    gain=_gain,
    standing=_standing,
)
