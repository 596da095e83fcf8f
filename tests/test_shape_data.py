"""The shipped jokerless shape tables (engine/shape_data.xz), and reading and merging tables."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import shape_data, shapes
from engine.tiles import counts_of, parse_tiles


def _keys(rng: random.Random, length: int, n: int) -> list[tuple[int, ...]]:
    keys = []
    while len(keys) < n:
        key = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(length))
        if sum(key) <= shape_data.MAX_STORED_TILES:
            keys.append(key)
    return keys


def test_the_shipped_tables_are_the_computed_ones() -> None:
    rng = random.Random(8)
    edges = [(0,) * 9, (4, 4, 4, 4, 1, 0, 0, 0, 0), (1, 1, 1, 1, 1, 1, 1, 1, 1)]
    for key in edges + _keys(rng, 9, 400):
        assert shapes._jokerless_table(key, True) == shapes._component_table(key, True, 0), key
    for key in [(0,) * 7, (4, 4, 4, 4, 1, 0, 0), *_keys(rng, 7, 200)]:
        assert shapes._jokerless_table(key, False) == shapes._component_table(key, False, 0), key


def test_a_first_fill_reads_the_file_instead_of_computing() -> None:
    shapes.clear_caches()
    counts = counts_of(parse_tiles("1234m5677p889s11z2z"))
    assert shapes.shanten(counts) == 2
    assert shapes.is_win(counts_of(parse_tiles("123m456p789s11122z")))
    assert shapes.cache_sizes()["overlap_states"] == 0  # no suffix of any component was computed
    shapes.clear_caches()


def test_components_of_more_tiles_than_the_file_holds_are_computed() -> None:
    key = (4, 4, 4, 4, 2, 0, 0, 0, 0)  # 18 tiles
    index = shape_data.load()
    assert index is not None and index.suits[shape_data.pattern_code(key)] == 0
    assert shapes._jokerless_table(key, True) == shapes._component_table(key, True, 0)
    with pytest.raises(ValueError):
        shapes._jokerless_table((5, 0, 0, 0, 0, 0, 0, 0, 0), True)


def test_the_win_check_read_from_the_tables_is_the_jokers_needed_one() -> None:
    rng = random.Random(9)
    keys = _keys(rng, 9, 1500)
    # complete suits are rare among random keys: add sets and pairs built on purpose
    for _ in range(500):
        counts = [0] * 9
        for _ in range(rng.randrange(5)):
            start = rng.randrange(7)
            if rng.random() < 0.5:
                for k in range(start, start + 3):
                    counts[k] += 1
            else:
                counts[start] += 3
        if rng.random() < 0.5:
            counts[rng.randrange(9)] += 2
        if max(counts) <= 4:
            keys.append(tuple(counts))
    for key in keys:
        tiles = sum(key)
        expected = -1
        if tiles % 3 == 0 and shapes._jokers_needed(key, True, False) == 0:
            expected = tiles
        elif tiles % 3 == 2 and shapes._jokers_needed(key, True, True) == 0:
            expected = tiles + shapes._PAIR_FLAG
        shapes.clear_caches()
        assert shapes._fill_win0(key) == expected, key


def test_the_file_stays_small_and_whole() -> None:
    assert shape_data.PATH.stat().st_size < 64_000
    data = shape_data.load()
    assert data is not None
    assert len(data.suits) == shape_data.SUIT_PATTERNS
    assert len(data.honours) == shape_data.HONOUR_PATTERNS
    assert all(len(table) == shape_data.SLOTS for table in data.tables)


def test_a_missing_file_means_computed_tables(tmp_path: Path) -> None:
    assert shape_data.load(tmp_path / "none.xz") is None


def _merge_by_loops(first: tuple[int, ...], second: tuple[int, ...], omax: int) -> list[int]:
    """The merge spelled out: every split of the overflow, the sets and the pair."""
    out = []
    for over in range(omax + 1):
        for sets in range(shapes.MAX_SETS + 1):
            for pairs in range(2):
                out.append(
                    max(
                        first[(o1 * 6 + s1) * 2 + p1]
                        + second[((over - o1) * 6 + sets - s1) * 2 + pairs - p1]
                        for o1 in range(over + 1)
                        for s1 in range(sets + 1)
                        for p1 in range(pairs + 1)
                    )
                )
    return out


@pytest.mark.parametrize("omax", [0, 1, 3])
def test_merging_two_tables_takes_the_best_split(omax: int) -> None:
    rng = random.Random(omax)
    for _ in range(150):
        tables = []
        for length, chows in ((9, True), (7, False)):
            key = _keys(rng, length, 1)[0]
            tables.append(shapes._component_table(key, chows, omax))
        first, second = tables
        assert list(shapes._merge(first, second, omax)) == _merge_by_loops(first, second, omax)
        assert list(shapes._merge(second, first, omax)) == _merge_by_loops(second, first, omax)
