"""The strong computer's shortcuts give what they stand for: the bound over discards is a bound
and skips no choice, what one decision remembers is what it would work out anew, and hkos
scoring's remembered tile readings score as a fresh reading does."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, ActionKind
from engine.computer import computer_for, decide, knows, seat_view, valuation
from engine.computer.shape_tables import near_kinds
from engine.families.hongkong import scoring_hkos as hkos
from engine.hand import HandState
from engine.presets import PRESETS, Preset, find_preset
from engine.scoring.base import WinBy, WinContext
from engine.seat_view import SeatView
from engine.session import Session
from engine.simulate import play_out
from engine.tiles import NUM_KINDS, counts_of, parse_tiles

STRONG_PRESETS = sorted(p for p in PRESETS if knows(PRESETS[p].family))


def _turn_views(preset: Preset, hands: int, seed: int, phase: str = "turn") -> list[SeatView]:
    """The views of every turn with a choice of discards (or with `phase` "claims", every call
    offered) in `hands` strong-played hands."""
    decide = computer_for("strong")
    views: list[SeatView] = []
    calls = (ActionKind.CHOW, ActionKind.PUNG)

    def deciding(state: HandState, seat: int) -> Action:
        view = seat_view(state, seat)  # on kinds, as the strong computer sees it
        if view.phase == phase == "turn":
            if sum(a.kind is ActionKind.DISCARD for a in view.legal) > 1:
                views.append(view)
        elif view.phase == phase and any(a.kind in calls for a in view.legal):
            views.append(view)
        return decide(state, seat)

    session = Session(preset, seed)
    for _ in range(hands):
        outcome = play_out(session.new_hand(), computer=deciding).outcome()
        assert outcome is not None
        session.finish_hand(outcome)
    return views


@pytest.mark.parametrize("preset_id", STRONG_PRESETS)
def test_the_bound_over_discards_is_above_every_estimate(preset_id: str) -> None:
    """worth_bound is never below the estimate it stands for (each discard of real turns)."""
    checked = 0
    for view in _turn_views(PRESETS[preset_id], 2, seed=11)[::3]:
        player = decide.Player(view)
        counts = list(view.counts)
        melds = view.melds[view.seat]
        base = player.plans(counts, melds)
        near_live = sum(player.unseen[k] for k in near_kinds(counts, player.allowed))
        for tile in {a.tile for a in view.legal if a.kind is ActionKind.DISCARD}:
            counts[tile] -= 1
            bound = player.worth_bound(counts, melds, base, tile, near_live)
            worth = player.worth(counts, melds, base, tile, exact=False)
            counts[tile] += 1
            if bound is not None:
                checked += 1
                assert bound * decide._BOUND_SLACK >= worth, (view.hand, tile)
    assert checked > 20


@pytest.mark.parametrize("preset_id", STRONG_PRESETS)
def test_branch_and_bound_chooses_as_estimating_every_discard(
    preset_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """best_discard with the bound gives the choice and worth of estimating every discard."""
    views = _turn_views(PRESETS[preset_id], 2, seed=5)
    assert views

    def choices() -> list[tuple[Action, float]]:
        found = []
        for view in views:
            player = decide.Player(view)
            discards = [a for a in view.legal if a.kind is ActionKind.DISCARD]
            melds = view.melds[view.seat]
            found.append(player.best_discard(list(view.counts), melds, discards))
        return found

    bounded = choices()
    monkeypatch.setattr(decide.Player, "worth_bound", lambda *args: None)
    assert choices() == bounded


@pytest.mark.parametrize("preset_id", STRONG_PRESETS)
def test_calls_bound_away_are_the_calls_weighing_every_one_refuses(
    preset_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    views = _turn_views(PRESETS[preset_id], 3, seed=7, phase="claims")
    # a win offered is taken before any call is weighed
    views = [v for v in views if not any(a.kind is ActionKind.WIN for a in v.legal)]
    assert views
    bounded = [decide.Player(view).claim(view.legal) for view in views]
    monkeypatch.setattr(decide.Player, "best_discard_bound", lambda *args: None)
    assert [decide.Player(view).claim(view.legal) for view in views] == bounded


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000))
def test_a_ready_hand_is_valued_as_anew_when_remembered(seed: int) -> None:
    """_ready_value's per-decision memo and the remembered wait worths give a fresh value."""
    rng = random.Random(seed)
    preset = find_preset(rng.choice(["hkos-3-v1", "hk-3fan", "tw-16", "sichuan-bb", "guangdong"]))
    view = SeatView.of(HandState(preset, seed=seed), 0)
    # a ready hand: sets and a pair, of kinds this seat may hold, less one tile
    player = decide.Player(view)
    kinds = sorted(player.allowed)
    counts = [0] * NUM_KINDS
    while sum(counts) < 3 * preset.sets + 2:
        start = rng.choice(kinds)
        chow = start < 27 and start % 9 <= 6 and {start + 1, start + 2} <= player.allowed
        block = [start, start + 1, start + 2] if chow and rng.random() < 0.6 else [start] * 3
        if sum(counts) == 3 * preset.sets:
            block = [start, start]
        if all(counts[k] + block.count(k) <= 4 for k in block):
            for k in block:
                counts[k] += 1
    counts[rng.choice([k for k, c in enumerate(counts) if c])] -= 1
    hand = tuple(counts)
    melds = view.melds[0]
    valuation.clear_caches()
    fresh = decide.Player(view)._ready_value(hand, melds)
    remembered = player._ready_value(hand, melds)
    assert player._ready_value(hand, melds) == remembered == fresh


