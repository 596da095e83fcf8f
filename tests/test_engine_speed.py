"""The fast paths of the engine and the computer player give exactly what the plain ones gave.

Simulation speed comes from state kept incrementally (per-seat tile counts, a claim window's
options), shared immutable actions and events, and shape lookups that reuse work between calls.
These tests pin that each shortcut agrees with the direct computation it replaces, and that whole
seeded sessions still play out move for move as before the speed work. No timings here.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import shapes
from engine.actions import Action, ActionKind
from engine.computer import easy as ai
from engine.computer.easy import choose_action
from engine.events import Event, Phase
from engine.hand import HandState
from engine.parts import Part, overrides
from engine.presets import PRESETS, find_preset
from engine.rules import WildsPart
from engine.tiles import NUM_KINDS, counts_of
from tests.goldens import regen

PRESET_IDS = sorted(PRESETS)


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_seeded_sessions_play_exactly_as_the_goldens(preset_id: str) -> None:
    """Every hand of the seeded runs in tests/goldens/ plays out as recorded (perft style: the
    first differing lines say which hand diverged and how). An intended change of play
    regenerates them with `python -m tests.goldens.regen`."""
    diff = regen.differences(preset_id)
    assert not diff, "play diverged from the goldens:\n" + "\n".join(diff)


def test_every_preset_has_a_golden() -> None:
    assert sorted(p.stem for p in regen.GOLDEN_DIR.glob("*.txt")) == PRESET_IDS


def _play_checking(preset_id: str, seed: int, check: Callable[[HandState], None]) -> None:
    state = HandState(find_preset(preset_id), seed)
    while not state.is_over:
        check(state)
        seat = state.seats_to_act()[0]
        state.apply(choose_action(state, seat))
    check(state)


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_kept_counts_follow_every_change_of_a_hand(preset_id: str) -> None:
    def check(state: HandState) -> None:
        for seat in range(state.seat_count):
            assert state.tile_counts(seat) == counts_of(state.hands[seat]), state.describe()

    for seed in range(6):
        _play_checking(preset_id, seed, check)


def test_tile_counts_is_a_copy() -> None:
    state = HandState(find_preset("hkos-3-v1"), 5)
    counts = state.tile_counts(0)
    counts[0] += 9
    assert state.tile_counts(0) == counts_of(state.hands[0])


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_a_window_offers_what_a_fresh_look_would(preset_id: str) -> None:
    """Options are worked out once when a claim window opens and served to every answer."""

    def check(state: HandState) -> None:
        if state.phase not in (Phase.CLAIMS, Phase.ROB):
            return
        assert state.claim_from is not None
        chow_seat = state._next_seat(state.claim_from)
        for seat in state.seats_to_act():
            fresh = state._claim_options(seat, chow_seat)
            assert state.legal_actions(seat) == (Action(seat, ActionKind.PASS), *fresh)

    for seed in range(8):
        _play_checking(preset_id, seed, check)


def test_shared_actions_and_events_are_plain_values() -> None:
    state = HandState(find_preset("hkos-3-v1"), 3)
    seat = state.turn
    legal = state.legal_actions(seat)
    discard = next(a for a in legal if a.kind is ActionKind.DISCARD)
    rebuilt = Action(seat, ActionKind.DISCARD, discard.tiles)
    assert rebuilt in legal and state.is_legal(rebuilt)
    events = state.apply(rebuilt)
    assert events[0] == Event("discard", seat, discard.tile)
    # a rebuilt action is as legal as the offered one, and answers the same way
    again = HandState(find_preset("hkos-3-v1"), 3)
    assert again.apply(legal[legal.index(discard)]) == events


SHAPE_RULES = [
    shapes.ShapeRules(),
    shapes.ShapeRules(thirteen_orphans=True),
    shapes.ShapeRules(seven_pairs=True, kong_as_two_pairs=True),
    shapes.ShapeRules(seven_pairs=True, thirteen_orphans=True),
]


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    size=st.sampled_from([2, 5, 8, 11, 14, 17]),
    rules=st.sampled_from(SHAPE_RULES),
)
def test_discard_shanten_equals_shanten(seed: int, size: int, rules: shapes.ShapeRules) -> None:
    rng = random.Random(seed)
    wall = [kind for kind in range(NUM_KINDS) for _ in range(4)]
    # half the hands lean to one suit, as a computer player's hands do
    if seed % 2:
        suit = rng.randrange(3) * 9
        wall = [t for t in wall if suit <= t < suit + 9] * 2 + wall
    assert_discard_shanten_matches(rng, wall, size, rules)


def assert_discard_shanten_matches(
    rng: random.Random, wall: list[int], size: int, rules: shapes.ShapeRules
) -> None:
    """Deal up to `size` tiles of `wall` (at most four of a kind): DiscardShanten must agree
    with shanten on the whole hand and after each discard."""
    counts = [0] * NUM_KINDS
    for tile in rng.sample(wall, len(wall)):
        if counts[tile] < 4 and sum(counts) < size:
            counts[tile] += 1
    hand = shapes.DiscardShanten(counts, rules)
    assert hand.full == shapes.shanten(counts, rules)
    for kind in range(NUM_KINDS):
        if counts[kind]:
            counts[kind] -= 1
            assert hand.after(kind) == shapes.shanten(counts, rules), kind
            counts[kind] += 1


def test_discard_shanten_rejects_what_shanten_rejects() -> None:
    with pytest.raises(ValueError):
        shapes.DiscardShanten(counts_of([0, 1, 2]))
    hand = shapes.DiscardShanten(counts_of([0, 0]))
    with pytest.raises(ValueError):
        hand.after(5)


def test_overlap_memo_limit_does_not_change_tables() -> None:
    """The suffix memo only saves work: emptied at any point, the tables come out the same."""
    rng = random.Random(4)
    keys = [tuple(rng.choice((0, 0, 1, 1, 2, 3, 4)) for _ in range(9)) for _ in range(300)]

    def tables() -> list[tuple[int, ...]]:
        plain = [shapes._component_table(key, True, 0) for key in keys]
        return plain + [shapes._component_table(key, True, 2) for key in keys[:60]]

    shapes.clear_caches()
    expected = tables()
    limit = shapes._OVERLAP_MEMO_LIMIT
    try:
        shapes._OVERLAP_MEMO_LIMIT = 50
        shapes.clear_caches()
        assert tables() == expected
        assert len(shapes._OVERLAP_MEMO) <= 50
    finally:
        shapes._OVERLAP_MEMO_LIMIT = limit
        shapes.clear_caches()


def test_suffix_codes_drop_the_first_count_by_dividing() -> None:
    key = (3, 0, 4, 1, 0, 0, 2, 1, 4)
    code = shapes._suffix_code(key)
    for start in range(len(key) + 1):
        assert code == shapes._suffix_code(key[start:])
        code //= 5
    assert shapes._suffix_code(()) == 1


def _part_kinds() -> list[type[Part]]:
    found: list[type[Part]] = []
    todo: list[type[Part]] = [Part]
    while todo:
        kind = todo.pop()
        found.append(kind)
        todo.extend(kind.__subclasses__())
    return found


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_part_of_answers_as_a_scan_of_the_parts(preset_id: str) -> None:
    """part_of remembers its answer per kind asked: it is the first part of that kind, asked
    before and after play, and wild_kinds is the wild part's kinds once chosen (hubei-laizi
    turns its wild after the deal)."""
    kinds = _part_kinds()
    for seed in range(3):
        state = HandState(find_preset(preset_id), seed)

        def check(state: HandState) -> None:
            for kind in kinds:
                scanned = next((p for p in state.parts if isinstance(p, kind)), None)
                assert state.part_of(kind) is scanned, kind
            wilds = next((p for p in state.parts if isinstance(p, WildsPart)), None)
            assert state.wild_kinds == (wilds.kinds if wilds is not None else frozenset())

        check(state)
        while not state.is_over:
            seat = state.seats_to_act()[0]
            state.apply(choose_action(state, seat))
            check(state)


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    size=st.sampled_from([2, 5, 8, 11, 14, 17]),
    jokers=st.integers(0, 4),
    rules=st.sampled_from(SHAPE_RULES),
)
def test_a_discard_never_brings_a_hand_closer(
    seed: int, size: int, jokers: int, rules: shapes.ShapeRules
) -> None:
    """The easy computer stops at the first discard that keeps the full hand's shanten (with
    jokers too): that is the least any discard can keep, so it is the minimum's choice."""
    rng = random.Random(seed)
    jokers = min(jokers, size)
    counts = [0] * NUM_KINDS
    wall = [kind for kind in range(NUM_KINDS) for _ in range(4)]
    for tile in rng.sample(wall, size - jokers):
        counts[tile] += 1
    full = shapes.shanten(counts, rules, jokers=jokers)
    for kind in range(NUM_KINDS):
        if counts[kind]:
            counts[kind] -= 1
            assert shapes.shanten(counts, rules, jokers=jokers) >= full, kind
            counts[kind] += 1
    if jokers:
        assert shapes.shanten(counts, rules, jokers=jokers - 1) >= full


