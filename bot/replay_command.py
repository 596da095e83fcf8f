"""`mahjong-bot replay`: a finished hand played back from the store or an export file (bot.replay),
or a tenhou.net/6 log and a whole game's export (bot.replay_tenhou6)."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from bot import replay_tenhou6
from bot.replay import (
    ReplayError,
    ReplayLog,
    check_outcome,
    frames,
    outcome_texts,
    stored_replay,
    write_frames,
)
from data import Store
from data.connection import resolve_path
from data.errors import StoreError
from data.postgres import is_address, redact
from engine.i18n import DEFAULT_LANGUAGE, text, worded


async def load_export(db_path: str | None, hand_id: int) -> ReplayLog:
    """A finished hand of the database at `db_path` as an export, read without creating,
    migrating or writing anything (a missing database is said to be missing)."""
    path = resolve_path(db_path)
    shown = redact(path)
    if not is_address(path) and not os.path.isfile(path):
        raise ReplayError(text("fixups.replay.no_database", path=repr(shown)))
    try:
        store = await Store.open_read_only(path)
    except StoreError as error:
        raise ReplayError(
            text("fixups.replay.not_a_hand_store", path=repr(shown), reason=str(error))
        ) from None
    async with store:
        return await stored_replay(store, hand_id)


def run_replay(args: Any) -> int:
    """`mahjong-bot replay HAND_ID --db FILE -o DIR [--gif]` or `replay --log FILE ...`; a
    tenhou.net/6 log (`--tenhou6 FILE`) or a whole game's export (`--export HAND_OR_TABLE`)
    goes to bot.replay_tenhou6."""
    if getattr(args, "tenhou6", None) is not None:
        return replay_tenhou6.run_tenhou6(
            args.tenhou6, args.check, sys.stdout, sys.stderr, args.output
        )
    if args.export is not None and args.hand_id is None and args.log is None:
        return replay_tenhou6.run_game_export(args)  # a whole game, as tenhou.net/6 JSON
    try:
        if args.log is not None:
            log = ReplayLog.loads(Path(args.log).read_text(encoding="utf-8"))
        elif args.hand_id is not None:
            log = asyncio.run(load_export(args.db, args.hand_id))
        else:
            print("error: give a HAND_ID (with --db) or --log FILE", file=sys.stderr)
            return 2
        check_outcome(log)
        if args.export is not None:
            Path(args.export).write_text(log.dumps(), encoding="utf-8")
            print(f"wrote {args.export}")
        language = getattr(args, "lang", None) or DEFAULT_LANGUAGE
        found = frames(log)
        for frame in found:
            mark = f" [{frame.mark}]" if frame.mark else ""
            print(f"{frame.step:4} {worded(frame.caption, language)}{mark}")
        for line in outcome_texts(log):
            print(f"     {worded(line, language)}")
        if args.output is not None:
            written = write_frames(log, Path(args.output), gif=args.gif, language=language)
            print(f"wrote {len(written)} picture(s) to {args.output}")
    except (OSError, ReplayError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0
