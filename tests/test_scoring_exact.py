"""Scoring's remembered shortcuts give exactly what working every reading out afresh gives.

The reference here is the plain algorithm (every reading with the win and bonus-tile patterns
appended, replacements over the whole list, the first reading worth most), written out again so
that a shortcut taken by a family's `score` is checked against it on hands where replacements
and ties matter.
"""

from __future__ import annotations

import pytest

from engine.presets import HKOS, Preset, find_preset
from engine.scoring import hk3fan, hkos, score
from engine.scoring.base import Pattern, Score, WinBy, WinContext, below_minimum
from engine.tiles import BONUS, FLOWERS, SEASONS, Meld, parse_tiles

_HANDS: list[tuple[str, tuple[str, ...]]] = [
    ("111222333m55p", ("pung 777z",)),  # pungs or chows: a tie broken by reading order
    ("11122233344455z", ()),  # all honours: little four winds, replacements
    ("555666z11z", ("pung 777z", "chow 123m")),  # little three dragons over dragon pungs
    ("123456789m11z", ("chow 123m",)),
    ("22233344455566m", ()),
    ("11123456789999m", ()),  # nine gates: a limit
    ("19m19p19s1234567z1m", ()),  # thirteen orphans: a limit
    ("234m567p55566677s", ()),  # below the minimum
    ("123m456p789s1122z", ()),  # not a winning hand
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
        WinContext(concealed, concealed[-1], declared, bonus, by, seat, wind, flags)
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
}


@pytest.mark.parametrize("preset_id", sorted(_REMEMBERED))
@pytest.mark.parametrize(("hand", "melds"), _HANDS)
def test_a_remembered_score_is_the_fresh_one(
    preset_id: str, hand: str, melds: tuple[str, ...]
) -> None:
    """Every context after the others (remembered) scores as it does alone (nothing remembered):
    the keys hold everything the scores read."""
    preset = find_preset(preset_id)
    contexts = _contexts(hand, melds)
    fresh = [_fresh(_REMEMBERED[preset_id], preset, ctx) for ctx in contexts]
    for remembered in _REMEMBERED[preset_id]:
        remembered.clear()
    assert [score(preset, ctx) for ctx in contexts] == fresh
