"""`mahjong-bot play`: one human in the terminal against three computers, on the same runtime
as Discord. Each decision is a numbered menu; Enter takes the suggested move."""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
from pathlib import Path
from typing import TextIO

from bot.runtime import LiveTable, ManualTimers, Runtime, SchedulerTimers, TableError, Timers
from data import Phase, Store
from engine.actions import Action, ActionKind
from engine.ai import choose_action
from engine.presets import TIME_CONTROLS, UnknownPresetError, find_preset
from engine.tiles import SEAT_NAMES, format_tiles

PLAYER_ID = "local"
WINDS = ("East", "South", "West", "North")


def describe(action: Action) -> str:
    """A menu line for an action, in words and notation."""
    tiles = format_tiles(action.tiles)
    words = {
        ActionKind.DISCARD: f"discard {tiles}",
        ActionKind.WIN: "WIN",
        ActionKind.PASS: "pass",
        ActionKind.CHOW: f"chow {tiles}",
        ActionKind.PUNG: f"pung {tiles}",
        ActionKind.KONG: f"kong {tiles}",
        ActionKind.CONCEALED_KONG: f"concealed kong {tiles}",
        ActionKind.ADDED_KONG: f"add {tiles} to your pung (kong)",
        ActionKind.SWAP: f"pass on {tiles}",
        ActionKind.REMOVE: f"set aside {tiles}",
        ActionKind.VOID: f"declare {action.suit} void",
    }
    return words.get(action.kind, str(action))


class TerminalFront:
    """Prints the table to a text stream and hands decisions to the prompt loop."""

    def __init__(self, out: TextIO, images: Path | None) -> None:
        self.out = out
        self.images = images
        self.decisions: asyncio.Queue[tuple[LiveTable, list[Action], int]] = asyncio.Queue()
        self.ended: asyncio.Queue[LiveTable] = asyncio.Queue()
        self._last_public = ""

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    async def table_changed(self, table: LiveTable) -> None:
        if table.hand is None or table.phase is not Phase.PLAYING:
            return
        text = table_text(table)
        if text != self._last_public:
            self._last_public = text
            self.say(text)
        if self.images:
            await self._write("table.png", _table_png, table)

    async def hand_changed(self, table: LiveTable, player: int) -> None:
        if self.images and table.hand is not None:
            await self._write("hand.png", _hand_png, table, player)

    async def decision(
        self, table: LiveTable, player: int, actions: list[Action], deadline: float | None
    ) -> None:
        await self.decisions.put((table, actions, table.version))

    async def hand_ended(self, table: LiveTable) -> None:
        self.say(result_text(table))
        if self.images and table.session is not None:
            name = f"result-{table.session.hand_number}.png"
            await self._write(name, _result_png, table)
        await self.ended.put(table)

    async def table_closed(self, table: LiveTable, reason: str) -> None:
        self.say(f"The table closed: {reason}.")

    async def _write(self, name: str, draw: object, *args: object) -> None:
        assert self.images is not None
        data = await asyncio.to_thread(draw, *args)  # type: ignore[arg-type]
        (self.images / name).write_bytes(data)


def _hand_png(table: LiveTable, player: int) -> bytes:
    from render import render_hand, to_png
    from render.adapt import hand_view_from_state

    assert table.hand is not None
    view = hand_view_from_state(
        table.hand,
        table.hand_seat(player),
        table_name=table.name,
        channel_name="terminal",
        player_name=table.seat(player).name,
    )
    return to_png(render_hand(view))


def _table_png(table: LiveTable) -> bytes:
    from render import render_table, to_png
    from render.adapt import table_view_from_state

    assert table.hand is not None
    view = table_view_from_state(
        table.hand,
        table.names_by_hand_seat(),
        table.points_by_hand_seat(),
        table_name=table.name,
        channel_name="terminal",
    )
    return to_png(render_table(view))


def _result_png(table: LiveTable) -> bytes:
    from render import render_result, to_png
    from render.adapt import result_view_from_state

    assert table.hand is not None
    view = result_view_from_state(table.hand, table.names_by_hand_seat(), table_name=table.name)
    return to_png(render_result(view))


def table_text(table: LiveTable) -> str:
    """The public table in a few lines: each seat's melds, flowers and discards."""
    hand = table.hand
    assert hand is not None
    names = table.names_by_hand_seat()
    lines = [f"--- {WINDS[hand.round_wind]} round · wall {hand.wall_left} ---"]
    for seat in range(4):
        melds = " ".join(str(m) for m in hand.melds[seat]) or "-"
        flowers = format_tiles(hand.bonus[seat]) or "-"
        pond = format_tiles(hand.ponds[seat]) or "-"
        marker = ">" if hand.turn == seat and hand.phase.value == "turn" else " "
        lines.append(
            f"{marker}{SEAT_NAMES[seat]} {names[seat]:<11} hidden {len(hand.hands[seat]):>2}"
            f"  melds {melds}  flowers {flowers}  discards {pond}"
        )
    return "\n".join(lines)


