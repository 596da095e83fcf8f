"""The `mahjong-bot` command line: run the bot, play in the terminal, score, simulate, render."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

from bot.pipes import reader_went_away
from engine.i18n import LANGUAGES, translate
from engine.options import TableOption
from engine.presets import (
    PRESETS,
    TIME_CONTROLS,
    UnknownPresetError,
    find_preset,
)

SCORE_HINT = (
    "score: reading requests from the terminal, one JSON object a line (Ctrl-D ends); "
    "or pass one with --json '{\"preset\": …}', or pipe a file in. README: 'Scoring hands'."
)

OPTION_HELP = "a table option of the preset (hubei-laizi: green_white; hk-fw2: min_fan=2)"


LENGTH = "length"  # the table option of the presets whose games end after so many rounds


def _length_options() -> list[TableOption]:
    return [o for p in PRESETS.values() for o in p.options if o.name == LENGTH]


def length_help() -> str:
    """`--length`: the game's length where the preset has the option, each preset's values
    (the default first), from the presets themselves."""
    by_values: dict[tuple[str, ...], list[str]] = {}
    for preset in PRESETS.values():
        for option in preset.options:
            if option.name == LENGTH:
                values = [str(option.default)]
                values += [str(v) for v in option.values if v != option.default]
                by_values.setdefault(tuple(values), []).append(preset.id)
    said = "; ".join(
        f"{', '.join(ids)}: {' or '.join(values)}" for values, ids in by_values.items()
    )
    return f"the game's length where the preset has a `length` option, the default first: {said}"


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
    except BrokenPipeError:
        return reader_went_away()


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
    play.add_argument("--option", action="append", metavar="NAME[=VALUE]", help=OPTION_HELP)
    play.add_argument(
        "--length",
        dest="option",
        action="append",
        type=f"{LENGTH}={{}}".format,  # the table option, as `--option length=VALUE`
        metavar="|".join(dict.fromkeys(str(v) for o in _length_options() for v in o.values)),
        help=length_help(),
    )
    play.add_argument("--time", metavar="CONTROL", help=time_controls_help())
    play.add_argument(
        "--players", type=int, help="seats at the table, you included (default: the preset's)"
    )
    play.add_argument(
        "--level",
        default="strong",
        help="the computers' level: strong, easy, or an mjai engine named in MAHJONG_MJAI_ENGINES",
    )
    play.add_argument(
        "--db",
        metavar="FILE",
        help="keep the hands in this SQLite file, for `replay` (default: in memory only)",
    )
    play.add_argument(
        "--lang",
        choices=LANGUAGES,
        help="the language of every line and picture (default: from LANG, else en)",
    )

    score = sub.add_parser("score", help="score hands given as JSON (stdin lines or --json)")
    score.add_argument("--json", dest="request", help="one request as a JSON object")

    sim = sub.add_parser("simulate", help="computer-only hands: results and hands per second")
    sim.add_argument("--preset", required=True)
    sim.add_argument("--hands", type=int, default=None, help="hands of one session (default 100)")
    sim.add_argument(
        "--games", type=int, help="whole games instead (the i-th seeded SEED+i): standings each"
    )
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--players", type=int, default=0, help="seats (default: the preset's first)")
    sim.add_argument("--json", action="store_true", help="one JSON object per hand")
    sim.add_argument("--level", default="easy", choices=("easy", "strong"), help="computer level")
    sim.add_argument("--option", action="append", metavar="NAME[=VALUE]", help=OPTION_HELP)

    sub.add_parser("presets", help="list the rule presets")

    replay = sub.add_parser("replay", help="replay a finished hand: its steps, pictures, export")
    replay.add_argument("hand_id", nargs="?", type=int, help="the hand's id (see /mahjong history)")
    replay.add_argument("--db", default=None, help="the database (default $MAHJONG_DB, mahjong.db)")
    replay.add_argument("--log", help="replay an exported hand (JSON) instead")
    replay.add_argument(
        "-o",
        "--output",
        metavar="DIR|FILE",
        help="write the frames as PNGs here (--export: the game's log; --tenhou6: our replay as "
        "tenhou.net/6 JSON and each hand's result as hand-NNN.png)",
    )
    replay.add_argument("--gif", action="store_true", help="one animated hand.gif instead")
    replay.add_argument(
        "--export",
        metavar="FILE|HAND_OR_TABLE",
        help="with HAND_ID: write the hand's JSON export to FILE; alone: write the finished "
        "Riichi game of a hand (12) or a table (table:3) as tenhou.net/6 JSON (to -o FILE)",
    )
    replay.add_argument(
        "--format",
        choices=("tenhou6", "mjai"),
        default="tenhou6",
        help="--export of a whole game: tenhou.net/6 JSON (the default) or an mjai event log",
    )
    replay.add_argument(
        "--tenhou6", metavar="FILE", help="replay a tenhou.net/6 JSON log on our engine"
    )
    replay.add_argument(
        "--check",
        action="store_true",
        help="--tenhou6: exit 2 at the first hand whose result differs from the log's",
    )
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

    from bot.mjai import add_mjai_parser
    from render.cli import add_render_parser

    add_mjai_parser(sub)
    add_render_parser(sub)
    return parser


def time_controls_help() -> str:
    """`play --time`'s help: what each control gives, and what the clock does at zero."""
    timed = [tc for tc in TIME_CONTROLS.values() if not tc.untimed and not tc.deal_limit]
    controls = ", ".join(
        f"{tc.name} ({tc.base} s a move + a {tc.reserve} s reserve for the hand)"
        if tc.reserve
        else f"{tc.name} ({tc.base} s a move, no reserve)"
        for tc in timed
    )
    table = TIME_CONTROLS["table"]
    fixed = ", ".join(p.id for p in PRESETS.values() if p.time_control == table.name)
    return (
        f"the clock: {controls}. {translate('en', 'bot.clock.on_timeout')} Untimed when not "
        f"given, except at {fixed}, which always play their table clock ({table.base} s a "
        f"move, {table.deal_limit // 60} min for the whole deal). "
        f"{translate('en', table.on_timeout_key)}"
    ).replace("%", "%%")  # argparse formats help with %


