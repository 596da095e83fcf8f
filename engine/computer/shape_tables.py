"""Distance to a complete hand *of a plan* (a flush, all pungs), read from engine.shapes' tables.

`engine.shapes.shanten` answers for the whole hand. A plan restricts the hand: a flush keeps only
its suit (and honours), all pungs keeps no chows. Tiles outside the plan must be swapped away, so
the plan's distance is that of the kept tiles towards a hand with the full number of sets. The
per-suit tables of engine.shapes answer this too (a suit read without chows is what its honour
tables do), so this module reuses them through their lookup helpers; it is the one place the
computer player touches engine.shapes' internals, kept small for when those change.

>>> from engine.tiles import counts_of, parse_tiles
>>> counts = counts_of(parse_tiles("123m456m789m11p22s3z"))
>>> PlanShape(counts, 4, keep=range(0, 9)).shanten  # a man flush: the 1p 1p 2s 2s 3z go
4
>>> PlanShape(counts, 4, keep=range(34)).shanten  # ready once the 3z goes
0
>>> PlanShape(counts_of(parse_tiles("111m234m11p22s3z")), 3, range(34), chows=False).shanten
2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import shapes

_TABLES = shapes._TABLES
_SUIT_IDS = shapes._SUIT_IDS
_HONOUR_IDS = shapes._HONOUR_IDS
_fill_component_id = shapes._fill_component_id
_merged_id = shapes._merged_id

_STARTS = (0, 9, 18, 27)
_ENDS = (9, 18, 27, 34)


def _honour_like(key: tuple[int, ...]) -> int:
    found = _HONOUR_IDS.get(key)
    return _fill_component_id(key, _HONOUR_IDS, False) if found is None else found


def _component(counts: Sequence[int], component: int, chows: bool) -> int:
    return _component_of(tuple(counts[_STARTS[component] : _ENDS[component]]), component, chows)


def _component_of(key: tuple[int, ...], component: int, chows: bool) -> int:
    if component == 3:
        return _honour_like(key)
    if not chows:
        # without chows the nine kinds of a suit are independent, as honours are: read them as
        # two honour components (seven kinds, then two padded with empty kinds) merged
        return _merged_id(_honour_like(key[:7]), _honour_like((*key[7:], 0, 0, 0, 0, 0)))
    found = _SUIT_IDS.get(key)
    return _fill_component_id(key, _SUIT_IDS, True) if found is None else found


def _drawn_ids(counts: Sequence[int], component: int, chows: bool) -> tuple[int, ...]:
    """Per kind of a component, its table id once one more tile of that kind is held (-1 where
    four are held): a component's counts recur across hands, so these are worked out once."""
    key = tuple(counts[_STARTS[component] : _ENDS[component]])
    cache_key = (key, component == 3, chows)
    found = _DRAWN_IDS.get(cache_key)
    if found is None:
        ids = []
        work = list(key)
        for position, count in enumerate(key):
            if count >= 4:
                ids.append(-1)
                continue
            work[position] += 1
            ids.append(_component_of(tuple(work), component, chows))
            work[position] -= 1
        found = _DRAWN_IDS[cache_key] = tuple(ids)
    return found


_DRAWN_IDS: dict[tuple[tuple[int, ...], bool, bool], tuple[int, ...]] = {}


