"""A table writer for the kill tests and the soak: plays one table's hands until killed.

    python tests/runtime_writer_proc.py DB ACK MODE KILL_AT HANDS [CLICK:MS]

DB is a SQLite file or a `postgresql://…` address.

MODE is `cpu` (one human and three computers, casual), `rated` (four humans, rated) or `game`
(four humans, rated, a preset whose games end after two hands and rate once per finished game:
tests/game_presets.py). The process opens the runtime on DB (restoring what is there, as the bot
does at start-up), opens the table if there is none yet, and plays every human decision itself
(the computer player's choice, as a click would) until HANDS hands are finished or the game is
over; then exits 0.

KILL_AT > 0 makes it SIGKILL itself right after its KILL_AT-th database call returned (every
store operation is one call: a commit, or a read), which is a kill between two commits; 0
never; -1 (`KILL_IN_GAME_END`) inside the transaction that ends the game, after the last hand's
result is written and before the game's standings and ratings are. CLICK:MS kills it MS
milliseconds after its CLICK-th click began (its commit, the computers' moves after it).
Each call's name goes to ACK as `C <n> <name>` before the kill check, each click's stamp as
`S <hand id> <player> <hand number> <moment>` and the action the runtime confirmed for it as
`A <hand id> <version> <action>` (confirmed means stored), flushed line by line. A restored
table nobody can move on writes `STUCK <reason>` and exits 3; a decision whose stamp names a
control clicked before (an old control would be accepted again) writes `DOUBLED` and exits 4.

The functions here are also used in-process by the tests: `drive` plays a table on and
`audit` checks a database (integrity, results and ratings exactly once, acknowledged actions).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import sqlite3
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg

from bot.runtime import ManualTimers, NullFrontEnd, Runtime
from bot.runtime.snapshots import control_stamp
from bot.runtime.table import LiveTable
from data import Phase, Store
from data.postgres import PgSession, is_dsn
from engine.computer.easy import choose_action
from engine.presets import PRESETS as REGISTRY
from tests.game_presets import SHORT_GAME

PRESETS = {"cpu": "hkos-3-v1", "rated": "hkos-3-v1", "game": SHORT_GAME.id}
KILL_IN_GAME_END = -1
HUMANS = [("201", "Ann"), ("202", "Bob"), ("203", "Cat"), ("204", "Dan")]
STEP_LIMIT = 5_000  # far more decisions than one hand has: a table that needs more is stuck

Ack = Callable[[str], None]


class Doubled(Exception):
    """A decision named by the stamp of a control already used: the old control would be
    accepted again (a public moment repeated, e.g. after a restart)."""


class Stuck(Exception):
    """A table that cannot move on: nobody may act, or everyone is ready and nothing deals."""


def stuck_reason(table: LiveTable) -> str | None:
    """Why this table cannot move on by itself or by its humans, or None if it can."""
    if table.phase is Phase.PLAYING:
        hand = table.hand
        if hand is None:
            return "playing without a hand"
        if hand.is_over:
            return "the hand is over but no result was recorded"
        to_act = table.players_to_act()
        if not to_act:
            return "nobody may act"
        if not any(table.seat(p).human for p in to_act):
            return "only computers may act and they do not"
    elif table.phase is Phase.BETWEEN_HANDS and len(table.ready) == len(table.seats):
        return "everyone is ready and no hand was dealt"
    return None


async def open_table(runtime: Runtime, mode: str) -> LiveTable:
    """The one table of the writer: restored, or opened and started now."""
    if runtime.tables:
        return next(iter(runtime.tables.values()))
    first_id, first_name = HUMANS[0]
    rated = mode != "cpu"
    table = await runtime.create_table(
        PRESETS[mode],
        creator_id=first_id,
        creator_name=first_name,
        rated=rated,
        computers=0 if rated else 3,
    )
    if rated:
        for player_id, name in HUMANS[1:]:
            await runtime.join(table.id, player_id, name)
    await runtime.start_table(table.id, first_id)
    return table


async def drive(
    runtime: Runtime,
    table_id: int,
    hands: int,
    ack: Ack | None = None,
    clicked: set[tuple[int, int, int, int]] | None = None,
    on_click: Callable[[], None] | None = None,
) -> None:
    """Play the humans' decisions (and Ready presses) until `hands` hands are finished or the
    table's game is over.

    Each decision is taken as a click on a control stamped with the moment it was drawn for
    (`control_stamp`): `clicked` holds the stamps of controls already used (hand id, player,
    hand number, moment), before a restart too, and a decision whose stamp is one of them raises
    `Doubled`: an old control would be accepted again."""
    clicked = set() if clicked is None else clicked
    for _ in range(STEP_LIMIT):
        if table_id not in runtime.tables:
            return  # its game is over: the table closed with the game's last hand
        table = runtime.get(table_id)
        reason = stuck_reason(table)
        if reason is not None:
            raise Stuck(reason)
        session = table.session
        if table.phase is Phase.BETWEEN_HANDS:
            assert session is not None
            if session.hand_number >= hands:
                return
            waiting = [p for p in table.humans if p not in table.ready]
            await runtime.ready(table_id, table.seat(waiting[0]).player_id)
            continue
        if table.phase is Phase.LOBBY:  # killed while seating: the others sit down first
            missing = [h for h in HUMANS if table.player_of(h[0]) is None]
            if table.full or not missing:
                await runtime.start_table(table_id, table.seat(table.humans[0]).player_id)
            else:
                await runtime.join(table_id, *missing[0])
            continue
        hand, hand_id = table.hand, table.hand_id
        assert hand is not None
        player = next(p for p in table.players_to_act() if table.seat(p).human)
        action = choose_action(hand, table.hand_seat(player))
        version = hand.version
        stamp = (hand_id or 0, player, *control_stamp(table))
        if stamp in clicked:
            raise Doubled(
                f"hand {hand_id} moment {stamp[3]} came again to {player} at action {version}"
            )
        if on_click is not None:
            on_click()
        await runtime.act(table_id, table.seat(player).player_id, action, version)
        clicked.add(stamp)
        if ack is not None:
            ack(f"S {stamp[0]} {stamp[1]} {stamp[2]} {stamp[3]}")
            ack(f"A {hand_id} {version} {action}")
    raise Stuck(f"{STEP_LIMIT} steps did not finish {hands} hand(s)")


# ------------------------------------------------------------------ checking a database


@dataclass
class Audit:
    integrity: str = ""
    hands: dict[int, list[str]] = field(default_factory=dict)  # hand id -> log lines
    finished: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.integrity == "ok" and not self.problems


def audit(db: str, acked: list[tuple[int, int, str]] = ()) -> Audit:  # type: ignore[assignment]
    """Check a database as a restart finds it: integrity, no gaps, each finished hand's
    result once and (rated) its ratings once, every acknowledged action in the log."""
    found = Audit()
    with reading(db) as conn:
        if is_dsn(db):
            found.integrity = "ok"  # PostgreSQL checks its pages itself
            schema = conn.execute("SELECT to_regclass('ratings')").fetchone()[0]
        else:
            found.integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
            schema = conn.execute("SELECT name FROM sqlite_master WHERE name = 'ratings'")
            schema = schema.fetchone()
        if schema is None:  # killed before the schema was committed: nothing was stored yet
            if acked:
                found.problems.append(f"lost: {len(acked)} actions and the whole schema")
            return found
        for hand_id, seq, line in conn.execute(
            "SELECT hand_id, seq, action FROM actions ORDER BY hand_id, seq"
        ):
            lines = found.hands.setdefault(hand_id, [])
            if seq != len(lines):
                found.problems.append(f"hand {hand_id}: action {seq} after {len(lines)} lines")
            lines.append(line)
        for hand_id, version, line in acked:
            lines = found.hands.get(hand_id, [])
            if len(lines) <= version or lines[version] != line:
                found.problems.append(f"lost: hand {hand_id} action {version} {line}")
        rows = conn.execute(
            "SELECT h.id, h.status, r.rated, t.rated, r.rates,"
            " (SELECT count(*) FROM hand_players p WHERE p.hand_id = h.id),"
            " (SELECT count(*) FROM rating_history g WHERE g.hand_id = h.id),"
            " (SELECT count(*) FROM table_seats s WHERE s.table_id = h.table_id AND s.human = 1),"
            " (SELECT count(*) FROM table_seats s WHERE s.table_id = h.table_id),"
            " (SELECT count(*) FROM game_results g WHERE g.last_hand_id = h.id)"
            " FROM hands h JOIN tables t ON t.id = h.table_id"
            " LEFT JOIN hand_results r ON r.hand_id = h.id"
        ).fetchall()
        for hand_id, status, result_rated, table_rated, rates, *counts in rows:
            players, ratings, humans, seats, ends_game = counts
            recorded = result_rated is not None
            if (status == "finished") != recorded:
                found.problems.append(f"hand {hand_id} is {status} with result={recorded}")
            if recorded:
                found.finished += 1
                if players != seats:
                    found.problems.append(f"hand {hand_id}: {players} placement rows")
                # a game's hands rate nothing but the last, which rates the game
                expected = humans if table_rated and (rates or ends_game) else 0
                if ratings != expected:
                    found.problems.append(f"hand {hand_id}: {ratings} rating rows, not {expected}")
        found.problems += _game_problems(conn)
        for player, preset, games, history in conn.execute(
            "SELECT r.player_id, r.preset, r.games, (SELECT count(*) FROM rating_history g"
            " WHERE g.player_id = r.player_id AND g.preset = r.preset) FROM ratings r"
        ):
            if games != history:
                found.problems.append(f"{player} {preset}: {games} games, {history} rated hands")
    return found


def _game_problems(conn: Any) -> list[str]:
    """A finished game stored whole (its standings, every hand's result, its table closed),
    and no table whose game's last hand has a result without the game."""
    problems = []
    for table_id, hands, standings, results, phase, seats in conn.execute(
        "SELECT g.table_id, g.hands,"
        " (SELECT count(*) FROM game_players p WHERE p.table_id = g.table_id),"
        " (SELECT count(*) FROM hand_results r WHERE r.table_id = g.table_id), t.phase,"
        " (SELECT count(*) FROM table_seats s WHERE s.table_id = g.table_id)"
        " FROM game_results g JOIN tables t ON t.id = g.table_id"
    ).fetchall():
        if (standings, results, phase) != (seats, hands, "closed"):
            problems.append(
                f"game of table {table_id}: {standings} standings of {seats} seats, {results}"
                f" results of {hands} hands, table {phase}"
            )
    for table_id, preset_id, results in conn.execute(
        "SELECT t.id, t.preset, (SELECT count(*) FROM hand_results r WHERE r.table_id = t.id)"
        " FROM tables t WHERE NOT EXISTS (SELECT 1 FROM game_results g WHERE g.table_id = t.id)"
    ).fetchall():
        preset = SHORT_GAME if preset_id == SHORT_GAME.id else REGISTRY.get(preset_id)
        last = preset.game.hands if preset is not None else 0
        if last and results >= last:
            problems.append(f"table {table_id}: its game's last hand has a result, no game")
    return problems


@contextlib.contextmanager
def reading(db: str) -> Iterator[Any]:
    """A connection to read a database with (SQLite's, or the PostgreSQL session the store
    uses, on a loop of its own): both take the same SQL. Not from inside a running loop."""
    if not is_dsn(db):
        conn = sqlite3.connect(db)
        try:
            yield conn
        finally:
            conn.close()
        return
    loop = asyncio.new_event_loop()
    pg = loop.run_until_complete(asyncpg.connect(db))
    try:
        yield PgSession(loop, pg, retrying=False)
    finally:
        loop.run_until_complete(pg.close())
        loop.close()


def read_stamps(path: str) -> set[tuple[int, int, int, int]]:
    """The stamps of the controls clicked before (hand id, player, hand number, moment), whose click
    was confirmed (its `A` line follows)."""
    stamps: set[tuple[int, int, int, int]] = set()
    if not os.path.exists(path):
        return stamps
    pending = None
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if not line.endswith("\n"):
                break
            parts = line.split()
            if parts[0] == "S":
                pending = (int(parts[1]), int(parts[2]), int(parts[3]), int(parts[4]))
            elif parts[0] == "A" and pending is not None:
                stamps.add(pending)
                pending = None
    return stamps


def read_acks(path: str) -> tuple[list[tuple[int, int, str]], list[str]]:
    """The acknowledged actions and the database calls named in an ACK file."""
    actions: list[tuple[int, int, str]] = []
    calls: list[str] = []
    if not os.path.exists(path):
        return actions, calls
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if not line.endswith("\n"):
                break  # the kill cut this line
            parts = line.split(" ", 3)
            if parts[0] == "A":
                actions.append((int(parts[1]), int(parts[2]), parts[3].rstrip("\n")))
            elif parts[0] == "C":
                calls.append(parts[2].rstrip("\n"))
    return actions, calls


def over_without_result(db: str) -> list[int]:
    """Hands whose log plays to the end but that have no result (a kill before the result)."""
    with reading(db) as conn:
        rows = conn.execute(
            "SELECT h.id, h.seed, h.setup_json, t.preset FROM hands h JOIN tables t"
            " ON t.id = h.table_id WHERE h.status = 'playing'"
        ).fetchall()
        found = []
        for hand_id, seed, setup, preset in rows:
            lines = [
                r[0]
                for r in conn.execute(
                    "SELECT action FROM actions WHERE hand_id = ? ORDER BY seq", (hand_id,)
                )
            ]
            if _replays_to_the_end(preset, int(seed), setup, lines):
                found.append(hand_id)
        return found


def _replays_to_the_end(preset_id: str, seed: int, setup: str | None, lines: list[str]) -> bool:
    """Whether a stored hand, rebuilt as a restore rebuilds it, is over."""
    from bot.runtime.recipe import HandRecipe, replay_hand
    from data.rows import HandLog, HandStatus
    from engine.actions import Action
    from engine.presets import find_preset

    stored = HandLog(
        0, 0, 0, seed, setup, HandStatus.PLAYING, 0.0, None, tuple(map(Action.parse, lines))
    )
    return replay_hand(HandRecipe.stored(stored, find_preset(preset_id)), stored.actions).is_over


# ------------------------------------------------------------------ the process


def _count_calls(kill_at: int, ack: Ack) -> None:
    """Name every database call in ACK; SIGKILL this process after call number `kill_at`."""
    real = Store._call
    calls = 0

    async def counted(self: Store, fn: Callable[..., Any], *args: Any) -> Any:
        nonlocal calls
        result = await real(self, fn, *args)
        calls += 1
        ack(f"C {calls} {fn.__qualname__.split('.<locals>')[0].rsplit('.', 1)[-1]}")
        if calls == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        return result

    Store._call = counted  # type: ignore[method-assign]


def _kill_after_click(click: int, seconds: float) -> Callable[[], None]:
    """A click counter that SIGKILLs this process `seconds` after the `click`-th click began
    (a kill anywhere in the click's work: its commit, the computers' moves after it, the
    next decision), from a thread, so that nothing the loop does can delay it."""
    clicks = 0

    def clicked() -> None:
        nonlocal clicks
        clicks += 1
        if clicks == click:
            timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGKILL))
            timer.daemon = True
            timer.start()

    return clicked


