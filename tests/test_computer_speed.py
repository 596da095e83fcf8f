"""The strong computer's fast tables: plan shanten, live improving tiles and remembered readings
agree with what they stand for (engine.shapes, a naive count, an uncached decomposition)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import decompose, shapes
from engine.actions import Action
from engine.computer import computer_for, decide, knows, valuation
from engine.computer.shape_tables import PlanShape, near_kinds, seven_pairs_shanten
from engine.hand import HandState
from engine.presets import PRESETS, Preset, with_min_fan, with_options
from engine.seat_view import SeatView
from engine.session import Session
from engine.simulate import play_out
from engine.tiles import NUM_KINDS, counts_of, parse_tiles

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import computer_speed  # bench/computer_speed.py: simulate hands/s per level

STRONG_PRESETS = sorted(p for p in PRESETS if knows(PRESETS[p].family))
EVERY_KIND = frozenset(range(NUM_KINDS))


@st.composite
def _hands(draw: st.DrawFn, sizes: list[int]) -> list[int]:
    """Tiles drawn mostly from a few kinds, so that sets, pairs and fours are common."""
    total = draw(st.sampled_from(sizes))
    pool = draw(st.lists(st.integers(0, NUM_KINDS - 1), min_size=1, max_size=8, unique=True))
    counts = [0] * NUM_KINDS
    for _ in range(total):
        free = [k for k in pool if counts[k] < 4] or [k for k in range(NUM_KINDS) if counts[k] < 4]
        counts[draw(st.sampled_from(free))] += 1
    return counts


_keeps = st.sampled_from(
    [
        EVERY_KIND,
        frozenset(range(0, 9)),  # a pure flush
        frozenset((*range(9, 18), *range(27, 34))),  # a half flush
        frozenset(k for k in range(NUM_KINDS) if k // 9 != 2),  # a void suit
        frozenset((*range(27), 33)),  # suits and one dragon
    ]
)


def _kept(counts: list[int], keep: frozenset[int]) -> list[int]:
    return [c if k in keep else 0 for k, c in enumerate(counts)]


@pytest.mark.parametrize("preset_id", STRONG_PRESETS)
@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_a_plan_of_every_kind_is_the_hands_shanten(preset_id: str, data: st.DataObject) -> None:
    preset = PRESETS[preset_id]
    sets = preset.sets
    counts = data.draw(_hands([3 * sets + 1, 3 * sets + 2]))
    shape = PlanShape(counts, sets, EVERY_KIND)
    assert shape.shanten == shapes.shanten(counts)
    if preset.shape_rules.seven_pairs and sets == 4:
        # the strong computer's seven pairs plan beside the standard shape: engine.shapes' answer
        pairs = seven_pairs_shanten(counts, preset.shape_rules.kong_as_two_pairs)
        both = shapes.shanten(
            counts,
            shapes.ShapeRules(
                seven_pairs=True, kong_as_two_pairs=preset.shape_rules.kong_as_two_pairs
            ),
        )
        assert min(shape.shanten, pairs) == both


@settings(max_examples=300, deadline=None)
@given(_hands([10, 11, 13, 14, 16, 17]), _keeps, st.sampled_from([3, 4, 5]))
def test_a_plan_counts_only_its_kept_tiles(
    counts: list[int], keep: frozenset[int], sets: int
) -> None:
    kept = _kept(counts, keep)
    shape = PlanShape(counts, sets, keep)
    assert shape.shanten == PlanShape(kept, sets, EVERY_KIND).shanten
    if sum(kept) in (3 * sets + 1, 3 * sets + 2):
        assert shape.shanten == shapes.shanten(kept)


def _no_chow_shanten(counts: list[int], sets: int) -> int:
    """Naive all-pungs distance: the best pair kind plus the best `sets` other pung kinds."""
    best = 0
    for pair in range(NUM_KINDS):
        pungs = sorted((min(c, 3) for k, c in enumerate(counts) if k != pair), reverse=True)
        best = max(best, min(counts[pair], 2) + sum(pungs[:sets]))
    return 3 * sets + 1 - best


@settings(max_examples=300, deadline=None)
@given(_hands([7, 8, 10, 11, 13, 14, 16]), _keeps, st.sampled_from([2, 3, 4, 5]))
def test_an_all_pungs_plan_matches_a_naive_count(
    counts: list[int], keep: frozenset[int], sets: int
) -> None:
    shape = PlanShape(counts, sets, keep, chows=False)
    assert shape.shanten == _no_chow_shanten(_kept(counts, keep), sets)


@settings(max_examples=300, deadline=None)
@given(_hands([4, 7, 10, 13, 16]), _keeps, st.sampled_from([3, 4, 5]), st.booleans())
def test_moves_and_improving_tiles_match_a_shape_made_afresh(
    counts: list[int], keep: frozenset[int], sets: int, chows: bool
) -> None:
    shape = PlanShape(counts, sets, keep, chows=chows)
    for kind in range(NUM_KINDS):
        for delta in (-1, 1):
            moved = list(counts)
            moved[kind] += delta
            if not 0 <= moved[kind] <= 4:
                if kind in keep:
                    assert shape.after(kind, delta) == shape.shanten + 1
                continue
            fresh = PlanShape(moved, sets, keep, chows=chows).shanten
            assert shape.after(kind, delta) == fresh
            assert shape.moved(kind, delta).shanten == fresh
    # improving: a kept kind near the kept tiles (any kept kind for none) whose draw gets closer
    kept = _kept(counts, keep)
    near = near_kinds(kept, keep) if any(kept) else sorted(keep)
    expected = tuple(
        kind for kind in near if counts[kind] < 4 and shape.after(kind, 1) < shape.shanten
    )
    unseen = [(kind * 7) % 5 for kind in range(NUM_KINDS)]
    assert shape.improving(unseen) == (sum(unseen[k] for k in expected), expected)
    there = next(kind for kind in range(NUM_KINDS) if counts[kind] < 4)
    assert shape.moved(there, 1).moved(there, -1).improving(unseen) == shape.improving(unseen)


@settings(max_examples=200, deadline=None)
@given(_hands([1, 4, 8, 13, 14]), _keeps)
def test_near_kinds_are_held_kinds_and_their_suit_neighbours(
    counts: list[int], keep: frozenset[int]
) -> None:
    expected = set()
    for kind, count in enumerate(counts):
        if count and kind >= 27:
            expected.add(kind)
        elif count:
            expected.update(k for k in range(kind - 2, kind + 3) if k // 9 == kind // 9)
    assert near_kinds(counts, keep) == sorted(expected & keep)


def test_plans_stay_right_after_the_shape_tables_are_cleared() -> None:
    first = counts_of(parse_tiles("123m456p789s11z46m"))
    assert PlanShape(first, 4, EVERY_KIND).improving([4] * NUM_KINDS)[0] == 4
    shapes.clear_caches()
    # other hands fill the cleared tables first, so the ids they give out are new ones
    for text in ("1199m2288p3377s55z", "1122334455667m", "147m258p369s1234z"):
        counts = counts_of(parse_tiles(text))
        assert PlanShape(counts, 4, EVERY_KIND).shanten == shapes.shanten(counts)
    shape = PlanShape(first, 4, EVERY_KIND)
    assert shape.shanten == shapes.shanten(first) == 0
    assert shape.improving([4] * NUM_KINDS) == (4, (parse_tiles("5m")[0],))


@settings(max_examples=200, deadline=None)
@given(_hands([2, 5, 8, 11, 14, 17]))
def test_remembered_readings_are_the_readings(counts: list[int]) -> None:
    expected = decompose._all_readings(tuple(counts))
    first = decompose.decompositions(counts)
    assert first == expected
    first.clear()  # a caller changing its list changes nothing remembered
    assert decompose.decompositions(counts) == expected


def test_the_speed_benchmark_prints_hands_per_second_per_level(
    capsys: pytest.CaptureFixture[str],
) -> None:
    speed = computer_speed.measure(PRESETS["sichuan-bb"], "easy", 2, seed=3)
    assert speed.hands == 2 and speed.decisions > 40 and speed.hands_per_s > 0
    computer_speed.main(["--preset", "sichuan-bb", "--hands", "1", "--level", "easy", "strong"])
    out = capsys.readouterr().out
    assert "hands_per_s[sichuan-bb][easy]: " in out
    assert "hands_per_s[sichuan-bb][strong]: " in out
    assert "decision_ms_median_p99[sichuan-bb][strong]: " in out
    # the median and p99 are decisions' own times, in order, within the slowest one
    assert 0 < speed.ms_at(0.5) <= speed.ms_at(0.99) <= 1000 * max(speed.decision_seconds)


def _strong_choices(
    preset: Preset, hands: int, seat_count: int = 0, *, forget: bool = False
) -> list[Action]:
    """Every choice the strong computer makes in `hands` seeded hands (`forget`: with nothing
    remembered from earlier decisions)."""
    decide = computer_for("strong")
    chosen: list[Action] = []

    def deciding(state: HandState, seat: int) -> Action:
        if forget:
            valuation.clear_caches()
        action = decide(state, seat)
        chosen.append(action)
        return action

    session = Session(preset, 5, seat_count=seat_count)
    for _ in range(hands):
        outcome = play_out(session.new_hand(), computer=deciding).outcome()
        assert outcome is not None
        session.finish_hand(outcome)
    return chosen


# tables whose hands share tiles but not what they are worth or may win on: wilds turned per
# hand, seats, minimums, void suits, wilds fixed by the preset
_SHARING_TABLES = (
    (PRESETS["hubei-laizi"], 0),
    (PRESETS["hubei-laizi"], 3),
    (with_options(PRESETS["hubei-laizi"], ["no_minimum"]), 2),
    (PRESETS["hk-fw2"], 0),
    (with_min_fan(PRESETS["hk-fw2"], 3), 0),
    (PRESETS["sichuan-bb"], 0),
    (PRESETS["redwild"], 0),
)


def test_what_the_strong_computer_remembers_never_changes_a_choice() -> None:
    """Caches shared across seats, hands and tables (ready hands kept by their tiles) give the
    choices of a computer that remembers nothing."""
    valuation.clear_caches()
    remembering = [_strong_choices(preset, 2, seats) for preset, seats in _SHARING_TABLES]
    for (preset, seats), choices in zip(_SHARING_TABLES, remembering, strict=True):
        assert _strong_choices(preset, 2, seats, forget=True) == choices, preset.id


def test_a_ready_hand_is_remembered_apart_for_each_wild() -> None:
    """The same tiles wait on other tiles, and lead to other ready hands, with another wild."""
    preset = PRESETS["hubei-laizi"]
    nine_wild = decide.Player(SeatView.of(HandState(preset, seed=0), 0))  # 9m wild
    five_wild = decide.Player(SeatView.of(HandState(preset, seed=3), 0))  # 5m wild
    assert nine_wild.wilds != five_wild.wilds
    ready = tuple(counts_of(parse_tiles("2345m11p456p789s9m")))  # 9m: a wild, or a single
    one_away = tuple(counts_of(parse_tiles("2356m11p456p789s9m")))
    valuation.clear_caches()
    fresh = [(p._winning_tiles(ready), p._one_away(one_away)) for p in (nine_wild, five_wild)]
    valuation.clear_caches()
    warm = [(p._winning_tiles(ready), p._one_away(one_away)) for p in (five_wild, nine_wild)]
    assert fresh == warm[::-1]
    assert fresh[0] != fresh[1]
