"""Builds the shipped shape tables (engine/shape_data.xz) from engine.shapes' own computation,
or checks that the file still matches it (`python -m engine.shape_build [--check]`)."""

from __future__ import annotations

import argparse
import itertools
import lzma
import sys

from engine import shapes
from engine.shape_data import MAX_STORED_TILES, PATH, load, parse, pattern_code


def build() -> bytes:
    """The file's bytes, computed by engine.shapes (about a minute, and a few hundred MB)."""
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
