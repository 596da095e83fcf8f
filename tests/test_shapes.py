"""Shape analysis: hand-checked hands, a brute-force reference, and the mahjong package.

The reference below is deliberately naive: win checks peel blocks off the lowest tile, shanten
tries every choice of target sets and pair, so it shares nothing with the per-suit tables.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from mahjong.agari import Agari
from mahjong.shanten import Shanten

from engine.shapes import SETS_AND_PAIR, ShapeRules, is_tenpai, is_win, shanten, waits
from engine.tiles import NUM_KINDS, ORPHANS, counts_of, parse_tiles

ALL_FORMS = ShapeRules(seven_pairs=True, thirteen_orphans=True)
SEVEN_PAIRS = ShapeRules(seven_pairs=True)
PAIRS_WITH_KONGS = ShapeRules(seven_pairs=True, kong_as_two_pairs=True)
ORPHANS_ONLY = ShapeRules(thirteen_orphans=True)


def hand(text: str) -> list[int]:
    return counts_of(parse_tiles(text))


def kinds(text: str) -> list[int]:
    return sorted(set(parse_tiles(text)))


# ---------------------------------------------------------------------------------------------
# Reference implementation


def _chows_through(kind: int) -> list[tuple[int, int, int]]:
    if kind >= 27:
        return []
    rank = kind % 9
    return [(s, s + 1, s + 2) for s in range(kind - 2, kind + 1) if s >= kind - rank and s % 9 <= 6]


@cache
def _ref_sets(counts: tuple[int, ...], jokers: int, need_pair: bool) -> bool:
    """Can counts + jokers be split into sets (and one pair if need_pair)?"""
    first = next((k for k, c in enumerate(counts) if c), None)
    if first is None:
        left = jokers - (2 if need_pair else 0)
        return left >= 0 and left % 3 == 0
    blocks: list[tuple[tuple[int, ...], bool]] = [((first,) * 3, False)]
    blocks += [(chow, False) for chow in _chows_through(first)]
    if need_pair:
        blocks.append(((first,) * 2, True))
    for block, is_pair in blocks:
        for rest, used_jokers in _take(counts, block, first):
            if used_jokers <= jokers and _ref_sets(
                rest, jokers - used_jokers, need_pair and not is_pair
            ):
                return True
    return False


def _take(
    counts: tuple[int, ...], block: tuple[int, ...], must: int
) -> list[tuple[tuple[int, ...], int]]:
    """Every way to fill block from counts and jokers, using at least one real `must` tile."""
    ways: list[tuple[tuple[int, ...], int]] = []

    def fill(i: int, left: list[int], jokers: int, used_must: bool) -> None:
        if i == len(block):
            if used_must:
                ways.append((tuple(left), jokers))
            return
        kind = block[i]
        if left[kind]:
            left[kind] -= 1
            fill(i + 1, left, jokers, used_must or kind == must)
            left[kind] += 1
        fill(i + 1, left, jokers + 1, used_must)

    fill(0, list(counts), 0, False)
    return ways


def ref_seven_pairs_deficit(counts: list[int], kong_as_two_pairs: bool) -> int:
    """Fewest tiles missing from some seven-pairs hand: a knapsack over kinds."""
    most = 2 if kong_as_two_pairs else 1
    best = [0] + [99] * 7  # best[p]: fewest missing tiles with p pairs chosen so far
    for count in counts:
        new = best[:]
        for pairs in range(8):
            for extra in range(1, most + 1):
                if pairs + extra <= 7:
                    cost = best[pairs] + max(0, 2 * extra - count)
                    new[pairs + extra] = min(new[pairs + extra], cost)
        best = new
    return best[7]


def ref_orphans_deficit(counts: list[int]) -> int:
    costs = []
    for double in ORPHANS:
        target = {k: 2 if k == double else 1 for k in ORPHANS}
        costs.append(sum(max(0, target[k] - counts[k]) for k in ORPHANS))
    return min(costs)


def ref_is_win(counts: list[int], jokers: int = 0, rules: ShapeRules = SETS_AND_PAIR) -> bool:
    total = sum(counts) + jokers
    if total % 3 != 2 or total > 17:
        return False
    if _ref_sets(tuple(counts), jokers, True):
        return True
    if total != 14 or any(c > 4 for c in counts):
        return False
    if rules.seven_pairs:
        deficit = ref_seven_pairs_deficit(counts, rules.kong_as_two_pairs)
        # every held tile must be used, so the missing tiles are exactly the jokers
        if deficit == jokers:
            return True
    return rules.thirteen_orphans and ref_orphans_deficit(counts) == jokers


def ref_standard_deficit(counts: list[int], jokers: int, sets: int) -> int:
    """Fewest missing tiles over every target of `sets` sets and a pair.

    Real tiles may not exceed four of a kind; jokers may. A target set or pair sharing no tile
    with the hand costs its full size whatever it is, so it is tried as one 'fresh' block.
    """
    held = [k for k, c in enumerate(counts) if c]
    candidates: list[tuple[int, ...] | None] = [None]  # None: a fresh set
    candidates += sorted({(k,) * 3 for k in held} | {c for k in held for c in _chows_through(k)})
    pairs: list[tuple[int, ...] | None] = [None, *((k, k) for k in held)]
    best = 99
    for chosen in combinations_with_replacement(candidates, sets):
        for pair in pairs:
            target = [0] * NUM_KINDS
            fresh = 3 * chosen.count(None) + (2 if pair is None else 0)
            for block in (*chosen, pair):
                for kind in block or ():
                    target[kind] += 1
            if sum(max(0, t - 4) for t in target) > jokers:
                continue
            missing = fresh + sum(max(0, t - c) for t, c in zip(target, counts, strict=True))
            best = min(best, missing)
    return best


def ref_shanten(counts: list[int], jokers: int = 0, rules: ShapeRules = SETS_AND_PAIR) -> int:
    total = sum(counts) + jokers
    deficits = [ref_standard_deficit(counts, jokers, total // 3)]
    if total in (13, 14):
        if rules.seven_pairs:
            deficits.append(ref_seven_pairs_deficit(counts, rules.kong_as_two_pairs))
        if rules.thirteen_orphans:
            deficits.append(ref_orphans_deficit(counts))
    return min(deficits) - jokers - 1


def ref_waits(counts: list[int], jokers: int = 0, rules: ShapeRules = SETS_AND_PAIR) -> list[int]:
    found = []
    for kind in range(NUM_KINDS):
        if counts[kind] < 4:
            counts[kind] += 1
            if ref_is_win(counts, jokers, rules):
                found.append(kind)
            counts[kind] -= 1
    return found


def test_reference_agrees_on_known_hands() -> None:
    assert ref_is_win(hand("123m456p789s111z22z"))
    assert not ref_is_win(hand("123m456p789s111z23z"))
    assert ref_shanten(hand("123m11z45p")) == 0
    assert ref_shanten(hand("1111m")) == 1  # 111m + 1m waits on a fifth 1m
    assert ref_waits(hand("1112345678999m")) == list(range(9))


# ---------------------------------------------------------------------------------------------
# Hand-checked hands


@pytest.mark.parametrize(
    "text",
    [
        "123m456p789s111z22z",  # four sets and a pair
        "123m123m123m99p",  # 11 tiles: three sets and a pair
        "123456789m111p222s33z",  # 17 tiles: five sets and a pair
        "55z",  # two tiles: just the pair
        "11123m",  # one set and a pair
        "111222333m444p55z",  # pungs or chows, either way
    ],
)
def test_standard_wins(text: str) -> None:
    assert is_win(hand(text))
    assert shanten(hand(text)) == -1


@pytest.mark.parametrize(
    "text",
    [
        "123z456z777z11m22m",  # honours never chow
        "891m234p567s11z22z",  # no wrapping 9-1
        "912m234p567s111z2z",  # not even across the corner
        "123m456p789s111z2z",  # 13 tiles is never complete
        "123456789m111p222s3z",  # 16 tiles neither
        "111122223333444455556m",  # 21 tiles: too many for any preset
    ],
)
def test_not_wins(text: str) -> None:
    assert not is_win(hand(text), ALL_FORMS)


def test_seven_pairs_only_when_enabled() -> None:
    pairs = hand("1122m3344p5566s77z")
    assert not is_win(pairs)
    assert is_win(pairs, SEVEN_PAIRS)
    assert shanten(pairs) == 3  # as sets: six two-way partials (four used) and the pair
    assert shanten(pairs, SEVEN_PAIRS) == -1


def test_four_of_a_kind_as_two_pairs_only_when_enabled() -> None:
    pairs = hand("1111m3344p5566s77z")
    assert not is_win(pairs, SEVEN_PAIRS)
    assert is_win(pairs, PAIRS_WITH_KONGS)
    assert shanten(pairs, SEVEN_PAIRS) == 1  # swap a 1m for a new kind, then pair that
    assert shanten(pairs, PAIRS_WITH_KONGS) == -1


def test_thirteen_orphans() -> None:
    orphans = hand("19m19p19s12345677z")
    assert is_win(orphans, ORPHANS_ONLY)
    assert not is_win(orphans)
    assert not is_win(hand("19m19p19s12345678m"), ORPHANS_ONLY)
    thirteen = hand("19m19p19s1234567z")
    assert waits(thirteen, ORPHANS_ONLY) == sorted(ORPHANS)
    assert shanten(thirteen, ORPHANS_ONLY) == 0
    assert waits(hand("19m19p19s1234566z"), ORPHANS_ONLY) == [33]


def test_nine_gates_waits_on_every_kind_of_its_suit() -> None:
    assert waits(hand("1112345678999m")) == list(range(9))
    assert waits(hand("1112345678999p")) == list(range(9, 18))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("123m456p789s1122z", "12z"),  # either pair becomes the pung
        ("123m456p789s111z2z", "2z"),  # single wait on the pair
        ("123m456p789s11z45m", "36m"),  # open-ended chow
        ("123m456p789s11z46m", "5m"),  # closed wait
        ("123m456p789s11z12m", "3m"),  # edge wait: no 0m, and 9-1 does not wrap
        ("123m456p789s11z89m", "7m"),
        ("2345678m", "258m"),  # seven tiles, two sets and a pair
        ("1m", "1m"),  # one tile waits for its pair
        ("1234m", "14m"),
        ("123m456p789s11z23z", ""),  # honours never chow: not ready
        ("1111m123p456p999s", ""),  # its only shape waits on a fifth 1m
    ],
)
def test_waits_of_known_hands(text: str, expected: str) -> None:
    counts = hand(text)
    assert waits(counts) == kinds(expected)
    assert is_tenpai(counts) == bool(expected)


def test_four_held_copies_are_not_a_wait() -> None:
    counts = hand("1111m123p456p999s")
    assert is_win(counts, jokers=1)  # a joker may be the fifth 1m, a real tile cannot
    assert waits(counts) == []
    assert shanten(counts) == 1
    assert Shanten().calculate_shanten(counts) == 1  # the mahjong package agrees


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("123m456p789s11z45m", 0),
        ("123m456p789s1z2z3z4z", 2),  # a pair and a pung to build from four honour singles
        ("147m258p369s1234z", 8),  # nothing connects at all
        ("13579m13579p135s", 4),  # five gapped partials, but only four sets are needed
        ("1111z123m456m789m", 1),  # the 1z pung's fourth tile waits on nothing
        ("123456789m111p22s", -1),
        ("123456789m111p222s33z", -1),  # 17 tiles complete
        ("123456789m111p222s3z", 0),  # 16 tiles, single wait
        ("123456789m111p24s3z4z", 1),  # 16 tiles, one exchange from ready
    ],
)
def test_shanten_of_known_hands(text: str, expected: int) -> None:
    counts = hand(text)
    assert shanten(counts) == expected
    if sum(counts) <= 14:
        standard_only = {"use_chiitoitsu": False, "use_kokushi": False}
        assert Shanten().calculate_shanten(counts, **standard_only) == expected


def test_seven_pairs_and_orphans_shanten() -> None:
    counts = hand("1122m3344p5566s7z")
    assert shanten(counts) == 3
    assert shanten(counts, SEVEN_PAIRS) == 0
    assert waits(counts, SEVEN_PAIRS) == kinds("7z")
    assert shanten(hand("147m258p369s1234z"), ALL_FORMS) == 6  # seven singles to pair up
    assert shanten(hand("19m19p1s1234567z2m"), ORPHANS_ONLY) == 1


def test_jokers() -> None:
    assert is_win(hand("123m456p789s111z2z"), jokers=1)  # the joker pairs the 2z
    assert is_win(hand("123m456p789s111z"), jokers=2)  # the pair is two jokers
    assert is_win([0] * NUM_KINDS, jokers=2)  # a hand of nothing but a joker pair
    assert is_win([0] * NUM_KINDS, jokers=14)
    assert not is_win([0] * NUM_KINDS, jokers=3)
    assert is_win(hand("1111m234p567p888s"), jokers=1)  # a joker may be a fifth 1m
    assert not is_win(hand("1234567z"), jokers=7)  # jokers do not make honours chow
    assert shanten(hand("1m"), jokers=1) == -1
    assert shanten(hand("1m1p1s1z"), jokers=1) == 1
    assert waits(hand("123m456p789s111z"), jokers=1) == list(range(NUM_KINDS))
    # 11z pair + 5m-joker partial, or 11z-joker pung + 5m waiting for its pair partner
    assert waits(hand("123m456p789s11z5m"), jokers=1) == kinds("34567m1z")
    # jokers as the fifth and sixth 5z (a second pung) and the fifth 7z: waits on 1p
    assert shanten(hand("444m11p55557777z"), jokers=3) == 0
    assert waits(hand("444m11p55557777z"), jokers=3) == kinds("1p")
    assert is_win(hand("1122m3344p5566s7z"), SEVEN_PAIRS, jokers=1)
    assert is_win(hand("19m19p19s1234566z"), ORPHANS_ONLY, jokers=1)


def test_bad_sizes_and_counts() -> None:
    with pytest.raises(ValueError, match="3n"):
        shanten(hand("123m456p789s123m"))  # 12 tiles
    with pytest.raises(ValueError, match="3n"):
        shanten(hand("123456789m123456789p"))  # 18 tiles
    with pytest.raises(ValueError, match="3n\\+1"):
        waits(hand("123m456p789s11z"))
    with pytest.raises(ValueError, match="0-4"):
        shanten([5] + [0] * 33)
    with pytest.raises(ValueError, match="34 entries"):
        shanten([1, 1])


# ---------------------------------------------------------------------------------------------
# Properties against the reference


def _hands(total_sizes: list[int], max_jokers: int) -> st.SearchStrategy[tuple[list[int], int]]:
    """Hands drawn from a few kinds (so sets, pairs and four-of-a-kinds are common)."""

    @st.composite
    def build(draw: st.DrawFn) -> tuple[list[int], int]:
        total = draw(st.sampled_from(total_sizes))
        jokers = draw(st.integers(0, min(max_jokers, total)))
        pool = draw(st.lists(st.integers(0, NUM_KINDS - 1), min_size=1, max_size=6, unique=True))
        counts = [0] * NUM_KINDS
        for _ in range(total - jokers):
            free = [k for k in pool if counts[k] < 4] or [
                k for k in range(NUM_KINDS) if counts[k] < 4
            ]
            counts[draw(st.sampled_from(free))] += 1
        return counts, jokers

    return build()


@st.composite
def _crowded_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    """Fours of a kind plus jokers: where jokers must act as fifth (and sixth) copies."""
    total = draw(st.sampled_from([8, 10, 11]))
    jokers = draw(st.integers(1, 3))
    counts = [0] * NUM_KINDS
    for kind in draw(st.lists(st.integers(0, NUM_KINDS - 1), min_size=2, max_size=3, unique=True)):
        counts[kind] = min(4, total - jokers - sum(counts))
    while sum(counts) < total - jokers:
        counts[draw(st.sampled_from([k for k in range(NUM_KINDS) if counts[k] < 4]))] += 1
    return counts, jokers


rules_strategy = st.builds(ShapeRules, st.booleans(), st.booleans(), st.booleans())


@settings(max_examples=300, deadline=None)
@given(_hands(list(range(1, 18)), 3), rules_strategy)
def test_is_win_matches_reference(drawn: tuple[list[int], int], rules: ShapeRules) -> None:
    counts, jokers = drawn
    assert is_win(counts, rules, jokers=jokers) is ref_is_win(counts, jokers, rules)


@settings(max_examples=200, deadline=None)
@given(_hands([1, 2, 4, 5, 7, 8, 10, 11], 3))
def test_shanten_matches_reference(drawn: tuple[list[int], int]) -> None:
    counts, jokers = drawn
    assert shanten(counts, jokers=jokers) == ref_shanten(counts, jokers)


@settings(max_examples=300, deadline=None)
@given(_crowded_hands())
@example((hand("55557777z"), 3))  # complete only as 555z 5JJ 777z 7J: two pungs of 5z
def test_jokers_as_fifth_copies_match_reference(drawn: tuple[list[int], int]) -> None:
    counts, jokers = drawn
    assert shanten(counts, jokers=jokers) == ref_shanten(counts, jokers)


@settings(max_examples=150, deadline=None)
@given(_hands([13, 14], 2), rules_strategy)
def test_special_forms_shanten_match_reference(
    drawn: tuple[list[int], int], rules: ShapeRules
) -> None:
    counts, jokers = drawn
    standard = shanten(counts, jokers=jokers)
    specials = [standard]
    if rules.seven_pairs:
        specials.append(ref_seven_pairs_deficit(counts, rules.kong_as_two_pairs) - jokers - 1)
    if rules.thirteen_orphans:
        specials.append(ref_orphans_deficit(counts) - jokers - 1)
    assert shanten(counts, rules, jokers=jokers) == min(specials)


@settings(max_examples=150, deadline=None)
@given(_hands([1, 4, 7, 10, 13], 2), rules_strategy)
def test_waits_match_reference(drawn: tuple[list[int], int], rules: ShapeRules) -> None:
    counts, jokers = drawn
    found = waits(counts, rules, jokers=jokers)
    assert found == ref_waits(counts, jokers, rules)
    assert (shanten(counts, rules, jokers=jokers) == 0) == bool(found)


@settings(max_examples=200, deadline=None)
@given(_hands([2, 5, 8, 11, 14, 17], 2), rules_strategy)
def test_shanten_after_best_discard(drawn: tuple[list[int], int], rules: ShapeRules) -> None:
    """A 3n+2 hand is as far as its best discard, unless it is already complete."""
    counts, jokers = drawn
    here = shanten(counts, rules, jokers=jokers)
    if is_win(counts, rules, jokers=jokers):
        assert here == -1
        return
    discards = []
    for kind in {k for k, c in enumerate(counts) if c}:
        counts[kind] -= 1
        discards.append(shanten(counts, rules, jokers=jokers))
        counts[kind] += 1
    if not discards:  # all jokers: any joker is as good as any other
        discards.append(shanten(counts, rules, jokers=jokers - 1))
    assert here == min(discards)


@settings(max_examples=200, deadline=None)
@given(_hands([1, 4, 7, 10, 13, 16], 2), rules_strategy)
def test_shanten_after_best_draw(drawn: tuple[list[int], int], rules: ShapeRules) -> None:
    """A 3n+1 hand is one more than the best tile it could draw (never a fifth copy)."""
    counts, jokers = drawn
    draws = []
    for kind in range(NUM_KINDS):
        if counts[kind] < 4:
            counts[kind] += 1
            draws.append(shanten(counts, rules, jokers=jokers))
            counts[kind] -= 1
    assert shanten(counts, rules, jokers=jokers) == 1 + min(draws)


@settings(max_examples=150, deadline=None)
@given(_hands([13, 14, 16, 17], 3), st.permutations([0, 1, 2]), st.booleans())
def test_suits_are_interchangeable(
    drawn: tuple[list[int], int], order: list[int], mirror: bool
) -> None:
    """Relabelling suits, or reading ranks 9..1, changes no answer."""
    counts, jokers = drawn
    moved = counts[:]
    for suit, to in enumerate(order):
        for rank in range(9):
            moved[to * 9 + (8 - rank if mirror else rank)] = counts[suit * 9 + rank]
    for rules in (SETS_AND_PAIR, ALL_FORMS):
        assert shanten(moved, rules, jokers=jokers) == shanten(counts, rules, jokers=jokers)
        assert is_win(moved, rules, jokers=jokers) == is_win(counts, rules, jokers=jokers)


@settings(max_examples=300, deadline=None)
@given(_hands([13, 14], 0))
def test_agrees_with_the_mahjong_package(drawn: tuple[list[int], int]) -> None:
    counts, _ = drawn
    assert shanten(counts, ALL_FORMS) == Shanten().calculate_shanten(counts)
    if sum(counts) == 14:
        assert is_win(counts, ALL_FORMS) == Agari().is_agari(counts)
