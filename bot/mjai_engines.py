"""mjai engines as computer seats (issue 41, item 2): the operator names engines in
`MAHJONG_MJAI_ENGINES="name=command,…"` (each command split as a shell would, never run through
one, and started with the seat's mjai player id as its last argument); each name is a computer
level of the Riichi presets. A person only ever chooses a name.

A table played at such a level has one `EngineSeats`: it is the table's Computer `(state, seat)
-> Action` for its computer seats. It follows the hand on its own copy (replaying the table's
log), sends each seat's engine the events it has not seen in that seat's view (the others' deals
and draws as `?`, engine.formats.mjai.arena.seat_view), reads one line within
`MAHJONG_MJAI_TIMEOUT` seconds (the table's per-move clock if shorter) and turns the reply into
our action. A late, crashed or illegal answer: the strong computer plays that decision and the
rest of the seat's hand, the log says so, and the engine is started again at the next hand.
`MAHJONG_MJAI_MAX_PROCESSES` caps the engine processes of one bot process.

A call blocks while the engine thinks (at most the limit): the runtime runs it in a worker
thread (bot/runtime/play.py), so other tables go on meanwhile.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import selectors
import shlex
import subprocess
import threading
import time
from collections.abc import Mapping

from engine.actions import Action
from engine.computer import choose_strong
from engine.formats.mjai import MJAI_PRESETS
from engine.formats.mjai.arena import reaction_action, seat_view
from engine.formats.mjai.export import MJAI_SEATS, Writer
from engine.formats.mjai.seat import Event
from engine.formats.mjai.tiles import MjaiError
from engine.hand import HandState

log = logging.getLogger(__name__)

MJAI_SETTINGS = ("MAHJONG_MJAI_ENGINES", "MAHJONG_MJAI_TIMEOUT", "MAHJONG_MJAI_MAX_PROCESSES")
DEFAULT_TIMEOUT = 5.0
DEFAULT_MAX_PROCESSES = 16
_END_LIMIT = 1.0  # a hand's end is answered with none: waited for only briefly
START_LIMIT = 30.0  # start_game: an engine may load what it needs then (arenas allow it time)


class EngineConfigError(ValueError):
    """MAHJONG_MJAI_ENGINES (or a limit beside it) that cannot be read."""


class EngineCapError(Exception):
    """Starting a table's engines would pass MAHJONG_MJAI_MAX_PROCESSES."""


class EngineFailure(Exception):
    """An engine that answered late, crashed, or answered what is no legal action."""


# what an engine's answer may end in: late, ended, not JSON (EngineFailure), no legal action
# (MjaiError), a pipe that broke (OSError) or that the bot closed meanwhile (ValueError)
ENGINE_FAILURES = (EngineFailure, MjaiError, OSError, ValueError)


def parse_engines(value: str) -> dict[str, list[str]]:
    """`name=command,…` as {name: argv}; an EngineConfigError naming what is wrong.

    >>> parse_engines("mortal=/opt/mortal/run.sh --x 1, ours = python -m bot mjai")
    {'mortal': ['/opt/mortal/run.sh', '--x', '1'], 'ours': ['python', '-m', 'bot', 'mjai']}
    """
    engines: dict[str, list[str]] = {}
    for entry in filter(None, (part.strip() for part in value.split(","))):
        name, equals, command = entry.partition("=")
        name = name.strip()
        if not equals or not name or not command.strip():
            raise EngineConfigError(f"MAHJONG_MJAI_ENGINES: {entry!r} is not name=command")
        if not name.replace("-", "").replace("_", "").isalnum() or name in ("easy", "strong"):
            raise EngineConfigError(f"MAHJONG_MJAI_ENGINES: {name!r} is no name for a level")
        try:
            engines[name] = shlex.split(command)
        except ValueError as error:
            raise EngineConfigError(f"MAHJONG_MJAI_ENGINES: {name}: {error}") from None
    return engines


def configured_engines(environ: Mapping[str, str] = os.environ) -> dict[str, list[str]]:
    return parse_engines(environ.get("MAHJONG_MJAI_ENGINES", ""))


def _number(environ: Mapping[str, str], name: str, default: float) -> float:
    raw = environ.get(name)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise EngineConfigError(f"{name} is a number, not {raw!r}") from None
    if value <= 0:
        raise EngineConfigError(f"{name} is above 0, not {raw!r}")
    return value


def engine_timeout(environ: Mapping[str, str] = os.environ) -> float:
    return _number(environ, "MAHJONG_MJAI_TIMEOUT", DEFAULT_TIMEOUT)


