"""The engine's shortcuts answer exactly what the long way does (wave 5: speed, exact).

Each test pins one shortcut of engine.hand against the plain computation it replaces: the
written-out shuffle, the kept tile counts the deal and draws fill, the shared events and melds,
the win checks that ask the shapes before the rule hooks.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from engine import decompose, hand_tables, rules, shapes
from engine.actions import Action, ActionKind
from engine.computer.easy import choose_action
from engine.decompose import Decomposition
from engine.events import Event, Phase
from engine.families.hubei import scoring as hubei_scoring
from engine.hand import HandState
from engine.hand_tiles import shuffled
from engine.presets import PRESETS, find_preset
from engine.rules import AfterWinPart, OpeningsPart
from engine.scoring.base import WinBy
from engine.seat_view import SeatView
from engine.tiles import NUM_KINDS, Meld, MeldKind, counts_of, is_bonus, parse_tiles

ALL_PRESETS = sorted(PRESETS)


def t(name: str) -> int:
    (tile,) = parse_tiles(name)
    return tile


@pytest.mark.parametrize("size", [0, 1, 2, 3, 112, 136, 144])
def test_the_written_out_shuffle_draws_what_the_library_shuffle_draws(size: int) -> None:
    tiles = list(range(size))
    for seed in range(200):
        expected = list(tiles)
        random.Random(seed).shuffle(expected)
        assert shuffled(tiles, seed) == expected


def test_a_deal_is_the_seeded_shuffle_of_the_wall() -> None:
    preset = find_preset("hkos-3-v1")
    state = HandState(preset, seed=11)
    expected = list(preset.wall)
    random.Random(11).shuffle(expected)
    assert state.wall == expected


def _played(preset_id: str, seed: int) -> list[HandState]:
    """A hand of easy computers, and a snapshot check after every action."""
    state = HandState(find_preset(preset_id), seed)
    checks = 0
    while not state.is_over:
        for seat in state.seats:
            assert state._counts[seat] == counts_of(state.hands[seat])
            if state.phase in (Phase.TURN, Phase.CLAIMS, Phase.ROB):
                # a draw asks for bonus replacements only when the drawn tile is one (a red
                # five is a tile of its own, not a bonus tile)
                assert not any(is_bonus(tile) for tile in state.hands[seat])
        checks += 1
        state.apply(choose_action(state, state.seats_to_act()[0]))
    assert checks > 10
    return [state]


@pytest.mark.parametrize("preset_id", ALL_PRESETS)
def test_the_kept_counts_follow_the_hands_and_no_bonus_tile_stays_in_a_hand(preset_id: str) -> None:
    for seed in (1, 2):
        _played(preset_id, seed)


def test_a_bonus_tile_drawn_mid_hand_is_replaced_from_the_back() -> None:
    # seat 0 discards 9s; seat 1 draws a flower, then the replacement 5p from the back
    state = HandState.arranged(
        find_preset("hkos-3-v1"),
        ["123m456m789m1p2p3p1s9s", "147m258p369s1234z", "147m258p369s5677z", "147m258p369s1567z"],
        draws="1f",
        replacements="5p",
    )
    events = state.apply(Action(0, ActionKind.DISCARD, (t("9s"),)))
    assert Event("bonus", 1, t("1f")) in events
    assert state.turn == 1 and state.drawn == t("5p") and state.after_bonus
    assert state.bonus[1] == [t("1f")] and t("1f") not in state.hands[1]
    assert state._counts[1] == counts_of(state.hands[1])


def test_shared_events_equal_fresh_ones_and_their_memo_stays_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert hand_tables.shared_event("win", 2, 5, "discard") == Event("win", 2, 5, "discard")
    assert hand_tables.shared_event("win", 2, 5, "discard") is hand_tables.shared_event(
        "win", 2, 5, "discard"
    )
    monkeypatch.setattr(hand_tables, "_EVENTS", {})
    monkeypatch.setattr(hand_tables, "_EVENTS_LIMIT", 3)
    for amount in range(10):
        event = hand_tables.shared_event("payment", detail=f"{amount} -{amount} 0 0")
        assert event == Event("payment", detail=f"{amount} -{amount} 0 0")
        assert len(hand_tables._EVENTS) <= 3


@pytest.mark.parametrize(
    ("claim", "meld"),
    [
        (Action(1, ActionKind.PUNG, (t("5m"),)), Meld(MeldKind.PUNG, (t("5m"),) * 3, t("5m"), 0)),
        (Action(2, ActionKind.PUNG, (t("5m"),)), Meld(MeldKind.PUNG, (t("5m"),) * 3, t("5m"), 0)),
        (Action(1, ActionKind.KONG, (t("5m"),)), Meld(MeldKind.KONG, (t("5m"),) * 4, t("5m"), 0)),
        (
            Action(1, ActionKind.CHOW, tuple(parse_tiles("456m"))),
            Meld(MeldKind.CHOW, tuple(parse_tiles("456m")), t("5m"), 0),
        ),
    ],
)
def test_a_shared_call_meld_is_the_callers_own(claim: Action, meld: Meld) -> None:
    for _ in range(2):  # built, then found
        found, event = hand_tables.call_meld(claim, t("5m"), 0)
        assert found == meld
        assert event == Event("call", claim.seat, t("5m"), str(meld))
    other, _ = hand_tables.call_meld(claim, t("5m"), 3)
    assert other.from_seat == 3


# ---------------------------------------------------------------------- win checks: hooks still ask


def _hooks_first(state: HandState, seat: int, counts: list[int], tile: int, by: WinBy) -> bool:
    """HandState._complete as it was: every rule hook, then the shapes."""
    for part in state._win_rules:
        if not part.may_win(seat, counts, tile, by):
            return False
    if (
        state.phase is Phase.ROB
        and state.window is not None
        and state.window.rob_kind is ActionKind.CONCEALED_KONG
    ):
        return state._robbing.may_rob_concealed(counts)
    for part in state._shape_rules:
        decided = part.win_shape(seat, counts, by)
        if decided is not None:
            return decided
    return shapes.is_win(counts, state.preset.shape_rules)


@pytest.mark.parametrize("preset_id", ALL_PRESETS)
def test_asking_the_shapes_first_changes_no_win_check(preset_id: str) -> None:
    """At every decision of played hands, for every seat and every tile it could be given (pass
    rules, void suits, fixed kongs, open hands, wilds, robbing all in play somewhere), the win
    check answers as the hooks-first order did."""
    asked = wins = 0
    for seed in (3, 4):
        state = HandState(find_preset(preset_id), seed)
        while not state.is_over:
            for seat in state.seats:
                counts = state.tile_counts(seat)
                if sum(counts) % 3 == 2:  # a turn's hand: the self-draw check
                    by, tiles = WinBy.SELF_DRAW, [state.drawn or 0]
                else:
                    by, tiles = WinBy.DISCARD, [k for k in range(NUM_KINDS) if counts[k] < 4]
                for tile in tiles:
                    given = list(counts)
                    if by is not WinBy.SELF_DRAW:
                        given[tile] += 1
                    expected = _hooks_first(state, seat, list(given), tile, by)
                    assert state._complete(seat, given, tile, by) is expected
                    asked += 1
                    wins += expected
            state.apply(choose_action(state, state.seats_to_act()[0]))
    assert asked > 1000 and wins > 0


# ---------------------------------------------------------------------- scoring shortcuts


def _pung_jokers_by_search(counts: list[int]) -> int | None:
    """hubei's _pung_jokers as it was: every pair tried, every kind made a pung."""
    best = None
    for pair in range(-1, NUM_KINDS):  # -1: a pair of two jokers
        if pair >= 0 and not counts[pair]:
            continue
        need = 2 if pair < 0 else 2 - min(counts[pair], 2)
        if pair >= 0 and counts[pair] > 2:
            continue
        for tile in range(NUM_KINDS):
            if tile == pair or not counts[tile]:
                continue
            if counts[tile] > 3:
                need = -1
                break
            need += 3 - counts[tile]
        if need >= 0 and (best is None or need < best):
            best = need
    return best


