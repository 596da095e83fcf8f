"""Games in tenhou.net/6 JSON, both ways (DESIGN.md, "Games in the format other tools read"):
`mahjong-bot replay --tenhou6 FILE [--check]` plays a log's hands on our engine and prints each
hand's result beside the log's; `mahjong-bot replay --export HAND_OR_TABLE [-o FILE]` and
`/mahjong replay ... export:true` write a finished Riichi game of the store as such a log
(`--format mjai`: as an mjai event log, engine.formats.mjai.export).

The engine work is engine.formats.tenhou6.replay and engine.formats.tenhou6.export; this module
reads files and the store, and speaks to the command line.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from bot.replay import ReplayError, ReplayLog
from bot.runtime.recipe import HandRecipe
from data import HandLog, HandNotActiveError, HandStatus, Store
from data.connection import resolve_path
from data.errors import StoreError
from data.postgres import is_address, redact
from engine.formats.mjai.export import game_events, write_events
from engine.formats.mjai.tiles import MjaiError
from engine.formats.tenhou6.compare import FinalReport, HandReport
from engine.formats.tenhou6.export import StoredHand, game_log
from engine.formats.tenhou6.log import Log, Tenhou6Error, read_file, write
from engine.formats.tenhou6.replay import PlayedHand, replay_log, riichi_preset

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
    """A stored hand as the export replays it (from its recipe, bot.runtime.recipe)."""
    recipe = HandRecipe.stored(stored)
    return StoredHand(
        preset=recipe.preset,
        setup=recipe.setup,
        seed=recipe.seed,
        seat_count=recipe.seats,
        actions=stored.actions,
        wall=recipe.wall,
        always_ask=tuple(sorted(recipe.always_ask)),
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
    final = [(s.points, s.score) for s in sorted(game.standings, key=lambda s: s.seat)]
    log = game_log(stored, names, f"mahjong-bot table {table_id}", final)
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
    shown = redact(path)
    if not is_address(path) and not os.path.isfile(path):
        raise ReplayError(f"there is no database at {shown!r}")
    try:
        store = await Store.open_read_only(path)
    except StoreError as error:
        raise ReplayError(f"{shown!r} is not a hand store: {error}") from None
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
    except BrokenPipeError:  # `… | head -1`: the reader left (bot.cli stops quietly)
        raise
    except (OSError, ReplayError, StoreError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


class ReplayDiffers(Tenhou6Error):
    """With --check: a hand's result, or the final one, is not the log's."""


def run_tenhou6(path: str, check: bool, out: TextIO, err: TextIO, output: str | None = None) -> int:
    """`mahjong-bot replay --tenhou6 FILE [--check] [-o DIR]`: one JSON line a hand, then the
    final line (with `output`, our replay written to that directory: see ReplayWriter); with
    `check`, exit 2 at the first hand whose result differs, or a final result other than the
    log's. A file that is not such a log (too large, too deep, numbers too long), a rule we do
    not play, an action our engine refuses, or a next deal of ours that is not the log's next
    round info: one line on `err`, exit 2, and nothing of `output` left behind."""
    writer: ReplayWriter | None = None
    try:
        log = read_file(path)
        writer = None if output is None else ReplayWriter(Path(output), log)
        hands = same = 0
        for report in replay_log(log, played=None if writer is None else writer.add):
            print(json.dumps(report.to_json(), ensure_ascii=False), file=out)
            if isinstance(report, FinalReport):
                if writer is not None and report.score is not None:
                    writer.final = list(zip(report.points, report.score, strict=True))
                if check and report.differs:
                    differs = "; ".join(report.differs)
                    raise ReplayDiffers(f"the final result differs from the log's: {differs}")
                continue
            hands += 1
            same += not report.differs
            if check and report.differs:
                raise ReplayDiffers(differs_line(report))
        written = [] if writer is None else writer.finish()
    except BrokenPipeError:  # `… | head -1`: the reader left, not the log's fault (bot.cli)
        if writer is not None:
            writer.discard()
        raise
    except (OSError, ValueError, RecursionError) as error:  # Tenhou6Error is a ValueError
        if writer is not None:
            writer.discard()
        where = "" if isinstance(error, ReplayDiffers) else f"{path}: "
        print(f"error: {where}{error}", file=err)
        return 2
    print(f"{same} of {hands} hands replay to the log's results", file=err)
    if writer is not None:
        print(f"wrote {len(written)} file(s) to {writer.directory}", file=err)
    return 0


class ReplayWriter:
    """`-o DIR`: our replay of the log in `directory`: `replay.tenhou6.json` (the hands as our
    engine played them, written back as tenhou.net/6 JSON) and `hand-001.png` ... (each hand's
    result picture, drawn as the hand is played, so that no hand's state is kept). Everything
    is written under a scratch folder in the directory and renamed into place at the end; a
    failed run removes what it wrote, and the directories it made."""

    def __init__(self, directory: Path, log: Log) -> None:
        if directory.exists() and not directory.is_dir():
            raise Tenhou6Error(f"-o {directory}: a file, not a directory")
        self.directory = directory
        self.log = log
        self.made = [d for d in (directory, *directory.parents) if not d.exists()]
        directory.mkdir(parents=True, exist_ok=True)
        self.scratch = Path(tempfile.mkdtemp(prefix=".replay-", dir=directory))
        self.stored: list[StoredHand] = []
        self.placed: list[Path] = []
        self.final: list[tuple[int, float]] | None = None  # our `sc` once our game is over

    def add(self, hand: PlayedHand) -> None:
        from render.adapt import result_view_from_state
        from render.result import render_result
        from render.style import to_png

        self.stored.append(hand.stored)
        number = len(self.stored)
        dealer = hand.state.setup.dealer
        seats = self.log.seats
        names = [self.log.names[(dealer + s) % seats] for s in range(seats)]
        view = result_view_from_state(hand.state, names, table_name=f"hand {number}")
        (self.scratch / f"hand-{number:03d}.png").write_bytes(to_png(render_result(view)))

    def finish(self) -> list[Path]:
        """The files renamed into place (none for a log of no hand)."""
        if self.stored:
            title = self.log.title[0] if self.log.title else ""
            ours = game_log(self.stored, self.log.names, f"replay of {title}".strip(), self.final)
            (self.scratch / "replay.tenhou6.json").write_text(write(ours), encoding="utf-8")
        for made in sorted(self.scratch.iterdir()):
            target = self.directory / made.name
            made.replace(target)
            self.placed.append(target)
        self.scratch.rmdir()
        return self.placed

    def discard(self) -> None:
        """Remove what this run wrote: the scratch folder, files already in place, and the
        directories it made (when nothing else is in them)."""
        shutil.rmtree(self.scratch, ignore_errors=True)
        for placed in self.placed:
            placed.unlink(missing_ok=True)
        for made in self.made:
            with contextlib.suppress(OSError):
                made.rmdir()


def differs_line(report: HandReport) -> str:
    where = f"hand {report.number} ({report.to_json()['round']}, {report.honba} honba)"
    return f"{where} differs from the log: {'; '.join(report.differs)}"