class PlanShape:
    """The kept tiles of a hand under one plan and their distance to a complete plan hand.

    `shanten` is 3·sets + 1 minus the most kept tiles that fit one complete shape (as
    engine.shapes measures it); `after(kind, delta)` is the same once `delta` tiles of `kind` have
    entered (+1) or left (−1) the hand. Tiles of kinds outside `keep` never count.
    """

    __slots__ = ("chows", "counts", "ids", "keep", "sets", "shanten")

    def __init__(
        self, counts: Sequence[int], sets: int, keep: Iterable[int], *, chows: bool = True
    ) -> None:
        kept = frozenset(keep)
        self.keep = kept
        self.counts = [c if kind in kept else 0 for kind, c in enumerate(counts)]
        self.sets = sets
        self.chows = chows
        self.ids = [_component(self.counts, k, chows) for k in range(4)]
        self.shanten = self._distance(self.ids)

    def _distance(self, ids: list[int]) -> int:
        whole = _merged_id(_merged_id(_merged_id(ids[0], ids[1]), ids[2]), ids[3])
        return 3 * self.sets + 1 - _TABLES[whole][self.sets * 2 + 1]

    def moved(self, kind: int, delta: int) -> PlanShape:
        """The same plan once `delta` tiles of `kind` have entered or left the hand."""
        new = PlanShape.__new__(PlanShape)
        new.keep, new.sets, new.chows = self.keep, self.sets, self.chows
        new.counts = list(self.counts)
        new.ids = list(self.ids)
        new.shanten = self.shanten
        if kind in self.keep:
            new.counts[kind] += delta
            component = 3 if kind >= 27 else kind // 9
            new.ids[component] = _component(new.counts, component, self.chows)
            new.shanten = new._distance(new.ids)
        return new

    def after(self, kind: int, delta: int) -> int:
        """The plan's shanten with `delta` more tiles of `kind` (a kind outside the plan: as is)."""
        if kind not in self.keep:
            return self.shanten
        counts = self.counts
        if not 0 <= counts[kind] + delta <= 4:
            return self.shanten + 1
        counts[kind] += delta
        try:
            component = 3 if kind >= 27 else kind // 9
            ids = list(self.ids)
            ids[component] = _component(counts, component, self.chows)
            return self._distance(ids)
        finally:
            counts[kind] -= delta

    def _near(self) -> list[int]:
        """Kinds a drawn tile could help: held kinds and their neighbours within the plan."""
        if not any(self.counts):
            return sorted(self.keep)
        return near_kinds(self.counts, self.keep)

    def improving(self, unseen: Sequence[int]) -> tuple[int, tuple[int, ...]]:
        """Live copies (per `unseen`) of kinds that bring a 3n+1 hand closer, and those kinds."""
        key = (tuple(self.counts), self.sets, self.chows, self.keep)
        kinds = _IMPROVING.get(key)
        if kinds is None:
            if len(_IMPROVING) > _CACHE_LIMIT:
                _IMPROVING.clear()
            kinds = _IMPROVING[key] = self._improving_kinds()
        return sum([unseen[kind] for kind in kinds]), kinds

    def _improving_kinds(self) -> tuple[int, ...]:
        counts, ids, sets, chows = self.counts, self.ids, self.sets, self.chows
        # a drawn tile changes one component: merge the other three once per component
        rests = (
            _merged_id(_merged_id(ids[1], ids[2]), ids[3]),
            _merged_id(_merged_id(ids[0], ids[2]), ids[3]),
            _merged_id(_merged_id(ids[0], ids[1]), ids[3]),
            _merged_id(_merged_id(ids[0], ids[1]), ids[2]),
        )
        target = 3 * sets + 1 - self.shanten  # overlap to beat
        index = sets * 2 + 1
        found = []
        drawn: dict[int, tuple[int, ...]] = {}
        for kind in self._near():
            if counts[kind] >= 4:
                continue
            component = 3 if kind >= 27 else kind // 9
            ids_after = drawn.get(component)
            if ids_after is None:
                ids_after = drawn[component] = _drawn_ids(counts, component, chows)
            changed = ids_after[kind - _STARTS[component]]
            if _TABLES[_merged_id(rests[component], changed)][index] > target:
                found.append(kind)
        return tuple(found)


_IMPROVING: dict[tuple[object, ...], tuple[int, ...]] = {}
_CACHE_LIMIT = 200_000


def _forget() -> None:
    """Both caches hold engine.shapes table ids: they go when its tables go."""
    _DRAWN_IDS.clear()
    _IMPROVING.clear()


shapes.ON_CLEAR.append(_forget)


def near_kinds(counts: Sequence[int], keep: frozenset[int]) -> list[int]:
    near: set[int] = set()
    for kind, count in enumerate(counts):
        if not count:
            continue
        if kind >= 27:
            near.add(kind)
            continue
        rank = kind % 9
        near.update(range(kind - min(rank, 2), kind + min(8 - rank, 2) + 1))
    return sorted(near & keep)


def seven_pairs_shanten(counts: Sequence[int], kong_as_two_pairs: bool) -> int:
    """Shanten towards seven pairs of a 13- or 14-tile closed hand (as engine.shapes counts)."""
    if kong_as_two_pairs:
        pairs = sum(min(c // 2, 2) for c in counts)
        singles = sum(1 for c in counts if c in (1, 3))
        need = max(0, 7 - pairs)
        return 2 * need - min(need, singles) - 1
    kinds = sum(1 for c in counts if c)
    pairs = sum(1 for c in counts if c >= 2)
    return 6 - pairs + max(0, 7 - kinds)
