"""What the strong computer knows about the Hong Kong families (hkos-3-v1, hk-3fan, hk-fw2),
as data read from the scoring tables (engine/advice.py's `FamilyKnowledge`;
engine/computer/strong.py decides with it)."""

from __future__ import annotations

from dataclasses import replace

from engine.advice import FamilyKnowledge
from engine.families.hongkong import scoring_fourwinds as fourwinds
from engine.families.hongkong import scoring_hk3fan as hk3fan
from engine.families.hongkong import scoring_hkos as hkos
from engine.preset import Preset
from engine.scoring.base import Score, WinBy, WinContext
from engine.tiles import Tile


def _hkos_pay(fan: int) -> tuple[int, int]:
    return hkos.PAYMENTS[min(max(fan, 3), hkos.LIMIT_FAAN)]


def _hkos_bonus_fan(bonus: tuple[Tile, ...], seat: int) -> int:
    ctx = WinContext(concealed=(), win_tile=0, bonus=bonus, seat=seat)
    return hkos.total_fan(hkos.replace_patterns(hkos.bonus_patterns(ctx)))


def _hk3fan_pay(fan: int) -> tuple[int, int]:
    points = 2 ** min(max(fan, 3), hk3fan.LIMIT_FAN)
    return points, points


def _fourwinds_pay(fan: int) -> tuple[int, int]:
    """A discard win: the discarder pays 2 x base and the two others base (4 x base in all)."""
    base = fourwinds.base_points(fan)
    return 4 * base, 2 * base


def _fourwinds_bonus_fan(bonus: tuple[Tile, ...], seat: int) -> int:
    ctx = WinContext(concealed=(), win_tile=0, bonus=bonus, seat=seat)
    # "no flowers or seasons" counts while none has come, as scoring a ready hand counts it
    return sum(p.fan for p in fourwinds.bonus_patterns(ctx))


def _fourwinds_gain(score: Score, by: WinBy, payers: int) -> float:
    points = score.points
    if by is WinBy.SELF_DRAW:
        return payers * points["each"]
    return points["discarder"] + (payers - 1) * points["others"]


# Without a minimum a chicken hand wins and every seat pays each win, so winning first counts
# more than a far flush: nearer plans. Measured with bench/strength.py at min_fan 0 (points per
# seat-hand against v1, seed 0): over 2,000 seat-hands 0.1 +0.35, 0.15 +0.55, 0.2 +0.50,
# 0.25 +0.44, 0.35 -0.65 (each +-0.95); over 8,000, 0.15 +0.99 (+0.52..+1.46), and on seed 1
# (not tuned on) +0.75 (+0.30..+1.20)
FOURWINDS_NO_MINIMUM_STEP = 0.15


def _fourwinds_tune(know: FamilyKnowledge, preset: Preset) -> FamilyKnowledge:
    """At a minimum of 2 or 3 a winning hand pays a base of 4 or more: dealing in costs more.
    Without one, near plans (`FOURWINDS_NO_MINIMUM_STEP`)."""
    if preset.min_fan >= 2:
        return replace(know, opponent_value=8.0, danger_share=0.002)
    if preset.min_fan == 0:
        return replace(know, step=FOURWINDS_NO_MINIMUM_STEP)
    return know


KNOWLEDGE_HKOS = FamilyKnowledge(
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
)

# the 3-fan minimum makes it play like Old Style: far but valuable plans are worth aiming
# at, and a call that leaves no line to 3 fan wastes the hand (the Old Style settings)
KNOWLEDGE_HK3FAN = FamilyKnowledge(
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
)

KNOWLEDGE_FOURWINDS = FamilyKnowledge(
    pure_flush=fourwinds.FAAN["one_suit_only"],
    half_flush=fourwinds.FAAN["one_suit_with_honours"],
    all_pungs=fourwinds.FAAN["pung_hand"],
    seven_pairs=fourwinds.FAAN["seven_pairs"],
    root=0,
    honour_pung=fourwinds.FAAN["dragon_pung"],
    self_draw=fourwinds.FAAN["self_draw"],
    pay=_fourwinds_pay,
    bonus_fan=_fourwinds_bonus_fan,
    ready_per_discard=0.03,
    ready_per_meld=0.18,
    # dealing in costs one base more than another seat's discard win (which every player
    # pays): the defence is light, firmer at a high minimum (`_fourwinds_tune`)
    opponent_value=4.0,
    flush_value=32.0,
    # payments double with each faan up to 3 and more: far but valuable plans are worth
    # aiming at as in Old Style, with or without the table's minimum (measured at 0 and 3)
    step=0.25,
    danger_share=0.0005,
    exact_one_away=True,
    offered_safe=True,
    honour_hope=(0.6, 0.3),
    call_floor=0.0,
    gain=_fourwinds_gain,
    tune=_fourwinds_tune,
)