@pytest.mark.parametrize("preset_id", ["redwild", "hubei-laizi"])
def test_counted_shanten_equals_the_shanten_of_the_tiles(preset_id: str) -> None:
    """The computer reads shanten from the kept counts (less a discard) rather than recounting
    the hand: both give the same number, held wilds counted as jokers."""

    def check(state: HandState) -> None:
        for seat in state.seats:
            hand = state.hands[seat]
            counts = state.tile_counts(seat)
            if len(hand) % 3 == 0:
                continue
            assert ai._counts_shanten(state, counts) == ai._shanten(state, hand)
            if len(hand) % 3 != 2:
                continue
            for tile in set(hand):
                rest = list(hand)
                rest.remove(tile)
                assert ai._shanten_after(state, counts, tile) == ai._shanten(state, rest)
            assert counts == state.tile_counts(seat)

    for seed in range(4):
        _play_checking(preset_id, seed, check)


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_hook_answerers_are_the_parts_that_override_the_hook(preset_id: str) -> None:
    """Who answers each hook is worked out once per preset's part types; every hand (of every
    seat count) still gets exactly the parts that override it, in their order."""
    preset = find_preset(preset_id)
    for seat_count in preset.seat_counts:
        for seed in range(2):
            state = HandState(preset, seed, seat_count=seat_count)
            for name, hook in [
                ("_turn_rules", "turn_actions"),
                ("_win_rules", "may_win"),
                ("_claim_rules", "may_claim"),
                ("_call_rules", "allows_call"),
                ("_pass_rules", "on_pass"),
                ("_settle_rules", "settle_win"),
                ("_context_rules", "context"),
                ("_draw_rules", "on_draw"),
            ]:
                expected = tuple(p for p in state.parts if overrides(p, hook))
                assert getattr(state, name) == expected, (name, seat_count)
