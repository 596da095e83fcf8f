"""Shape analysis on concealed tiles: complete or not, distance from ready, waits (the hot path).

A hand is a 34-long count vector (engine.tiles.counts_of) of the concealed tiles plus a number of
jokers, wild tiles that stand for any of the 34 kinds. Declared melds are not passed in: a
concealed part of 3n+1 or 3n+2 tiles needs n sets (chows within one suit, or pungs) and a pair, so
the same functions serve 10-, 13- and 16-tile games.

Why it is table-driven: every discard asks every other seat "can you win on this?" and computer
players ask "how far am I?" for each candidate discard, so a recursion over the whole hand is too
slow. Suits are independent apart from the one pair and the number of sets, so each suit's nine
counts (and the honours' seven) are looked up in lazily filled tables, and the per-suit answers are
combined. Suit results are shared by every hand holding the same suit pattern. Only a couple of
hundred distinct jokerless tables exist, and which one each pattern has is shipped with the
package (engine.shape_data, read when the first table is wanted): computing them all would take a
minute in Python. Tables with jokers are still filled lazily, as a bot meets them.

Shanten is measured exactly as a distance: the fewest tiles to draw (each swapped for a discard)
to reach a complete hand, minus one, where the hand never holds more than four real copies of a
kind (jokers may be a fifth). So -1 is complete, 0 is ready, and a ready hand always has a wait
that `waits` lists: a hand whose only "wait" is a tile it already holds four of is 1, not 0.
Outside such four-copy cases this equals the textbook 2n - 2*sets - partials - pair.

>>> from engine.tiles import counts_of, parse_tiles
>>> hand = counts_of(parse_tiles("123m456p789s1122z"))
>>> shanten(hand), waits(hand)
(0, [27, 28])
>>> hand[27] += 1
>>> is_win(hand)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import add, itemgetter

from engine import shape_data
from engine.shape_data import ShapeData
from engine.tiles import ORPHANS

__all__ = [
    "SETS_AND_PAIR",
    "CallShanten",
    "DiscardShanten",
    "ShapeRules",
    "cache_sizes",
    "clear_caches",
    "is_tenpai",
    "is_win",
    "shanten",
    "waits",
]

MAX_SETS = 5  # 17 concealed tiles at most: five sets and a pair
MAX_TILES = 3 * MAX_SETS + 2
_NEG = -(10**6)  # "this shape cannot be reached" inside the overlap tables
_ORPHAN_COUNTS = itemgetter(*ORPHANS)
_ORPHAN_KINDS = frozenset(ORPHANS)


@dataclass(frozen=True, slots=True)
class ShapeRules:
    """Which special winning shapes a preset allows besides sets and a pair (Preset.shape_rules).

    Every function here takes one, so the switches travel as one value from the preset to the
    shape tables.
    """

    seven_pairs: bool = False
    thirteen_orphans: bool = False
    kong_as_two_pairs: bool = False  # four of a kind may be two of the seven pairs


SETS_AND_PAIR = ShapeRules()  # no special shape: n sets and a pair only


# ---------------------------------------------------------------------------------------------
# Complete hands: jokers each component needs


def _jokers_needed(key: tuple[int, ...], chows: bool, pair: bool) -> int:
    """Fewest jokers that make this component's tiles exactly sets (plus one pair if `pair`)."""
    memo_key = (key, chows, pair)
    found = _NEED_MEMO.get(memo_key)
    if found is None:
        found = _jokers_needed_uncached(key, chows, pair)
        _NEED_MEMO[memo_key] = found
    return found


_NEED_MEMO: dict[tuple[tuple[int, ...], bool, bool], int] = {}


def _jokers_needed_uncached(key: tuple[int, ...], chows: bool, pair: bool) -> int:
    first = next((i for i, c in enumerate(key) if c), None)
    if first is None:
        return 2 if pair else 0  # a pair of jokers standing for a kind of this component
    counts = list(key)
    # the lowest tile must sit in some block: a pung, the pair, or a chow through it
    used = min(counts[first], 3)
    counts[first] -= used
    best = 3 - used + _jokers_needed(tuple(counts), chows, pair)
    counts[first] += used
    if pair:
        used = min(counts[first], 2)
        counts[first] -= used
        best = min(best, 2 - used + _jokers_needed(tuple(counts), chows, False))
        counts[first] += used
    if chows:
        for start in range(max(0, first - 2), min(first, len(key) - 3) + 1):
            taken = [k for k in range(start, start + 3) if counts[k]]
            for k in taken:
                counts[k] -= 1
            best = min(best, 3 - len(taken) + _jokers_needed(tuple(counts), chows, pair))
            for k in taken:
                counts[k] += 1
    return best


