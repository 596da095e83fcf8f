"""What the strong computer knows about each scoring family, as data read from the scoring tables.

The decision code (engine/computer/strong.py) is the same for every preset; it asks this table
what a flush, all pungs, seven pairs, a root, a valued honour pung or a self draw is worth, how a
fan total turns into points, and how quickly opponents get ready at such a table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.scoring import hk3fan, hkos, sichuan
from engine.scoring.base import WinContext
from engine.tiles import Tile


@dataclass(frozen=True, slots=True)
class FamilyKnowledge:
    """Fan of the patterns a plan can aim for (0: the family has none) and the payment scale."""

    pure_flush: int
    half_flush: int  # one suit plus honours
    all_pungs: int
    seven_pairs: int
    root: int  # per four of a kind
    honour_pung: int  # per pung of a dragon, the seat wind or the prevailing wind
    self_draw: int
    pay: Callable[[int], tuple[int, int]]  # capped fan -> (discarder pays, each pays)
    bonus_fan: Callable[[tuple[Tile, ...], int], int]  # own bonus tiles and seat -> fan
    ready_per_discard: float  # how fast an opponent's chance of being ready grows per discard
    ready_per_meld: float
    opponent_value: float  # points a typical win on a discard costs the discarder
    flush_value: float  # the same when the opponent's hand looks like a flush
    step: float  # chance kept per further exchange a plan needs (engine/computer/strong.py)
    # chance that a likely-ready hand waits on one particular plausible tile; kept low where
    # folding on guesses costs more wins than it saves (measured with bench/strength.py)
    danger_share: float
    # value a hand one exchange from ready by scoring the ready hands it leads to (where a
    # minimum makes many of them worthless; elsewhere the plans' estimate is close and cheaper)
    exact_one_away: bool


def _hkos_pay(fan: int) -> tuple[int, int]:
    return hkos.PAYMENTS[min(max(fan, 3), hkos.LIMIT_FAAN)]


def _hkos_bonus_fan(bonus: tuple[Tile, ...], seat: int) -> int:
    ctx = WinContext(concealed=(), win_tile=0, bonus=bonus, seat=seat)
    return hkos.total_fan(hkos.replace_patterns(hkos.bonus_patterns(ctx)))


def _hk3fan_pay(fan: int) -> tuple[int, int]:
    points = 2 ** min(max(fan, 3), hk3fan.LIMIT_FAN)
    return points, points


def _sichuan_pay(fan: int) -> tuple[int, int]:
    points = 2 ** min(fan, 4)
    return points, points


KNOWLEDGE: dict[str, FamilyKnowledge] = {
    "hkos": FamilyKnowledge(
        pure_flush=hkos.FAAN["pure_flush"],
        half_flush=hkos.FAAN["half_flush"],
        all_pungs=hkos.FAAN["all_pungs"],
        seven_pairs=0,
        root=0,
        honour_pung=hkos.FAAN["dragon_pung"],
        self_draw=hkos.FAAN["self_draw"],
        pay=_hkos_pay,
        bonus_fan=_hkos_bonus_fan,
        ready_per_discard=0.03,
        ready_per_meld=0.18,
        opponent_value=12.0,
        flush_value=40.0,
        # measured over 1000 seat-hands: 0.15 gained 4.0 with 12% dead hands, 0.2 6.1 and 10%,
        # 0.25 5.9 and 7%, 0.3 5.7 and 6% (a minimum makes far but valuable plans worth aiming at)
        step=0.25,
        danger_share=0.002,
        exact_one_away=True,
    ),
    # the 3-fan minimum makes it play like Old Style: far but valuable plans are worth aiming
    # at, and a call that leaves no line to 3 fan wastes the hand (the Old Style settings)
    "hk3fan": FamilyKnowledge(
        pure_flush=hk3fan.FAN["full_flush"],
        half_flush=hk3fan.FAN["half_flush"],
        all_pungs=hk3fan.FAN["all_pungs"],
        seven_pairs=hk3fan.FAN["seven_pairs"],
        root=0,
        honour_pung=hk3fan.FAN["dragon_pung"],
        self_draw=hk3fan.FAN["self_draw"],
        pay=_hk3fan_pay,
        bonus_fan=lambda bonus, seat: 0,
        ready_per_discard=0.03,
        ready_per_meld=0.18,
        opponent_value=10.0,
        flush_value=40.0,
        step=0.25,
        danger_share=0.002,
        exact_one_away=True,
    ),
    "sichuan": FamilyKnowledge(
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
    ),
}


def knows(family: str) -> bool:
    """Whether the strong computer has this scoring family's values (others play as easy)."""
    return family in KNOWLEDGE


def knowledge_for(family: str) -> FamilyKnowledge:
    return KNOWLEDGE[family]
