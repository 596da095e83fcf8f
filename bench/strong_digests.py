"""Digests of the strong computer's seeded choices, to prove a speed-up changes none of them.

    python bench/strong_digests.py [--hands N] [--seed S] [--save FILE | --check FILE]

Per preset (and hubei-laizi with 3 and 2 players, and the Riichi presets in development) it runs
`python -m bot simulate --preset P --hands N --seed S --level strong --json` and prints the md5 of
its output. `--save` writes the digests to a file; `--check` compares with one and exits 1 when
any differs. Each table runs in its own process, as the simulate command does (nothing
remembered from another table).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.presets import PRESETS  # noqa: E402


def tables() -> list[tuple[str, int]]:
    """Every preset at its own number of players, and hubei-laizi at three and two."""
    return [(p, 0) for p in sorted(PRESETS)] + [("hubei-laizi", 3), ("hubei-laizi", 2)]


def digest(preset: str, players: int, hands: int, seed: int) -> str:
    command = [sys.executable, "-m", "bot", "simulate", "--preset", preset, "--hands", str(hands)]
    command += ["--seed", str(seed), "--level", "strong", "--json"]
    if players:
        command += ["--players", str(players)]
    out = subprocess.run(command, cwd=ROOT, capture_output=True, check=True).stdout
    return hashlib.md5(out).hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--save", type=Path)
    group.add_argument("--check", type=Path)
    args = parser.parse_args(argv)
    names = [f"{p}" + (f"@{n}" if n else "") for p, n in tables()]
    with ThreadPoolExecutor(args.jobs) as pool:
        found = list(pool.map(lambda t: digest(*t, args.hands, args.seed), tables()))
    digests = dict(zip(names, found, strict=True))
    expected = json.loads(args.check.read_text()) if args.check else {}
    differ = 0
    for name, value in digests.items():
        mark = ""
        if args.check:
            mark = "  same" if expected.get(name) == value else "  DIFFERS"
            differ += mark == "  DIFFERS"
        print(f"{name:24} {value}{mark}")
    if args.save:
        args.save.write_text(json.dumps(digests, indent=1) + "\n")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
