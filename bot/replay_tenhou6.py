"""Games in tenhou.net/6 JSON, both ways (DESIGN.md, "Games in the format other tools read"):
`mahjong-bot replay --tenhou6 FILE [--check]` plays a log's hands on our engine and prints each
hand's result beside the log's; `mahjong-bot replay --export HAND_OR_TABLE [-o FILE]` and
`/mahjong replay ... export:true` write a finished Riichi game of the store as such a log
(`--format mjai`: as an mjai event log, engine.formats.mjai.export).

The engine work is engine.formats.tenhou6.replay and engine.formats.tenhou6.export; this module
reads files and the store, and speaks to the command line.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from bot.replay import ReplayError, ReplayLog
from data import HandLog, HandNotActiveError, HandStatus, Store
from data.connection import resolve_path
from data.errors import StoreError
from engine.formats.mjai.export import game_events, write_events
from engine.formats.mjai.tiles import MjaiError
from engine.formats.tenhou6.compare import FinalReport, HandReport
from engine.formats.tenhou6.export import StoredHand, game_log
from engine.formats.tenhou6.log import Log, Tenhou6Error, read, write
from engine.formats.tenhou6.replay import PlayedHand, replay_log, riichi_preset
from engine.hand_setup import HandSetup
from engine.session import Session
from engine.tiles import parse_tiles

TABLE_PREFIXES = ("table:", "t")


FORMATS = ("tenhou6", "mjai")  # a game's export: tenhou.net/6 JSON, or mjai JSON lines
_SUFFIXES = {"tenhou6": "tenhou6.json", "mjai": "mjai.jsonl"}


@dataclass(frozen=True, slots=True)
class GameExport:
    table_id: int
    text: str  # the log's JSON
    format: str = "tenhou6"

    @property
    def filename(self) -> str:
        return f"game-{self.table_id}.{_SUFFIXES[self.format]}"


def stored_hand(stored: HandLog) -> StoredHand:
    """A stored hand as the export replays it (its setup as runtime.conversions keeps it)."""
    setup = json.loads(stored.setup or "{}")
    session = Session.from_json(setup["session"])
    dealt = HandSetup.from_json(setup["hand"]) if "hand" in setup else session.hand_setup()
    return StoredHand(
        preset=session.preset,
        setup=dealt,
        seed=stored.seed,
        seat_count=session.seat_count,
        actions=stored.actions,
        wall=tuple(parse_tiles(setup["wall"])) if "wall" in setup else None,
        always_ask=tuple(setup.get("ask", ())),
    )


async def game_export(
    store: Store,
    *,
    hand_id: int | None = None,
    table_id: int | None = None,
    viewer_id: str | None = None,
    format: str = "tenhou6",
) -> GameExport:
    """The finished Riichi game of a table (or of the table a hand was dealt at) as a log in
    `format` (FORMATS). With `viewer_id` (Discord), a private table's game is refused to anyone
    not at it."""
    if table_id is None:
        assert hand_id is not None
        try:
            table_id = (await store.hand_log(hand_id)).table_id
        except HandNotActiveError:
            raise ReplayError(f"there is no hand {hand_id}") from None
    game = await store.game_result(table_id)
    if game is None:
        raise ReplayError(f"table {table_id} has no finished game (only a whole game exports)")
    if riichi_preset(game.preset) is None:
        raise ReplayError(f"table {table_id} played {game.preset}: only Riichi games export")
    table = await store.table_row(table_id)
    players = [s.player_id for s in sorted(game.standings, key=lambda s: s.seat)]
    private = table.options.visibility == "private"
    if viewer_id is not None and private and viewer_id not in players:
        raise ReplayError(f"table {table_id} is private: its game is for its players")
    hands = await store.table_hands(table_id)
    if any(hand.status is not HandStatus.FINISHED for hand in hands):
        raise ReplayError(f"table {table_id} has a hand that did not finish")
    known = table.options.extra.get("names", {})
    names = [str(known.get(player, player)) for player in players]
    stored = [stored_hand(hand) for hand in hands]
    if format == "mjai":
        try:
            return GameExport(table_id, write_events(game_events(stored, names)), format)
        except MjaiError as error:
            raise ReplayError(f"table {table_id}: {error}") from None
    log = game_log(stored, names, f"mahjong-bot table {table_id}")
    return GameExport(table_id, write(log))


async def finished_game_export(store: Store, log: ReplayLog, viewer_id: str) -> GameExport | None:
    """The game of a replayed hand as a tenhou.net/6 log, for `/mahjong replay export:true`:
    None unless the hand is Riichi and its game has finished."""
    if riichi_preset(log.preset) is None or log.table_id is None:
        return None
    if await store.game_result(log.table_id) is None:
        return None
    return await game_export(store, table_id=log.table_id, viewer_id=viewer_id)


def parse_reference(text: str) -> tuple[int | None, int | None]:
    """`12` names hand 12, `table:3` or `t3` table 3: (hand id, table id)."""
    for prefix in TABLE_PREFIXES:
        rest = text[len(prefix) :]
        if text.startswith(prefix) and rest.isdigit():
            return None, int(rest)
    if text.isdigit():
        return int(text), None
    raise ReplayError(f"{text!r} names no hand or table: give a hand id (12) or a table (table:3)")


async def load_game_export(
    db_path: str | None, reference: str, format: str = "tenhou6"
) -> GameExport:
    """A game of the database at `db_path`, read without creating or writing anything."""
    hand_id, table_id = parse_reference(reference)
    path = resolve_path(db_path)
    if not os.path.isfile(path):
        raise ReplayError(f"there is no database at {path!r}")
    try:
        store = await Store.open_read_only(path)
    except StoreError as error:
        raise ReplayError(f"{path!r} is not a hand store: {error}") from None
    async with store:
        return await game_export(store, hand_id=hand_id, table_id=table_id, format=format)


def run_game_export(args: Any) -> int:
    """`mahjong-bot replay --export HAND_OR_TABLE [--format tenhou6|mjai] [-o FILE] [--db FILE]`."""
    import asyncio

    try:
        export = asyncio.run(load_game_export(args.db, args.export, args.format))
        if args.output is None:
            print(export.text)
        else:
            Path(args.output).write_text(export.text, encoding="utf-8")
            print(f"wrote {args.output}", file=sys.stderr)
    except (OSError, ReplayError, StoreError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


def run_tenhou6(path: str, check: bool, out: TextIO, err: TextIO, output: str | None = None) -> int:
    """`mahjong-bot replay --tenhou6 FILE [--check] [-o DIR]`: one JSON line a hand, then the
    final line (with `output`, our replay written to that directory: see write_replay); with
    `check`, exit 2 at the first hand whose result differs, or a final result other than the
    log's. A file that is not such a log, a rule we do not play, an action our engine refuses,
    or a next deal of ours that is not the log's next round info: one line on `err`, exit 2."""
    try:
        log = read(Path(path).read_text(encoding="utf-8"))
        directory = None if output is None else output_directory(output)
        hands = same = 0
        played: list[PlayedHand] = []
        for report in replay_log(log, played=played):
            print(json.dumps(report.to_json(), ensure_ascii=False), file=out)
            if isinstance(report, FinalReport):
                if check and report.differs:
                    print(
                        f"error: the final result differs from the log's: "
                        f"{'; '.join(report.differs)}",
                        file=err,
                    )
                    return 2
                continue
            hands += 1
            same += not report.differs
            if check and report.differs:
                print(f"error: {differs_line(report)}", file=err)
                return 2
        print(f"{same} of {hands} hands replay to the log's results", file=err)
        if directory is not None:
            written = write_replay(log, played, directory)
            print(f"wrote {len(written)} file(s) to {directory}", file=err)
    except (OSError, UnicodeDecodeError, Tenhou6Error) as error:
        print(f"error: {path}: {error}", file=err)
        return 2
    return 0


