"""Computer speed: simulate hands per second for each level side by side (a program, no test).

    python bench/computer_speed.py [--preset ID ...] [--hands N] [--seed S] [--level L ...]

Per preset and level it plays `--hands` consecutive hands of one session with computers of that
level in every seat, as `mahjong-bot simulate` does, and prints hands per second of processor
time (one core: time other programs take on a shared machine is left out) and of wall time, and
the processor time of one decision inside the computer (the engine's own work left out). Levels
run one after the other in one process, so a level run later finds the engine's shape tables
warmer; the first level pays for filling them.
The last lines are for the bar, one per preset and level: `hands_per_s[PRESET][LEVEL]: X` (of
processor time).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.actions import Action
from engine.computer import LEVELS, computer_for
from engine.computer.knowledge import knows
from engine.computer.simulate import play_out
from engine.hand import HandState
from engine.presets import PRESETS, Preset, find_preset
from engine.session import Session


@dataclass
class Speed:
    """One level's run over one preset's hands."""

    hands: int
    decisions: int
    cpu_seconds: float
    wall_seconds: float
    deciding_seconds: float  # processor time inside the computer
    decision_seconds: list[float]  # each decision's processor time, in the order made

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.cpu_seconds if self.cpu_seconds else float("inf")

    @property
    def wall_hands_per_s(self) -> float:
        return self.hands / self.wall_seconds if self.wall_seconds else float("inf")

    @property
    def ms_per_decision(self) -> float:
        return 1000 * self.deciding_seconds / self.decisions if self.decisions else 0.0

    def ms_at(self, share: float) -> float:
        """The decision time (ms) below which `share` of the decisions fall (0.5: the median)."""
        if not self.decision_seconds:
            return 0.0
        ordered = sorted(self.decision_seconds)
        return 1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(preset: Preset, level: str, hands: int, seed: int) -> Speed:
    """Play `hands` hands of one seeded session with `level` computers in every seat."""
    computer = computer_for(level)
    times: list[float] = []

    def counted(state: HandState, seat: int) -> Action:
        started = time.process_time()
        action = computer(state, seat)
        times.append(time.process_time() - started)
        return action

    session = Session(preset, seed)
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(hands):
        state = play_out(session.new_hand(), computer=counted)
        outcome = state.outcome()
        assert outcome is not None
        session.finish_hand(outcome)
    cpu_seconds, wall_seconds = time.process_time() - cpu, time.perf_counter() - wall
    return Speed(hands, len(times), cpu_seconds, wall_seconds, sum(times), times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    known = sorted(p for p in PRESETS if knows(PRESETS[p]))
    parser.add_argument(
        "--preset",
        nargs="*",
        default=known,
        help="default: the presets the strong level knows (riichi, riichi-majsoul: named)",
    )
    parser.add_argument("--hands", type=int, default=300, help="hands per preset and level")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", nargs="*", default=sorted(LEVELS), choices=sorted(LEVELS))
    args = parser.parse_args(argv)
    results: dict[tuple[str, str], Speed] = {}
    columns = f"{'ms/decision':>13}{'median':>8}{'p99':>8}"
    header = "".join(f"{level + ' hands/s':>18}{columns}" for level in args.level)
    print(f"{'preset (cpu time; wall in brackets)':38}{header}")
    for preset_id in args.preset:
        preset = find_preset(preset_id)
        cells = []
        for level in args.level:
            speed = results[preset_id, level] = measure(preset, level, args.hands, args.seed)
            rate = f"{speed.hands_per_s:.1f} ({speed.wall_hands_per_s:.0f})"
            cells.append(
                f"{rate:>18}{speed.ms_per_decision:>13.3f}"
                f"{speed.ms_at(0.5):>8.3f}{speed.ms_at(0.99):>8.3f}"
            )
        print(f"{preset_id:38}{''.join(cells)}", flush=True)
    print()
    for (preset_id, level), speed in results.items():
        print(f"hands_per_s[{preset_id}][{level}]: {speed.hands_per_s:.1f}")
        print(f"decision_ms_median_p99[{preset_id}][{level}]: ", end="")
        print(f"{speed.ms_at(0.5):.3f} {speed.ms_at(0.99):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