def test_hubei_pung_jokers_counted_match_the_search() -> None:
    rng = random.Random(5)
    cases = [[0] * NUM_KINDS, [3] * 4 + [0] * (NUM_KINDS - 4)]
    for _ in range(3000):
        counts = [0] * NUM_KINDS
        for kind in rng.sample(range(NUM_KINDS), rng.randint(1, 9)):
            counts[kind] = rng.choice((1, 1, 2, 2, 3, 3, 4))
        cases.append(counts)
    for counts in cases:
        assert hubei_scoring._pung_jokers(counts) == _pung_jokers_by_search(counts), counts


# ---------------------------------------------------------------------- seat views


def _visible_counted(state: HandState, seat: int) -> tuple[int, ...]:
    """SeatView.visible as it was counted: unclaimed discards one by one, then the rest."""
    visible = state.tile_counts(seat)
    for s in state.seats:
        for index, tile in enumerate(state.ponds[s]):
            if index not in state.claimed[s]:
                visible[tile] += 1
        for meld in state.melds[s]:
            for tile in meld.tiles:
                visible[tile] += 1
        for tile in state.require(AfterWinPart).won_tiles[s]:
            visible[tile] += 1
        if state.require(AfterWinPart).locked[s] and s != seat:
            for tile in state.hands[s]:
                visible[tile] += 1
    openings = state.part_of(OpeningsPart)
    for tile in openings.removed[seat] if openings is not None else ():
        visible[tile] += 1
    view = SeatView.of(state, seat)
    for tiles in view.set_down:
        for tile in tiles:
            visible[tile] += 1
    if state.claim_tile is not None and state.phase is Phase.ROB:
        visible[state.claim_tile] += 1
    return tuple(min(4, v) for v in visible[:NUM_KINDS])


