"""DiscardShanten's shortcuts: the merged rest of a component, the updated orphans deficit."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import shapes
from engine.tiles import NUM_KINDS, ORPHANS, counts_of, parse_tiles


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), seven_pairs=st.booleans())
def test_discard_shanten_follows_the_thirteen_orphans_deficit(seed: int, seven_pairs: bool) -> None:
    """Hands drawn mostly from orphans, where the updated deficit decides the shanten."""
    rng = random.Random(seed)
    wall = [kind for kind in ORPHANS for _ in range(4)] * 3
    wall += [kind for kind in range(NUM_KINDS) for _ in range(4)]
    counts = [0] * NUM_KINDS
    for tile in rng.sample(wall, len(wall)):
        if counts[tile] < 4 and sum(counts) < 14:
            counts[tile] += 1
    rules = shapes.ShapeRules(seven_pairs=seven_pairs, thirteen_orphans=True)
    hand = shapes.DiscardShanten(counts, rules)
    assert hand.full == shapes.shanten(counts, rules)
    for kind in range(NUM_KINDS):
        if counts[kind]:
            counts[kind] -= 1
            assert hand.after(kind) == shapes.shanten(counts, rules), kind
            counts[kind] += 1


def test_a_discard_merges_its_component_once_with_the_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a component's rest is known, each further discard of it is one merge lookup."""
    counts = counts_of(parse_tiles("1234m5677p889s11z2z"))
    hand = shapes.DiscardShanten(counts)
    calls: list[tuple[int, int]] = []
    merged = shapes._merged_id

    def counted(first: int, second: int) -> int:
        calls.append((first, second))
        return merged(first, second)

    monkeypatch.setattr(shapes, "_merged_id", counted)
    kinds = [kind for kind in range(NUM_KINDS) if counts[kind]]
    first = [hand.after(kind) for kind in kinds]
    calls.clear()
    assert [hand.after(kind) for kind in kinds] == first
    assert len(calls) == len(kinds)
    for kind, expected in zip(kinds, first, strict=True):
        counts[kind] -= 1
        assert shapes.shanten(counts) == expected
        counts[kind] += 1
