"""Rendering benchmark: time to draw and encode the hand and table pictures, and their PNG sizes.

Run from the repository root:  python bench/render.py [--runs N]

Each case is timed as the bot uses it, render + palette PNG, with warm sprite caches (the first,
cold render is reported apart). Targets: hand <= 10 ms median, table <= 30 ms median, every
PNG <= 100 KB. The last lines are machine-readable; the hand_* lines report the worst hand
(14, 17 tiles, all markings), the table_* lines the worst table (4, 3 and 2 seats), result_*
the worse of a one-win result and an eight-win Blood Flow result.
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

from render import render_hand, render_result, render_table, to_png  # noqa: E402
from render.samples import (  # noqa: E402
    birds_revealed,
    sample_bloodflow_result,
    sample_hand_view,
    sample_marked_hand_view,
    sample_result_view,
    sample_table_view,
    wild_indicator,
)


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
    hand14, hand17, marked = sample_hand_view(14), sample_hand_view(17), sample_marked_hand_view()
    # late, full tables: long ponds, melds, flowers, set-aside tiles
    table4 = sample_table_view(discards=22, clocks=True, set_aside=birds_revealed())
    table3 = sample_table_view(discards=24, seats=3, set_aside=wild_indicator())
    table2 = sample_table_view(discards=44, seats=2, set_aside=wild_indicator())
    one_win, eight_wins = sample_result_view(), sample_bloodflow_result()
    cases = {
        "hand 14 tiles": lambda: render_hand(hand14),
        "hand 17 tiles": lambda: render_hand(hand17),
        "hand marked": lambda: render_hand(marked),
        "table 4 seats": lambda: render_table(table4),
        "table 3 seats": lambda: render_table(table3),
        "table 2 seats": lambda: render_table(table2),
        "result 1 win": lambda: render_result(one_win),
        "result 8 wins": lambda: render_result(eight_wins),
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
    for kind in ("hand", "table", "result"):
        mine = [value for name, value in results.items() if name.startswith(kind)]
        print(f"{kind}_ms_median: {max(m for m, _ in mine):.2f}")
        print(f"{kind}_png_bytes: {max(b for _, b in mine)}")


if __name__ == "__main__":
    main()