def _kill_in_game_end() -> None:
    """SIGKILL this process inside the transaction that ends the game: the last hand's result
    is written (not committed), the game's standings and ratings are not."""
    from data import games

    def killed(*args: object) -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    games.record_game = killed  # type: ignore[assignment]


async def main(
    db: str, ack_path: str, mode: str, kill_at: int, hands: int, after_click: str = ""
) -> int:
    with open(ack_path, "a", encoding="utf-8", buffering=1) as out:

        def ack(line: str) -> None:
            out.write(line + "\n")
            out.flush()

        _count_calls(kill_at, ack)
        if kill_at == KILL_IN_GAME_END:
            _kill_in_game_end()
        REGISTRY[SHORT_GAME.id] = SHORT_GAME  # as a restart finds it: a preset the bot knows
        store = await Store.open(db)
        # as on Discord: every discard opens a claim window for the people at the table
        runtime = Runtime(
            store, NullFrontEnd(), ManualTimers(), seed_source=lambda: 4242, no_call_wait=1.0
        )
        try:
            await runtime.open()
            if not runtime.tables and await store.game_result(1) is not None:
                return 0  # the one table's game is over
            table = await open_table(runtime, mode)
            on_click = None
            if after_click:
                click, milliseconds = after_click.split(":")
                on_click = _kill_after_click(int(click), int(milliseconds) / 1000)
            await drive(runtime, table.id, hands, ack, read_stamps(ack_path), on_click)
        except Stuck as error:
            ack(f"STUCK {error}")
            return 3
        except Doubled as error:
            ack(f"DOUBLED {error}")
            return 4
        finally:
            await runtime.close()
            await store.close()
    return 0


