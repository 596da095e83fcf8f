"""`mahjong-bot simulate --games N`: whole games of computer players, each game's standings and a
summary (hands per game, average placement per seat, game ends by kind).

Each game is a session seeded SEED+i (i from 0), so a run is the same for the same arguments;
players are numbered 0-3 in seating order (0 deals first).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from typing import TextIO

from engine.computer.simulate import SimulatedGame, simulate_games
from engine.presets import Preset


def print_games(preset: Preset, args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Play `args.games` games and print them: a JSON object per game with `--json`, else each
    game's standings; then the summary (not with `--json`)."""
    import sys

    out = out or sys.stdout
    started = time.perf_counter()
    games: list[SimulatedGame] = []
    for number, game in enumerate(
        simulate_games(preset, args.games, args.seed, args.players, level=args.level), start=1
    ):
        games.append(game)
        if args.json:
            print(json.dumps({"game": number, **game.to_json()}), file=out)
        else:
            _print_game(number, game, out)
    elapsed = time.perf_counter() - started
    if not args.json:
        _print_summary(preset, games, elapsed, out)
    return 0


def _print_game(number: int, game: SimulatedGame, out: TextIO) -> None:
    print(
        f"game {number} (seed {game.seed}): {game.hands} hands, ended by {game.end.value}",
        file=out,
    )
    for standing in sorted(game.standings, key=lambda s: s.place):
        print(
            f"  {standing.place}. player {standing.player}"
            f"  points {standing.points:>7,}  score {standing.score:+.1f}",
            file=out,
        )


def _print_summary(preset: Preset, games: list[SimulatedGame], elapsed: float, out: TextIO) -> None:
    players = len(games[0].standings)
    hands = sum(game.hands for game in games)
    places = [
        sum(game.standings[player].place for game in games) / len(games)
        for player in range(players)
    ]
    ends = Counter(game.end.value for game in games)
    print(f"preset: {preset.id}", file=out)
    print(
        f"games: {len(games)}  hands: {hands}  hands per game: {hands / len(games):.1f}", file=out
    )
    print(
        "average placement per seat: "
        + "  ".join(f"{player}: {place:.2f}" for player, place in enumerate(places)),
        file=out,
    )
    print(
        "game ends: " + "  ".join(f"{kind}: {count}" for kind, count in sorted(ends.items())),
        file=out,
    )
    print(f"games_per_s: {len(games) / elapsed:.2f}", file=out)
