"""The strong computer player: plans for value, counts live tiles, defends, from a SeatView only.

Every decision weighs the hands it could reach. A *plan* is a way to score (any hand, a flush in
one suit, all pungs, seven pairs); each has the tiles it keeps, the fan it brings (from
the preset's advice) and a distance in tile exchanges. A hand's worth is, over its plans,
the points the plan pays times the chance of completing it from the live tiles that improve it
(tiles this seat can see are not live). Plans below the preset's minimum are worth nothing, so a
call or a discard that leaves only such plans is not made while a live one exists; a ready hand is
valued exactly by scoring each wait. Against opponents who look ready (many melds, a long pond, a
one-suit pond, a revealed blood-flow hand) each discard carries a danger in points, and the
discard chosen is the best worth less danger: when the own hand is far and the table is hot,
that is folding. Where a winner leaves the hand (blood battle), a discard win is passed when the
self draw it waits for is expected to pay more.

>>> from engine.hand import HandState
>>> from engine.presets import find_preset
>>> from engine.seat_view import SeatView
>>> state = HandState(find_preset("hkos-3-v1"), seed=3)
>>> choose(SeatView.of(state, 0)) in state.legal_actions(0)
True
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, NamedTuple

from engine import scoring, shapes
from engine.actions import Action, ActionKind
from engine.advice import FamilyKnowledge
from engine.computer.knowledge import knowledge_for_table
from engine.computer.shape_tables import (
    PlanShape,
    near_kinds,
    seven_pairs_shanten,
    special_deficit,
)
from engine.kinds import AfterWin, Opening
from engine.preset import Preset
from engine.rules import wild_free
from engine.scoring.base import WinBy, WinContext
from engine.seat_view import SeatView
from engine.settlement import deltas_of
from engine.tiles import DRAGONS, HONOURS, WINDS, Meld, MeldKind, Tile

_WIN, _DISCARD, _PASS = ActionKind.WIN, ActionKind.DISCARD, ActionKind.PASS
_CHOW, _PUNG, _KONG = ActionKind.CHOW, ActionKind.PUNG, ActionKind.KONG
_CONCEALED_KONG, _ADDED_KONG = ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG
_SUIT_KINDS = (range(0, 9), range(9, 18), range(18, 27))
_REVEALED_DANGER = 1.5  # a locked hand's known wait costs more than a typical win: it stays
_HONOUR_DANGER = (0.0, 0.2, 0.5)  # by copies unseen: none, one, more
_RANK_DANGER = (0.55, 0.8, 1.0, 1.0, 1.0, 1.0, 1.0, 0.8, 0.55)
# A hand with a line to a valid win near its shape is worth this much more than a dead one:
# more than the guesses of defence weigh, less than a real difference in value.
_LIVE_BONUS = 0.05
_DEAD_READY = 0.00005  # a ready hand none of whose waits can win: below any live plan
_LIVE_REACH = 0  # exchanges beyond the hand's best shape that still count as a line
# A self draw must be expected to pay this many times the discard win it passes (1.0, 1.5 and
# never were measured in sichuan-bb and sichuan-swap3: 1.0 gained the most)
_HOLD_MARGIN = 1.0
_REFINED = 3  # discards whose estimate is refined by the exact one-away value
_WIDTH = 10  # live tiles at which a step is half as likely as with unlimited tiles
_DRAWS_PER_STEP = 3  # own draws an exchange takes, for the time left
_BOUND_SLACK = 1.0 + 1e-9  # a bound is raised by this much, against rounding
_UNBOUNDED = float("inf")
_CHANCE_FACTORS = 10  # shanten whose chance factors a decision works out at once


@dataclass(slots=True)
class _Plan:
    name: str
    shape: PlanShape
    fan: int  # fan of the plan's own pattern (a flush, all pungs, seven pairs; 0 for any hand)
    honours: bool  # whether valued honour pungs add to it (a plan that keeps honours)


class _Estimate(NamedTuple):
    """A hand's worth short of the exact one-away value: a ready hand's worth (`ready`), or
    the best plan's value and live line (`lines`) and the trace of the shape (`trace`)."""

    ready: float | None
    shanten: int  # the hand's shanten, held wilds counted as jokers
    lines: float
    trace: float


def choose(view: SeatView) -> Action:
    """The strong computer's choice; the view's seat must have a decision to make."""
    legal = view.legal
    if not legal:
        raise ValueError(f"seat {view.seat} has no decision to make")
    player: _Player | None = None
    for action in legal:
        if action.kind is _WIN:
            if view.phase == "claims" and _weighs_self_draw(view):
                player = _Player(view)
                if player.holds_for_self_draw():
                    return next(a for a in legal if a.kind is _PASS)
            return action
    if len(legal) == 1:
        return legal[0]
    player = player or _Player(view)
    if view.phase == "opening":
        return player.opening(legal)
    if view.phase in ("claims", "rob"):
        return player.claim(legal)
    return player.turn(legal)