@pytest.mark.parametrize("preset_id", ["hkos-3-v1", "bloodflow-swap3", "hubei-laizi", "tw-16"])
def test_a_seat_views_visible_counts_match_the_count_one_by_one(preset_id: str) -> None:
    claimed = 0
    for seed in (5, 6):
        state = HandState(find_preset(preset_id), seed)
        while not state.is_over:
            for seat in state.seats:
                assert SeatView.of(state, seat).visible == _visible_counted(state, seat)
            claimed += sum(len(taken) for taken in state.claimed)
            state.apply(choose_action(state, state.seats_to_act()[0]))
    assert claimed > 0


def _readings_by_search(counts: tuple[int, ...]) -> list[Decomposition]:
    """decompose's readings as they were found: each pair, then one search over every tile."""
    if sum(counts) % 3 != 2:
        return []
    found = []
    work = list(counts)
    for pair in range(NUM_KINDS):
        if work[pair] >= 2:
            work[pair] -= 2
            found += [Decomposition(sets, pair) for sets in decompose._set_readings(work, 0)]
            work[pair] += 2
    return found


def _random_counts(rng: random.Random, sets_and_pair: bool) -> tuple[int, ...]:
    counts = [0] * NUM_KINDS
    if sets_and_pair:  # mostly complete hands, with chows and pungs overlapping
        for _ in range(rng.randint(0, 5)):
            if rng.random() < 0.5:
                low = rng.choice((0, 9, 18)) + rng.randrange(7)
                if max(counts[low : low + 3]) < 4:
                    for kind in range(low, low + 3):
                        counts[kind] += 1
            else:
                kind = rng.randrange(NUM_KINDS)
                if counts[kind] <= 1:
                    counts[kind] += 3
        kind = rng.randrange(NUM_KINDS)
        if counts[kind] <= 2:
            counts[kind] += 2
        return tuple(counts)
    size = rng.choice((2, 5, 8, 11, 14, 17))
    while sum(counts) < size:
        kind = rng.randrange(NUM_KINDS)
        if counts[kind] < 4:
            counts[kind] += 1
    return tuple(counts)


def test_readings_put_together_by_component_are_the_searchs_in_its_order() -> None:
    rng = random.Random(8)
    found = 0
    for index in range(6000):
        counts = _random_counts(rng, sets_and_pair=index % 2 == 0)
        expected = _readings_by_search(counts)
        assert decompose._all_readings(counts) == expected, counts
        found += bool(expected)
    assert found > 2000


def test_opening_picks_made_in_order_are_the_sorted_distinct_combinations() -> None:
    rng = random.Random(3)
    wall = [kind for kind in range(NUM_KINDS) for _ in range(4)] + list(range(34, 42))
    for _ in range(4000):
        hand = rng.sample(wall, rng.choice((0, 2, 3, 5, 10, 13, 14)))
        expected: set[tuple[int, ...]] = set()
        for suit in range(3):
            expected.update(combinations(sorted(t for t in hand if t // 9 == suit), 3))
        assert rules._three_of_a_suit(hand) == sorted(expected), sorted(hand)