_WINS = [
    "123m456m789m22p33p3p",
    "111m999m111p999p11z",
    "123m123m123m55z666z",
    "19m19p19s1234567z1m",
    "11122233344455z",
    "11123456789999m",
    "234m567p55566677s",
]


@pytest.mark.parametrize("text", _WINS)
def test_hkos_scores_a_remembered_reading_as_a_fresh_one(text: str) -> None:
    preset = find_preset("hkos-3-v1")
    concealed = tuple(sorted(parse_tiles(text)))
    contexts = [
        WinContext(concealed, concealed[-1], by=by, seat=seat, round_wind=wind, bonus=bonus)
        for by in (WinBy.DISCARD, WinBy.SELF_DRAW)
        for seat, wind in ((0, 0), (1, 0), (2, 3))
        for bonus in ((), (34,), (34, 35, 36, 37))
    ]
    contexts.append(WinContext(concealed, concealed[-1], flags=frozenset({"heavenly"})))
    fresh = []
    for ctx in contexts:
        hkos._TILE_READINGS.clear()
        fresh.append(hkos.score(preset, ctx))
    assert [hkos.score(preset, ctx) for ctx in contexts] == fresh
    assert counts_of(concealed)  # the hand is real tiles


def test_dangers_are_worked_out_once_and_are_the_dangers() -> None:
    view = _turn_views(find_preset("hkos-3-v1"), 1, seed=2)[-1]
    player = decide.Player(view)
    assert player.dangers() is player.dangers()
    assert player.dangers() == decide.Player(view)._dangers_now()


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["hkos-3-v1", "hk-3fan", "hk-fw2"]))
def test_one_away_draws_read_from_improving_tiles_are_every_ready_draw(
    seed: int, preset_id: str
) -> None:
    """Where only sets and a pair can come of a hand, the draws _one_away tries (the improving
    ones) find every draw that makes it ready, and the same ready hands."""
    rng = random.Random(seed)
    preset = find_preset(preset_id)
    player = decide.Player(SeatView.of(HandState(preset, seed=seed), 0))
    counts = [0] * NUM_KINDS
    # a few kinds, so that pairs, sets and near-ready hands are common
    pool = rng.sample(range(NUM_KINDS), rng.randint(5, 12))
    while sum(counts) < 13:
        kind = rng.choice(pool)
        if counts[kind] < 4:
            counts[kind] += 1
    hand = tuple(counts)
    valuation.clear_caches()
    fast = player._one_away(hand)
    valuation.clear_caches()
    original = decide.Player._standard_shape
    try:
        decide.Player._standard_shape = lambda self, hand, tiles: None  # type: ignore[method-assign]
        slow = player._one_away(hand)
    finally:
        decide.Player._standard_shape = original  # type: ignore[method-assign]
    valuation.clear_caches()
    assert fast == slow
