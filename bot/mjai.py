"""`mahjong-bot mjai SEAT [--preset riichi|riichi-majsoul] [--level strong|easy]`: one of our
computers as an mjai bot, the way the mjai.app arena runs one (`bot.py SEAT`).

Each stdin line is a JSON array of mjai events (one event object is accepted too); each is
answered by one JSON line on stdout: the seat's reaction when it has a decision, else
`{"type":"none"}`. The seat's hand is rebuilt from the events and decided by the same computers
as at our tables (engine.formats.mjai.seat). A malformed or impossible event: one line on stderr
naming it, exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from engine.computer import LEVELS, computer_for
from engine.formats.mjai import MJAI_PRESETS, refusal
from engine.formats.mjai.seat import Bot, read_events
from engine.formats.mjai.tiles import MjaiError
from engine.presets import find_preset


def add_mjai_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    mjai = sub.add_parser(
        "mjai", help="play one seat as an mjai bot: events on stdin, reactions on stdout"
    )
    mjai.add_argument("seat", type=int, choices=range(4), help="the player id, 0-3 (0 deals first)")
    mjai.add_argument("--preset", default="riichi", help=f"the rules: {' or '.join(MJAI_PRESETS)}")
    mjai.add_argument("--level", default="strong", choices=tuple(LEVELS), help="computer level")


def run_mjai(args: argparse.Namespace) -> int:
    preset = find_preset(args.preset)
    if preset.id not in MJAI_PRESETS:
        print(f"error: {refusal(preset.id)}", file=sys.stderr)
        return 2
    bot = Bot(preset, args.seat, computer_for(args.level))
    return serve(bot, sys.stdin, sys.stdout, sys.stderr)


def serve(bot: Bot, lines: TextIO, out: TextIO, err: TextIO) -> int:
    """Answer each line of events; 0 at the end of input, 2 (one line on `err`) at the first
    event that is malformed or impossible."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            reaction = bot.react(read_events(line))
        except MjaiError as error:
            print(f"error: line {number}: {error}", file=err)
            return 2
        except Exception as error:  # an event our engine could not follow: named, not a trace
            what = f"{type(error).__name__}: {error}"
            print(f"error: line {number}: our engine cannot follow it ({what})", file=err)
            return 2
        out.write(json.dumps(reaction, separators=(",", ":")) + "\n")
        out.flush()
    return 0