def _child(*args: Any) -> None:
    sys.exit(asyncio.run(main(*args)))


def run_writer(
    db: Path | str,
    ack: Path | str,
    mode: str,
    kill_at: int,
    hands: int,
    after_click: str = "",
    *,
    kill_after: float | None = None,
    seconds: float = 60.0,
) -> int:
    """Run `main` in a process of its own, as the command line above does, and wait for it at
    most `seconds`: its exit code, negative for the signal that ended it; `kill_after` seconds
    from its start it is SIGKILLed if still running. The process is forked from a server that
    has imported this module (as the decision workers are): a fresh interpreter spent ~1.3 s of
    each kill case on its imports before its first move, and a kill after a delay mostly hit
    those."""
    forks = multiprocessing.get_context("forkserver")
    forks.set_forkserver_preload([__name__])  # none once the server runs (the pool's may)
    process = forks.Process(
        target=_child, args=(str(db), str(ack), mode, kill_at, hands, after_click)
    )
    process.start()
    if kill_after is not None:
        process.join(kill_after)
        process.kill()  # nothing if it has ended
    process.join(seconds)
    if process.is_alive():
        process.kill()
        process.join()
        raise TimeoutError(f"the writer ran past {seconds} s: {db}, kill at {kill_at}")
    assert process.exitcode is not None
    return process.exitcode


if __name__ == "__main__":
    db_path, ack_file, mode_name, kill, hand_count = sys.argv[1:6]
    click_kill = sys.argv[6] if len(sys.argv) > 6 else ""
    sys.exit(
        asyncio.run(main(db_path, ack_file, mode_name, int(kill), int(hand_count), click_kill))
    )