def _cmd_presets(args: argparse.Namespace) -> int:
    for preset in PRESETS.values():
        print(f"{preset.id:20} {preset.name} — {preset.summary}")
    return 0


def _cmd_score(args: argparse.Namespace) -> int:
    from engine.formats.score_request import run_score_lines

    if args.request is None and sys.stdin.isatty():  # else it would wait without a word
        print(SCORE_HINT, file=sys.stderr)
    lines = [args.request] if args.request is not None else sys.stdin
    return run_score_lines(lines, sys.stdout, sys.stderr)


def _cmd_simulate(args: argparse.Namespace) -> int:
    from engine.computer.simulate import simulate
    from engine.options import choose, parse_choices

    preset = find_preset(args.preset)
    try:
        preset = choose(preset, parse_choices(preset, args.option or ()))
    except ValueError as error:
        print(f"error: --option: {error}", file=sys.stderr)
        return 2
    if args.games is not None:
        if args.hands is not None:
            print("error: --games plays whole games: give --hands or --games", file=sys.stderr)
            return 2
        if args.games < 1:
            print("error: --games must be at least 1", file=sys.stderr)
            return 2
        if not preset.game.ends:
            print(f"error: --games: {preset.id} games never end: use --hands", file=sys.stderr)
            return 2
    args.hands = 100 if args.hands is None else args.hands
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
    if args.games is not None:
        from bot.simulate_games import print_games

        return print_games(preset, args)
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
        played = wins + draws  # fewer than asked where the preset's game ends first
        print(f"hands: {played}  with a win: {wins}  wall draws: {draws}")
        print(f"wins per hand: {total_wins / played:.2f}")
        print(f"hands_per_s: {played / elapsed:.1f}")
    return 0


def _cmd_render(args: argparse.Namespace) -> int:
    from render.cli import run_render

    return run_render(args)


def _cmd_play(args: argparse.Namespace) -> int:
    from bot.terminal import run_terminal

    return run_terminal(args)


def _cmd_replay(args: argparse.Namespace) -> int:
    from bot.replay_command import run_replay

    return run_replay(args)


def _cmd_db(args: argparse.Namespace) -> int:
    import asyncio

    from data import StoreError
    from data.copy import copy_store
    from data.postgres import redact

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    try:
        copied = asyncio.run(
            copy_store(args.source, args.target, replace=args.replace, progress=progress)
        )
    except StoreError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"copied to {redact(args.target)}: {copied.line() or 'nothing (the source is empty)'}")
    return 0


def _cmd_mjai(args: argparse.Namespace) -> int:
    from bot.mjai import run_mjai

    return run_mjai(args)


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
    "mjai": _cmd_mjai,
}
