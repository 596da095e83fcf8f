"""Benchmark of engine/shapes.py against the `mahjong` package (a program, not a test).

    python bench/shapes.py [--hands N] [--repeats R] [--seed S]

Side by side, in one run, on the same seeded hands (tiles drawn from a 136-tile wall):
  * win check: ours `is_win(..., ShapeRules(seven_pairs=True, thirteen_orphans=True))` against
    `Agari().is_agari` (which always allows both), on random 14-tile hands and on complete
    14-tile hands built from four sets and a pair;
  * shanten: ours with both special shapes against `Shanten().calculate_shanten` (all forms), on
    random 13-tile hands;
  * ours alone on 17-tile hands (five sets and a pair), which `mahjong` refuses.

Our tables fill lazily, so the first pass over the hands (tables emptied first) is reported on its
own as "cold": a new component's jokerless table is then read from the shipped file
(engine/shape_data.xz, itself read once per process, at the first cold pass; its size and reading
time are printed), and merged tables are computed. The rates and ratios are medians of the
following repeats, the steady state of a running bot. Every 13/14-tile hand is also checked for
agreement (win check on the 14-tile sets, shanten on all three). Ends with two lines,
`win_check_ratio` (both 14-tile sets together, equal numbers of hands) and `shanten_ratio`: ours /
theirs in hands per second.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mahjong.agari import Agari
from mahjong.shanten import Shanten

from engine import shape_data, shapes
from engine.tiles import NUM_KINDS

BOTH_SPECIAL_SHAPES = shapes.ShapeRules(seven_pairs=True, thirteen_orphans=True)

Counts = list[int]
Timer = Callable[[list[Counts]], float]
WALL = [kind for kind in range(NUM_KINDS) for _ in range(4)]


def random_hands(rng: random.Random, n: int, size: int) -> list[Counts]:
    hands = []
    for _ in range(n):
        counts = [0] * NUM_KINDS
        for tile in rng.sample(WALL, size):
            counts[tile] += 1
        hands.append(counts)
    return hands


def complete_hands(rng: random.Random, n: int, sets: int) -> list[Counts]:
    """Hands of `sets` random pungs or chows and a random pair, never five of a kind."""
    hands: list[Counts] = []
    while len(hands) < n:
        counts = [0] * NUM_KINDS
        for _ in range(sets):
            if rng.random() < 0.5:
                counts[rng.randrange(NUM_KINDS)] += 3
            else:
                first = rng.randrange(3) * 9 + rng.randrange(7)
                for kind in range(first, first + 3):
                    counts[kind] += 1
        counts[rng.randrange(NUM_KINDS)] += 2
        if max(counts) <= 4:
            hands.append(counts)
    return hands


# Each timer is a plain loop calling the function once per hand, so both sides pay the same
# loop and call overhead; ours also pays for passing its keyword options.


def ours_win(hands: list[Counts]) -> float:
    is_win = shapes.is_win
    start = time.perf_counter()
    for counts in hands:
        is_win(counts, BOTH_SPECIAL_SHAPES)
    return time.perf_counter() - start


def theirs_win(hands: list[Counts]) -> float:
    agari = Agari()
    start = time.perf_counter()
    for counts in hands:
        agari.is_agari(counts)
    return time.perf_counter() - start


def ours_shanten(hands: list[Counts]) -> float:
    shanten = shapes.shanten
    start = time.perf_counter()
    for counts in hands:
        shanten(counts, BOTH_SPECIAL_SHAPES)
    return time.perf_counter() - start


def theirs_shanten(hands: list[Counts]) -> float:
    calculator = Shanten()
    start = time.perf_counter()
    for counts in hands:
        calculator.calculate_shanten(counts)
    return time.perf_counter() - start


def timed(timer: Timer, hands: list[Counts]) -> float:
    gc.disable()  # as timeit does: a collection would land on whichever side happens to run
    try:
        return timer(hands)
    finally:
        gc.enable()


def median_time(timer: Timer, hands: list[Counts], repeats: int) -> float:
    return statistics.median(timed(timer, hands) for _ in range(repeats))


def median_pair(
    ours: Timer, theirs: Timer, hands: list[Counts], repeats: int
) -> tuple[float, float]:
    """Medians of alternating passes, so a change in machine load hits both sides alike."""
    passes = [(timed(ours, hands), timed(theirs, hands)) for _ in range(repeats)]
    return (
        statistics.median(p[0] for p in passes),
        statistics.median(p[1] for p in passes),
    )


def cold_time(timer: Timer, hands: list[Counts]) -> float:
    shapes.clear_caches()
    return timed(timer, hands)


def disagreements(win_hands: list[Counts], shanten_hands: list[Counts]) -> tuple[int, int]:
    """(disagreements, comparisons): win checks on the win hands, shanten on every hand."""
    agari, calculator = Agari(), Shanten()
    bad = compared = 0
    for counts in win_hands:
        ours = shapes.is_win(counts, BOTH_SPECIAL_SHAPES)
        bad += ours != agari.is_agari(counts)
        compared += 1
    for counts in win_hands + shanten_hands:
        ours_distance = shapes.shanten(counts, BOTH_SPECIAL_SHAPES)
        bad += ours_distance != calculator.calculate_shanten(counts)
        compared += 1
    return bad, compared


def rate(hands: list[Counts], seconds: float) -> str:
    return f"{len(hands) / seconds:>12,.0f} hands/s"


def report(label: str, hands: list[Counts], ours: float, theirs: float) -> float:
    ratio = theirs / ours
    print(f"{label:<34} ours {rate(hands, ours)}   mahjong {rate(hands, theirs)}   x{ratio:.2f}")
    return ratio


def seventeen_tiles(rng: random.Random, n: int, repeats: int) -> None:
    random17 = random_hands(rng, n, 17)
    complete17 = complete_hands(rng, n, 5)
    assert all(shapes.is_win(counts) for counts in complete17)
    assert all(shapes.shanten(counts) == -1 for counts in complete17)
    for label, hands in (("random 17-tile", random17), ("complete 17-tile", complete17)):
        win = median_time(ours_win, hands, repeats)
        distance = median_time(ours_shanten, hands, repeats)
        print(f"{label:<34} ours win {rate(hands, win)}   ours shanten {rate(hands, distance)}")
    try:
        Shanten().calculate_shanten(complete17[0])
    except ValueError as error:
        print(f"{'':<34} mahjong shanten on 17 tiles: ValueError: {error}")
    # Its win check is a shape check of the concealed part, so it does take 17 tiles.
    accepted = sum(Agari().is_agari(counts) for counts in complete17)
    print(f"{'':<34} mahjong is_agari on the complete 17-tile hands: {accepted}/{n} true")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000, help="hands per set")
    parser.add_argument("--repeats", type=int, default=7, help="timed passes (median)")
    parser.add_argument("--seed", type=int, default=20240611)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    random14 = random_hands(rng, args.hands, 14)
    complete14 = complete_hands(rng, args.hands, 4)
    random13 = random_hands(rng, args.hands, 13)
    win_hands = random14 + complete14
    print(
        f"seed {args.seed}, {args.hands} hands per set, median of {args.repeats} passes; "
        f"python {sys.version.split()[0]}, mahjong {version('mahjong')}"
    )

    started = time.process_time()
    shipped = shape_data.load()
    read_ms = (time.process_time() - started) * 1000
    held = "missing" if shipped is None else f"{len(shipped.tables)} distinct tables"
    size = shape_data.PATH.stat().st_size
    print(f"shipped tables: {size:,} bytes ({held}), read in {read_ms:.1f} ms")
    print("-- cold (our tables emptied first; theirs has no tables) --")
    cold_win = cold_time(ours_win, win_hands)
    report("win check, random + complete 14", win_hands, cold_win, timed(theirs_win, win_hands))
    cold_shanten = cold_time(ours_shanten, random13)
    report("shanten, random 13-tile", random13, cold_shanten, timed(theirs_shanten, random13))

    bad, compared = disagreements(win_hands, random13)
    print(f"disagreements with mahjong: {bad} of {compared} comparisons")

    print("-- warm (median of repeats) --")
    times = {}
    for name, hands in (("random14", random14), ("complete14", complete14)):
        times[name] = median_pair(ours_win, theirs_win, hands, args.repeats)
    report("win check, random 14-tile", random14, *times["random14"])
    report("win check, complete 14-tile", complete14, *times["complete14"])
    ours_total = times["random14"][0] + times["complete14"][0]
    theirs_total = times["random14"][1] + times["complete14"][1]
    win_ratio = report("win check, both sets together", win_hands, ours_total, theirs_total)
    shanten_times = median_pair(ours_shanten, theirs_shanten, random13, args.repeats)
    shanten_ratio = report("shanten, random 13-tile", random13, *shanten_times)
    seventeen_tiles(rng, args.hands, args.repeats)
    print("tables:", ", ".join(f"{k} {v}" for k, v in shapes.cache_sizes().items()))
    print(f"win_check_ratio: {win_ratio:.2f}")
    print(f"shanten_ratio: {shanten_ratio:.2f}")


if __name__ == "__main__":
    main()
