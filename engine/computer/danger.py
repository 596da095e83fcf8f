"""The strong computer's defence: what a discard is expected to cost against opponents who look
ready (many melds, a long pond, a one-suit pond, a revealed blood-flow hand), and what a seat's
melds expose it to.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import shapes
from engine.computer.valuation import Valuation
from engine.seat_view import SeatView
from engine.tiles import Meld, Tile

_REVEALED_DANGER = 1.5  # a locked hand's known wait costs more than a typical win: it stays
_HONOUR_DANGER = (0.0, 0.2, 0.5)  # by copies unseen: none, one, more
_RANK_DANGER = (0.55, 0.8, 1.0, 1.0, 1.0, 1.0, 1.0, 0.8, 0.55)


class Defence(Valuation):
    """Valuation with the dangers of discards and the exposure of melds."""

    def __init__(self, view: SeatView) -> None:
        super().__init__(view)
        self._dangers: list[float] | None = None

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

    def exposure(self, melds: tuple[Meld, ...], set_down_fan: int = 0) -> float:
        """What this seat expects to pay others' wins with these melds and `set_down_fan` more
        fan set down (0 where a loser's own fan does not raise what it pays)."""
        if self.know.exposure is None:
            return 0.0
        return self.know.exposure(self.view, melds, set_down_fan)


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
