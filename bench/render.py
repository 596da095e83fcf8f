"""Rendering benchmark: time to draw and encode the hand and table pictures, and their PNG sizes.

Run from the repository root:  python bench/render.py [--runs N]

Each case is timed as the bot uses it, render + palette PNG, with warm sprite caches (the first,
cold render is reported apart). Targets: hand <= 10 ms median, table <= 30 ms median, every
PNG <= 100 KB. The last four lines are machine-readable; the hand_* lines report the worse
of the 14- and 17-tile hands.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

# This file is named render.py: drop its own folder from the path so `import render` finds the
# package, not this script.
ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from render import render_hand, render_table, to_png  # noqa: E402
from render.samples import sample_hand_view, sample_table_view  # noqa: E402


def measure(draw: Callable[[], Image.Image], runs: int) -> tuple[float, float, float, int]:
    """Cold ms, then median and p99 ms over warm runs, and the PNG size in bytes."""
    start = time.perf_counter()
    data = to_png(draw())
    cold = (time.perf_counter() - start) * 1000
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        data = to_png(draw())
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    return cold, statistics.median(times), p99, len(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    runs = parser.parse_args().runs
    hand14, hand17 = sample_hand_view(14), sample_hand_view(17)
    table = sample_table_view(discards=22)  # a late, full table: long ponds, melds, flowers
    cases = {
        "hand 14 tiles": lambda: render_hand(hand14),
        "hand 17 tiles": lambda: render_hand(hand17),
        "table (full)": lambda: render_table(table),
    }
    results = {}
    print(f"render + PNG, {runs} warm runs each")
    for name, draw in cases.items():
        cold, median, p99, size = measure(draw, runs)
        results[name] = (median, size)
        print(
            f"{name:14}  median {median:6.2f} ms   p99 {p99:6.2f} ms   "
            f"cold {cold:7.1f} ms   png {size / 1024:5.1f} KB"
        )
    hand_median = max(results["hand 14 tiles"][0], results["hand 17 tiles"][0])
    hand_bytes = max(results["hand 14 tiles"][1], results["hand 17 tiles"][1])
    print(f"hand_ms_median: {hand_median:.2f}")
    print(f"table_ms_median: {results['table (full)'][0]:.2f}")
    print(f"hand_png_bytes: {hand_bytes}")
    print(f"table_png_bytes: {results['table (full)'][1]}")


if __name__ == "__main__":
    main()
