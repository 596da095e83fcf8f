"""The jokerless shape tables of every component, shipped with the package (`shape_data.xz`).

engine.shapes fills a component's overlap table (nine suit counts, or seven honour counts) the
first time a hand holds it, and that costs tens of microseconds in Python: a fresh process meets
thousands of new components in its first hundred hands, so filling was a large share of them.
Yet only a couple of hundred distinct tables exist, so the file names, for every component of
at most 17 tiles (as many as a concealed part holds), which of them it has: about 23 KB
compressed, read (about 3 ms) the first time a table is wanted, never at import.

The file is built by this module and checked against the computation by the tests:

    python -m engine.shape_data [--check]

Layout once decompressed: a byte T, then T tables of 12 bytes (entry [sets * 2 + pairs], as
engine.shapes keeps them), then one byte per suit pattern (5**9 of them, by `pattern_code`) and
one per honour pattern (5**7): 0 where the pattern holds more than 17 tiles, else 1 + the number
of its table.
"""

from __future__ import annotations

import itertools
import sys
from dataclasses import dataclass
from pathlib import Path

PATH = Path(__file__).with_name("shape_data.xz")
SLOTS = 12  # sets 0..5 x pair 0/1
MAX_STORED_TILES = 17
SUIT_PATTERNS = 5**9
HONOUR_PATTERNS = 5**7


@dataclass(frozen=True, slots=True)
class ShapeData:
    """The decompressed file: the distinct tables and, per pattern, 1 + its table's number."""

    tables: tuple[tuple[int, ...], ...]
    suits: bytes
    honours: bytes

    def table(self, key: tuple[int, ...]) -> tuple[int, ...] | None:
        """The table of a suit (9 counts 0-4) or honour (7) pattern, None past 17 tiles."""
        if sum(key) > MAX_STORED_TILES:
            return None
        index = self.suits if len(key) == 9 else self.honours
        return self.tables[index[pattern_code(key)] - 1]


def pattern_code(key: tuple[int, ...]) -> int:
    """A pattern's place in its index: its counts (each 0-4) as base-5 digits, the first lowest."""
    code = 0
    for count in reversed(key):
        code = code * 5 + count
    return code


def load(path: Path = PATH) -> ShapeData | None:
    """The shipped tables, or None where the file is missing (the tables are then computed)."""
    try:
        compressed = path.read_bytes()
    except OSError:
        return None
    return parse(compressed)


def parse(compressed: bytes) -> ShapeData:
    """The tables held by the file's (compressed) bytes."""
    import lzma  # here, not at import: most processes load the tables once, some never

    raw = lzma.decompress(compressed)
    count = raw[0]
    end = 1 + count * SLOTS
    tables = tuple(tuple(raw[start : start + SLOTS]) for start in range(1, end, SLOTS))
    suits = raw[end : end + SUIT_PATTERNS]
    honours = raw[end + SUIT_PATTERNS :]
    if len(suits) != SUIT_PATTERNS or len(honours) != HONOUR_PATTERNS:
        raise ValueError("the shape data has the wrong size")
    return ShapeData(tables, suits, honours)


def build() -> bytes:
    """The file's bytes, computed by engine.shapes (about a minute, and a few hundred MB)."""
    import lzma

    from engine import shapes

    limit = shapes._OVERLAP_MEMO_LIMIT
    shapes._OVERLAP_MEMO_LIMIT = 10**9  # every suffix is met again: keep them all
    try:
        numbers: dict[tuple[int, ...], int] = {}
        indexes = []
        for length, chows in ((9, True), (7, False)):
            index = bytearray(5**length)
            for key in itertools.product(range(5), repeat=length):
                if sum(key) <= MAX_STORED_TILES:
                    table = shapes._component_table(key, chows, 0)
                    number = numbers.setdefault(table, len(numbers))
                    index[pattern_code(key)] = number + 1
            indexes.append(bytes(index))
            shapes.clear_caches()
    finally:
        shapes._OVERLAP_MEMO_LIMIT = limit
    if len(numbers) > 255 or max(max(table) for table in numbers) > 255:
        raise RuntimeError("the tables no longer fit the file's bytes")
    raw = bytes([len(numbers)]) + b"".join(bytes(table) for table in numbers) + b"".join(indexes)
    return lzma.compress(raw, preset=9 | lzma.PRESET_EXTREME)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="Build (or check) engine/shape_data.xz.")
    parser.add_argument("--check", action="store_true", help="exit 1 if the file differs")
    args = parser.parse_args(argv)
    built = build()
    if args.check:
        stored = load()
        same = stored == parse(built)
        print(f"{PATH.name}: {'same' if same else 'DIFFERS'}")
        return 0 if same else 1
    PATH.write_bytes(built)
    print(f"{PATH.name}: {len(built)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