class _Player:
    """The work of one decision: the view, the family's knowledge and cached facts."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.preset = view.preset
        self.know: FamilyKnowledge = knowledge_for_table(view.preset)
        self.seat = view.seat
        self.options = view.preset.shape_rules
        self.unseen = [4 - v for v in view.visible]
        self.unseen_total = max(1, sum(self.unseen))
        active = sum(1 for s in range(view.seat_count) if not view.left[s])
        self.draws_left = max(1.0, view.wall_left / max(1, active))
        self.void = view.void[self.seat]
        # wilds stand for any tile (counted as jokers, not as their kind); a free kong tile is
        # set down, never part of a hand
        self.wilds = view.wilds
        self.allowed = _allowed_kinds(self.preset, self.know, self.void, self.wilds)
        self.wild_live = sum(self.unseen[kind] for kind in self.wilds)
        seat_wind, round_wind = WINDS[self.seat], WINDS[view.round_wind]
        self.valued = {tile: 0 for tile in HONOURS}
        if self.know.honour_pung:
            for tile in (*DRAGONS, seat_wind, round_wind):
                self.valued[tile] += self.know.honour_pung
        # the honours worth fan, in order (the others add nothing to a hand's honour fan)
        self._valued_honours = tuple((t, v) for t in HONOURS if (v := self.valued[t]))
        self.bonus_fan = _bonus_fan(self.know, view.bonus[self.seat], self.seat)
        self._seat_fans: dict[tuple[Meld, ...], int] = {}
        self._values: dict[float, float] = {}  # value() per fan: worked out once per decision
        self._dangers: list[float] | None = None
        self.minimum = self.preset.min_fan if self.know.minimum is None else self.know.minimum(view)
        self.active = active
        self._chance_factors = [self._chance_factor(s) for s in range(_CHANCE_FACTORS)]
        self._tile_weights: tuple[tuple[Tile, int], ...] | None = None
        self._fixed_tile_fan = 0
        if self.know.tile_fan is not None:
            self._tile_weights, self._fixed_tile_fan = self.know.tile_fan(view)
        # a table's options change its scores (a minimum), so the caches tell tables apart
        self._table = (self.preset.id, self.preset.min_fan, len(self.preset.wall))
        self._set_context(())

    def _set_context(self, set_down: tuple[Tile, ...]) -> None:
        """What scoring needs besides the tiles, with `set_down` about to be set down as kongs:
        the family's facts of the table (`extra`) and the key of the per-hand caches."""
        view = self.view
        # what else scoring needs to value a win of this seat (the other seats' public facts)
        self.extra = {} if self.know.context is None else self.know.context(view, set_down)
        self._context = (
            view.bonus[self.seat],
            self.seat,
            view.round_wind,
            self.void,
            self.active,
            *self.extra.values(),
        )
        # _ready_value per (concealed counts, melds) in this context: the candidate discards of
        # one decision lead to many of the same ready hands (dropping a then b, or b then a)
        self._ready_values: dict[tuple[tuple[int, ...], tuple[Meld, ...]], tuple[float, int]] = {}
        # a hand's plans and discard bounds, shared by best_discard_bound and best_discard (its
        # counts, melds, plans, near live tiles and bounds by discard)
        self._shared_bounds: (
            tuple[
                tuple[int, ...],
                tuple[Meld, ...],
                list[_Plan],
                int,
                dict[Tile, tuple[list[tuple[int, _Plan, float]], float | None]],
            ]
            | None
        ) = None

    # ------------------------------------------------------------------ plans and worth

    def plans(self, counts: list[int], melds: tuple[Meld, ...]) -> list[_Plan]:
        """The plans open to a hand of these concealed counts and melds (the first: any hand)."""
        know, preset = self.know, self.preset
        sets = preset.sets - len(melds)
        meld_suits = {m.first // 9 for m in melds if m.first < 27}
        honour_melds = any(m.first >= 27 for m in melds)
        chow_melds = any(m.kind is MeldKind.CHOW for m in melds)
        plans = [_Plan("any", PlanShape(counts, sets, self.allowed), 0, True)]
        suited = [sum(counts[0:9]), sum(counts[9:18]), sum(counts[18:27])]
        for m in melds:
            if m.first < 27:
                suited[m.first // 9] += 3
        flush_keeps = _flush_keeps(self.allowed)
        candidates = [s for s in range(3) if all(x == s for x in meld_suits)]
        candidates = [s for s in candidates if flush_keeps[s] is not None]
        if candidates and know.pure_flush:
            suit = max(candidates, key=suited.__getitem__)
            found = flush_keeps[suit]
            assert found is not None
            kinds, keep = found
            if know.half_flush:
                plans.append(_Plan("half", PlanShape(counts, sets, keep), know.half_flush, True))
            if not honour_melds:
                shape = PlanShape(counts, sets, kinds)
                plans.append(_Plan("pure", shape, know.pure_flush, False))
        if know.all_simples and all(_simple_meld(m) for m in melds):
            shape = PlanShape(counts, sets, _simples(self.allowed))
            plans.append(_Plan("simples", shape, know.all_simples, False))
        pairs = sum(1 for c in counts if c >= 2)
        if know.all_pungs and not chow_melds and pairs + len(melds) >= 3:
            shape = PlanShape(counts, sets, self.allowed, chows=False)
            plans.append(_Plan("pungs", shape, know.all_pungs, True))
        if know.seven_pairs and self.preset.shape_rules.seven_pairs and not melds and pairs >= 4:
            # the shape stands in; worth() measures seven pairs from the counts
            plans.append(_Plan("pairs", plans[0].shape, know.seven_pairs, False))
        return plans

    def _roots(self, counts: Sequence[int], melds: tuple[Meld, ...]) -> int:
        if not self.know.root:
            return 0
        roots = sum(1 for c in counts if c == 4)
        roots += sum(1 for m in melds if m.kind.is_kong or counts[m.first])
        return roots * self.know.root

    def _honour_fan(self, counts: Sequence[int], melds: tuple[Meld, ...]) -> tuple[int, float]:
        """Fan of valued honour pungs held (melded or concealed), and of pairs that may grow."""
        if not self.know.honour_pung:
            return 0, 0
        valued, unseen = self.valued, self.unseen
        sure = 0
        for meld in melds:
            first = meld.tiles[0]
            if first >= 27:
                sure += valued[first]
        # the fan of the pairs' pungs: the best at half (whole fans only), or, where the family
        # says how likely a pair's (a single's) pung is, what they are expected to bring
        chances = self.know.honour_hope
        hope: float = 0
        for tile, value in self._valued_honours:
            count = counts[tile]
            if count >= 3:
                sure += value
            elif count == 2 and unseen[tile] > 0:
                if chances is None:
                    hope = max(hope, value)
                else:
                    hope += value * chances[0]
            elif chances is not None and count == 1 and unseen[tile] > 1:
                hope += value * chances[1]
        return sure, hope

    def value(self, fan: float) -> float:
        """Points one win of this fan is worth to the winner, discard and self draw mixed."""
        found = self._values.get(fan)
        if found is None:
            found = self._values[fan] = self._value(fan)
        return found

    def _value(self, fan: float) -> float:
        minimum = self.minimum
        payers = self.active - 1
        self_draw_fan = int(fan) + self.know.self_draw
        if self_draw_fan < minimum:
            return 0.0
        cap = self.preset.fan_cap
        self_draw = payers * self.know.pay(min(self_draw_fan, cap))[1]
        if not self.preset.discard_wins:
            return float(self_draw)
        if fan < minimum:
            return 0.35 * self_draw
        return 0.65 * self.know.pay(min(int(fan), cap))[0] + 0.35 * self_draw

    def chance(self, shanten: int, live: int) -> float:
        """A rough chance of completing from `shanten` with `live` improving tiles left.

        Each further exchange multiplies it by the family's `step`: the live tiles of a far hand
        overstate it, as every improvement leaves fewer ways on. Few draws left shrink it more.
        """
        if shanten < 0:
            return 1.0
        width = live / (live + _WIDTH)
        factors = self._chance_factors
        if shanten < len(factors):
            step, time = factors[shanten]
        else:
            step, time = self._chance_factor(shanten)
        return width * step * time

    def _chance_factor(self, shanten: int) -> tuple[float, float]:
        """The parts of `chance` that do not depend on the live tiles: the steps and the time."""
        time = min(1.0, self.draws_left / (_DRAWS_PER_STEP * (shanten + 1)))
        return self.know.step**shanten, time

    def worth(
        self,
        counts: list[int],
        melds: tuple[Meld, ...],
        base: list[_Plan] | None = None,
        discarded: int = -1,
        *,
        exact: bool = True,
    ) -> float:
        """What a 3n+1 hand is worth: its best plan's value times its chance.

        `base` are the plans of the full hand that `discarded` left (cheaper than anew);
        `exact` values a hand one exchange from ready by the ready hands it leads to.
        """
        return self._worth_of(counts, melds, self._estimate(counts, melds, base, discarded), exact)

    def _estimate(
        self,
        counts: list[int],
        melds: tuple[Meld, ...],
        base: list[_Plan] | None,
        discarded: int,
        near_live: int | None = None,
        paying: list[tuple[int, _Plan, float]] | None = None,
    ) -> _Estimate:
        """The parts of a hand's worth that do not need the exact one-away value (a ready hand's
        worth; otherwise the best plan's, with the trace of the shape). `near_live`, where
        known, are the live tiles of the kinds near the hand (see `worth_bound`); `paying`, where
        known, its `_paying_plans`."""
        # a plan's shape after the discard is worked out only for plans that can pay
        plans = self.plans(counts, melds) if base is None else base
        general = plans[0].shape if base is None else plans[0].shape.moved(discarded, -1)
        jokers = self._jokers(counts)  # each held wild is a tile the hand no longer needs
        general_shanten = general.shanten - jokers
        if general_shanten == 0:
            ready = self.ready_worth(counts, melds)
            if ready > _DEAD_READY:
                return _Estimate(ready, general_shanten, 0.0, 0.0)
            # ready but dead: what other plans offer (a flush, all pungs) is all it has
        best = live_line = 0.0
        unseen, wild_live = self.unseen, self.wild_live
        # plans whose live tiles are counted only if a bound of their worth (from the live tiles
        # near the hand) beats the best so far: the best is the same, counted in any order
        pending: list[tuple[float, float, int, PlanShape]] = []
        if paying is None:
            paying = self._paying_plans(counts, melds, plans, jokers)
        for index, plan, value in paying:
            if plan.name == "pairs":
                shanten, live = self._pairs_reading(counts)
                shanten -= jokers
                best = max(best, value * self.chance(shanten, live + wild_live))
            else:
                if index == 0:
                    shape = general
                elif base is None:
                    shape = plan.shape
                else:
                    shape = plan.shape.moved(discarded, -1)
                shanten = shape.shanten - jokers
                if near_live is None or index == 0 or shape.kept_tiles <= 1:
                    live, _ = shape.improving(unseen)
                    best = max(best, value * self.chance(shanten, live + wild_live))
                else:
                    bound = value * self.chance(shanten, near_live + wild_live)
                    pending.append((bound, value, shanten, shape))
            if shanten <= general_shanten + _LIVE_REACH:
                live_line = _LIVE_BONUS
        if pending:
            pending.sort(key=itemgetter(0), reverse=True)
            for bound, value, shanten, shape in pending:
                if bound <= best:
                    break
                live, _ = shape.improving(unseen)
                best = max(best, value * self.chance(shanten, live + wild_live))
        # a dead hand keeps a trace of its shape so that ties still go to efficiency, far below
        # what any live plan is worth
        live, _ = general.improving(self.unseen)
        trace = 0.0001 * self.chance(general_shanten, live + self.wild_live)
        return _Estimate(None, general_shanten, best + live_line, trace)

    def _worth_of(
        self, counts: list[int], melds: tuple[Meld, ...], estimate: _Estimate, exact: bool
    ) -> float:
        """The worth of a hand from its estimate (`exact`: with the exact one-away value)."""
        if estimate.ready is not None:
            return estimate.ready
        best = estimate.lines
        if exact and estimate.shanten == 1 and self.know.exact_one_away:
            best = max(best, self.one_away_worth(counts, melds))
        if self.know.closed_share < 1.0 and not _opened(melds):
            best *= self.know.closed_share  # only an open hand may win: a call must come first
        return best + estimate.trace

    def _paying_plans(
        self, counts: list[int], melds: tuple[Meld, ...], plans: list[_Plan], jokers: int
    ) -> list[tuple[int, _Plan, float]]:
        """The plans (with their index) that can pay, and the value of a win of each."""
        fixed = self.bonus_fan + self._roots(counts, melds) + self._hand_fan(melds, jokers)
        if self.know.seat_fan is not None:
            fixed += self._seat_fan(melds)
        honour_fan, hope = self._honour_fan(counts, melds)
        minimum = self.minimum - self.know.self_draw
        # fan that adds value but never makes the minimum (dora)
        tiles_fan = self._tile_fan(counts, melds) if self._tile_weights is not None else 0
        paying = []
        for index, plan in enumerate(plans):
            fan = fixed + plan.fan + (honour_fan if plan.honours else 0)
            extra = hope if plan.honours else 0
            if fan + extra < minimum:
                continue
            if tiles_fan:
                value = self.value(fan + 0.5 * extra + tiles_fan)
            elif self.know.honour_hope is None:
                value = self.value(fan + 0.5 * extra)
            else:
                low = self.value(fan)
                value = low + extra * (self.value(fan + 1) - low)
            if value > 0:
                paying.append((index, plan, value))
        return paying

    def _tile_fan(self, counts: Sequence[int], melds: tuple[Meld, ...]) -> int:
        """The family's `tile_fan` of these tiles: per copy held or melded, and the fixed part."""
        assert self._tile_weights is not None
        fan = self._fixed_tile_fan
        for kind, weight in self._tile_weights:
            fan += weight * (counts[kind] + sum(m.tiles.count(kind) for m in melds))
        return fan

    def _pairs_reading(self, counts: list[int]) -> tuple[int, int]:
        """Seven pairs' shanten from the counts, and the live tiles that pair a single."""
        shanten = seven_pairs_shanten(
            [c if k in self.allowed else 0 for k, c in enumerate(counts)],
            self.preset.shape_rules.kong_as_two_pairs,
        )
        return shanten, sum(self.unseen[k] for k, c in enumerate(counts) if c == 1)

    def worth_bound(
        self,
        counts: list[int],
        melds: tuple[Meld, ...],
        base: list[_Plan],
        discarded: int,
        near_live: int,
        paying: list[tuple[int, _Plan, float]] | None = None,
    ) -> float | None:
        """An upper bound of `worth(counts, melds, base, discarded, exact=False)`, without
        counting improving tiles (None for a ready hand: that is valued exactly).

        Each plan's chance is taken with `near_live` live tiles, the unseen copies of every kind
        near the full hand (a drawn tile far from all kept tiles improves nothing); a plan
        keeping at most the discarded tile may be improved by any kind it keeps. `paying`, where
        known, are the hand's `_paying_plans`.
        """
        jokers = self._jokers(counts)
        general_shanten = base[0].shape.after(discarded, -1) - jokers
        if general_shanten <= 0:
            return None
        unseen = self.unseen
        best = live_line = 0.0
        if paying is None:
            paying = self._paying_plans(counts, melds, base, jokers)
        for _, plan, value in paying:
            if plan.name == "pairs":
                shanten, live = self._pairs_reading(counts)
            else:
                shape = plan.shape
                shanten = shape.after(discarded, -1)
                live = near_live
                if shape.kept_tiles <= 1:
                    live = sum(unseen[kind] for kind in shape.keep)
            shanten -= jokers
            best = max(best, value * self.chance(shanten, live + self.wild_live))
            if shanten <= general_shanten + _LIVE_REACH:
                live_line = _LIVE_BONUS
        best += live_line
        if self.know.closed_share < 1.0 and not _opened(melds):
            best *= self.know.closed_share
        general = base[0].shape
        live = near_live if general.kept_tiles > 1 else sum(unseen[k] for k in general.keep)
        return best + 0.0001 * self.chance(general_shanten, live + self.wild_live)

    def _seat_fan(self, melds: tuple[Meld, ...]) -> int:
        """The family's fan of this seat's kongs with these melds (hubei-laizi), worked out once."""
        found = self._seat_fans.get(melds)
        if found is None:
            assert self.know.seat_fan is not None
            found = self._seat_fans[melds] = self.know.seat_fan(self.view, melds)
        return found

    def _jokers(self, counts: Sequence[int]) -> int:
        """Wilds held (0 where the preset has none)."""
        return sum(counts[kind] for kind in self.wilds) if self.wilds else 0

    def _hand_fan(self, melds: tuple[Meld, ...], jokers: int) -> int:
        """Fan a family gives for how the hand is kept: closed (no claimed melds), no wild."""
        know = self.know
        fan = 0
        if know.closed_hand and all(m.kind is MeldKind.CONCEALED_KONG for m in melds):
            fan += know.closed_hand
        if know.no_wild and self.wilds and not jokers:
            fan += know.no_wild
        return fan

    def ready_worth(self, counts: list[int], melds: tuple[Meld, ...]) -> float:
        """A ready hand, valued exactly: each live wait scored as a discard win and a self draw."""
        value, live = self._ready_value(tuple(counts), melds)
        if not live:
            return _DEAD_READY
        return value * self.chance(0, live) + _LIVE_BONUS

    def _ready_value(self, hand: tuple[int, ...], melds: tuple[Meld, ...]) -> tuple[float, int]:
        """The mean points of a ready hand's live winning tiles, and how many are live.

        Only live waits are scored (a wait with no copy left adds nothing), each once per hand.
        """
        memo_key = (hand, melds)
        found = self._ready_values.get(memo_key)
        if found is not None:
            return found
        live = 0
        value = 0.0
        unseen = self.unseen
        worths = None
        for tile in self._winning_tiles(hand):
            copies = unseen[tile]
            if copies > 0:
                if worths is None:
                    worths = self._wait_worths(hand, melds)
                worth = worths.get(tile)
                if worth is None:
                    worth = worths[tile] = self._wait_worth(hand, melds, tile)
                if worth:
                    live += copies
                    value += copies * worth
        found = self._ready_values[memo_key] = (value / live if live else 0.0), live
        return found

    def _wait_worths(self, hand: tuple[int, ...], melds: tuple[Meld, ...]) -> dict[Tile, float]:
        """The remembered `_wait_worth` of this ready hand's waits, by winning tile (filled as
        they are asked for; shared across decisions with the same table and context)."""
        key = (self._table, hand, melds, *self._context)
        found = _WAIT_WORTH.get(key)
        if found is None:
            if len(_WAIT_WORTH) > _CACHE_LIMIT:
                _WAIT_WORTH.clear()
            found = _WAIT_WORTH[key] = {}
        return found

    def _winning_tiles(self, hand: tuple[int, ...]) -> tuple[Tile, ...]:
        """The waits of a ready hand's concealed counts that this seat may win on (tiles alone
        decide them, with the table, the void suit and the wilds: shared across seats and hands)."""
        key = (self._table, self.void, self.wilds, hand)
        found = _WAITS.get(key)
        if found is None:
            if len(_WAITS) > _CACHE_LIMIT:
                _WAITS.clear()
            allowed, wilds = self.allowed, self.wilds
            found = _WAITS[key] = tuple(
                tile
                for tile in self._waits(hand)
                if (tile in allowed or tile in wilds) and hand[tile] < 4
            )
        return found

    def _standard_shape(self, hand: Sequence[int], tiles: int) -> PlanShape | None:
        """The shape of `hand` as sets and a pair, where that is all that can complete within
        `tiles` more tiles (every kind allowed, no wilds, no special shape as near), else None."""
        if self.wilds or len(self.allowed) != 34:
            return None
        if special_deficit(hand, self.options) <= tiles:
            return None
        return PlanShape(hand, sum(hand) // 3, self.allowed)

    def _wait_worth(self, hand: tuple[int, ...], melds: tuple[Meld, ...], tile: Tile) -> float:
        """The points of winning a ready hand on `tile`, discard win and self draw mixed."""
        payers = self.active - 1
        # as the families with neither a gain hook nor self draw only have always valued them
        plain = self.know.gain is None and self.preset.discard_wins
        self_share = 0.35 if self.preset.discard_wins else 1.0
        on_discard = None
        concealed = _with_tile(hand, tile)  # the same tiles for both ways to win
        if self.preset.discard_wins:
            on_discard = self._score(hand, melds, tile, WinBy.DISCARD, concealed)
        self_draw = self._score(hand, melds, tile, WinBy.SELF_DRAW, concealed)
        worth = 0.0
        if self_draw is not None:
            if plain:
                worth += 0.35 * payers * self_draw.points["each"]
            else:
                worth += self_share * self._gain(self_draw, WinBy.SELF_DRAW)
        if on_discard is not None:
            if plain:
                worth += 0.65 * on_discard.points["discarder"]
            else:
                worth += 0.65 * self._gain(on_discard, WinBy.DISCARD)
        return worth

    def _waits(self, counts: Sequence[int]) -> list[Tile]:
        """The waits of a ready hand, held wilds standing in (and every wild drawn completing)."""
        jokers = self._jokers(counts)
        if not jokers:
            return shapes.waits(counts, self.options)
        found = shapes.waits(wild_free(counts, self.wilds), self.options, jokers=jokers)
        return sorted({*found, *self.wilds})

    def _gain(self, score: scoring.Score, by: WinBy) -> float:
        """What a win pays this seat in all (the family's hook, else as scored)."""
        payers = self.active - 1
        if self.know.gain is not None:
            return self.know.gain(score, by, payers)
        if by is WinBy.SELF_DRAW:
            return float(payers * score.points["each"])
        return float(score.points["discarder"])

    def one_away_worth(self, counts: list[int], melds: tuple[Meld, ...]) -> float:
        """A hand one exchange from ready, valued by the ready hands its live draws lead to."""
        live = 0
        value = 0.0
        for tile, readies in self._one_away(tuple(counts)):
            copies = self.unseen[tile]
            if copies <= 0:
                continue
            best = max(self._ready_value(ready, melds)[0] for ready in readies)
            if best > 0:
                live += copies
                value += copies * best
        if not live:
            return 0.0
        return value / live * self.chance(1, live) + _LIVE_BONUS

    def _one_away(
        self, hand: tuple[int, ...]
    ) -> tuple[tuple[Tile, tuple[tuple[int, ...], ...]], ...]:
        """Per draw that makes the hand ready, the concealed counts of each ready hand it allows
        (tiles alone decide them, with the table, the void suit and the wilds: shared across
        seats and hands; what the ready hands are worth is worked out per seat)."""
        key = (self._table, self.void, self.wilds, hand)
        found = _ONE_AWAY.get(key)
        if found is not None:
            return found
        entries = []
        counts = list(hand)
        held = [kind for kind, c in enumerate(counts) if c]

        def add_readies(tile: Tile, leaves_ready: Callable[[Tile], bool]) -> None:
            """With `tile` drawn into `counts`: note the ready hands its discards leave."""
            readies = []
            for out in {*held, tile}:
                if counts[out] and leaves_ready(out):
                    counts[out] -= 1
                    readies.append(tuple(counts))
                    counts[out] += 1
            entries.append((tile, tuple(readies)))

        standard = self._standard_shape(hand, 2)
        if standard is not None and standard.shanten == 1:
            # only the draws that improve the shape can make it ready, and the shape after the
            # draw tells which discards leave it ready (no special shape is near)
            for tile in standard.improving_kinds():
                if counts[tile] >= 4:
                    continue
                drawn = standard.moved(tile, 1)
                if drawn.shanten == 0:
                    counts[tile] += 1
                    add_readies(tile, lambda out: drawn.after(out, -1) == 0)  # noqa: B023
                    counts[tile] -= 1
        else:
            for tile in near_kinds(counts, self.allowed):
                if counts[tile] >= 4:
                    continue
                counts[tile] += 1
                exchange = shapes.DiscardShanten(counts, self.options)
                if exchange.full == 0:
                    add_readies(tile, lambda out: exchange.after(out) == 0)  # noqa: B023
                counts[tile] -= 1
        if len(_ONE_AWAY) > _CACHE_LIMIT:
            _ONE_AWAY.clear()
        found = _ONE_AWAY[key] = tuple(entries)
        return found

    def _score(
        self,
        counts: Sequence[int],
        melds: tuple[Meld, ...],
        tile: Tile,
        by: WinBy,
        concealed: tuple[Tile, ...] | None = None,
    ) -> scoring.Score | None:
        """The score of winning on `tile` (`concealed`: the counts' tiles with it, if known)."""
        if concealed is None:
            concealed = _with_tile(counts, tile)
        flags: dict[str, Any] = {}
        if self._closed_flags(melds):
            flags["rule_flags"] = self.know.closed_flags
        ctx = WinContext(
            concealed=concealed,
            win_tile=tile,
            melds=melds,
            bonus=self.view.bonus[self.seat],
            by=by,
            seat=self.seat,
            round_wind=self.view.round_wind,
            void_suit=self.void,
            **self.extra,
            **flags,
        )
        # not remembered here: the worth of a wait is (_wait_worth), and little else repeats
        found = _family_score(self.preset)(self.preset, ctx)
        return found if found.valid else None

    def _closed_flags(self, melds: tuple[Meld, ...]) -> bool:
        """Whether a win with these melds carries the family's `closed_flags` (riichi)."""
        return bool(self.know.closed_flags) and not _opened(melds)

    def holds_for_self_draw(self) -> bool:
        """Whether passing a discard win for a self draw pays (see `_weighs_self_draw`).

        A self draw is paid by every other player still in and adds its fan; the hand stays
        ready after the pass (no furiten), so the pass risks only that no winning tile comes
        (and, where a win ends the hand, that another seat wins first: the family's margin).
        """
        view = self.view
        tile = view.claim_tile
        assert tile is not None
        counts = list(view.counts)
        melds = view.melds[self.seat]
        taken = self._score(counts, melds, tile, WinBy.DISCARD)
        if taken is None:
            return False
        live = 0
        self_draw = 0.0
        for wait in self._waits(counts):
            copies = self.unseen[wait]
            won = self._score(counts, melds, wait, WinBy.SELF_DRAW) if copies > 0 else None
            if won is not None:
                live += copies
                self_draw += copies * self._gain(won, WinBy.SELF_DRAW)
        if not live:
            return False
        miss = 1.0 - live / self.unseen_total
        chance = 1.0 - miss ** int(self.draws_left)
        margin = _HOLD_MARGIN if self.know.hold_margin is None else self.know.hold_margin
        return chance * self_draw / live > margin * self._gain(taken, WinBy.DISCARD)

    # ------------------------------------------------------------------ defence

    def dangers(self) -> list[float]:
        """Per kind, the points a discard of it is expected to cost (0 where nobody threatens);
        the same for every call weighed in one decision, so worked out once."""
        if self._dangers is None:
            self._dangers = self._dangers_now()
        return self._dangers

    def _dangers_now(self) -> list[float]:
        view, know = self.view, self.know
        danger = [0.0] * 34
        if not self.preset.discard_wins:
            return danger
        held = self._held_kinds()
        for other in range(view.seat_count):
            if other == self.seat or view.left[other]:
                continue
            if know.danger is not None:
                found = know.danger(view, other, self.unseen)
                if found is not None:
                    for kind in held:
                        danger[kind] += found[kind]
                    continue
            pond = view.ponds[other]
            melds = view.melds[other]
            void = view.void[other]
            void_suit = "mps".index(void) if void is not None else -1
            if view.locked[other]:
                # a revealed blood-flow hand: its waits are known, not guessed
                counts = [0] * 34
                for t in view.revealed[other]:
                    counts[t] += 1
                for t in shapes.waits(counts, self.options):
                    if t // 9 != void_suit:
                        danger[t] += know.opponent_value * _REVEALED_DANGER
                continue
            ready = min(0.85, know.ready_per_discard * len(pond) + know.ready_per_meld * len(melds))
            if ready <= 0.05:
                continue
            flush = _flush_suit(melds, pond)
            value = self._deal_in_cost(other, flush is not None)
            if value <= 0:
                continue
            seen = set(pond)
            weight = ready * value * know.danger_share
            # a tile it could have won on since its last discard, and did not, cannot win now
            passed = set(view.offered[other]) if know.offered_safe and view.offered else set()
            for kind in held:
                if kind in passed:
                    continue
                if kind >= 27:
                    # an honour waits only as a pair or a pung: none left unseen, no danger
                    chance = _HONOUR_DANGER[min(self.unseen[kind], 2)]
                    if flush is None and melds and all(m.first < 27 for m in melds):
                        chance *= 0.7
                else:
                    suit = kind // 9
                    if suit == void_suit:
                        continue
                    chance = _RANK_DANGER[kind % 9]
                    if flush is not None and suit != flush:
                        chance *= 0.1
                if kind in seen:
                    chance *= 0.3
                danger[kind] += weight * chance
        return danger

    def _deal_in_cost(self, other: int, flush: bool) -> float:
        """The points a win of `other` on this seat's discard is expected to cost it."""
        know = self.know
        if know.deal_in is not None:
            return know.deal_in(self.view, other, flush)
        return know.flush_value if flush else know.opponent_value

    def _held_kinds(self) -> list[int]:
        return [k for k, c in enumerate(self.view.counts) if c]

    # ------------------------------------------------------------------ decisions

    def turn(self, legal: Sequence[Action]) -> Action:
        counts = list(self.view.counts)
        melds = self.view.melds[self.seat]
        discards = [a for a in legal if a.kind is _DISCARD]
        kongs = [a for a in legal if a.kind is _CONCEALED_KONG or a.kind is _ADDED_KONG]
        aside = self._set_aside(legal)
        if aside is not None:
            return aside
        if self.view.locked[self.seat]:
            # a locked hand is offered only kongs that keep its waits: each pays, so take it
            return kongs[0] if kongs else discards[0]
        for action in discards:
            if action.tile in self.know.free_kongs:
                return action  # set down at once: it pays, draws again, and blocks a win held
        wild_kongs = [a for a in discards if a.tile in self.wilds]
        if wild_kongs:
            # a wild is kept while another tile can go, unless setting it down pays more
            discards = [a for a in discards if a.tile not in self.wilds] or discards
        weigh_wild_kong = bool(wild_kongs) and bool(self.know.wild_kong_fan)
        best, best_worth = self.best_discard(
            counts, melds, discards, exact_worth=bool(kongs) or weigh_wild_kong
        )
        if weigh_wild_kong and best.tile not in self.wilds:
            worth = self._wild_kong_worth(counts, melds, wild_kongs[0].tile)
            worth -= self.exposure(melds, self.know.wild_kong_fan) - self.exposure(melds)
            if worth > best_worth * self.know.wild_kong_margin:
                return wild_kongs[0]
        for kong in kongs:
            worth = self._kong_worth(counts, melds, kong)
            if worth >= best_worth * 0.95:
                return kong
        return self._declared(best, legal)

    def _set_aside(self, legal: Sequence[Action]) -> Action | None:
        """The tile set aside apart from a discard (sanma's nuki), where one is offered and the
        family's `set_aside` says to do it now; else None."""
        if self.know.set_aside is None:
            return None
        name, take = self.know.set_aside
        for action in legal:
            if action.kind.value == name and take(self.view, action.tiles[0]):
                return action
        return None

    def _declared(self, best: Action, legal: Sequence[Action]) -> Action:
        """The declaration made with the chosen discard (riichi), where one is offered with it
        and the family's `declare` says to make it; else the discard itself."""
        declare = self.know.declare
        if declare is None or best.kind is not _DISCARD:
            return best
        aside = self.know.set_aside[0] if self.know.set_aside is not None else None
        for action in legal:
            if (
                action.tiles == best.tiles
                and not isinstance(action.kind, ActionKind)
                and action.kind.value != aside  # a tile set aside is not the discard's
            ):
                if declare(self.view, best.tile):
                    return action
                break
        return best

    def best_discard(
        self,
        counts: list[int],
        melds: tuple[Meld, ...],
        discards: Sequence[Action],
        *,
        exact_worth: bool = True,
    ) -> tuple[Action, float]:
        """The discard with the most worth less danger, and that worth (without `exact_worth`,
        a lower bound of it: the choice is the same, and cheaper when only it is wanted)."""
        if len(discards) == 1:
            tile = discards[0].tile
            counts[tile] -= 1
            worth = self.worth(counts, melds)
            counts[tile] += 1
            return discards[0], worth
        dangers = self.dangers()
        base, near_live, known = self._bounds_of(counts, melds)
        general = base[0].shape
        # worth is measured only for discards that keep the shape within one of the best (one
        # tile seldom sets a hand back further, and such a discard is seldom worth it)
        after = {a.tile: general.after(a.tile, -1) for a in discards}
        floor = min(after.values())
        # branch and bound: every discard's bound first, then the estimates in the order of the
        # bounds, highest first; once a bound is below the `kept`-th best estimate so far, that
        # discard and every later one could neither be the choice nor be refined, so they are
        # not estimated (the choice is the same, whatever the order the estimates are made in)
        kept = _REFINED if self.know.exact_one_away else 1
        top: list[float] = []  # the best `kept` estimates so far, highest first
        estimates: dict[int, float] = {}
        parts: dict[Tile, _Estimate] = {}  # refining adds the one-away value to these
        bounded = []
        paying: dict[int, list[tuple[int, _Plan, float]]] = {}
        for position, action in enumerate(discards):
            tile = action.tile
            if after[tile] > floor + 1:
                continue
            counts[tile] -= 1
            paying[position], bound = known.get(tile) or self._discard_bound(
                counts, melds, base, tile, near_live
            )
            counts[tile] += 1
            # a ready hand has no bound: it is estimated first
            bounded.append(
                (_UNBOUNDED if bound is None else bound * _BOUND_SLACK - dangers[tile], position)
            )
        bounded.sort(key=itemgetter(0), reverse=True)
        for bound, position in bounded:
            if len(top) == kept and bound < top[-1]:
                break
            tile = discards[position].tile
            counts[tile] -= 1
            parts[tile] = self._estimate(counts, melds, base, tile, near_live, paying[position])
            worth = self._worth_of(counts, melds, parts[tile], exact=False)
            counts[tile] += 1
            estimates[position] = estimate = worth - dangers[tile]
            if len(top) < kept or estimate > top[-1]:
                top.append(estimate)
                top.sort(reverse=True)
                del top[kept:]
        scored = [(estimates[p], discards[p]) for p in sorted(estimates)]
        # the exact value of one-away hands is dear: it refines only the few best estimates
        scored.sort(key=itemgetter(0), reverse=True)
        if self.know.exact_one_away:

            def refine(index: int) -> None:
                action = scored[index][1]
                tile = action.tile
                if after[tile] == 1:
                    counts[tile] -= 1
                    worth = self._worth_of(counts, melds, parts[tile], exact=True)
                    counts[tile] += 1
                    scored[index] = (worth - dangers[tile], action)

            # refining never lowers an estimate (the exact one-away value only raises a worth),
            # so the first stays the choice (ties go to it) unless a refined later one overtakes
            # it: only then, or for its worth, is it refined
            first = scored[0][0]
            for index in range(1, min(_REFINED, len(scored))):
                refine(index)
            if exact_worth or any(scored[i][0] > first for i in range(1, len(scored))):
                refine(0)
        score, action = max(scored, key=itemgetter(0))
        return action, score + dangers[action.tile]

    def _wild_kong_worth(self, counts: list[int], melds: tuple[Meld, ...], wild: Tile) -> float:
        """The hand once a wild is set down as a kong: one joker fewer, the kong's fan more."""
        counts[wild] -= 1
        self.bonus_fan += self.know.wild_kong_fan
        self._set_context((wild,))
        try:
            return self.worth(counts, melds)
        finally:
            self._set_context(())
            self.bonus_fan -= self.know.wild_kong_fan
            counts[wild] += 1

    def _kong_worth(self, counts: list[int], melds: tuple[Meld, ...], kong: Action) -> float:
        tile = kong.tile
        rest = list(counts)
        if kong.kind is _CONCEALED_KONG:
            rest[tile] -= 4
            meld = Meld(MeldKind.CONCEALED_KONG, (tile,) * 4)
            new_melds = (*melds, meld)
        else:
            rest[tile] -= 1
            new_melds = tuple(
                Meld(MeldKind.ADDED_KONG, (tile,) * 4, m.claimed, m.from_seat)
                if m.kind is MeldKind.PUNG and m.first == tile
                else m
                for m in melds
            )
        pays = self.kong_income(
            MeldKind.CONCEALED_KONG if kong.kind is _CONCEALED_KONG else MeldKind.ADDED_KONG, None
        )
        cost = self.exposure(new_melds) - self.exposure(melds)
        return self.worth(rest, new_melds) + pays - cost

    def exposure(self, melds: tuple[Meld, ...], set_down_fan: int = 0) -> float:
        """What this seat expects to pay others' wins with these melds and `set_down_fan` more
        fan set down (0 where a loser's own fan does not raise what it pays)."""
        if self.know.exposure is None:
            return 0.0
        return self.know.exposure(self.view, melds, set_down_fan)

    def kong_income(self, kind: MeldKind, discarder: int | None) -> int:
        """What a kong of `kind` would pay this seat at once (kong payments, where they exist)."""
        view = self.view
        in_play = tuple(s for s in range(view.seat_count) if not view.left[s])
        payments = scoring.kong_payments(self.preset, kind, self.seat, discarder, in_play)
        return deltas_of(payments, view.seat_count)[self.seat]

    def claim(self, legal: Sequence[Action]) -> Action:
        """Call only when the hand after the call (and its best discard) is worth clearly more."""
        view = self.view
        tile = view.claim_tile
        assert tile is not None
        counts = list(view.counts)
        melds = view.melds[self.seat]
        pass_action = next(a for a in legal if a.kind is _PASS)
        calls = [a for a in legal if a.kind in (_CHOW, _PUNG, _KONG)]
        if not calls:
            return pass_action
        now_shanten = PlanShape(counts, self.preset.sets - len(melds), self.allowed).shanten
        now = None
        best: tuple[float, Action] | None = None
        for action in calls:
            rest = list(counts)
            if action.kind is _CHOW:
                for t in action.tiles:
                    if t != tile:
                        rest[t] -= 1
                meld = Meld(MeldKind.CHOW, action.tiles, tile, view.claim_from)
            else:
                size = 3 if action.kind is _KONG else 2
                rest[tile] -= size
                kind = MeldKind.KONG if action.kind is _KONG else MeldKind.PUNG
                meld = Meld(kind, (tile,) * (size + 1), tile, view.claim_from)
            new_melds = (*melds, meld)
            sets = self.preset.sets - len(new_melds)
            shape = PlanShape(rest, sets, self.allowed)
            cost = self.exposure(new_melds) - self.exposure(melds)
            if action.kind is _KONG:
                worth = self.worth(rest, new_melds)
                pays = self.kong_income(MeldKind.KONG, view.claim_from)
                worth += pays
            else:
                # quick filter: a call that does not bring the shape closer is not worth a look,
                # unless it pungs a valued honour
                held = [a for a, c in enumerate(rest) if c]
                closer = min(shape.after(t, -1) for t in held) < now_shanten
                if not closer and not (tile >= 27 and self.valued[tile]):
                    continue
                kept = [t for t in held if t not in self.wilds] or held  # wilds stay
                discards = [_discard_action(self.seat, t) for t in kept]
                if now is None:
                    now = self.worth(counts, melds)
                # a call whose best discard is bound to be worth no more than it must beat is
                # not weighed exactly (it would not be made)
                beat = now * self.know.call_margin + self.know.call_floor
                if best is not None:
                    beat = max(beat, best[0])
                bound = self.best_discard_bound(rest, new_melds, discards)
                if bound is not None and bound * _BOUND_SLACK - cost <= beat:
                    continue
                _, worth = self.best_discard(rest, new_melds, discards)
            worth -= cost
            if now is None:
                now = self.worth(counts, melds)
            gain = now * self.know.call_margin + self.know.call_floor
            if worth > gain and (best is None or worth > best[0]):
                best = (worth, action)
        return best[1] if best else pass_action

    def best_discard_bound(
        self, counts: list[int], melds: tuple[Meld, ...], discards: Sequence[Action]
    ) -> float | None:
        """An upper bound of the worth `best_discard` gives, where every discard leaves a hand
        whose worth is an estimate (two or more exchanges from ready, one where one-away hands
        are not valued exactly); None otherwise."""
        if len(discards) == 1:
            return None
        base, near_live, known = self._bounds_of(counts, melds)
        general = base[0].shape
        reach = 1 if self.know.exact_one_away else 0
        best = 0.0
        for action in discards:
            tile = action.tile
            counts[tile] -= 1
            bound = None
            if general.after(tile, -1) - self._jokers(counts) > reach:
                known[tile] = self._discard_bound(counts, melds, base, tile, near_live)
                bound = known[tile][1]
            counts[tile] += 1
            if bound is None:
                return None
            best = max(best, bound)
        return best

    def _bounds_of(
        self, counts: list[int], melds: tuple[Meld, ...]
    ) -> tuple[list[_Plan], int, dict[Tile, tuple[list[tuple[int, _Plan, float]], float | None]]]:
        """The plans of a hand, the live tiles near it and its discards' bounds found so far
        (`_discard_bound` per tile): a call's `best_discard_bound` shares them with its
        `best_discard` (the same hand, and the same melds object, kept alive here)."""
        shared = self._shared_bounds
        if shared is not None and shared[1] is melds and shared[0] == tuple(counts):
            return shared[2], shared[3], shared[4]
        base = self.plans(counts, melds)
        near_live = sum(self.unseen[kind] for kind in near_kinds(counts, self.allowed))
        known: dict[Tile, tuple[list[tuple[int, _Plan, float]], float | None]] = {}
        self._shared_bounds = (tuple(counts), melds, base, near_live, known)
        return base, near_live, known

    def _discard_bound(
        self,
        counts: list[int],
        melds: tuple[Meld, ...],
        base: list[_Plan],
        tile: Tile,
        near_live: int,
    ) -> tuple[list[tuple[int, _Plan, float]], float | None]:
        """With `tile` taken out of `counts`: the plans that pay (the same for the bound and the
        estimate) and `worth_bound`."""
        paying = self._paying_plans(counts, melds, base, self._jokers(counts))
        return paying, self.worth_bound(counts, melds, base, tile, near_live, paying)

    def opening(self, legal: Sequence[Action]) -> Action:
        """Void the weakest suit; swap or remove three of the suit to be voided where it can."""
        hand = self.view.hand
        held = [sum(1 for t in hand if t // 9 == s) for s in range(3)]
        kind = legal[0].kind
        if kind is ActionKind.VOID:
            weakest = min(range(3), key=lambda s: (held[s], _suit_strength(hand, s)))
            return next(a for a in legal if a.suit == "mps"[weakest])
        suits = [s for s in range(3) if held[s] >= 3]
        voiding = Opening.VOID in self.preset.openings
        # giving away the suit to be voided (or the weakest one) costs the least
        suit = min(suits, key=lambda s: (held[s], _suit_strength(hand, s)))
        if voiding and kind is ActionKind.SWAP:
            suit = min(suits, key=lambda s: (held[s], _suit_strength(hand, s)))
        suited = sorted(t for t in hand if t // 9 == suit)
        pick = tuple(sorted(sorted(suited, key=lambda t: _keep_value(hand, t))[:3]))
        return next(a for a in legal if a.tiles == pick)


def _flush_keeps(
    allowed: frozenset[Tile],
) -> tuple[tuple[frozenset[Tile], frozenset[Tile]] | None, ...]:
    """Per suit, the kinds a flush in it keeps (the allowed kinds of the suit) and those a half
    flush keeps (with the allowed honours); None where no kind of the suit is allowed."""
    found = _FLUSH_KEEPS.get(allowed)
    if found is None:
        keeps: list[tuple[frozenset[Tile], frozenset[Tile]] | None] = []
        for suit_kinds in _SUIT_KINDS:
            kinds = allowed.intersection(suit_kinds)
            keeps.append((kinds, allowed & frozenset((*kinds, *HONOURS))) if kinds else None)
        if len(_FLUSH_KEEPS) > _CACHE_LIMIT:
            _FLUSH_KEEPS.clear()
        found = _FLUSH_KEEPS[allowed] = tuple(keeps)
    return found


_FLUSH_KEEPS: dict[frozenset[Tile], tuple[tuple[frozenset[Tile], frozenset[Tile]] | None, ...]] = {}


def _family_score(preset: Preset) -> Callable[[Preset, WinContext], scoring.Score]:
    """The scoring function `scoring.score` hands a win of this preset to."""
    return preset.scoring.score


def _discard_action(seat: int, tile: Tile) -> Action:
    """The action of `seat` discarding `tile` (made once: a call weighs many discards)."""
    found = _DISCARD_ACTIONS.get((seat, tile))
    if found is None:
        found = _DISCARD_ACTIONS[seat, tile] = Action(seat, _DISCARD, (tile,))
    return found


_DISCARD_ACTIONS: dict[tuple[int, Tile], Action] = {}


def _allowed_kinds(
    preset: Preset, know: FamilyKnowledge, void: str | None, wilds: frozenset[Tile]
) -> frozenset[Tile]:
    """The kinds a hand of this seat may hold as themselves: the wall's, less the void suit, the
    wilds and the free kong tiles (remembered per preset object, which the entry keeps alive so
    that its id names no other)."""
    key = (id(preset), void, wilds)
    found = _ALLOWED.get(key)
    if found is None or found[0] is not preset or found[1] is not know:
        if len(_ALLOWED) > _CACHE_LIMIT:
            _ALLOWED.clear()
        allowed = frozenset(
            kind
            for kind in preset.tile_kinds
            if kind < 34
            and (void is None or kind // 9 != "mps".index(void))
            and kind not in wilds
            and kind not in know.free_kongs
        )
        found = _ALLOWED[key] = (preset, know, allowed)
    return found[2]


def _bonus_fan(know: FamilyKnowledge, bonus: tuple[Tile, ...], seat: int) -> int:
    """The family's fan of a seat's bonus tiles, remembered (it scores them as a win would)."""
    key = (know.bonus_fan, bonus, seat)
    found = _BONUS_FAN.get(key)
    if found is None:
        if len(_BONUS_FAN) > _CACHE_LIMIT:
            _BONUS_FAN.clear()
        found = _BONUS_FAN[key] = know.bonus_fan(bonus, seat)
    return found


_ALLOWED: dict[
    tuple[int, str | None, frozenset[Tile]], tuple[Preset, FamilyKnowledge, frozenset[Tile]]
] = {}
_BONUS_FAN: dict[tuple[object, ...], int] = {}
_WAITS: dict[tuple[object, ...], tuple[Tile, ...]] = {}
_WAIT_WORTH: dict[tuple[object, ...], dict[Tile, float]] = {}
_ONE_AWAY: dict[tuple[object, ...], tuple[tuple[Tile, tuple[tuple[int, ...], ...]], ...]] = {}
_CACHE_LIMIT = 100_000


def clear_caches() -> None:
    """Forget what is remembered across decisions (for tests: a choice never depends on it)."""
    for cache in (_WAITS, _WAIT_WORTH, _ONE_AWAY, _ALLOWED, _BONUS_FAN, _FLUSH_KEEPS):
        cache.clear()


def _with_tile(counts: Sequence[int], tile: Tile) -> tuple[Tile, ...]:
    """The tiles of `counts` and `tile`, sorted."""
    tiles: list[Tile] = []
    extend = tiles.extend
    for kind, count in enumerate(counts):
        if count:
            extend((kind,) * count)
    insort(tiles, tile)
    return tuple(tiles)


def _weighs_self_draw(view: SeatView) -> bool:
    """Whether a discard win offered may be passed for a self draw: where the winner leaves the
    hand (the others play on), or where the family says when a self draw pays enough more."""
    if view.preset.after_win is AfterWin.LEAVE:
        return True
    return knowledge_for_table(view.preset).hold_margin is not None


_SIMPLES = frozenset(k for k in range(27) if k % 9 not in (0, 8))


def _simples(allowed: frozenset[Tile]) -> frozenset[Tile]:
    """The allowed kinds that are neither a terminal nor an honour."""
    return allowed & _SIMPLES


def _simple_meld(meld: Meld) -> bool:
    return all(t in _SIMPLES for t in meld.tiles)


def _opened(melds: Sequence[Meld]) -> bool:
    """Whether a call has opened the hand (a concealed kong does not)."""
    return any(m.kind is not MeldKind.CONCEALED_KONG for m in melds)


def _flush_suit(melds: Sequence[Meld], pond: Sequence[Tile]) -> int | None:
    """The suit an opponent seems to collect: every suited meld in it, or a pond without it."""
    suits = {m.first // 9 for m in melds if m.first < 27}
    if len(suits) == 1 and len(melds) >= 2:
        return next(iter(suits))
    if len(pond) >= 8:
        per_suit = [0, 0, 0]
        for t in pond:
            if t < 27:
                per_suit[t // 9] += 1
        low = min(range(3), key=per_suit.__getitem__)
        if per_suit[low] == 0 and not suits - {low}:
            return low
    return None


def _suit_strength(hand: Sequence[Tile], suit: int) -> int:
    counts = [0] * 9
    for t in hand:
        if t < 27 and t // 9 == suit:
            counts[t % 9] += 1
    return sum(c * c for c in counts) + sum(1 for i in range(8) if counts[i] and counts[i + 1])


def _keep_value(hand: Sequence[Tile], tile: Tile) -> int:
    """How much a suited tile is worth keeping: copies and neighbours held."""
    copies = sum(1 for t in hand if t == tile)
    near = sum(
        1 for t in hand if t != tile and t < 27 and t // 9 == tile // 9 and abs(t - tile) <= 2
    )
    return copies * 3 + near * 2 - (1 if tile % 9 in (0, 8) else 0)