def result_text(table: LiveTable) -> str:
    hand = table.hand
    assert hand is not None
    outcome = hand.outcome()
    assert outcome is not None
    names = table.names_by_hand_seat()
    lines = ["=== hand over ==="]
    for win in outcome.wins:
        how = "self draw" if win.discarder is None else f"from {names[win.discarder]}"
        patterns = ", ".join(f"{p.id} {p.fan}" for p in win.score.patterns)
        verb = "win" if names[win.seat] == "You" else "wins"
        lines.append(
            f"{names[win.seat]} {verb} ({how}) with {format_tiles(win.concealed)}"
            f" {' '.join(str(m) for m in win.melds)}: {win.score.fan} {hand.preset.unit}"
            f" [{patterns}]"
        )
    if not outcome.wins:
        lines.append("No winner: " + outcome.termination.value.replace("_", " "))
    lines.append("points: " + ", ".join(f"{names[s]} {outcome.deltas[s]:+d}" for s in range(4)))
    return "\n".join(lines)


def private_text(table: LiveTable, player: int) -> str:
    hand = table.hand
    assert hand is not None
    seat = table.hand_seat(player)
    tiles = list(hand.hands[seat])
    drawn = hand.drawn if hand.turn == seat and hand.phase.value == "turn" else None
    if drawn is not None and drawn in tiles:
        tiles.remove(drawn)
    text = f"Your hand ({WINDS[seat]}): {format_tiles(sorted(tiles))}"
    if drawn is not None:
        text += f"  + drew {format_tiles([drawn])}"
    if hand.melds[seat]:
        text += "  melds " + " ".join(str(m) for m in hand.melds[seat])
    return text


def parse_choice(text: str, actions: list[Action], suggestion: Action) -> Action | None:
    """Read a menu answer: Enter, a number, or words like '5m', 'win', 'pass', 'chow 345m'."""
    text = text.strip().lower()
    if not text:
        return suggestion
    if text.isdigit():
        index = int(text) - 1
        return actions[index] if 0 <= index < len(actions) else None
    for action in actions:
        if text in (describe(action).lower(), action.kind.value, format_tiles(action.tiles)):
            if text == action.kind.value and sum(a.kind == action.kind for a in actions) > 1:
                return None  # ambiguous: "chow" with several chows
            return action
    return None


async def prompt_loop(
    runtime: Runtime, front: TerminalFront, table: LiveTable, read: object, hands: int
) -> int:
    read_line = read  # a callable returning the next line, or None at end of input
    played = 0
    while True:
        decision = asyncio.ensure_future(front.decisions.get())
        ended = asyncio.ensure_future(front.ended.get())
        done, pending = await asyncio.wait({decision, ended}, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        if ended in done:
            played += 1
            if hands and played >= hands:
                return 0
            front.say("Press Enter for the next hand (q to quit).")
            answer = await asyncio.to_thread(read_line)  # type: ignore[arg-type]
            if answer is None or answer.strip().lower() in ("q", "quit"):
                return 0
            await runtime.ready(table.id, PLAYER_ID)
            continue
        table, actions, version = decision.result()
        player = table.player_of(PLAYER_ID)
        assert player is not None and table.hand is not None
        if version != table.version or table.phase is not Phase.PLAYING:
            continue  # a decision that has already passed (e.g. a timeout took it)
        suggestion = choose_action(table.hand, table.hand_seat(player))
        front.say(private_text(table, player))
        for number, action in enumerate(actions, 1):
            hint = "  <- suggested (Enter)" if action == suggestion else ""
            front.say(f"  {number:>2}. {describe(action)}{hint}")
        while True:
            answer = await asyncio.to_thread(read_line)  # type: ignore[arg-type]
            if answer is None or answer.strip().lower() in ("q", "quit"):
                front.say("Bye.")
                return 0
            choice = parse_choice(answer, actions, suggestion)
            if choice is not None:
                break
            front.say("Type a number from the list, a tile like 5m, or press Enter.")
        try:
            await runtime.act(table.id, PLAYER_ID, choice, table.version)
        except TableError as error:
            front.say(f"Not accepted: {error}")


async def play(args: argparse.Namespace, read: object, out: TextIO) -> int:
    preset = find_preset(args.preset)
    if args.time not in TIME_CONTROLS:
        raise TableError(
            f"unknown time control {args.time!r} (choose from {', '.join(TIME_CONTROLS)})"
        )
    images = Path(args.images) if args.images else None
    if images:
        images.mkdir(parents=True, exist_ok=True)
    front = TerminalFront(out, images)
    timers: Timers = ManualTimers() if TIME_CONTROLS[args.time].untimed else SchedulerTimers()
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    store = await Store.open(":memory:")
    runtime = Runtime(store, front, timers, seed_source=lambda: seed)
    try:
        await runtime.open()
        front.say(f"{preset.name} ({preset.id}), seed {seed}. You are 'You'; q quits.")
        table = await runtime.create_table(
            preset.id,
            creator_id=PLAYER_ID,
            creator_name="You",
            computers=3,
            time_control=args.time,
            name="Terminal table",
        )
        await runtime.start_table(table.id, PLAYER_ID)
        return await prompt_loop(runtime, front, table, read, args.hands)
    finally:
        await runtime.close()
        await store.close()


def _stdin_line() -> str | None:
    try:
        return input("> ")
    except EOFError:
        return None


def run_terminal(args: argparse.Namespace) -> int:
    """Entry point of `mahjong-bot play`."""
    try:
        return asyncio.run(play(args, _stdin_line, sys.stdout))
    except (UnknownPresetError, TableError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
