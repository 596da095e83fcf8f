"""The `mahjong-bot` command line: run the bot, play in the terminal, score, simulate, render."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

from engine.i18n import LANGUAGES
from engine.presets import PLANNED_PRESETS, PRESETS, UnknownPresetError, find_preset


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    command = args.command or "run"
    try:
        return _COMMANDS[command](args)
    except UnknownPresetError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mahjong-bot",
        description="Mahjong tables on Discord, real rule presets, and the tools around them.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser("run", help="run the Discord bot (the default; needs DISCORD_TOKEN)")

    play = sub.add_parser("play", help="play a table in the terminal against computers")
    play.add_argument("--preset", default="hkos-3-v1", help="rule preset id (see `presets`)")
    play.add_argument("--seed", type=int, default=None, help="seed for a reproducible table")
    play.add_argument("--images", metavar="DIR", help="also write the hand/table/result PNGs here")
    play.add_argument("--hands", type=int, default=0, help="stop after this many hands (0: ask)")
    play.add_argument(
        "--min-fan",
        type=int,
        default=None,
        help="the table's minimum faan where the preset has the option (hk-fw2: 0-3, default 0)",
    )
    play.add_argument(
        "--time", help="time control (default untimed; the Sichuan tables: their table clock)"
    )
    play.add_argument(
        "--players", type=int, help="seats at the table, you included (default: the preset's)"
    )
    play.add_argument("--level", default="strong", help="the computers' level: strong or easy")
    play.add_argument(
        "--lang",
        choices=LANGUAGES,
        help="the language of every line and picture (default: from LANG, else en)",
    )

    score = sub.add_parser("score", help="score hands given as JSON (stdin lines or --json)")
    score.add_argument("--json", dest="request", help="one request as a JSON object")

    sim = sub.add_parser("simulate", help="computer-only hands: results and hands per second")
    sim.add_argument("--preset", required=True)
    sim.add_argument("--hands", type=int, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--players", type=int, default=0, help="seats (default: the preset's first)")
    sim.add_argument("--json", action="store_true", help="one JSON object per hand")
    sim.add_argument("--level", default="easy", choices=("easy", "strong"), help="computer level")

    sub.add_parser("presets", help="list the rule presets")

    replay = sub.add_parser("replay", help="replay a finished hand: its steps, pictures, export")
    replay.add_argument("hand_id", nargs="?", type=int, help="the hand's id (see /mahjong history)")
    replay.add_argument("--db", default=None, help="the database (default $MAHJONG_DB, mahjong.db)")
    replay.add_argument("--log", help="replay an exported hand (JSON) instead")
    replay.add_argument("-o", "--output", metavar="DIR", help="write the frames as PNGs here")
    replay.add_argument("--gif", action="store_true", help="one animated hand.gif instead")
    replay.add_argument("--export", metavar="FILE", help="write the hand's JSON export here")
    replay.add_argument("--lang", choices=LANGUAGES, help="the language of its steps and pictures")

    database = sub.add_parser("db", help="the database: copy a community's data to another")
    db_sub = database.add_subparsers(dest="db_command", metavar="DB_COMMAND", required=True)
    copy = db_sub.add_parser(
        "copy", help="copy every table, log, rating, history and preference to another database"
    )
    copy.add_argument(
        "--from", dest="source", required=True, help="a SQLite file or postgresql://…"
    )
    copy.add_argument("--to", dest="target", required=True, help="a SQLite file or postgresql://…")
    copy.add_argument("--replace", action="store_true", help="empty a target that holds data first")

    from render.cli import add_render_parser

    add_render_parser(sub)
    return parser


def _cmd_presets(args: argparse.Namespace) -> int:
    for preset in PRESETS.values():
        print(f"{preset.id:20} {preset.name} — {preset.summary}")
    for preset_id, name in PLANNED_PRESETS.items():
        print(f"{preset_id:20} (planned) {name}")
    return 0


def _cmd_score(args: argparse.Namespace) -> int:
    from engine.score_request import run_score_lines

    lines = [args.request] if args.request is not None else sys.stdin
    return run_score_lines(lines, sys.stdout, sys.stderr)


def _cmd_simulate(args: argparse.Namespace) -> int:
    from engine.simulate import simulate

    preset = find_preset(args.preset)
    if args.hands < 1:
        print("error: --hands must be at least 1", file=sys.stderr)
        return 2
    if args.players and args.players not in preset.seat_counts:
        allowed = ", ".join(map(str, preset.seat_counts))
        print(
            f"error: --players: {preset.id} seats {allowed} players, not {args.players}",
            file=sys.stderr,
        )
        return 2
    started = time.perf_counter()
    wins = draws = total_wins = 0
    for hand in simulate(preset, args.hands, args.seed, args.players, level=args.level):
        if args.json:
            print(json.dumps(hand.to_json()), flush=False)
        total_wins += len(hand.winners)
        if hand.winners:
            wins += 1
        else:
            draws += 1
    elapsed = time.perf_counter() - started
    if not args.json:
        print(f"preset: {preset.id}")
        print(f"players: {args.players or preset.seat_counts[0]}")
        print(f"hands: {args.hands}  with a win: {wins}  wall draws: {draws}")
        print(f"wins per hand: {total_wins / args.hands:.2f}")
        print(f"hands_per_s: {args.hands / elapsed:.1f}")
    return 0


def _cmd_render(args: argparse.Namespace) -> int:
    from render.cli import run_render

    return run_render(args)


def _cmd_play(args: argparse.Namespace) -> int:
    from bot.terminal import run_terminal

    return run_terminal(args)


def _cmd_replay(args: argparse.Namespace) -> int:
    from bot.replay import run_replay

    return run_replay(args)


def _cmd_db(args: argparse.Namespace) -> int:
    import asyncio

    from data import StoreError
    from data.copy import copy_store
    from data.postgres import redact

    try:
        copied = asyncio.run(copy_store(args.source, args.target, replace=args.replace))
    except StoreError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"copied to {redact(args.target)}: {copied.line() or 'nothing (the source is empty)'}")
    return 0


def _cmd_run(args: argparse.Namespace) -> int:
    from bot.app import run_bot

    return run_bot()


_COMMANDS = {
    "run": _cmd_run,
    "play": _cmd_play,
    "score": _cmd_score,
    "simulate": _cmd_simulate,
    "presets": _cmd_presets,
    "render": _cmd_render,
    "replay": _cmd_replay,
    "db": _cmd_db,
}
