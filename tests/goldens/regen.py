"""Readable goldens: every hand of seeded computer-only sessions, one line per hand.

Like python-chess's perft files, each line is plain data, so a difference names the hand where
play diverged and what changed there (a winner, a fan, a payment, the length of the wall).

Regenerate after an intended change of play (and say in the commit which hands changed, why):

    python -m tests.goldens.regen            # rewrite every preset's file
    python -m tests.goldens.regen --check    # only compare, print the first differences
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Iterator
from pathlib import Path

from engine.computer.simulate import play_session
from engine.presets import PRESETS, find_preset

GOLDEN_DIR = Path(__file__).parent
# (seed, hands): the 200-hand run `simulate` makes by default, and the 40-hand session of seed 11
# that the former sha256 digests covered
RUNS = ((0, 200), (11, 40))


def golden_path(preset_id: str) -> Path:
    return GOLDEN_DIR / f"{preset_id}.txt"


def hand_lines(preset_id: str) -> Iterator[str]:
    """The golden lines of one preset: a header per run, then one line per hand."""
    preset = find_preset(preset_id)
    for seed, hands in RUNS:
        yield f"# simulate --preset {preset_id} --hands {hands} --seed {seed}"
        yield "# hand seed dealer wins(seat:by:from@discards) fan deltas kong draw wall actions log"
        for number, played in enumerate(play_session(preset, hands, seed)):
            state, outcome = played.state, played.outcome
            wins = ",".join(
                f"{w.seat}:{w.by.value}:{'-' if w.discarder is None else w.discarder}@{w.at}"
                for w in outcome.wins
            )
            fans = ",".join(str(w.score.fan) for w in outcome.wins)
            deltas = ",".join(str(d) for d in outcome.deltas)
            kongs = ",".join(str(d) for d in state.kong_points)
            checks = ",".join(str(d) for d in state.draw_points)
            log = hashlib.sha256(" ".join(map(str, state.log)).encode()).hexdigest()[:12]
            yield (
                f"{number} seed={state.seed} dealer={played.dealer} wins={wins or '-'} "
                f"fan={fans or '-'} deltas={deltas} kong={kongs} draw={checks} "
                f"wall={state.wall_left} actions={len(state.log)} log={log}"
            )


def render(preset_id: str) -> str:
    return "\n".join(hand_lines(preset_id)) + "\n"


def differences(preset_id: str, limit: int = 5) -> list[str]:
    """Where the stored golden and a fresh run disagree, first `limit` lines (empty: identical)."""
    path = golden_path(preset_id)
    stored = path.read_text().splitlines() if path.exists() else []
    fresh = render(preset_id).splitlines()
    found = []
    for index in range(max(len(stored), len(fresh))):
        old = stored[index] if index < len(stored) else "<missing>"
        new = fresh[index] if index < len(fresh) else "<missing>"
        if old != new:
            found.append(f"{path.name}:{index + 1}\n  golden: {old}\n  now:    {new}")
            if len(found) == limit:
                break
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 on a change")
    parser.add_argument("presets", nargs="*", default=sorted(PRESETS))
    args = parser.parse_args(argv)
    changed = False
    for preset_id in args.presets:
        if args.check:
            diff = differences(preset_id)
            changed = changed or bool(diff)
            print("\n".join(diff) if diff else f"{preset_id}: identical")
        else:
            golden_path(preset_id).write_text(render(preset_id))
            print(f"wrote {golden_path(preset_id)}")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
