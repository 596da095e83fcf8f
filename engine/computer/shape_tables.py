"""Distance to a complete hand *of a plan* (a flush, all pungs), read from engine.shapes' tables.

`engine.shapes.shanten` answers for the whole hand. A plan restricts the hand: a flush keeps only
its suit (and honours), all pungs keeps no chows. Tiles outside the plan must be swapped away, so
the plan's distance is that of the kept tiles towards a hand with the full number of sets. The
per-suit tables of engine.shapes answer this too (a suit read without chows is what its honour
tables do), so this module reuses them through their lookup helpers; it is the one place the
computer player touches engine.shapes' internals, kept small for when those change.

Why it is fast: a hand is four *components* (three suits, the honours), each a table id of
engine.shapes. What a component's counts lead to (its id, its ids after one more or one fewer tile
of each kind, the kinds a draw could help) is worked out once per count pattern and shared by
every hand holding it. A change of one kind changes one component, so a shape keeps, per
component, the merge of the other three (its *rest*): a discard's shanten is one merge away, and
the live tiles that improve a shape are found per component from its rest and its counts, a
pair of facts that recurs across hands far more often than whole hands do.

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
_COMPONENT_OF = (0,) * 9 + (1,) * 9 + (2,) * 9 + (3,) * 7
_CACHE_LIMIT = 200_000


def _honour_like(key: tuple[int, ...]) -> int:
    found = _HONOUR_IDS.get(key)
    return _fill_component_id(key, _HONOUR_IDS, False) if found is None else found


def _component_of(key: tuple[int, ...], component: int, chows: bool) -> int:
    if component == 3:
        return _honour_like(key)
    if not chows:
        # without chows the nine kinds of a suit are independent, as honours are: read them as
        # two honour components (seven kinds, then two padded with empty kinds) merged
        return _merged_id(_honour_like(key[:7]), _honour_like((*key[7:], 0, 0, 0, 0, 0)))
    found = _SUIT_IDS.get(key)
    return _fill_component_id(key, _SUIT_IDS, True) if found is None else found


class _Facts:
    """What one component's counts lead to, worked out once per count pattern.

    `id` is its table id; `drawn_id(p)` / `dropped_id(p)` the id with one more / one fewer tile
    at position p (-1 where that cannot be: four held, or none); `near` the positions a drawn tile
    could help (held kinds and, in a suit, those up to two ranks from one). The three suits read
    alike, so one pattern's facts serve each of them.
    """

    __slots__ = (
        "_moved",
        "blank",
        "chows",
        "drawn",
        "dropped",
        "honours",
        "id",
        "improving",
        "key",
        "near",
        "tiles",
    )

    def __init__(self, key: tuple[int, ...], honours: bool, chows: bool) -> None:
        self.key, self.honours, self.chows = key, honours, chows
        component = 3 if honours else 0
        # the facts of the counts one tile away, found once: [position * 2 + (delta > 0)]
        self._moved: list[_Facts | None] = [None] * (2 * len(key))
        # per (component, rest, sets, mask, empty) as one int: the kinds whose draw improves the
        # shape
        self.improving: dict[int, tuple[int, ...]] = {}
        self.tiles = sum(key)
        self.blank = not self.tiles
        self.id = _component_of(key, component, chows)
        # filled on demand: most neighbours of a pattern are never asked for
        self.drawn: list[int | None] = [None] * len(key)
        self.dropped: list[int | None] = [None] * len(key)
        near: set[int] = set()
        for position, count in enumerate(key):
            if not count:
                continue
            if honours:
                near.add(position)
            else:
                near.update(range(max(0, position - 2), min(8, position + 2) + 1))
        self.near = tuple(sorted(near))

    def drawn_id(self, position: int) -> int:
        """The table id with one more tile at `position` (-1 where four are held)."""
        found = self.drawn[position]
        if found is None:
            found = self.drawn[position] = self._neighbour_id(position, 1)
        return found

    def dropped_id(self, position: int) -> int:
        """The table id with one fewer tile at `position` (-1 where none is held)."""
        found = self.dropped[position]
        if found is None:
            found = self.dropped[position] = self._neighbour_id(position, -1)
        return found

    def _neighbour_id(self, position: int, delta: int) -> int:
        key = self.key
        count = key[position] + delta
        if not 0 <= count <= 4:
            return -1
        changed = (*key[:position], count, *key[position + 1 :])
        return _component_of(changed, 3 if self.honours else 0, self.chows)

    def moved(self, position: int, delta: int) -> _Facts:
        """The facts of these counts with `delta` (+1 or -1) tiles at `position`."""
        slot = 2 * position + (delta > 0)
        found = self._moved[slot]
        if found is None:
            key = self.key
            changed = (*key[:position], key[position] + delta, *key[position + 1 :])
            found = self._moved[slot] = _facts(changed, 3 if self.honours else 0, self.chows)
        return found


def _facts(key: tuple[int, ...], component: int, chows: bool) -> _Facts:
    cache_key = (key, component == 3, chows)
    found = _FACTS.get(cache_key)
    if found is None:
        if len(_FACTS) > _CACHE_LIMIT:
            _FACTS.clear()
        found = _FACTS[cache_key] = _Facts(key, component == 3, chows)
    return found


_FACTS: dict[tuple[tuple[int, ...], bool, bool], _Facts] = {}


def _keep_masks(keep: frozenset[int]) -> tuple[int, int, int, int]:
    """Per component, a bit per position for the kinds the plan keeps."""
    found = _MASKS.get(keep)
    if found is None:
        masks = [0, 0, 0, 0]
        for kind in keep:
            if 0 <= kind < 34:
                masks[_COMPONENT_OF[kind]] |= 1 << (kind - _STARTS[_COMPONENT_OF[kind]])
        found = _MASKS[keep] = (masks[0], masks[1], masks[2], masks[3])
    return found


_MASKS: dict[frozenset[int], tuple[int, int, int, int]] = {}
# The facts hold engine.shapes' table ids, which engine.shapes.clear_caches() gives out anew: its
# first table tells whether the ids known here are still the ones it uses.
_tables_seen: list[tuple[int, ...] | None] = [None]


def _forget_tables() -> None:
    _FACTS.clear()
    _tables_seen[0] = _TABLES[0] if _TABLES else None


class PlanShape:
    """The kept tiles of a hand under one plan and their distance to a complete plan hand.

    `shanten` is 3·sets + 1 minus the most kept tiles that fit one complete shape (as
    engine.shapes measures it); `after(kind, delta)` is the same once `delta` tiles of `kind` have
    entered (+1) or left (−1) the hand. Tiles of kinds outside `keep` never count.
    """

    __slots__ = ("_kinds", "_rests", "chows", "facts", "keep", "masks", "sets", "shanten")

    def __init__(
        self, counts: Sequence[int], sets: int, keep: Iterable[int], *, chows: bool = True
    ) -> None:
        if (_TABLES[0] if _TABLES else None) is not _tables_seen[0]:
            _forget_tables()
        kept = keep if isinstance(keep, frozenset) else frozenset(keep)
        self.keep = kept
        self.masks = masks = _keep_masks(kept)
        self.sets = sets
        self.chows = chows
        keys = []
        for component in range(4):
            start, mask = _STARTS[component], masks[component]
            part = counts[start : _ENDS[component]]
            if mask == (1 << len(part)) - 1:
                keys.append(tuple(part))
            else:
                keys.append(tuple(c if mask >> p & 1 else 0 for p, c in enumerate(part)))
        self.facts = [_facts(key, component, chows) for component, key in enumerate(keys)]
        self._rests: tuple[int, int, int, int] | None = None
        self._kinds: tuple[int, ...] | None = None
        ids = [facts.id for facts in self.facts]
        whole = _merged_id(_merged_id(_merged_id(ids[0], ids[1]), ids[2]), ids[3])
        self.shanten = self._distance(whole)

    @property
    def kept_tiles(self) -> int:
        """How many tiles the plan keeps."""
        return self.facts[0].tiles + self.facts[1].tiles + self.facts[2].tiles + self.facts[3].tiles

    @property
    def counts(self) -> list[int]:
        """The kept counts, 34 long."""
        return [c for facts in self.facts for c in facts.key]

    def _distance(self, whole: int) -> int:
        return 3 * self.sets + 1 - _TABLES[whole][self.sets * 2 + 1]

    def rests(self) -> tuple[int, int, int, int]:
        """Per component, the table id of the other three merged."""
        rests = self._rests
        if rests is None:
            first, second, third, fourth = self.facts
            a, b, c, h = first.id, second.id, third.id, fourth.id
            ab, ch = _merged_id(a, b), _merged_id(c, h)
            rests = self._rests = (
                _merged_id(b, ch),
                _merged_id(a, ch),
                _merged_id(ab, h),
                _merged_id(ab, c),
            )
        return rests

    def moved(self, kind: int, delta: int) -> PlanShape:
        """The same plan once `delta` (+1 or -1) tiles of `kind` have entered or left the hand."""
        component = _COMPONENT_OF[kind]
        position = kind - _STARTS[component]
        if not self.masks[component] >> position & 1:
            return self
        new = PlanShape.__new__(PlanShape)
        new.keep, new.masks, new.sets, new.chows = self.keep, self.masks, self.sets, self.chows
        facts = self.facts[component].moved(position, delta)
        new.facts = list(self.facts)
        new.facts[component] = facts
        new._kinds = None
        # the other three components are as they were: so is their merge
        rest = self.rests()[component]
        new._rests = None
        new.shanten = new._distance(_merged_id(rest, facts.id))
        return new

    def after(self, kind: int, delta: int) -> int:
        """The plan's shanten with `delta` (+1 or -1) more tiles of `kind` (a kind outside the
        plan: as is; a count that would leave 0-4: one worse)."""
        component = _COMPONENT_OF[kind]
        position = kind - _STARTS[component]
        if not self.masks[component] >> position & 1:
            return self.shanten
        facts = self.facts[component]
        changed = facts.drawn_id(position) if delta > 0 else facts.dropped_id(position)
        if changed < 0:
            return self.shanten + 1
        return self._distance(_merged_id(self.rests()[component], changed))

    def improving(self, unseen: Sequence[int]) -> tuple[int, tuple[int, ...]]:
        """Live copies (per `unseen`) of kinds that bring a 3n+1 hand closer, and those kinds."""
        kinds = self.improving_kinds()
        return sum([unseen[kind] for kind in kinds]), kinds

    def improving_kinds(self) -> tuple[int, ...]:
        """The kept kinds whose draw brings a 3n+1 hand closer, in order (none of four held)."""
        kinds = self._kinds
        if kinds is None:
            kinds = self._kinds = self._improving_kinds()
        return kinds

    def _improving_kinds(self) -> tuple[int, ...]:
        rests, masks, sets = self.rests(), self.masks, self.sets
        a, b, c, h = self.facts
        empty = a.blank and b.blank and c.blank and h.blank
        found: tuple[int, ...] = ()
        for component, facts in enumerate(self.facts):
            mask = masks[component]
            if not mask:
                continue
            # one int, not a tuple: this lookup runs for every plan of every candidate discard
            rest = rests[component]
            cache_key = (((rest << 3 | sets) << 10 | mask) << 1 | empty) << 2 | component
            kinds = facts.improving.get(cache_key)
            if kinds is None:
                kinds = facts.improving[cache_key] = _component_improving(
                    facts, component, rests[component], sets, mask, empty
                )
            if kinds:
                found += kinds
        return found


def _component_improving(
    facts: _Facts, component: int, rest: int, sets: int, mask: int, empty: bool
) -> tuple[int, ...]:
    """Kinds of one component whose draw raises the best overlap of the whole shape; the other
    components are `rest` (a drawn tile changes only its own component)."""
    index = sets * 2 + 1
    now = _TABLES[_merged_id(rest, facts.id)][index]
    start = _STARTS[component]
    positions = range(len(facts.key)) if empty else facts.near
    found = []
    for position in positions:
        if not mask >> position & 1:
            continue
        changed = facts.drawn_id(position)
        if changed >= 0 and _TABLES[_merged_id(rest, changed)][index] > now:
            found.append(start + position)
    return tuple(found)


shapes.ON_CLEAR.append(_forget_tables)


def near_kinds(counts: Sequence[int], keep: frozenset[int]) -> list[int]:
    """Kinds a drawn tile could help, in order: held kinds and, in a suit, those up to two ranks
    from a held one, among `keep`."""
    near: list[int] = []
    for component in range(4):
        start = _STARTS[component]
        key = tuple(counts[start : _ENDS[component]])
        if not any(key):
            continue
        near.extend(start + p for p in _facts(key, component, True).near if start + p in keep)
    return near


def special_deficit(counts: Sequence[int], rules: shapes.ShapeRules) -> int:
    """Tiles missing from the nearest special shape the rules allow (seven pairs, thirteen
    orphans; a large number where none is allowed). A tile drawn lowers it by one at most, so a
    hand whose deficit exceeds the tiles still to come completes only as sets and a pair."""
    found = 99
    if rules.seven_pairs:
        found = shapes._seven_pairs_deficit(counts, rules.kong_as_two_pairs)
    if rules.thirteen_orphans:
        found = min(found, shapes._thirteen_orphans_deficit(counts))
    return found


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