# Jokerless win check: per component, -1 if its tiles are not sets (or sets + pair), else its tile
# count plus 256 if it holds the pair, so one sum over four components tells pairs and total.
_WIN0_SUIT: dict[tuple[int, ...], int] = {}
_PAIR_FLAG = 256


def _fill_win0(key: tuple[int, ...]) -> int:
    mirrored = _WIN0_SUIT.get(key[::-1])  # as for the shanten tables: mirrored suits agree
    if mirrored is not None:
        _WIN0_SUIT[key] = mirrored
        return mirrored
    _check_key(key, 9)
    tiles = sum(key)
    code = -1  # more tiles than any hand holds can only fail the sum in `is_win`
    if tiles % 3 != 1 and tiles <= MAX_TILES:
        # the tiles are exactly sets (and the pair) when a shape of as many tiles reuses them all
        pair = tiles % 3 // 2
        if _jokerless_table(key, True)[tiles // 3 * 2 + pair] == tiles:
            code = tiles + _PAIR_FLAG * pair
    _WIN0_SUIT[key] = code
    return code


def _check_key(key: tuple[int, ...], length: int) -> None:
    """Reject what a table must not remember; runs only when a new component is met."""
    if len(key) != length:
        raise ValueError(f"counts must have 34 entries (a component had {len(key)})")
    if min(key) < 0 or max(key) > 4:
        raise ValueError(f"tile counts must be 0-4, got {key}")


def is_win(
    counts: Sequence[int],
    rules: ShapeRules = SETS_AND_PAIR,
    *,
    jokers: int = 0,
) -> bool:
    """Whether the concealed tiles (and jokers) are complete: n sets and a pair, or a special shape.

    The tile total must be 3n+2 with n = 0..5. Seven pairs and thirteen orphans need 14 tiles;
    seven pairs are seven different kinds unless `rules.kong_as_two_pairs` lets four of a kind
    be two. Counts are 0-4 per kind, as in any wall (a joker may still stand for a fifth copy).

    >>> from engine.tiles import counts_of, parse_tiles
    >>> is_win(counts_of(parse_tiles("123m456p789s111z22z")))
    True
    >>> is_win(counts_of(parse_tiles("123m456p789s111z2z")), jokers=1)
    True
    >>> is_win(counts_of(parse_tiles("11223344556677m")), ShapeRules(seven_pairs=True))
    True
    """
    if jokers:
        return _is_win_jokers(counts, jokers, rules)
    # This runs for every discard, so it is inlined and rejects early. Honours go first: a single
    # (or four) of an honour is the commonest reason a random hand is not complete.
    honours = counts[27:34]
    if 1 not in honours and 4 not in honours:
        table = _WIN0_SUIT
        first = table.get(key := tuple(counts[0:9]))
        if first is None:
            first = _fill_win0(key)
        if first >= 0:
            second = table.get(key := tuple(counts[9:18]))
            if second is None:
                second = _fill_win0(key)
            if second >= 0:
                third = table.get(key := tuple(counts[18:27]))
                if third is None:
                    third = _fill_win0(key)
                if third >= 0:
                    # honours are now all pungs and pairs; more than one pair overall fails below
                    code = first + second + third + sum(honours) + _PAIR_FLAG * honours.count(2)
                    if code >> 8 == 1 and code & 255 <= MAX_TILES:
                        return True
    if rules.seven_pairs and 1 not in counts and _is_seven_pairs0(counts, rules.kong_as_two_pairs):
        return True
    if rules.thirteen_orphans and counts[0] and counts[33]:
        return _is_thirteen_orphans0(counts)
    return False


def _is_seven_pairs0(counts: Sequence[int], kong_as_two_pairs: bool) -> bool:
    if 3 in counts:
        return False
    pairs = counts.count(2)
    if kong_as_two_pairs:
        fours = counts.count(4)
        return pairs + 2 * fours == 7 and pairs + fours + counts.count(0) == len(counts)
    return pairs == 7 and pairs + counts.count(0) == len(counts)


def _is_thirteen_orphans0(counts: Sequence[int]) -> bool:
    orphans = _ORPHAN_COUNTS(counts)
    return 0 not in orphans and sum(orphans) == 14 == sum(counts)


def _is_win_jokers(counts: Sequence[int], jokers: int, rules: ShapeRules) -> bool:
    if jokers < 0:
        raise ValueError(f"negative joker count {jokers}")
    tiles = sum(counts)
    total = tiles + jokers
    if total % 3 != 2 or total > MAX_TILES:
        return False
    if _standard_jokers_needed(counts) <= jokers:
        return True
    if total != 14:
        return False
    if rules.seven_pairs and _seven_pairs_deficit(counts, rules.kong_as_two_pairs) == jokers:
        return True
    return rules.thirteen_orphans and _thirteen_orphans_deficit(counts) == jokers


def _standard_jokers_needed(counts: Sequence[int]) -> int:
    """Fewest jokers that complete the tiles as sets and one pair (the pair may be two jokers)."""
    table = _JOKER_WIN
    m_sets, m_pair = table.get(key := tuple(counts[0:9])) or _fill_joker_win(key)
    p_sets, p_pair = table.get(key := tuple(counts[9:18])) or _fill_joker_win(key)
    s_sets, s_pair = table.get(key := tuple(counts[18:27])) or _fill_joker_win(key)
    h_sets, h_pair = table.get(key := tuple(counts[27:34])) or _fill_joker_win(key)
    return m_sets + p_sets + s_sets + h_sets + min(m_pair, p_pair, s_pair, h_pair, 2)


# Per component (nine suit counts or seven honour counts, told apart by length): jokers needed
# for sets only, and how many more (or fewer) it needs to hold the pair as well.
_JOKER_WIN: dict[tuple[int, ...], tuple[int, int]] = {}


def _fill_joker_win(key: tuple[int, ...]) -> tuple[int, int]:
    chows = len(key) == 9
    _check_key(key, 9 if chows else 7)
    sets_only = _jokers_needed(key, chows, False)
    found = _JOKER_WIN[key] = (sets_only, _jokers_needed(key, chows, True) - sets_only)
    return found


# ---------------------------------------------------------------------------------------------
# Distance to complete: per-component overlap tables
#
# For a component (one suit, or the honours) and a target of m sets and p pairs (p = 0/1), the
# table holds the most of the held tiles a target shape can reuse ("overlap"), where the shape may
# put more than four of a kind only by `overflow` jokers. A hand's distance to complete is then
# 3n + 2 - (best total overlap) - jokers, the total overlap being the best split of the n sets,
# the pair and the overflow allowance among the four components. Tables are monotone: a set or
# pair the component does not use can be made from tiles it does not hold.


# A suffix of a component's counts travels through the recursion as one int: its counts as
# base-5 digits, the first count lowest, under a leading 1 that marks the length. The empty suffix
# is 1 and dropping the first count is `code // 5`, so the memo keys on small ints, not tuples.
_EMPTY = 1
_THREE_KINDS = 5**3  # codes from here on hold at least three counts


def _suffix_code(key: tuple[int, ...]) -> int:
    code = _EMPTY
    for count in reversed(key):
        code = code * 5 + count
    return code


def _overlap_vector(
    suffix: int, before2: int, before1: int, chows: bool, omax: int
) -> tuple[int, ...]:
    """Best overlap of `suffix` (coded) with shapes, indexed [(overflow * 6 + sets) * 2 + pairs].

    Negative entries are unreachable. `before2`/`before1` chows started two/one kinds before the
    suffix and still need its first kind (and its second, for `before1`); both are 0-4.
    """
    memo_key = (((suffix * 5 + before2) * 5 + before1) * 2 + chows) * (MAX_TILES + 1) + omax
    found = _OVERLAP_MEMO.get(memo_key)
    if found is None:
        found = _overlap_vector_uncached(suffix, before2, before1, chows, omax)
        if len(_OVERLAP_MEMO) >= _OVERLAP_MEMO_LIMIT:
            # it only speeds up filling new tables: keep memory bounded
            _OVERLAP_MEMO.clear()
            _VECTORS.clear()
        # few vectors are distinct: entries share them, so an entry costs little more than its key
        found = _VECTORS.setdefault(found, found)
        _OVERLAP_MEMO[memo_key] = found
    return found


_OVERLAP_MEMO: dict[int, tuple[int, ...]] = {}
_VECTORS: dict[tuple[int, ...], tuple[int, ...]] = {}
_OVERLAP_MEMO_LIMIT = 120_000  # about 10 MB
_SLOTS = (MAX_SETS + 1) * 2  # table entries per overflow allowance: sets 0..5 x pair 0/1


def _overlap_vector_uncached(
    suffix: int, before2: int, before1: int, chows: bool, omax: int
) -> tuple[int, ...]:
    best = [_NEG] * ((omax + 1) * _SLOTS)
    if suffix == _EMPTY:
        best[0] = 0
        return tuple(best)
    held, rest = suffix % 5, suffix // 5
    # Only blocks that reuse a held tile matter (others are "made from nothing"): n identical
    # chows need a kind of theirs held n times, and n pungs of a kind (a second one is jokers
    # beyond the fourth copy) need more than 3n - 3 of it held.
    window = max(held, rest % 5, rest // 5 % 5) if chows and suffix >= _THREE_KINDS else 0
    pungs = range((held + 2) // 3 + 1)
    pairs = (0, 1) if held else (0,)
    moves = _MOVES.get(omax) or _fill_moves(omax)
    for new_chows in range(window + 1):
        child: tuple[int, ...] | None = None
        for pung in pungs:
            for pair in pairs:
                load = before2 + before1 + new_chows + 3 * pung + 2 * pair
                overflow = load - 4 if load > 4 else 0
                sets = new_chows + pung
                if overflow > omax or sets > MAX_SETS:
                    continue
                if child is None:
                    child = _overlap_vector(rest, before1, new_chows, chows, omax)
                gain = load if load < held else held
                for source, target in moves[(overflow * 6 + sets) * 2 + pair]:
                    value = child[source] + gain
                    if value > best[target]:
                        best[target] = value
    return tuple(best)


def _fill_moves(omax: int) -> list[list[tuple[int, int]]]:
    """Per step [(add_over * 6 + add_sets) * 2 + add_pairs], the (from, to) index pairs that add
    this much overflow, sets and pairs within the bounds (steps beyond the bounds list none)."""
    found = _MOVES[omax] = [[] for _ in range((omax + 1) * _SLOTS)]
    for add_over in range(omax + 1):
        for add_sets in range(MAX_SETS + 1):
            for add_pairs in range(2):
                found[(add_over * 6 + add_sets) * 2 + add_pairs] = [
                    (
                        (over * 6 + sets) * 2 + pairs,
                        ((over + add_over) * 6 + sets + add_sets) * 2 + pairs + add_pairs,
                    )
                    for over in range(omax + 1 - add_over)
                    for sets in range(MAX_SETS + 1 - add_sets)
                    for pairs in range(2 - add_pairs)
                ]
    return found


_MOVES: dict[int, list[list[tuple[int, int]]]] = {}


def _component_table(key: tuple[int, ...], chows: bool, omax: int) -> tuple[int, ...]:
    """Dense, upward-closed table: a set or pair the component does not fill costs it nothing."""
    _check_key(key, 9 if chows else 7)
    return _monotone(_overlap_vector(_suffix_code(key), 0, 0, chows, omax), omax)


def _monotone(vector: Sequence[int], omax: int) -> tuple[int, ...]:
    """Close the table upwards: more sets, the pair, or more overflow never lowers the overlap."""
    out = list(vector)
    for over in range(omax + 1):
        for sets in range(MAX_SETS + 1):
            for pairs in range(2):
                index = (over * 6 + sets) * 2 + pairs
                value = max(out[index], 0)
                if over:
                    value = max(value, out[index - _SLOTS])
                if sets:
                    value = max(value, out[index - 2])
                if pairs:
                    value = max(value, out[index - 1])
                out[index] = value
    return tuple(out)


def _merge(first: Sequence[int], second: Sequence[int], omax: int) -> tuple[int, ...]:
    """Best overlap of two components sharing the sets, the pair and the overflow allowance.

    Both are tables (upward-closed, so no entry is negative): entry [over, sets, pairs] is the
    best sum of a `first` entry and a `second` entry that add up to it, found by C-level maps.
    """
    takes = _MERGE_TAKES.get(omax) or _fill_merge_takes(omax)
    return tuple(
        [max(map(add, of_first(first), of_second(second))) for of_first, of_second in takes]
    )


def _fill_merge_takes(omax: int) -> list[tuple[_Take, _Take]]:
    """Per merged entry, the getters of the `first` and `second` entries whose sums it takes."""
    takes: list[tuple[_Take, _Take]] = []
    for index in range((omax + 1) * _SLOTS):
        over, rest = divmod(index, _SLOTS)
        sets, pairs = divmod(rest, 2)
        splits = [
            ((o1 * 6 + s1) * 2 + p1, ((over - o1) * 6 + sets - s1) * 2 + pairs - p1)
            for o1 in range(over + 1)
            for s1 in range(sets + 1)
            for p1 in range(pairs + 1)
        ]
        if len(splits) == 1:  # an itemgetter of one index gives the item, of two a tuple
            splits *= 2
        ones, twos = zip(*splits, strict=True)
        takes.append((itemgetter(*ones), itemgetter(*twos)))
    _MERGE_TAKES[omax] = takes
    return takes


_Take = Callable[[Sequence[int]], tuple[int, ...]]  # some entries of a table, by index
_MERGE_TAKES: dict[int, list[tuple[_Take, _Take]]] = {}


# Jokerless tables are interned: hands share few distinct tables, so merged results are cached
# by the pair of table ids and a whole-hand lookup is four component lookups and three merges.
_TABLES: list[tuple[int, ...]] = []
_TABLE_IDS: dict[tuple[int, ...], int] = {}
_SUIT_IDS: dict[tuple[int, ...], int] = {}
_HONOUR_IDS: dict[tuple[int, ...], int] = {}
_MERGED_IDS: dict[int, int] = {}
_ID_BITS = 24  # merged pairs are keyed by one int: first id << _ID_BITS | second id
_ID_MASK = (1 << _ID_BITS) - 1


def _intern(table: tuple[int, ...]) -> int:
    found = _TABLE_IDS.get(table)
    if found is None:
        found = len(_TABLES)
        if found > _ID_MASK:
            raise RuntimeError("too many distinct shape tables")
        _TABLES.append(table)
        _TABLE_IDS[table] = found
    return found


def _fill_component_id(key: tuple[int, ...], ids: dict[tuple[int, ...], int], chows: bool) -> int:
    # A suit read from 9 down to 1 has the same table (chows, pungs and pairs mirror), so a key
    # whose mirror is known costs a lookup instead of a fill: about a third of them in play.
    found = ids.get(key[::-1]) if chows else None
    if found is None:
        found = _intern(_jokerless_table(key, chows))
    ids[key] = found
    return found


def _jokerless_table(key: tuple[int, ...], chows: bool) -> tuple[int, ...]:
    """`_component_table(key, chows, 0)`, read from the shipped file where it holds the key."""
    _check_key(key, 9 if chows else 7)
    if not _SHIPPED:
        _SHIPPED.append(shape_data.load())
    data = _SHIPPED[0]
    shipped = data.table(key) if data is not None else None
    return _component_table(key, chows, 0) if shipped is None else shipped


_SHIPPED: list[ShapeData | None] = []  # loaded when the first table is wanted


def _fill_merged_id(pair_key: int) -> int:
    first, second = _TABLES[pair_key >> _ID_BITS], _TABLES[pair_key & _ID_MASK]
    omax = len(first) // _SLOTS - 1  # both tables allow the same overflow
    found = _MERGED_IDS[pair_key] = _intern(_merge(first, second, omax))
    return found


def _standard_overlap0(counts: Sequence[int], sets: int) -> int:
    """Best overlap of jokerless tiles with a hand of `sets` sets and a pair."""
    merged = _MERGED_IDS
    a, b, c, h = _component_ids(counts)
    ab = merged.get(pair_key := a << _ID_BITS | b)
    if ab is None:
        ab = _fill_merged_id(pair_key)
    abc = merged.get(pair_key := ab << _ID_BITS | c)
    if abc is None:
        abc = _fill_merged_id(pair_key)
    whole = merged.get(pair_key := abc << _ID_BITS | h)
    if whole is None:
        whole = _fill_merged_id(pair_key)
    return _TABLES[whole][sets * 2 + 1]


def _component_ids(counts: Sequence[int]) -> tuple[int, int, int, int]:
    """The jokerless table ids of the three suits and the honours."""
    suit_ids = _SUIT_IDS
    a = suit_ids.get(key := tuple(counts[0:9]))
    if a is None:
        a = _fill_component_id(key, suit_ids, True)
    b = suit_ids.get(key := tuple(counts[9:18]))
    if b is None:
        b = _fill_component_id(key, suit_ids, True)
    c = suit_ids.get(key := tuple(counts[18:27]))
    if c is None:
        c = _fill_component_id(key, suit_ids, True)
    h = _HONOUR_IDS.get(key := tuple(counts[27:34]))
    if h is None:
        h = _fill_component_id(key, _HONOUR_IDS, False)
    return a, b, c, h


def _merged_id(first: int, second: int) -> int:
    found = _MERGED_IDS.get(pair_key := first << _ID_BITS | second)
    return _fill_merged_id(pair_key) if found is None else found


_JOKER_IDS: dict[tuple[tuple[int, ...], int], int] = {}


def _standard_overlap_jokers(counts: Sequence[int], sets: int, jokers: int) -> int:
    """As `_standard_overlap0`, letting up to `jokers` jokers be fifth (or later) copies."""
    omax = min(jokers, MAX_TILES)
    whole = -1
    for start, length in ((0, 9), (9, 9), (18, 9), (27, 7)):
        key = tuple(counts[start : start + length])
        table = _JOKER_IDS.get((key, omax))
        if table is None:
            table = _JOKER_IDS[key, omax] = _intern(_component_table(key, length == 9, omax))
        if whole < 0:
            whole = table
            continue
        merged = _MERGED_IDS.get(pair_key := whole << _ID_BITS | table)
        whole = _fill_merged_id(pair_key) if merged is None else merged
    return _TABLES[whole][(omax * 6 + sets) * 2 + 1]


# ---------------------------------------------------------------------------------------------
# Special shapes: tiles missing from the nearest such hand (jokers not counted)


def _seven_pairs_deficit(counts: Sequence[int], kong_as_two_pairs: bool) -> int:
    return _seven_pairs_from(*_seven_pairs_counts(counts, kong_as_two_pairs), kong_as_two_pairs)


def _seven_pairs_counts(counts: Sequence[int], kong_as_two_pairs: bool) -> tuple[int, int]:
    """The two counts `_seven_pairs_from` reads (counts 0-4): kinds held and pairs held, or with
    kongs as two pairs the pairs held (two per kong) and the kinds one tile short of a pair."""
    if kong_as_two_pairs:
        threes = counts.count(3)
        return counts.count(2) + threes + 2 * counts.count(4), counts.count(1) + threes
    kinds = len(counts) - counts.count(0)
    return kinds, kinds - counts.count(1)


def _seven_pairs_from(first: int, second: int, kong_as_two_pairs: bool) -> int:
    """`_seven_pairs_deficit` from the hand's `_seven_pairs_counts`."""
    if kong_as_two_pairs:
        need = max(0, 7 - first)
        return 2 * need - min(need, second)
    return 7 - second + max(0, 7 - first)


# [kong_as_two_pairs][copies held]: how much each of `_seven_pairs_counts` drops when one of them
# leaves the hand
_SEVEN_PAIRS_LESS = (
    ((0, 0), (1, 0), (0, 1), (0, 0), (0, 0)),
    ((0, 0), (0, 1), (1, -1), (0, 1), (1, -1)),
)


def _thirteen_orphans_deficit(counts: Sequence[int]) -> int:
    orphans = _ORPHAN_COUNTS(counts)
    return orphans.count(0) + (0 if max(orphans) >= 2 else 1)


# ---------------------------------------------------------------------------------------------
# Public distance functions


def shanten(
    counts: Sequence[int],
    rules: ShapeRules = SETS_AND_PAIR,
    *,
    jokers: int = 0,
) -> int:
    """Tile exchanges from ready: -1 complete, 0 ready, 1 one exchange from ready, ...

    For 3n+1 or 3n+2 tiles (jokers included), at most 17; the enabled special shapes count only
    for 13- and 14-tile hands. A hand never holds more than four real tiles of a kind on the way.

    >>> from engine.tiles import counts_of, parse_tiles
    >>> shanten(counts_of(parse_tiles("123m456p789s11z45m")))
    0
    >>> shanten(counts_of(parse_tiles("19m19p19s1234567z")), ShapeRules(thirteen_orphans=True))
    0
    """
    tiles = sum(counts)
    total = tiles + jokers
    if total % 3 == 0 or total > MAX_TILES or jokers < 0:
        raise ValueError(
            f"shanten needs 3n+1 or 3n+2 tiles, at most {MAX_TILES}: got {tiles} + {jokers} jokers"
        )
    sets = total // 3
    if jokers:
        overlap = _standard_overlap_jokers(counts, sets, jokers)
    else:
        overlap = _standard_overlap0(counts, sets)
    best = 3 * sets + 1 - overlap - jokers
    if total in (13, 14):
        if rules.seven_pairs:
            best = min(best, _seven_pairs_deficit(counts, rules.kong_as_two_pairs) - jokers - 1)
        if rules.thirteen_orphans:
            best = min(best, _thirteen_orphans_deficit(counts) - jokers - 1)
    return best


class DiscardShanten:
    """`shanten` of a jokerless hand of 3n+2 tiles (`full`) and of it less one tile (`after`).

    A computer player weighs several discards of one hand. A discard changes one component
    (its suit, or the honours), so the merge of the other three is looked up once per component
    rather than once per discard (merging is associative and commutative, so any order gives the
    same table), and the special shapes' deficits are updated from a few counts rather than
    counted again over the hand; the results are exactly `shanten`'s.

    >>> from engine.tiles import counts_of, parse_tiles
    >>> hand = DiscardShanten(counts_of(parse_tiles("123m456p789s11z45m9p")))
    >>> hand.full, hand.after(parse_tiles("9p")[0]), hand.after(parse_tiles("5m")[0])
    (0, 0, 1)
    """

    def __init__(self, counts: Sequence[int], rules: ShapeRules = SETS_AND_PAIR) -> None:
        self._counts = list(counts)
        total = sum(self._counts)
        if total % 3 != 2 or total > MAX_TILES:
            raise ValueError(f"DiscardShanten needs 3n+2 tiles, at most {MAX_TILES}: got {total}")
        self._sets = total // 3  # the same for the hand less one tile
        # special shapes count for 14 tiles and the 13 left by a discard, for no other size
        self._seven_pairs = rules.seven_pairs and total == 14
        self._thirteen_orphans = rules.thirteen_orphans and total == 14
        self._kong_as_two_pairs = rules.kong_as_two_pairs
        self._ids = _component_ids(self._counts)
        a, b, c, h = self._ids
        self._ab = _merged_id(a, b)
        abc = _merged_id(self._ab, c)
        # per component, the merged table of the other three (filled when first wanted)
        self._rests: list[int] = [-1, -1, -1, abc]
        sets = self._sets
        self.full = 3 * sets + 1 - _TABLES[_merged_id(abc, h)][sets * 2 + 1]
        if self._seven_pairs:
            kong = rules.kong_as_two_pairs
            self._pair_counts = _seven_pairs_counts(self._counts, kong)
            self.full = min(self.full, _seven_pairs_from(*self._pair_counts, kong) - 1)
        if self._thirteen_orphans:
            # kinds missing and kinds held twice or more; a discard that is no orphan keeps both
            orphans = _ORPHAN_COUNTS(self._counts)
            self._orphans_missing = orphans.count(0)
            self._orphans_doubled = len(orphans) - orphans.count(0) - orphans.count(1)
            self.full = min(self.full, self._orphans_missing + (not self._orphans_doubled) - 1)

    def after(self, kind: int) -> int:
        """The shanten once one tile of `kind` (held) has left the hand."""
        counts = self._counts
        held = counts[kind]
        if not held:
            raise ValueError(f"the hand holds no tile of kind {kind}")
        component = kind // 9  # 0-2 the suits, 3 the honours
        rest = self._rests[component]
        if rest < 0:
            rest = self._rests[component] = self._rest(component)
        # the changed component's table and its merge with the rest, looked up here: a computer
        # player asks this for discard after discard
        counts[kind] = held - 1
        if component == 3:
            key = tuple(counts[27:34])
            changed = _HONOUR_IDS.get(key)
            if changed is None:
                changed = _fill_component_id(key, _HONOUR_IDS, False)
        else:
            key = tuple(counts[component * 9 : component * 9 + 9])
            changed = _SUIT_IDS.get(key)
            if changed is None:
                changed = _fill_component_id(key, _SUIT_IDS, True)
        counts[kind] = held
        merged = _MERGED_IDS.get(pair_key := rest << _ID_BITS | changed)
        if merged is None:
            merged = _fill_merged_id(pair_key)
        sets = self._sets
        best = 3 * sets + 1 - _TABLES[merged][sets * 2 + 1]
        if self._seven_pairs:
            first, second = self._pair_counts
            kong = self._kong_as_two_pairs
            less_first, less_second = _SEVEN_PAIRS_LESS[kong][held]
            pairs = _seven_pairs_from(first - less_first, second - less_second, kong) - 1
            if pairs < best:
                best = pairs
        if self._thirteen_orphans:
            missing, doubled = self._orphans_missing, self._orphans_doubled
            if kind in _ORPHAN_KINDS:
                missing += held == 1
                doubled -= held == 2
            orphans = missing + (not doubled) - 1
            if orphans < best:
                best = orphans
        return best

    def _rest(self, component: int) -> int:
        """The merged table of the components other than `component` (a suit)."""
        a, b, c, h = self._ids
        if component == 2:
            return _merged_id(self._ab, h)
        return _merged_id(_merged_id(b if component == 0 else a, c), h)


class CallShanten:
    """`shanten` of a jokerless hand (`now`) and of it less tiles of one component (`less`).

    A computer player weighs every call on a discard against the hand as it is, and every call
    takes tiles of the discard's component only (its suit, or the honours), so the merge of the
    other three components is looked up once for all of them, in the order DiscardShanten merges
    them (merging is associative and commutative); the results are exactly `shanten`'s.

    >>> from engine.tiles import counts_of, parse_tiles
    >>> hand = CallShanten(counts_of(parse_tiles("123m456p789s11z45m")), 0)
    >>> hand.now, hand.less(parse_tiles("45m"))  # a chow of 3m or 6m completes it
    (0, -1)
    """

    def __init__(
        self, counts: Sequence[int], component: int, rules: ShapeRules = SETS_AND_PAIR
    ) -> None:
        self._counts = list(counts)
        self._component = component  # 0-2 the suits, 3 the honours
        self._rules = rules
        self._total = sum(self._counts)
        a, b, c, h = ids = _component_ids(self._counts)
        if component == 3:
            self._rest = _merged_id(_merged_id(a, b), c)
        elif component == 2:
            self._rest = _merged_id(_merged_id(a, b), h)
        else:
            self._rest = _merged_id(_merged_id(b if component == 0 else a, c), h)
        self.now = self._shanten(ids[component], self._total)

    def less(self, taken: Sequence[int]) -> int:
        """The shanten once `taken` (held tiles of the component) have left the hand."""
        counts = self._counts
        for tile in taken:
            counts[tile] -= 1
        try:
            if self._component == 3:
                key = tuple(counts[27:34])
                changed = _HONOUR_IDS.get(key)
                if changed is None:
                    changed = _fill_component_id(key, _HONOUR_IDS, False)
            else:
                start = self._component * 9
                key = tuple(counts[start : start + 9])
                changed = _SUIT_IDS.get(key)
                if changed is None:
                    changed = _fill_component_id(key, _SUIT_IDS, True)
            return self._shanten(changed, self._total - len(taken))
        finally:
            for tile in taken:
                counts[tile] += 1

    def _shanten(self, changed: int, total: int) -> int:
        """`shanten` of `self._counts` as they are now, of `total` tiles, the component's table
        being `changed`."""
        if total % 3 == 0 or total > MAX_TILES:
            raise ValueError(f"shanten needs 3n+1 or 3n+2 tiles, at most {MAX_TILES}: got {total}")
        sets = total // 3
        best = 3 * sets + 1 - _TABLES[_merged_id(self._rest, changed)][sets * 2 + 1]
        if total in (13, 14):
            rules = self._rules
            if rules.seven_pairs:
                best = min(best, _seven_pairs_deficit(self._counts, rules.kong_as_two_pairs) - 1)
            if rules.thirteen_orphans:
                best = min(best, _thirteen_orphans_deficit(self._counts) - 1)
        return best


def is_tenpai(
    counts: Sequence[int],
    rules: ShapeRules = SETS_AND_PAIR,
    *,
    jokers: int = 0,
) -> bool:
    """Whether the hand is ready (shanten 0): for 3n+1 tiles, exactly when `waits` is non-empty.

    >>> from engine.tiles import counts_of, parse_tiles
    >>> is_tenpai(counts_of(parse_tiles("1112345678999m")))
    True
    """
    return shanten(counts, rules, jokers=jokers) == 0


def waits(
    counts: Sequence[int],
    rules: ShapeRules = SETS_AND_PAIR,
    *,
    jokers: int = 0,
) -> list[int]:
    """Sorted kinds (0-33) that complete a 3n+1 hand; kinds it holds all four of are left out.

    >>> from engine.tiles import counts_of, parse_tiles
    >>> waits(counts_of(parse_tiles("1112345678999m")))
    [0, 1, 2, 3, 4, 5, 6, 7, 8]
    """
    total = sum(counts) + jokers
    if total % 3 != 1 or total > MAX_TILES:
        raise ValueError(f"waits needs 3n+1 tiles, at most {MAX_TILES - 1}: got {total}")
    hand = list(counts)
    found = []
    for kind in _wait_candidates(hand, jokers, rules.thirteen_orphans):
        if hand[kind] >= 4:
            continue
        hand[kind] += 1
        if is_win(hand, rules, jokers=jokers):
            found.append(kind)
        hand[kind] -= 1
    return found


def _wait_candidates(hand: list[int], jokers: int, thirteen_orphans: bool) -> list[int]:
    """Kinds that can possibly complete the hand, in order (all of them once jokers are held)."""
    if jokers:
        return list(range(len(hand)))
    near: set[int] = set(ORPHANS) if thirteen_orphans else set()
    for kind, count in enumerate(hand):
        if not count:
            continue
        if kind >= 27:
            near.add(kind)
            continue
        rank = kind % 9
        near.update(range(kind - min(rank, 2), kind + min(8 - rank, 2) + 1))
    return sorted(near)


# functions that forget what other modules derived from these tables (table ids), called by
# clear_caches: an id kept past it would name another table, or none
ON_CLEAR: list[Callable[[], None]] = []


def clear_caches() -> None:
    """Forget every table (for tests and memory measurements), and what was derived from them.

    The shipped file's contents (about 2 MB once read) stay: they are data, not filled tables.
    """
    for forget in ON_CLEAR:
        forget()
    for cache in (
        _NEED_MEMO,
        _WIN0_SUIT,
        _JOKER_WIN,
        _OVERLAP_MEMO,
        _VECTORS,
        _TABLE_IDS,
        _SUIT_IDS,
        _HONOUR_IDS,
        _MERGED_IDS,
        _JOKER_IDS,
    ):
        cache.clear()
    _TABLES.clear()


def cache_sizes() -> dict[str, int]:
    """How many entries each lazily filled table holds."""
    return {
        "win_suits": len(_WIN0_SUIT),
        "joker_needs": len(_NEED_MEMO),
        "overlap_states": len(_OVERLAP_MEMO),
        "shanten_components": len(_SUIT_IDS) + len(_HONOUR_IDS),
        "distinct_tables": len(_TABLES),
        "merged_pairs": len(_MERGED_IDS),
    }
