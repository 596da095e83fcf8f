"""The strong computer's exact speed-ups: each skips work whose result could not change what it
stands for, and skips it where the earlier code did it."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine import shapes
from engine.actions import ActionKind
from engine.computer import decide, valuation
from engine.computer.shape_tables import PlanShape, near_kinds
from engine.presets import PRESETS
from engine.seat_view import SeatView
from engine.tiles import HONOURS
from tests.test_computer_speed_caches import STRONG_PRESETS, _turn_views


def _counting(monkeypatch: pytest.MonkeyPatch, owner: type, name: str) -> list[Any]:
    """Wrap `owner.name` so that each call's arguments (after self) are noted."""
    calls: list[Any] = []
    original: Callable[..., Any] = getattr(owner, name)

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def _discard_hands(views: list[SeatView]) -> list[tuple[decide.Player, list[int], int, Any]]:
    """Per view and discard: the player, the counts less the discard, the discard and the plans
    of the full hand."""
    found = []
    for view in views:
        player = decide.Player(view)
        counts = list(view.counts)
        base = player.plans(counts, view.melds[view.seat])
        for tile in sorted({a.tile for a in view.legal if a.kind is ActionKind.DISCARD}):
            rest = list(counts)
            rest[tile] -= 1
            found.append((player, rest, tile, base))
    return found


@pytest.mark.parametrize("preset_id", STRONG_PRESETS)
def test_an_estimate_bounding_plans_by_the_near_live_tiles_is_the_estimate(
    preset_id: str,
) -> None:
    views = _turn_views(PRESETS[preset_id], 2, seed=13)[::2]
    checked = 0
    for player, rest, tile, base in _discard_hands(views):
        melds = player.view.melds[player.seat]
        full = list(rest)
        full[tile] += 1
        near_live = sum(player.unseen[k] for k in near_kinds(full, player.allowed))
        assert player._estimate(rest, melds, base, tile, near_live) == player._estimate(
            rest, melds, base, tile
        )
        checked += 1
    assert checked > 20


def test_plans_that_cannot_beat_the_best_count_no_live_tiles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the near live tiles known, a plan whose bound is below the best so far is not asked
    for its improving tiles (in hkos, where a flush or all pungs is often far behind)."""
    views = _turn_views(PRESETS["hkos-3-v1"], 3, seed=13)
    hands = _discard_hands(views)
    improving = _counting(monkeypatch, PlanShape, "improving")
    for player, rest, tile, base in hands:
        player._estimate(rest, player.view.melds[player.seat], base, tile)
    without = len(improving)
    improving.clear()
    for player, rest, tile, base in hands:
        full = list(rest)
        full[tile] += 1
        near_live = sum(player.unseen[k] for k in near_kinds(full, player.allowed))
        player._estimate(rest, player.view.melds[player.seat], base, tile, near_live)
    assert len(improving) < 0.9 * without


@pytest.mark.parametrize("preset_id", ["hkos-3-v1", "hk-3fan", "sichuan-bb", "tw-16"])
def test_discards_are_estimated_in_the_order_of_their_bounds(
    preset_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the first `kept` estimates, no discard is estimated whose bound is below the
    `kept`-th best estimate of all: the highest bounds are estimated first."""
    views = _turn_views(PRESETS[preset_id], 2, seed=17)
    estimated = _counting(monkeypatch, decide.Player, "_estimate")
    checked = 0
    for view in views:
        player = decide.Player(view)
        discards = [a for a in view.legal if a.kind is ActionKind.DISCARD]
        counts = list(view.counts)
        melds = view.melds[view.seat]
        estimated.clear()
        player.best_discard(counts, melds, discards, exact_worth=False)
        tiles = [args[3] for args in estimated if args[2] is not None]
        kept = decide._REFINED if player.know.exact_one_away else 1
        base = player.plans(counts, melds)
        near_live = sum(player.unseen[k] for k in near_kinds(counts, player.allowed))
        dangers = player.dangers()
        worths, bounds = {}, {}
        after = {a.tile: base[0].shape.after(a.tile, -1) for a in discards}
        for tile in after:
            if after[tile] > min(after.values()) + 1:
                continue  # never weighed
            counts[tile] -= 1
            worths[tile] = player.worth(counts, melds, base, tile, exact=False) - dangers[tile]
            bound = player.worth_bound(counts, melds, base, tile, near_live)
            counts[tile] += 1
            bounds[tile] = None if bound is None else bound * decide._BOUND_SLACK - dangers[tile]
        if len(worths) <= kept:
            continue
        kth = sorted(worths.values(), reverse=True)[kept - 1]
        for tile in tiles[kept:]:
            bound = bounds[tile]
            assert bound is None or bound >= kth, (view.hand, tile)
            checked += 1
    assert checked > 5


