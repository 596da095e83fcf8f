"""Scoring speed: µs per `engine.scoring.score` call on the hands the strong computer asks about,
and per hand played.

    python bench/scoring_speed.py [--hands N] [--seed S] [--presets a,b] [--repeats R]
                                  [--old TREE] [--profile PRESET]

For every preset (or those named) it plays N seeded hands of one session with the strong
computer in every seat and records every call that reaches `engine.scoring.score` (the strong
computer's hypothetical wins and the engine's own win checks), in order. Then, in a fresh process
per preset and repeat (empty caches, as a new table has them), it replays those calls in the same
order and times them with this process's CPU time (the machine may be shared), median of R
repeats; `µs/hand` is that time over the hands played (fewer than N where a game ends first;
Riichi: the `mahjong` package's han, fu and yaku for every win the loop checks and every one
the computer weighs). The Riichi presets in development (engine.families.riichi.presets) are
measured too. With `--old TREE` each repeat also runs in that tree (`PYTHONPATH=TREE`), side by
side, and each line says whether every score (`Score.to_json()` and `message`) is the same in both.

`--profile PRESET` prints a cProfile of one replay of that preset instead (distorts small
functions: prefer `py-spy` for fine detail).
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import os
import pickle
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(ROOT))
# bench/ itself must not shadow a package (bench/render.py and render/)
_BENCH = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _BENCH]

from engine import scoring  # noqa: E402
from engine.computer.simulate import play_session  # noqa: E402
from engine.presets import PRESETS, Preset, find_preset  # noqa: E402
from engine.scoring.base import Score, WinContext  # noqa: E402

Calls = dict[str, list[WinContext]]  # preset id -> its score calls, in order
ALL_PRESETS = sorted(PRESETS)


def preset_of(preset_id: str) -> Preset:
    return find_preset(preset_id)


def record(
    presets: list[str], hands: int, seed: int, played: dict[str, int] | None = None
) -> Calls:
    """Every score call of N strong hands per preset (and in `played` the hands played)."""
    calls: Calls = {}
    played = {} if played is None else played
    real = scoring.score
    for preset_id in presets:
        asked: list[WinContext] = calls.setdefault(preset_id, [])

        def recording(preset: object, ctx: WinContext, asked: list[WinContext] = asked) -> Score:
            asked.append(ctx)
            return real(preset, ctx)  # type: ignore[arg-type]

        scoring.score = recording  # type: ignore[assignment]
        try:
            session = play_session(preset_of(preset_id), hands, seed, level="strong")
            played[preset_id] = sum(1 for _ in session)
        finally:
            scoring.score = real
    return calls


def replay(preset_id: str, asked: list[WinContext]) -> tuple[float, str]:
    """CPU seconds to score every call in order, and a digest of all the answers."""
    preset = preset_of(preset_id)
    started = time.process_time()
    answers = [scoring.score(preset, ctx) for ctx in asked]
    seconds = time.process_time() - started
    digest = hashlib.md5()
    for answer in answers:
        digest.update(repr((answer.to_json(), str(answer.message))).encode())
    return seconds, digest.hexdigest()


def run_child(tree: Path, calls_file: Path, preset_id: str) -> tuple[float, str]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, str(Path(__file__).resolve()), "--replay", str(calls_file)]
    command += ["--presets", preset_id]
    out = subprocess.run(command, env=env, capture_output=True, check=True, text=True).stdout
    seconds, digest = json.loads(out)
    return float(seconds), str(digest)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20, help="strong hands per preset")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--presets", default=",".join(ALL_PRESETS))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--old", type=Path, help="another tree to time side by side")
    parser.add_argument("--profile", metavar="PRESET")
    parser.add_argument("--replay", type=Path, help=argparse.SUPPRESS)  # the child's job
    args = parser.parse_args(argv)
    presets = args.presets.split(",")
    if args.replay:
        asked = pickle.loads(args.replay.read_bytes())[presets[0]]
        print(json.dumps(replay(presets[0], asked)))
        return 0
    if args.profile:
        asked = record([args.profile], args.hands, args.seed)[args.profile]
        profile = cProfile.Profile()
        profile.runcall(replay, args.profile, asked)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)
        return 0
    played: dict[str, int] = {}
    calls = record(presets, args.hands, args.seed, played)
    trees = [("new", ROOT)] + ([("old", args.old.resolve())] if args.old else [])
    header = "".join(f"{name + ' µs/score':>16}{name + ' µs/hand':>16}" for name, _ in trees)
    print(f"{'preset (cpu time, median of ' + str(args.repeats) + ')':34}{'calls':>8}{header}")
    with tempfile.TemporaryDirectory() as folder:
        calls_file = Path(folder) / "calls.pickle"
        calls_file.write_bytes(pickle.dumps(calls))
        for preset_id in presets:
            count = len(calls[preset_id])
            times: dict[str, list[float]] = {name: [] for name, _ in trees}
            digests: set[str] = set()
            for _ in range(args.repeats):
                for name, tree in trees:
                    seconds, digest = run_child(tree, calls_file, preset_id)
                    times[name].append(seconds)
                    digests.add(digest)
            cells = "".join(
                f"{1e6 * statistics.median(times[name]) / max(count, 1):>16.1f}"
                f"{1e6 * statistics.median(times[name]) / played[preset_id]:>16.0f}"
                for name, _ in trees
            )
            same = "" if not args.old else ("  same" if len(digests) == 1 else "  DIFFERS")
            print(f"{preset_id:34}{count:>8}{cells}{same}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
