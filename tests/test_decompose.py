"""Decompositions checked by hand and against a naive brute force; the two special shapes."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.decompose import (
    Decomposition,
    decompositions,
    is_nine_gates,
    is_thirteen_orphans,
)
from engine.tiles import NUM_KINDS, ORPHANS, MeldKind, counts_of, parse_tiles

CHOW, PUNG = MeldKind.CHOW, MeldKind.PUNG


def readings(text: str) -> set[str]:
    return {str(d) for d in decompositions(counts_of(parse_tiles(text)))}


def test_pungs_or_chows() -> None:
    assert readings("111222333m55p") == {
        "pung 1m, pung 2m, pung 3m + pair 5p",
        "chow 1m, chow 1m, chow 1m + pair 5p",
    }


def test_pair_can_move() -> None:
    assert readings("11123444m") == {"chow 1m, pung 4m + pair 1m", "pung 1m, chow 2m + pair 4m"}
    assert readings("1112345678999m") == set()  # 13 tiles: not 3n + 2


def test_four_of_a_kind_as_pung_plus_chow() -> None:
    # The pair must be 4m: with 11 as the pair, two 1m would need two 2m to chow.
    assert decompositions(counts_of(parse_tiles("11112344m"))) == [
        Decomposition(((PUNG, 0), (CHOW, 0)), 3)
    ]


def test_bare_pair_and_nothing() -> None:
    assert readings("77z") == {"pair 7z"}
    assert readings("12z") == set()


def test_honours_and_edges_never_chow() -> None:
    assert readings("123z44z") == set()
    assert readings("891m22p") == set()  # no wrap from 9 to 1
    assert readings("789m123p11s") == {"chow 7m, chow 1p + pair 1s"}


def test_nine_gates() -> None:
    base = parse_tiles("1112345678999p")
    for extra in parse_tiles("123456789p"):
        assert is_nine_gates(counts_of([*base, extra]))
    assert not is_nine_gates(counts_of([*base, *parse_tiles("1m")]))
    assert not is_nine_gates(counts_of(parse_tiles("11223345678999p")))
    assert not is_nine_gates(counts_of(parse_tiles("1112345678999p")))


def test_thirteen_orphans() -> None:
    for extra in ORPHANS:
        assert is_thirteen_orphans(counts_of([*ORPHANS, extra]))
    assert not is_thirteen_orphans(counts_of([*ORPHANS, 1]))
    assert not is_thirteen_orphans(counts_of([*ORPHANS[:-1], 0, 0]))


def _brute(counts: list[int]) -> set[tuple[tuple[tuple[MeldKind, int], ...], int]]:
    """Try every set at every step and sort what is found: slow, obviously right."""
    found = set()

    def take(rest: list[int], sets: list[tuple[MeldKind, int]], pair: int) -> None:
        if not any(rest):
            found.add((tuple(sorted(sets)), pair))
            return
        for tile in range(NUM_KINDS):
            if rest[tile] >= 3:
                rest[tile] -= 3
                take(rest, [*sets, (PUNG, tile)], pair)
                rest[tile] += 3
            if tile < 27 and tile % 9 <= 6 and all(rest[tile + i] for i in range(3)):
                for i in range(3):
                    rest[tile + i] -= 1
                take(rest, [*sets, (CHOW, tile)], pair)
                for i in range(3):
                    rest[tile + i] += 1

    for pair in range(NUM_KINDS):
        if counts[pair] >= 2:
            rest = list(counts)
            rest[pair] -= 2
            take(rest, [], pair)
    return found


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 11), min_size=2, max_size=11))
def test_matches_brute_force_on_one_and_a_bit_suits(tiles: list[int]) -> None:
    # Tiles 0-11 (1m-9m, 1p-3p) keep the brute force fast but cover chains and suit edges.
    counts = counts_of(tiles)
    if max(counts) > 4:
        return
    found = decompositions(counts)
    assert len(found) == len(set(found))
    assert {(tuple(sorted(d.sets)), d.pair) for d in found} == _brute(counts)
    for d in found:
        rebuilt = Counter([d.pair, d.pair])
        for kind, tile in d.sets:
            rebuilt.update([tile] * 3 if kind is PUNG else [tile, tile + 1, tile + 2])
        assert counts_of(rebuilt.elements()) == counts
