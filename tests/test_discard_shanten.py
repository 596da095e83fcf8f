"""DiscardShanten's shortcuts: the merged rest of a component, the special shapes' deficits
updated rather than counted again."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import shapes
from engine.tiles import NUM_KINDS, ORPHANS, counts_of, parse_tiles
from tests.test_engine_speed import assert_discard_shanten_matches

RULES = [
    shapes.ShapeRules(thirteen_orphans=True),
    shapes.ShapeRules(seven_pairs=True),
    shapes.ShapeRules(seven_pairs=True, kong_as_two_pairs=True),
    shapes.ShapeRules(seven_pairs=True, thirteen_orphans=True),
    shapes.ShapeRules(seven_pairs=True, thirteen_orphans=True, kong_as_two_pairs=True),
]


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    rules=st.sampled_from(RULES),
    near=st.sampled_from(["orphans", "pairs", "kongs"]),
    size=st.sampled_from([11, 14, 17]),
)
def test_discard_shanten_follows_the_special_shapes(
    seed: int, rules: shapes.ShapeRules, near: str, size: int
) -> None:
    """Hands drawn near thirteen orphans or seven pairs, where the updated deficits decide."""
    rng = random.Random(seed)
    if near == "orphans":
        wall = [kind for kind in ORPHANS for _ in range(4)] * 3
    else:  # few kinds, so pairs, pungs and kongs are common
        kinds = rng.sample(range(NUM_KINDS), 9 if near == "pairs" else 5)
        wall = [kind for kind in kinds for _ in range(4)] * 3
    wall += [kind for kind in range(NUM_KINDS) for _ in range(4)]
    assert_discard_shanten_matches(rng, wall, size, rules)


@pytest.mark.parametrize(
    "text",
    ["1111m2222p33s55s77s", "1111m222p33355s77z", "1122m3344p5566s77z", "19m19p19s1234567z1z"],
)
def test_discard_shanten_of_hands_a_special_shape_decides(text: str) -> None:
    counts = counts_of(parse_tiles(text))
    for rules in RULES:
        hand = shapes.DiscardShanten(counts, rules)
        assert hand.full == shapes.shanten(counts, rules)
        for kind in range(NUM_KINDS):
            if counts[kind]:
                counts[kind] -= 1
                assert hand.after(kind) == shapes.shanten(counts, rules), (rules, kind)
                counts[kind] += 1


def test_the_seven_pairs_deficit_is_the_counted_one() -> None:
    """`_seven_pairs_deficit` read from two counts agrees with counting pairs one by one."""
    rng = random.Random(3)
    for _ in range(3000):
        counts = [0] * NUM_KINDS
        for kind in rng.sample(range(NUM_KINDS), 10):
            counts[kind] = rng.choice((0, 1, 2, 2, 3, 4))
        kinds = NUM_KINDS - counts.count(0)
        pairs = kinds - counts.count(1)
        assert shapes._seven_pairs_deficit(counts, False) == 7 - pairs + max(0, 7 - kinds)
        free = sum(min(c // 2, 2) for c in counts)
        one_short = sum(1 for c in counts if c in (1, 3))
        need = max(0, 7 - free)
        assert shapes._seven_pairs_deficit(counts, True) == 2 * need - min(need, one_short)


def test_a_discard_merges_its_component_once_with_the_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a component's rest is known, each further discard of it is one merge lookup."""
    counts = counts_of(parse_tiles("1234m5677p889s11z2z"))
    hand = shapes.DiscardShanten(counts)
    calls: list[int] = []

    class Counted(dict[int, int]):
        def get(self, key: int, default: int | None = None) -> int | None:  # type: ignore[override]
            calls.append(key)
            return super().get(key, default)

    monkeypatch.setattr(shapes, "_MERGED_IDS", Counted(shapes._MERGED_IDS))
    kinds = [kind for kind in range(NUM_KINDS) if counts[kind]]
    first = [hand.after(kind) for kind in kinds]
    calls.clear()
    assert [hand.after(kind) for kind in kinds] == first
    assert len(calls) == len(kinds)
    for kind, expected in zip(kinds, first, strict=True):
        counts[kind] -= 1
        assert shapes.shanten(counts) == expected
        counts[kind] += 1


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    rules=st.sampled_from([shapes.SETS_AND_PAIR, *RULES]),
    size=st.sampled_from([4, 7, 10, 13, 16]),
)
def test_a_calls_shanten_is_the_shanten_of_the_hand_less_its_tiles(
    seed: int, rules: shapes.ShapeRules, size: int
) -> None:
    """CallShanten shares the merge of the untouched components between the hand and each call
    taking tiles of one component (two or three of a kind, two of a run): `shanten`'s answers."""
    rng = random.Random(seed)
    counts = [0] * NUM_KINDS
    for tile in rng.sample([kind for kind in range(NUM_KINDS) for _ in range(4)], size):
        counts[tile] += 1
    tile = rng.choice([kind for kind in range(NUM_KINDS) if counts[kind]])
    component = tile // 9
    hand = shapes.CallShanten(counts, component, rules)
    assert hand.now == shapes.shanten(counts, rules)
    takes = [[tile] * copies for copies in (1, 2, 3) if counts[tile] >= copies]
    if component < 3:
        start = component * 9
        takes += [[a, b] for a in range(start, start + 9) for b in range(a + 1, start + 9)]
    for taken in takes:
        less = list(counts)
        for t in taken:
            less[t] -= 1
        if min(less) < 0 or (size - len(taken)) % 3 == 0:
            continue
        assert hand.less(taken) == shapes.shanten(less, rules), taken
    assert hand.now == shapes.shanten(counts, rules)  # the counts were put back
