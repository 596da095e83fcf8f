"""Scoring's remembered shortcuts give exactly what working every reading out afresh gives.

The reference here is the plain algorithm (every reading with the win and bonus-tile patterns
appended, replacements over the whole list, the first reading worth most), written out again so
that a shortcut taken by a family's `score` is checked against it on hands where replacements
and ties matter.
"""

from __future__ import annotations

import random

import pytest

from engine.decompose import decompositions
from engine.families.hongkong import scoring_fourwinds as fourwinds
from engine.families.hongkong import scoring_hk3fan as hk3fan
from engine.families.hongkong import scoring_hkos as hkos
from engine.families.hubei import scoring as hubei
from engine.families.hubei.rules import is_258
from engine.families.sichuan import scoring as sichuan
from engine.families.taiwan import scoring as taiwan
from engine.presets import HKOS, Preset, find_preset
from engine.scoring import score
from engine.scoring.base import Pattern, Score, WinBy, WinContext, below_minimum
from engine.tiles import BONUS, FLOWERS, NUM_KINDS, SEASONS, Meld, MeldKind, counts_of, parse_tiles

_HANDS: list[tuple[str, tuple[str, ...]]] = [
    ("111222333m55p", ("pung 777z",)),  # pungs or chows: a tie broken by reading order
    ("111222333m55566p", ()),  # hidden treasure only when the pair is the winning tile
    ("11122233344455z", ()),  # all honours: little four winds, replacements
    ("555666z11z", ("pung 777z", "chow 123m")),  # little three dragons over dragon pungs
    ("123456789m11z", ("chow 123m",)),
    ("22233344455566m", ()),
    ("22233344455566m", ("pung 777p",)),  # too many tiles
    ("222333444m66p", ("pung 777p",)),  # all pungs or chows
    ("11123456789999m", ()),  # nine gates: a limit
    ("19m19p19s1234567z1m", ()),  # thirteen orphans: a limit
    ("234m567p55566677s", ()),  # below the minimum
    ("123m456p789s1122z", ()),  # not a winning hand
    ("111222333m456p77788s", ()),  # five sets and a pair (tw-16)
    ("123456m55566677s", ("pung 777z",)),
]

_BONUS: list[tuple[int, ...]] = [(), (FLOWERS[0],), (SEASONS[1], FLOWERS[1]), FLOWERS, BONUS]
_FLAGS: list[frozenset[str]] = [
    frozenset(),
    frozenset({"kong_replacement"}),
    frozenset({"last_tile", "kong_replacement"}),
    frozenset({"earthly"}),
]


def _reference_replace(patterns: tuple[Pattern, ...]) -> tuple[Pattern, ...]:
    present = {p.id for p in patterns}
    gone = set().union(*(hkos.REPLACES.get(pid, frozenset()) for pid in present))
    return tuple(p for p in patterns if p.id not in gone)


def _reference_hkos(preset: Preset, ctx: WinContext) -> Score:
    shapes = hkos.winning_shapes(preset, ctx)
    orphans = not ctx.melds and hkos.is_thirteen_orphans(hkos.counts_of(ctx.concealed))
    if not shapes and not orphans:
        return Score(valid=False)
    limits = hkos.limit_patterns(ctx, shapes, orphans)
    if limits:
        points = hkos.payment(hkos.LIMIT_FAAN, ctx.by)
        return Score(True, hkos.LIMIT_FAAN, preset.unit, True, limits, points)
    extras = hkos.win_patterns(ctx) + hkos.bonus_patterns(ctx)
    readings = [_reference_replace(hkos.hand_patterns(ctx, s) + extras) for s in shapes]
    patterns = max(readings, key=hkos.total_fan)
    fan = min(hkos.total_fan(patterns), preset.fan_cap)
    if fan < preset.min_fan:
        return below_minimum(preset, fan, patterns)
    return Score(True, fan, preset.unit, False, patterns, hkos.payment(fan, ctx.by))


def _contexts(hand: str, melds: tuple[str, ...]) -> list[WinContext]:
    concealed = tuple(parse_tiles(hand))
    declared = tuple(Meld.parse(m) for m in melds)
    return [
        WinContext(concealed, win, declared, bonus, by, seat, wind, flags)
        for win in (concealed[-1], concealed[0])
        for by in WinBy
        for seat, wind in ((0, 0), (1, 0), (3, 2))
        for bonus in _BONUS
        for flags in _FLAGS
    ]


@pytest.mark.parametrize(("hand", "melds"), _HANDS)
def test_hkos_scores_as_the_plain_algorithm(hand: str, melds: tuple[str, ...]) -> None:
    for ctx in _contexts(hand, melds):
        expected = _reference_hkos(HKOS, ctx)
        found = hkos.score(HKOS, ctx)
        if not expected.valid and expected.reason is None:  # not a winning hand
            assert found.reason == "not_a_winning_hand"
            continue
        assert found == expected, ctx


def test_hkos_replacements_keep_the_order_and_drop_only_what_is_replaced() -> None:
    patterns = tuple(
        Pattern(pid, 1)
        for pid in ("dragon_pung", "self_draw", "own_flower", "little_three_dragons", "flower_set")
    )
    assert hkos.replace_patterns(patterns) == _reference_replace(patterns)
    assert [p.id for p in hkos.replace_patterns(patterns)] == [
        "self_draw",
        "little_three_dragons",
        "flower_set",
    ]


def _fresh(clear: list[dict[object, object]], preset: Preset, ctx: WinContext) -> Score:
    for remembered in clear:
        remembered.clear()
    return score(preset, ctx)