def output_directory(output: str) -> Path:
    """The directory `-o` names, made if missing; an error if it is a file."""
    directory = Path(output)
    if directory.exists() and not directory.is_dir():
        raise Tenhou6Error(f"-o {output}: a file, not a directory")
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def write_replay(log: Log, played: list[PlayedHand], directory: Path) -> list[Path]:
    """Our replay of the log in `directory`: `replay.tenhou6.json` (the hands as our engine
    played them, written back as tenhou.net/6 JSON) and `hand-001.png` ... (each hand's result
    picture, by hand number)."""
    from render.adapt import result_view_from_state
    from render.result import render_result
    from render.style import to_png

    if not played:
        return []
    title = log.title[0] if log.title else ""
    ours = game_log([hand.stored for hand in played], log.names, f"replay of {title}".strip())
    path = directory / "replay.tenhou6.json"
    path.write_text(write(ours), encoding="utf-8")
    written = [path]
    for number, hand in enumerate(played, 1):
        dealer = hand.state.setup.dealer
        names = [log.names[(dealer + s) % log.seats] for s in range(log.seats)]
        view = result_view_from_state(hand.state, names, table_name=f"hand {number}")
        path = directory / f"hand-{number:03d}.png"
        path.write_bytes(to_png(render_result(view)))
        written.append(path)
    return written


def differs_line(report: HandReport) -> str:
    where = f"hand {report.number} ({report.to_json()['round']}, {report.honba} honba)"
    return f"{where} differs from the log: {'; '.join(report.differs)}"