def test_remembered_table_facts_are_worked_out_anew() -> None:
    """The allowed kinds and the bonus fan remembered across decisions are those of a fresh
    decision."""
    views = _turn_views(PRESETS["hkos-3-v1"], 1, seed=3)
    views += _turn_views(PRESETS["sichuan-bb"], 1, seed=3)
    views += _turn_views(PRESETS["hubei-laizi"], 1, seed=3)
    remembered = [(p.allowed, p.bonus_fan) for p in map(decide.Player, views)]
    valuation.clear_caches()
    fresh = [(p.allowed, p.bonus_fan) for p in map(decide.Player, views)]
    assert remembered == fresh
    for view, (allowed, bonus_fan) in zip(views, fresh, strict=True):
        player = decide.Player(view)
        void = view.void[view.seat]
        assert allowed == {
            k
            for k in view.preset.tile_kinds
            if k < 34
            and (void is None or k // 9 != "mps".index(void))
            and k not in view.wilds
            and k not in player.know.free_kongs
        }
        assert bonus_fan == player.know.bonus_fan(view.bonus[view.seat], view.seat)


def test_remembered_plan_keeps_and_scoring_are_the_fresh_ones() -> None:
    """The flush keeps remembered per allowed kinds are what plans() worked out per hand, and the
    scoring function remembered per family is the one `scoring.score` calls."""

    for preset_id in STRONG_PRESETS:
        preset = PRESETS[preset_id]
        for view in _turn_views(preset, 1, seed=19)[:3]:
            allowed = decide.Player(view).allowed
            expected = []
            for kinds in valuation._SUIT_KINDS:
                flush = allowed.intersection(kinds)
                expected.append((flush, allowed & frozenset((*flush, *HONOURS))) if flush else None)
            assert list(valuation._flush_keeps(allowed)) == expected
        assert valuation._family_score(preset) is preset.scoring.score


def test_a_calls_bounds_are_shared_with_its_best_discard(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """best_discard reuses the plans and bounds best_discard_bound found for the same hand, and
    a claim weighed so chooses as one working them out anew."""
    views = _turn_views(PRESETS["hkos-3-v1"], 3, seed=7, phase="claims")
    views = [v for v in views if not any(a.kind is ActionKind.WIN for a in v.legal)]
    plans = _counting(monkeypatch, decide.Player, "plans")
    shared = [decide.Player(view).claim(view.legal) for view in views]
    shared_plans = len(plans)
    plans.clear()
    original = decide.Player._bounds_of

    def anew(self: decide.Player, counts: list[int], melds: Any) -> Any:
        self._shared_bounds = None
        return original(self, counts, melds)

    monkeypatch.setattr(decide.Player, "_bounds_of", anew)
    assert [decide.Player(view).claim(view.legal) for view in views] == shared
    assert shared_plans < len(plans)


def _ready_hands(sets: int, seed: int, count: int) -> list[list[int]]:
    """`count` hands of `sets` sets and a pair less one tile, ready; some with a tile swapped
    too, which may leave them not ready or ready on other tiles (the caller keeps the ready)."""
    rng = random.Random(seed)
    found: list[list[int]] = []
    while len(found) < count:
        counts = [0] * 34
        for _ in range(sets):
            if rng.random() < 0.5:
                counts[rng.randrange(34)] += 3
            else:
                start = 9 * rng.randrange(3) + rng.randrange(7)
                for kind in range(start, start + 3):
                    counts[kind] += 1
        counts[rng.randrange(34)] += 2
        if max(counts) > 4:
            continue
        counts[rng.choice([k for k, c in enumerate(counts) if c])] -= 1
        if rng.random() < 0.3:  # often no longer ready, or ready on other tiles
            counts[rng.choice([k for k, c in enumerate(counts) if c])] -= 1
            counts[rng.randrange(34)] += 1
            if max(counts) > 4:
                continue
        found.append(counts)
    return found


@pytest.mark.parametrize("preset_id", STRONG_PRESETS)
def test_waits_read_from_the_shape_tables_are_the_engines(
    preset_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ready hand's waits as the valuation finds them (from the shape tables where only sets
    and a pair can complete it) are engine.shapes.waits', hand by hand; seven pairs and thirteen
    orphans within reach, wilds and kinds the seat may not keep go to engine.shapes."""
    view = _turn_views(PRESETS[preset_id], 1, seed=5)[0]
    player = decide.Player(view)
    asked: list[int] = []
    original = shapes.waits

    def counted(counts: Any, *args: Any, **kwargs: Any) -> Any:
        asked.append(1)
        return original(counts, *args, **kwargs)

    monkeypatch.setattr(valuation.shapes, "waits", counted)
    checked = 0
    for sets in range(view.preset.sets + 1):
        for counts in _ready_hands(sets, seed=sets, count=300):
            if player._jokers(counts) or shapes.shanten(counts, player.options) != 0:
                continue
            assert list(player._waits(counts)) == original(counts, player.options), counts
            checked += 1
    assert checked > 600
    by_tables = checked - len(asked)
    if player._standard_shape([0] * 34, 1) is None:  # a void, wilds or a short wall: never
        assert by_tables == 0
    else:
        assert by_tables > checked * 0.9
