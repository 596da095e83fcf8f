"""The jokerless shape tables of every component, shipped with the package (`shape_data.xz`).

engine.shapes fills a component's overlap table (nine suit counts, or seven honour counts) the
first time a hand holds it, and that costs tens of microseconds in Python: a fresh process meets
thousands of new components in its first hundred hands, so filling was a large share of them.
Yet only a couple of hundred distinct tables exist, so the file names, for every component of
at most 17 tiles (as many as a concealed part holds), which of them it has: about 23 KB
compressed, read (about 3 ms) the first time a table is wanted, never at import.

The file is built by engine.shape_build and checked against the computation by the tests:

    python -m engine.shape_build [--check]

Layout once decompressed: a byte T, then T tables of 12 bytes (entry [sets * 2 + pairs], as
engine.shapes keeps them), then one byte per suit pattern (5**9 of them, by `pattern_code`) and
one per honour pattern (5**7): 0 where the pattern holds more than 17 tiles, else 1 + the number
of its table.
"""

from __future__ import annotations

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