def max_processes(environ: Mapping[str, str] = os.environ) -> int:
    return int(_number(environ, "MAHJONG_MJAI_MAX_PROCESSES", DEFAULT_MAX_PROCESSES))


def engine_levels(preset_id: str | None = None) -> tuple[str, ...]:
    """The engine names offered as levels (for `preset_id`: none outside Riichi's presets)."""
    if preset_id is not None and preset_id not in MJAI_PRESETS:
        return ()
    return tuple(configured_engines())


def engine_names() -> tuple[str, ...]:
    """The engine names, none if the configuration is wrong (BotConfig says why at start)."""
    try:
        return engine_levels()
    except EngineConfigError:
        return ()


class EngineProcess:
    """One engine process: a JSON line of events in, one JSON line out, read with a limit."""

    def __init__(self, name: str, argv: list[str], player: int) -> None:
        self.name, self.player = name, player
        # the player id as its last argument, as the mjai.app arena runs a bot (`bot.py SEAT`)
        self.process = subprocess.Popen(
            [*argv, str(player)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
        )
        self.buffer = b""
        self.sent: list[list[Event]] = []  # every batch it was sent (the tests read them)

    @property
    def pid(self) -> int:
        return self.process.pid

    def ask(self, events: list[Event], limit: float) -> Event:
        """Send a batch, read the reply; EngineFailure if none comes in `limit` seconds."""
        self.sent.append(events)
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write((json.dumps(events, separators=(",", ":")) + "\n").encode())
            self.process.stdin.flush()
        except OSError as error:
            raise EngineFailure(f"could not be written to ({error})") from None
        line = self._read_line(limit)
        try:
            reply = json.loads(line)
        except ValueError:
            raise EngineFailure(f"answered what is not JSON: {line[:80]!r}") from None
        if not isinstance(reply, dict):
            raise EngineFailure(f"answered what is no event: {line[:80]!r}")
        return reply

    def _read_line(self, limit: float) -> str:
        stdout = self.process.stdout
        assert stdout is not None
        deadline = time.monotonic() + limit
        with selectors.DefaultSelector() as selector:
            selector.register(stdout, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise EngineFailure(f"gave no answer within {limit:g} s")
                chunk = os.read(stdout.fileno(), 65536)
                if not chunk:
                    code = self.process.poll()
                    raise EngineFailure(f"ended (exit code {code})")
                self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode(errors="replace")

    def stop(self) -> None:
        """End the process (closing its input first; killed if it lingers)."""
        process = self.process
        if process.poll() is None:
            try:
                if process.stdin is not None:
                    process.stdin.close()
                process.wait(0.5)
            except (OSError, subprocess.TimeoutExpired):
                process.kill()
                process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None and not stream.closed:
                stream.close()


class _Budget:
    """The engine processes this bot process may still start (MAHJONG_MJAI_MAX_PROCESSES)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.reserved = 0

    def reserve(self, count: int) -> None:
        with self.lock:
            cap = max_processes()
            if self.reserved + count > cap:
                raise EngineCapError(
                    f"this bot runs at most {cap} mjai engine processes and "
                    f"{self.reserved} are taken: a table with {count} engine seats would pass "
                    "that (choose the strong or easy computer, or wait for a table to end)"
                )
            self.reserved += count

    def release(self, count: int) -> None:
        with self.lock:
            self.reserved -= count


BUDGET = _Budget()
LIVE: set[EngineSeats] = set()  # every table's engines still running (the bot's end stops them)


class EngineSeats:
    """A table's engine seats: the Computer of a table played at an engine's level."""

    def __init__(
        self, name: str, argv: list[str], seats: int, limit: float, table: str, names: list[str]
    ) -> None:
        BUDGET.reserve(seats)
        self.name, self.argv, self.seats, self.limit, self.table = name, argv, seats, limit, table
        self.names = names  # the players' names by mjai player id
        self.engines: dict[int, EngineProcess] = {}  # by mjai player id
        self.failed: set[int] = set()  # players whose engine failed this hand (restarted next)
        self.hand: HandState | None = None  # the table's hand the copy follows
        self.writer: Writer | None = None
        self.applied = 0  # how much of the table hand's log the copy has applied
        self.sent: dict[int, int] = {}  # how much of the writer's events each engine was sent
        self.reach_sent: set[int] = set()
        self.closed = False
        self.lost = False  # the copy could not follow this hand (the strong computer plays it)
        LIVE.add(self)

    def __call__(self, state: HandState, seat: int) -> Action:
        try:
            self._follow(state)
        except Exception:  # our copy lost the hand: the engines' views are wrong from here on
            log.exception(
                "%s: the mjai engines' copy of the hand could not follow it; the strong "
                "computer plays their seats until the next hand",
                self.table,
            )
            self.lost = True
            self.failed.update(range(MJAI_SEATS))
            for player in list(self.engines):
                self._stop(player)
            return choose_strong(state, seat)
        assert self.writer is not None
        player = self.writer.player(seat)
        if player in self.failed or self.closed:
            return choose_strong(state, seat)
        try:
            return self._decide(state, seat, player)
        except ENGINE_FAILURES as error:
            log.warning(
                "%s: mjai engine %r (player %d) failed: %s; the strong computer plays for it "
                "until the next hand",
                self.table,
                self.name,
                player,
                error,
            )
            self._stop(player)
            self.failed.add(player)
            return choose_strong(state, seat)

    def pids(self) -> list[int]:
        return [engine.pid for engine in self.engines.values()]

    def close(self) -> None:
        """Stop every engine and give back the table's share of the cap (once)."""
        if self.closed:
            return
        self.closed = True
        for player in list(self.engines):
            self._stop(player)
        BUDGET.release(self.seats)
        LIVE.discard(self)

    def _decide(self, state: HandState, seat: int, player: int) -> Action:
        engine = self._engine(player)

        def again(player: int, events: list[Event]) -> Event:
            return engine.ask(events, self.limit)

        action, reached = reaction_action(
            state, seat, player, again(player, self._unsent(player)), again
        )
        if reached:  # its own reach, sent when it declared, is left out of its next batch
            self.reach_sent.add(player)
        return action

    def _engine(self, player: int) -> EngineProcess:
        engine = self.engines.get(player)
        if engine is None:
            engine = self.engines[player] = EngineProcess(self.name, self.argv, player)
            start = {"type": "start_game", "names": self.names, "id": player}
            engine.ask([start], max(self.limit, START_LIMIT))  # sent alone, as arenas do
        return engine

    def _unsent(self, player: int) -> list[Event]:
        """The events `player` has not been sent, in its view (its own reach, sent when it
        declared, left out)."""
        assert self.writer is not None
        events = self.writer.events[self.sent.get(player, 0) :]
        self.sent[player] = len(self.writer.events)
        batch = [seat_view(e, player) for e in events]
        if player in self.reach_sent:
            batch = [e for e in batch if not (e["type"] == "reach" and e["actor"] == player)]
            self.reach_sent.discard(player)
        return batch

    def _follow(self, state: HandState) -> None:
        """Bring the copy up to the table's hand: a new hand ends the last one for each
        engine (answered with none) and starts a fresh copy."""
        if state is self.hand and self.lost:
            return
        if state is not self.hand:
            if not self.lost:
                self._end_hand()
            self.lost = False
            self.hand = state
            copy = HandState(
                state.preset,
                state.seed,
                state.setup,
                wall=state.wall,
                seat_count=state.seat_count,
                always_ask=state.always_ask,
            )
            self.writer = Writer(copy)
            self.writer.start()
            self.applied, self.sent, self.reach_sent = 0, {}, set()
            self.failed.clear()  # an engine that failed last hand is started again
        assert self.writer is not None
        for action in state.log[self.applied :]:
            self.writer.apply(action)
        self.applied = len(state.log)

    def _end_hand(self) -> None:
        writer = self.writer
        if writer is None or self.hand is None:
            return
        for action in self.hand.log[self.applied :]:
            writer.apply(action)
        if writer.state.is_over:
            writer.end()
        for player in list(self.engines):
            if player in self.failed:
                continue
            try:
                self.engines[player].ask(self._unsent(player), _END_LIMIT)
            except ENGINE_FAILURES as error:
                log.warning(
                    "%s: mjai engine %r (player %d) at the hand's end: %s",
                    self.table,
                    self.name,
                    player,
                    error,
                )
                self._stop(player)

    def _stop(self, player: int) -> None:
        engine = self.engines.pop(player, None)
        if engine is not None:
            engine.stop()


def stop_all() -> None:
    """The bot is stopping: no engine is left running."""
    for seats in list(LIVE):
        seats.close()


atexit.register(stop_all)  # beside Runtime.close: an interpreter that ends any other way


def engine_seats_for(
    level: str, computer_seats: int, table: str, move_limit: float | None, names: list[str]
) -> EngineSeats:
    """A table's engine seats at an engine `level`; EngineCapError past the cap."""
    argv = configured_engines()[level]
    limit = engine_timeout()
    if move_limit:
        limit = min(limit, move_limit)
    return EngineSeats(level, argv, computer_seats, limit, table, names)