_REMEMBERED: dict[str, list[dict[object, object]]] = {
    "hkos-3-v1": [hkos._TILE_READINGS, hkos._CIRCUMSTANCES],  # type: ignore[list-item]
    "hk-3fan": [hk3fan._BEST_READINGS],  # type: ignore[list-item]
    "hk-fw2": [fourwinds._BEST_READINGS],  # type: ignore[list-item]
    "sichuan-bb": [sichuan._SHAPE_PATTERNS],  # type: ignore[list-item]
    "tw-16": [taiwan._BEST_READINGS],  # type: ignore[list-item]
    "guangdong": [sichuan._SHAPE_PATTERNS],  # type: ignore[list-item]
}


@pytest.mark.parametrize("preset_id", sorted(_REMEMBERED))
def test_a_remembered_score_is_the_fresh_one(preset_id: str) -> None:
    """Every context after the others (remembered) scores as it does alone (nothing remembered):
    the keys hold everything the scores read."""
    preset = find_preset(preset_id)
    contexts = [ctx for hand, melds in _HANDS for ctx in _contexts(hand, melds)]
    fresh = [_fresh(_REMEMBERED[preset_id], preset, ctx) for ctx in contexts]
    for remembered in _REMEMBERED[preset_id]:
        remembered.clear()
    assert [score(preset, ctx) for ctx in contexts] == fresh


def _reference_small_win(counts: list[int], jokers: int, melds: tuple[Meld, ...]) -> bool:
    """hubei-laizi's small win as every reading of every stand-in finds it."""
    if jokers > 1:
        return False
    meld_chow = any(m.kind is MeldKind.CHOW for m in melds)
    for tile in range(NUM_KINDS) if jokers else (None,):
        work = list(counts)
        if tile is not None:
            work[tile] += 1
        for found in decompositions(work):
            chow = meld_chow or any(kind is MeldKind.CHOW for kind, _ in found.sets)
            if chow and is_258(found.pair):
                return True
    return False


def test_hubei_small_win_is_what_every_reading_finds() -> None:
    draw = random.Random(5)
    wall = [t for t in range(NUM_KINDS) for _ in range(4)]
    melds = [(), (Meld.parse("chow 345p"),), (Meld.parse("pung 777s"),)]
    checked = wins = 0
    for _ in range(3000):
        declared = draw.choice(melds)
        jokers = draw.choice((0, 1, 1))
        size = 14 - 3 * len(declared) - jokers
        # tiles close together in one or two suits, so that many hands win
        suits = draw.sample(range(3), draw.choice((1, 2)))
        pool = [t for t in wall if t // 9 in suits]
        counts = counts_of(draw.sample(pool, size))
        expected = _reference_small_win(counts, jokers, declared)
        assert hubei._small_win(list(counts), jokers, declared) is expected, (counts, jokers)
        checked += 1
        wins += expected
    assert checked == 3000 and 100 < wins < 2900  # both answers met often


@pytest.mark.parametrize(
    ("hand", "jokers", "melds", "small"),
    [
        ("111999m444s55p", 0, ("chow 345p",), True),  # the chow is the meld
        ("111999m444s55p", 0, ("pung 777s",), False),  # no chow anywhere
        ("123999m444s55p", 0, ("pung 777s",), True),  # the chow in another suit than the pair
        ("123999m444s33p", 0, ("pung 777s",), False),  # the pair not 2-5-8
        ("13m999m444s55p", 1, ("pung 777s",), True),  # the wild as 2m
        ("11m999m444s55p", 1, ("pung 777s",), False),  # the wild only as 1m: no chow
        ("111m999m444s5p", 1, ("chow 345p",), True),  # the wild as the pair's 5p
    ],
)
def test_hubei_small_win_cases(hand: str, jokers: int, melds: tuple[str, ...], small: bool) -> None:
    counts = counts_of(parse_tiles(hand))
    declared = tuple(Meld.parse(m) for m in melds)
    assert _reference_small_win(counts, jokers, declared) is small
    assert hubei._small_win(list(counts), jokers, declared) is small


def test_hubei_remembered_winner_patterns_are_the_fresh_ones() -> None:
    preset = find_preset("hubei-laizi")
    contexts = []
    for hand, melds in (
        ("123m999m444s55p", ("chow 345p",)),
        ("13m999m444s5p6p", ("pung 777s",)),
        ("1112345678m66p", ("pung 777s",)),
        ("22m555m888s22p", ("pung 888p",)),
    ):
        concealed = tuple(parse_tiles(hand))
        declared = tuple(Meld.parse(m) for m in melds)
        for wild in (None, *parse_tiles("6p2m")):
            for by in WinBy:
                for flags in (
                    frozenset(),
                    frozenset({"kong_replacement"}),
                    frozenset({"last_draw"}),
                ):
                    for kongs in ((), tuple(parse_tiles("7z")), (wild,) if wild else ()):
                        contexts.append(
                            WinContext(
                                concealed,
                                concealed[-1],
                                declared,
                                by=by,
                                flags=flags,
                                wild=wild,
                                special_kongs=kongs,
                                discarder=None if by is WinBy.SELF_DRAW else 1,
                            )
                        )
    fresh = []
    for ctx in contexts:
        hubei._WINNER_PATTERNS.clear()
        fresh.append(score(preset, ctx))
    hubei._WINNER_PATTERNS.clear()
    assert [score(preset, ctx) for ctx in contexts] == fresh
    assert sum(found.valid for found in fresh) > 20
