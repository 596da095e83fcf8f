"""The strong computer's decisions: the discard with the most worth less danger (folding, when
the own hand is far and the table is hot), calls and kongs only when the hand after them is worth
clearly more, the opening choices (void, swap), and passing a discard win for a self draw where
that is expected to pay more.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from engine import scoring
from engine.actions import Action, ActionKind
from engine.computer.danger import Defence
from engine.computer.shape_tables import PlanShape, near_kinds
from engine.computer.valuation import Estimate, Plan
from engine.presets import Opening
from engine.scoring.base import WinBy
from engine.settlement import deltas_of
from engine.tiles import Meld, MeldKind, Tile

_WIN, _DISCARD, _PASS = ActionKind.WIN, ActionKind.DISCARD, ActionKind.PASS
_CHOW, _PUNG, _KONG = ActionKind.CHOW, ActionKind.PUNG, ActionKind.KONG
_CONCEALED_KONG, _ADDED_KONG = ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG
# A self draw must be expected to pay this many times the discard win it passes (1.0, 1.5 and
# never were measured in sichuan-bb and sichuan-swap3: 1.0 gained the most)
_HOLD_MARGIN = 1.0
_REFINED = 3  # discards whose estimate is refined by the exact one-away value
_BOUND_SLACK = 1.0 + 1e-9  # a bound is raised by this much, against rounding
_UNBOUNDED = float("inf")


class Player(Defence):
    """One decision of the strong computer, made from a SeatView."""

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
        parts: dict[Tile, Estimate] = {}  # refining adds the one-away value to these
        bounded = []
        paying: dict[int, list[tuple[int, Plan, float]]] = {}
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
    ) -> tuple[list[Plan], int, dict[Tile, tuple[list[tuple[int, Plan, float]], float | None]]]:
        """The plans of a hand, the live tiles near it and its discards' bounds found so far
        (`_discard_bound` per tile): a call's `best_discard_bound` shares them with its
        `best_discard` (the same hand, and the same melds object, kept alive here)."""
        shared = self._shared_bounds
        if shared is not None and shared[1] is melds and shared[0] == tuple(counts):
            return shared[2], shared[3], shared[4]
        base = self.plans(counts, melds)
        near_live = sum(self.unseen[kind] for kind in near_kinds(counts, self.allowed))
        known: dict[Tile, tuple[list[tuple[int, Plan, float]], float | None]] = {}
        self._shared_bounds = (tuple(counts), melds, base, near_live, known)
        return base, near_live, known

    def _discard_bound(
        self,
        counts: list[int],
        melds: tuple[Meld, ...],
        base: list[Plan],
        tile: Tile,
        near_live: int,
    ) -> tuple[list[tuple[int, Plan, float]], float | None]:
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


def _discard_action(seat: int, tile: Tile) -> Action:
    """The action of `seat` discarding `tile` (made once: a call weighs many discards)."""
    found = _DISCARD_ACTIONS.get((seat, tile))
    if found is None:
        found = _DISCARD_ACTIONS[seat, tile] = Action(seat, _DISCARD, (tile,))
    return found


_DISCARD_ACTIONS: dict[tuple[int, Tile], Action] = {}


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
