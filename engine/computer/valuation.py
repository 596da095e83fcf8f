"""The strong computer's valuation: what a hand is worth to the seat that holds it.

A *plan* is a way to score (any hand, a flush in one suit, all pungs, seven pairs); each has the
tiles it keeps, the fan it brings (from the preset's advice) and a distance in tile
exchanges. A hand's worth is, over its plans, the points the plan pays times the chance of
completing it from the live tiles that improve it (tiles this seat can see are not live). Plans
below the preset's minimum are worth nothing; a ready hand is valued exactly by scoring each wait,
and a hand one exchange from ready by the ready hands its live draws lead to. What tiles alone
decide is remembered across decisions (`clear_caches` forgets it).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, NamedTuple

from engine import scoring, shapes
from engine.advice import FamilyKnowledge
from engine.computer.knowledge import knowledge_for_table
from engine.computer.shape_tables import (
    PlanShape,
    near_kinds,
    seven_pairs_shanten,
    special_deficit,
)
from engine.preset import Preset
from engine.rules import wild_free
from engine.scoring.base import WinBy, WinContext
from engine.seat_view import SeatView
from engine.tiles import DRAGONS, HONOURS, WINDS, Meld, MeldKind, Tile

_SUIT_KINDS = (range(0, 9), range(9, 18), range(18, 27))
# A hand with a line to a valid win near its shape is worth this much more than a dead one:
# more than the guesses of defence weigh, less than a real difference in value.
_LIVE_BONUS = 0.05
_DEAD_READY = 0.00005  # a ready hand none of whose waits can win: below any live plan
_LIVE_REACH = 0  # exchanges beyond the hand's best shape that still count as a line
_WIDTH = 10  # live tiles at which a step is half as likely as with unlimited tiles
_DRAWS_PER_STEP = 3  # own draws an exchange takes, for the time left
_CHANCE_FACTORS = 10  # shanten whose chance factors a decision works out at once


@dataclass(slots=True)
class Plan:
    name: str
    shape: PlanShape
    fan: int  # fan of the plan's own pattern (a flush, all pungs, seven pairs; 0 for any hand)
    honours: bool  # whether valued honour pungs add to it (a plan that keeps honours)


class Estimate(NamedTuple):
    """A hand's worth short of the exact one-away value: a ready hand's worth (`ready`), or
    the best plan's value and live line (`lines`) and the trace of the shape (`trace`)."""

    ready: float | None
    shanten: int  # the hand's shanten, held wilds counted as jokers
    lines: float
    trace: float


class Valuation:
    """The work of one decision: the view, the family's knowledge, cached facts, and what
    hands are worth."""

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
        self._standings: dict[tuple[tuple[int, ...], tuple[Meld, ...]], float] = {}
        self._values: dict[float, float] = {}  # value() per fan: worked out once per decision
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
                list[Plan],
                int,
                dict[Tile, tuple[list[tuple[int, Plan, float]], float | None]],
            ]
            | None
        ) = None

    # ------------------------------------------------------------------ plans and worth

    def plans(self, counts: list[int], melds: tuple[Meld, ...]) -> list[Plan]:
        """The plans open to a hand of these concealed counts and melds (the first: any hand)."""
        know, preset = self.know, self.preset
        sets = preset.sets - len(melds)
        meld_suits = {m.first // 9 for m in melds if m.first < 27}
        honour_melds = any(m.first >= 27 for m in melds)
        chow_melds = any(m.kind is MeldKind.CHOW for m in melds)
        plans = [Plan("any", PlanShape(counts, sets, self.allowed), 0, True)]
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
                plans.append(Plan("half", PlanShape(counts, sets, keep), know.half_flush, True))
            if not honour_melds:
                shape = PlanShape(counts, sets, kinds)
                plans.append(Plan("pure", shape, know.pure_flush, False))
        if know.all_simples and all(_simple_meld(m) for m in melds):
            shape = PlanShape(counts, sets, _simples(self.allowed))
            plans.append(Plan("simples", shape, know.all_simples, False))
        pairs = sum(1 for c in counts if c >= 2)
        if know.all_pungs and not chow_melds and pairs + len(melds) >= 3:
            shape = PlanShape(counts, sets, self.allowed, chows=False)
            plans.append(Plan("pungs", shape, know.all_pungs, True))
        if know.seven_pairs and self.preset.shape_rules.seven_pairs and not melds and pairs >= 4:
            # the shape stands in; worth() measures seven pairs from the counts
            plans.append(Plan("pairs", plans[0].shape, know.seven_pairs, False))
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
        base: list[Plan] | None = None,
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
        base: list[Plan] | None,
        discarded: int,
        near_live: int | None = None,
        paying: list[tuple[int, Plan, float]] | None = None,
    ) -> Estimate:
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
                return Estimate(ready, general_shanten, 0.0, 0.0)
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
        return Estimate(None, general_shanten, best + live_line, trace)

    def _worth_of(
        self, counts: list[int], melds: tuple[Meld, ...], estimate: Estimate, exact: bool
    ) -> float:
        """The worth of a hand from its estimate (`exact`: with the exact one-away value)."""
        if estimate.ready is not None:
            return estimate.ready + self.standing(counts, melds)
        best = estimate.lines
        if exact and estimate.shanten == 1 and self.know.exact_one_away:
            best = max(best, self.one_away_worth(counts, melds))
        if self.know.closed_share < 1.0 and not _opened(melds):
            best *= self.know.closed_share  # only an open hand may win: a call must come first
        return best + estimate.trace + self.standing(counts, melds)

    def standing(self, counts: Sequence[int], melds: tuple[Meld, ...]) -> float:
        """What the hand is worth as it stands should another seat win (the family's
        `standing`; 0 where a losing hand is worth nothing), worked out once per decision."""
        if self.know.standing is None:
            return 0.0
        key = (tuple(counts), melds)
        found = self._standings.get(key)
        if found is None:
            found = self._standings[key] = self.know.standing(self.view, *key)
        return found

    def _paying_plans(
        self, counts: list[int], melds: tuple[Meld, ...], plans: list[Plan], jokers: int
    ) -> list[tuple[int, Plan, float]]:
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
        base: list[Plan],
        discarded: int,
        near_live: int,
        paying: list[tuple[int, Plan, float]] | None = None,
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
        bound = best + 0.0001 * self.chance(general_shanten, live + self.wild_live)
        return bound + self.standing(counts, melds)

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

    def _waits(self, counts: Sequence[int]) -> Sequence[Tile]:
        """The waits of a ready hand, held wilds standing in (and every wild drawn completing)."""
        jokers = self._jokers(counts)
        if not jokers:
            # where only sets and a pair can complete it, the shape tables name its waits: the
            # draws that complete it (as engine.shapes.waits finds them, several times faster)
            standard = self._standard_shape(counts, 1)
            if standard is not None and standard.shanten == 0:
                return standard.improving_kinds()
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


_SIMPLES = frozenset(k for k in range(27) if k % 9 not in (0, 8))


def _simples(allowed: frozenset[Tile]) -> frozenset[Tile]:
    """The allowed kinds that are neither a terminal nor an honour."""
    return allowed & _SIMPLES


def _simple_meld(meld: Meld) -> bool:
    return all(t in _SIMPLES for t in meld.tiles)


def _opened(melds: Sequence[Meld]) -> bool:
    """Whether a call has opened the hand (a concealed kong does not)."""
    return any(m.kind is not MeldKind.CONCEALED_KONG for m in melds)
