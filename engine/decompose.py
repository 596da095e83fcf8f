"""Every way to read concealed tiles as sets and one pair, plus the two special closed shapes.

This is the scoring side's exhaustive view (scoring must pick the reading worth the most faan);
the fast yes/no checks live in engine/shapes.py.

>>> from engine.tiles import counts_of, parse_tiles
>>> [str(d) for d in decompositions(counts_of(parse_tiles("111222333m55p")))]
['pung 1m, pung 2m, pung 3m + pair 5p', 'chow 1m, chow 1m, chow 1m + pair 5p']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.tiles import NUM_KINDS, ORPHANS, MeldKind, Tile, is_suited, tile_name

ConcealedSet = tuple[MeldKind, Tile]  # (MeldKind.CHOW or MeldKind.PUNG, its lowest tile)

NINE_GATES_BASE = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One reading of a concealed hand: its sets, lowest tile first, and its pair."""

    sets: tuple[ConcealedSet, ...]
    pair: Tile

    def __str__(self) -> str:
        sets = ", ".join(f"{kind.value} {tile_name(tile)}" for kind, tile in self.sets)
        return f"{sets + ' + ' if sets else ''}pair {tile_name(self.pair)}"


def decompositions(counts: Sequence[int]) -> list[Decomposition]:
    """List every split of a 34-count vector into sets plus exactly one pair.

    Any number of sets is allowed (0 for a bare pair); a count that is not 3n + 2 has none.
    Each reading appears once: the same sets in another order are the same reading.
    """
    if len(counts) != NUM_KINDS:
        raise ValueError(f"expected {NUM_KINDS} counts, got {len(counts)}")
    # scoring reads the same tiles many times (a computer player scores a hand as a discard win
    # and as a self draw, the loop checks every seat on every discard): remember the readings
    key = tuple(counts)
    found = _READINGS.get(key)
    if found is None:
        if len(_READINGS) >= _READINGS_LIMIT:
            _READINGS.clear()
        found = _READINGS[key] = tuple(_all_readings(key))
    return list(found)


_READINGS: dict[tuple[int, ...], tuple[Decomposition, ...]] = {}
_READINGS_LIMIT = 20_000


def _all_readings(counts: tuple[int, ...]) -> list[Decomposition]:
    if sum(counts) % 3 != 2:
        return []
    found: list[Decomposition] = []
    work = list(counts)
    for pair in range(NUM_KINDS):
        if work[pair] < 2:
            continue
        work[pair] -= 2
        found.extend(Decomposition(sets, pair) for sets in _sets_by_component(work))
        work[pair] += 2
    return found


# The suits and the honours: a set never spans two of them, so each is read on its own.
_COMPONENTS = ((0, 9), (9, 18), (18, 27), (27, NUM_KINDS))


def _sets_by_component(work: list[int]) -> list[tuple[ConcealedSet, ...]]:
    """`_set_readings(work, 0)`, put together from each component's own readings (remembered):
    the readings come in the same order, as the search settles one component before the next."""
    readings: list[tuple[ConcealedSet, ...]] = [()]
    for start, stop in _COMPONENTS:
        own = _component_readings(start, tuple(work[start:stop]))
        if not own:
            return []
        if own != _NOTHING:
            readings = [before + mine for before in readings for mine in own]
    return readings


def sets_per_component(counts: Sequence[int]) -> list[tuple[tuple[ConcealedSet, ...], ...]] | None:
    """Each suit's and the honours' own readings as sets only (no pair), or None when one has
    none: every reading of the counts as sets takes one reading of each (remembered)."""
    per_component = []
    for start, stop in _COMPONENTS:
        own = _component_readings(start, tuple(counts[start:stop]))
        if not own:
            return None
        per_component.append(own)
    return per_component


_NOTHING: tuple[tuple[ConcealedSet, ...], ...] = ((),)
_COMPONENT_READINGS: dict[tuple[int, tuple[int, ...]], tuple[tuple[ConcealedSet, ...], ...]] = {}
_COMPONENT_READINGS_LIMIT = 50_000


def _component_readings(start: Tile, part: tuple[int, ...]) -> tuple[tuple[ConcealedSet, ...], ...]:
    """Every way to read one component's counts (its tiles from `start` on) as sets only."""
    key = (start, part)
    found = _COMPONENT_READINGS.get(key)
    if found is None:
        if sum(part) % 3:
            found = ()
        else:
            work = [0] * NUM_KINDS
            work[start : start + len(part)] = part
            found = tuple(_set_readings(work, start))
        if len(_COMPONENT_READINGS) >= _COMPONENT_READINGS_LIMIT:
            _COMPONENT_READINGS.clear()
        _COMPONENT_READINGS[key] = found
    return found


def _set_readings(work: list[int], start: Tile) -> list[tuple[ConcealedSet, ...]]:
    """Find every way to split `work` (from `start` on) into sets only; `work` is restored."""
    tile = next((t for t in range(start, NUM_KINDS) if work[t]), None)
    if tile is None:
        return [()]
    count = work[tile]
    readings: list[tuple[ConcealedSet, ...]] = []
    # Settle the lowest tile completely here (k pungs, the rest as chows starting on it), so
    # each reading is generated once rather than once per order of its sets.
    for pungs in range(count // 3, -1, -1):
        chows = count - 3 * pungs
        if chows and not _can_chow(work, tile, chows):
            continue
        work[tile] = 0
        for step in (1, 2):
            if chows:
                work[tile + step] -= chows
        head = ((MeldKind.PUNG, tile),) * pungs + ((MeldKind.CHOW, tile),) * chows
        readings.extend(head + rest for rest in _set_readings(work, tile + 1))
        for step in (1, 2):
            if chows:
                work[tile + step] += chows
        work[tile] = count
    return readings


def _can_chow(work: list[int], tile: Tile, times: int) -> bool:
    """Tell whether `times` chows can start on `tile` (suited, rank 1-7, both neighbours held)."""
    return is_suited(tile) and tile % 9 <= 6 and work[tile + 1] >= times and work[tile + 2] >= times


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    """Tell whether the counts are thirteen orphans: every 1, 9 and honour, one of them doubled."""
    return (
        sum(counts) == 14
        and all(counts[t] >= 1 for t in ORPHANS)
        and sum(counts[t] for t in ORPHANS) == 14
    )


def is_nine_gates(counts: Sequence[int]) -> bool:
    """Tell whether the counts are nine gates: 1112345678999 of one suit plus one of that suit."""
    if sum(counts) != 14:
        return False
    for base in (0, 9, 18):
        suit = counts[base : base + 9]
        if sum(suit) == 14:
            return all(have >= need for have, need in zip(suit, NINE_GATES_BASE, strict=True))
    return False
