"""Engine speed: µs per `HandState.apply`, per easy computer decision, and simulated hands/s.

    python bench/engine_speed.py [--hands N] [--repeats R] [--presets a,b] [--breakdown | --profile]

For every preset (or those named), it plays N seeded hands with the easy computer in every seat
and records each hand's actions, then times, as medians over R repeats:

  * apply: replaying the recorded actions into fresh hands (the deal excluded), µs per action;
  * decide: `choose_action` at every decision of those hands (a replay making the decisions,
    less the plain replay), µs per decision;
  * simulate: whole hands played out by the easy computer (deal, decisions, applies), hands/s.

Times are this process's CPU time (the machine may be shared), medians of the repeats.

The figures are whatever tree `engine` imports from: to compare two commits in one session, run
this file from one tree with `PYTHONPATH=<other tree>` (the script puts its own tree first only
when PYTHONPATH is unset).

`--breakdown` prints wall µs per engine entry point instead (seats_to_act, decision_version,
legal_actions, choose_action by phase, apply by action kind); `--profile` a cProfile of the
simulate phase (over fresh seeds, after one unprofiled pass has filled the shape tables as a
running bot has them).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# bench/ itself must not shadow a package (bench/render.py and render/)
_BENCH = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _BENCH]

from engine.actions import Action  # noqa: E402
from engine.computer.easy import choose_action  # noqa: E402
from engine.hand import HandState  # noqa: E402
from engine.presets import PRESETS, Preset, find_preset  # noqa: E402

Recorded = list[tuple[int, list[Action]]]  # (seed, actions) per hand


def record(preset: Preset, hands: int) -> Recorded:
    played = []
    for seed in range(hands):
        state = HandState(preset, seed)
        while not state.is_over:
            state.apply(choose_action(state, state.seats_to_act()[0]))
        played.append((seed, list(state.log)))
    return played


# CPU time of this process, not wall time: the machine is shared, and another process's turn on
# the core would be counted as ours. Timed per hand, so the clock's own cost does not count.
clock = time.process_time


def time_apply(preset: Preset, played: Recorded) -> tuple[float, int]:
    """Seconds spent in apply over every recorded action, and how many actions."""
    spent, count = 0.0, 0
    for seed, actions in played:
        state = HandState(preset, seed)
        start = clock()
        for action in actions:
            state.apply(action)
        spent += clock() - start
        count += len(actions)
    return spent, count


def time_decide(preset: Preset, played: Recorded) -> tuple[float, int]:
    """Seconds spent in choose_action at every decision of the recorded hands: the replay with
    the decisions made, less the same replay without them."""
    spent, count = 0.0, 0
    for seed, actions in played:
        state = HandState(preset, seed)
        start = clock()
        for action in actions:
            choose_action(state, state.seats_to_act()[0])
            state.apply(action)
        spent += clock() - start
        count += len(actions)
    applied, _ = time_apply(preset, played)
    return spent - applied, count


def time_simulate(preset: Preset, hands: int, first_seed: int = 0) -> tuple[float, int]:
    start = clock()
    for seed in range(first_seed, first_seed + hands):
        state = HandState(preset, seed)
        while not state.is_over:
            state.apply(choose_action(state, state.seats_to_act()[0]))
    return clock() - start, hands


def breakdown(preset: Preset, played: Recorded, spent: dict[str, list[float]]) -> None:
    """Wall µs of each engine entry point at every decision of the recorded hands, by phase and
    action kind: seats_to_act, decision_version, legal_actions (worked out afresh),
    choose_action (the offer already worked out) and apply (its legality check included)."""
    tick = time.perf_counter

    def add(label: str, seconds: float) -> None:
        entry = spent.setdefault(label, [0.0, 0])
        entry[0] += seconds
        entry[1] += 1

    for seed, actions in played:
        state = HandState(preset, seed)
        for action in actions:
            phase = state.phase.value
            t0 = tick()
            seat = state.seats_to_act()[0]
            t1 = tick()
            state.decision_version  # noqa: B018 (timed)
            t2 = tick()
            state._legal_cache.clear()  # the cache holds nothing yet between actions
            t3 = tick()
            state.legal_actions(seat)
            t4 = tick()
            choose_action(state, seat)
            t5 = tick()
            state.apply(action)
            t6 = tick()
            add("seats_to_act", t1 - t0)
            add("decision_version", t2 - t1)
            add(f"legal_actions ({phase})", t4 - t3)
            add(f"choose_action ({phase})", t5 - t4)
            add(f"apply {action.kind.value} ({phase})", t6 - t5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--presets", default="", help="comma-separated ids (default: all)")
    parser.add_argument("--profile", action="store_true", help="cProfile the simulate phase")
    parser.add_argument("--breakdown", action="store_true", help="µs per engine entry point")
    args = parser.parse_args()
    ids = args.presets.split(",") if args.presets else sorted(PRESETS)
    presets = [find_preset(preset_id) for preset_id in ids]
    import engine

    print(f"engine from {Path(engine.__file__).parent}")
    if args.profile:
        for preset in presets:  # the shape tables fill lazily: profile a running bot's state
            time_simulate(preset, args.hands)
        profiler = cProfile.Profile()
        profiler.enable()
        for preset in presets:
            time_simulate(preset, args.hands, first_seed=args.hands)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(35)
        return
    recorded = {preset.id: record(preset, args.hands) for preset in presets}
    if args.breakdown:
        entries: dict[str, list[float]] = {}
        for preset in presets:
            breakdown(preset, recorded[preset.id], entries)
        print(f"{'entry point':36} {'calls':>8} {'µs each':>8} {'share':>6}")
        whole = sum(seconds for seconds, _ in entries.values())
        for label, (seconds, calls) in sorted(entries.items(), key=lambda item: -item[1][0]):
            share = seconds / whole * 100
            print(f"{label:36} {calls:8.0f} {seconds / calls * 1e6:8.1f} {share:5.1f}%")
        return
    totals: dict[str, list[float]] = {"apply": [0.0, 0], "decide": [0.0, 0], "simulate": [0.0, 0]}
    print(f"{'preset':22} {'apply µs':>9} {'decide µs':>10} {'hands/s':>9}")
    for preset in presets:
        row = {}
        played = recorded[preset.id]
        runs: list[tuple[str, Callable[[], tuple[float, int]]]] = [
            ("apply", partial(time_apply, preset, played)),
            ("decide", partial(time_decide, preset, played)),
            ("simulate", partial(time_simulate, preset, args.hands)),
        ]
        for name, run in runs:
            spent_runs = []
            for _ in range(args.repeats):
                spent, count = run()
                spent_runs.append(spent)
            spent = statistics.median(spent_runs)
            row[name] = spent, count
            totals[name][0] += spent
            totals[name][1] += count
        print(
            f"{preset.id:22} {row['apply'][0] / row['apply'][1] * 1e6:9.1f} "
            f"{row['decide'][0] / row['decide'][1] * 1e6:10.1f} "
            f"{row['simulate'][1] / row['simulate'][0]:9.1f}"
        )
    apply_s, applies = totals["apply"]
    decide_s, decisions = totals["decide"]
    simulate_s, hands = totals["simulate"]
    print(
        f"{'all':22} {apply_s / applies * 1e6:9.1f} {decide_s / decisions * 1e6:10.1f} "
        f"{hands / simulate_s:9.1f}"
    )


if __name__ == "__main__":
    main()
