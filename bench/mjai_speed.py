"""Decision time through the mjai protocol against in-process, and `mahjong-bot mjai`'s start-up
time (issue 41; a program, no test).

    python bench/mjai_speed.py [--preset riichi|riichi-majsoul] [--hands N] [--seed S]
                               [--level L] [--starts K]

The same hands are played twice from one seed: by our computers in-process (the time of each
decision: `computer(state, seat)`), and by four mjai bots (engine.formats.mjai.seat.Bot) driven
by our table through the protocol (engine.formats.mjai.arena), each batch of events sent as a
JSON line and answered as one: the time from the line to its answer, for the batches that ask
a seat's decision. The games are checked to be the same, action by action. Then seat 0's
decisions of the first hand through a real `mahjong-bot mjai 0` process (the pipe's round trip
included), and the start-up time: from starting the process to its answer to `start_game` (the
bot makes one decision of its own there, so that its first timed decision finds the computer's
tables loaded), `--starts` times. Wall time, on whatever else the machine runs: medians and p99
in ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.actions import Action
from engine.computer import computer_for
from engine.formats.mjai.arena import play_hand
from engine.formats.mjai.seat import Bot, Event
from engine.hand import HandState
from engine.presets import Preset, find_preset
from engine.session import Session
from engine.simulate import play_out

COMMAND = [sys.executable, "-m", "bot", "mjai"]


def figures(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{name:<34} decisions {len(times):5}  median {1000 * statistics.median(ordered):7.2f} ms"
        f"  p99 {1000 * p99:7.2f} ms"
    )


def in_process(preset: Preset, seed: int, hands: int, level: str) -> tuple[list[float], list]:
    computer = computer_for(level)
    times: list[float] = []

    def timed(state: HandState, seat: int) -> Action:
        started = time.perf_counter()
        chosen = computer(state, seat)
        times.append(time.perf_counter() - started)
        return chosen

    session = Session(preset, seed)
    logs = []
    for _ in range(hands):
        if session.over:
            break
        state = play_out(session.new_hand(), computer=timed)
        logs.append(state.log)
        outcome = state.outcome()
        assert outcome is not None
        session.finish_hand(outcome)
    return times, logs


def through_protocol(
    preset: Preset, seed: int, hands: int, level: str
) -> tuple[list[float], list[float], list]:
    """Every batch's time from its JSON line to the answer's: those that ask a seat's decision
    (a pass included), and those that end a hand (answered `none`)."""
    bots = [Bot(preset, player, computer_for(level)) for player in range(4)]
    asked: list[float] = []
    followed: list[float] = []

    def react(player: int, batch: list[Event]) -> Event:
        line = json.dumps(batch, separators=(",", ":"))
        started = time.perf_counter()
        reaction = bots[player].react(json.loads(line))
        answer = json.dumps(reaction, separators=(",", ":"))
        spent = time.perf_counter() - started
        last = batch[-1]["type"] if batch else ""
        if last != "start_game":  # its answer loads the computer's tables: the start-up's
            (followed if last == "end_kyoku" else asked).append(spent)
        return json.loads(answer)

    session = Session(preset, seed)
    logs = []
    for number in range(hands):
        if session.over:
            break
        state = session.new_hand()
        play_hand(state, ["A", "B", "C", "D"] if number == 0 else None, react)
        logs.append(state.log)
        outcome = state.outcome()
        assert outcome is not None
        session.finish_hand(outcome)
    return asked, followed, logs


def through_process(preset: Preset, seed: int, level: str) -> list[float]:
    """Seat 0 as a real process for one hand: the round trip of each line it answers with an
    action (the other seats in-process)."""
    bots = [Bot(preset, player, computer_for(level)) for player in range(4)]
    command = [*COMMAND, "0", "--preset", preset.id, "--level", level]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdin is not None and process.stdout is not None
    times: list[float] = []

    def react(player: int, batch: list[Event]) -> Event:
        if player != 0:
            return bots[player].react(batch)
        assert process.stdin is not None and process.stdout is not None
        started = time.perf_counter()
        process.stdin.write(json.dumps(batch) + "\n")
        process.stdin.flush()
        reaction: Event = json.loads(process.stdout.readline())
        if batch and batch[-1]["type"] not in ("start_game", "end_kyoku"):
            times.append(time.perf_counter() - started)
        return reaction

    try:
        play_hand(Session(preset, seed).new_hand(), ["A", "B", "C", "D"], react)
    finally:
        process.stdin.close()
        process.wait()
    return times


def start_up(count: int) -> list[float]:
    """From starting `mahjong-bot mjai 0` to its answer to start_game."""
    times = []
    for _ in range(count):
        started = time.perf_counter()
        result = subprocess.run(
            [*COMMAND, "0"],
            input='[{"type":"start_game","id":0}]\n',
            capture_output=True,
            text=True,
            check=True,
        )
        assert result.stdout == '{"type":"none"}\n'
        times.append(time.perf_counter() - started)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="riichi", choices=("riichi", "riichi-majsoul"))
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--level", default="strong", choices=("strong", "easy"))
    parser.add_argument("--starts", type=int, default=5)
    args = parser.parse_args()
    preset = find_preset(args.preset)
    ours, our_logs = in_process(preset, args.seed, args.hands, args.level)
    asked, followed, their_logs = through_protocol(preset, args.seed, args.hands, args.level)
    if our_logs != their_logs:
        print("error: the protocol's game is not the in-process game", file=sys.stderr)
        return 1
    process = through_process(preset, args.seed, args.level)
    starts = start_up(args.starts)
    print(f"{preset.id}, {args.level}, {len(our_logs)} hands from seed {args.seed}: the same game")
    print(figures("in-process decision", ours))
    print(figures("mjai decision (in-process bot)", asked))
    print(figures("mjai hand end (answered none)", followed))
    print(figures("mjai decision (process, 1 hand)", process))
    print(
        f"{'mahjong-bot mjai start-up':<34} starts {len(starts):8}  median "
        f"{1000 * statistics.median(starts):7.0f} ms  max {1000 * max(starts):7.0f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
