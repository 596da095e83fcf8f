"""Digests of the strong computer's seeded choices, to prove a speed-up changes none of them.

    python bench/strong_digests.py [--hands N] [--seed S] [--save FILE | --check FILE] [--workers W]

Per preset (and hubei-laizi with 3 and 2 players, and the Riichi presets in development) it runs
`python -m bot simulate --preset P --hands N --seed S --level strong --json` and prints the md5 of
its output. `--save` writes the digests to a file; `--check` compares with one and exits 1 when
any differs. Each table runs in its own process, as the simulate command does (nothing
remembered from another table). `--workers W` plays the same hands with every decision the
bot's decision pool takes made by W worker processes (bot/runtime/decisions.py): the digests
must not change.
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


def digest(preset: str, players: int, hands: int, seed: int, workers: int) -> str:
    command = [sys.executable, "-m", "bot", "simulate", "--preset", preset, "--hands", str(hands)]
    if workers:  # this file plays them, as simulate does, through a pool
        command = [sys.executable, __file__, "--pooled", preset, "--hands", str(hands)]
        command += ["--workers", str(workers)]
    command += ["--seed", str(seed), "--level", "strong", "--json"]
    if players:
        command += ["--players", str(players)]
    out = subprocess.run(command, cwd=ROOT, capture_output=True, check=True).stdout
    return hashlib.md5(out).hexdigest()


def print_pooled(preset_id: str, hands: int, seed: int, players: int, workers: int) -> None:
    """What `simulate --json` prints, every decision the pool takes made by its workers."""
    import asyncio

    import engine.computer.simulate
    from bot.runtime.decisions import DecisionPool
    from engine.actions import Action
    from engine.computer import choose_strong
    from engine.hand import HandState
    from engine.options import choose
    from engine.presets import find_preset

    loop = asyncio.new_event_loop()

    async def started() -> DecisionPool:
        pool = DecisionPool(workers)
        await pool.ready()
        return pool

    pool = loop.run_until_complete(started())

    def pooled(state: HandState, seat: int) -> Action:
        chosen = loop.run_until_complete(pool.choose(state, seat))
        return chosen if chosen is not None else choose_strong(state, seat)

    engine.computer.simulate.computer_for = lambda level: pooled  # type: ignore[attr-defined]
    preset = choose(find_preset(preset_id), {})
    for hand in engine.computer.simulate.simulate(preset, hands, seed, players, level="strong"):
        print(json.dumps(hand.to_json()), flush=False)
    loop.run_until_complete(pool.close())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--workers", type=int, default=0, help="decision workers (0: inline)")
    parser.add_argument("--pooled", help=argparse.SUPPRESS)  # one table through the pool
    parser.add_argument("--players", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--level", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--save", type=Path)
    group.add_argument("--check", type=Path)
    args = parser.parse_args(argv)
    if args.pooled:
        print_pooled(args.pooled, args.hands, args.seed, args.players, args.workers)
        return 0
    names = [f"{p}" + (f"@{n}" if n else "") for p, n in tables()]
    with ThreadPoolExecutor(args.jobs) as pool:
        found = list(pool.map(lambda t: digest(*t, args.hands, args.seed, args.workers), tables()))
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
