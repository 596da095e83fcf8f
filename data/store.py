"""The store: the one object the bot talks to the database through: SQLite (aiosqlite, the
default) or PostgreSQL (asyncpg, for `postgresql://…` addresses).

A thin async façade. Each method checks and converts its arguments, then runs one function of
the module that owns the concern on the connection's worker thread:

  data/connection.py  which file, checks before use, one connection a process, transactions
  data/postgres.py    the PostgreSQL connection running the same functions (data/dialect.py)
  data/tables.py      tables and seats, lobby changes, activity, closing and expiry
  data/action_log.py  hands as seed + action log, appends sharing commits
  data/restore.py     rebuilding open tables at start-up, quarantine
  data/results.py     a hand's result exactly once, rating changes
  data/games.py       a finished game's standings, with its last hand's result
  data/history.py     leaderboard, ratings and hand history reads
  data/preferences.py language preferences of servers and people
  data/quickplay.py   Quick Play queues, shared by the processes on one database

Time comes from the injected `clock` (default time.time) unless a method is given `now`, so tests
control it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from data import (
    action_log,
    games,
    history,
    inbox,
    preferences,
    quickplay,
    restore,
    results,
    tables,
    watch,
)
from data.connection import Connection, resolve_path
from data.errors import StoreError
from data.history import LEADERBOARD_MIN_GAMES
from data.postgres import RECONNECT_FOR, TIMEOUT, Listener, PgConnection, ShardLease, is_address
from data.rows import (
    ACTIVE_PHASES,
    GameRecord,
    GameResult,
    GameStats,
    HandLog,
    HandRecord,
    HandResult,
    LeaderboardPage,
    LoadedTable,
    Phase,
    PlayerStats,
    QuarantinedTable,
    RatingPoint,
    RatingRow,
    RecordedHand,
    SeatRow,
    TableOptions,
    TableRow,
    checked_json,
)
from data.tables import IDLE_EXPIRY, Shards
from data.watch import Watch
from engine.actions import Action
from engine.presets import find_preset

__all__ = ["IDLE_EXPIRY", "LEADERBOARD_MIN_GAMES", "Store"]

T = TypeVar("T")


class Store:
    """Persistence for tables, hands, ratings and history. Create with `await Store.open()`."""

    def __init__(self, connection: Connection | PgConnection, clock: Callable[[], float]) -> None:
        self._db = connection
        self.path = connection.path
        self._clock = clock
        self._closed = False
        self._appends = action_log.GroupCommit(self._append_batch)

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls,
        path: str | None = None,
        *,
        clock: Callable[[], float] = time.time,
        synchronous: str = "FULL",
        timeout: float = TIMEOUT,
        reconnect_for: float = RECONNECT_FOR,
    ) -> Store:
        """Open (creating and migrating as needed) the database at `path`.

        None means $MAHJONG_DB or mahjong.db in the working directory; ":memory:" works.
        A path the bot cannot use raises, with the disk left as it was: UnusableDatabaseError
        (a directory, a missing folder, read-only, damaged pages), NotAStoreError (not this
        bot's SQLite file) or SchemaTooNewError (written by a newer bot).

        A `postgresql://…` address opens PostgreSQL instead (data/postgres.py): `timeout` is
        how long a statement may take, `reconnect_for` how long a lost connection is retried.
        """
        path = resolve_path(path)
        if is_address(path):
            pg = await PgConnection.open(path, timeout=timeout, reconnect_for=reconnect_for)
            return cls(pg, clock)
        return cls(await Connection.open(path, synchronous), clock)

    @classmethod
    async def open_read_only(cls, path: str | None = None, *, timeout: float = TIMEOUT) -> Store:
        """Open an existing database of this bot's schema version for reading only: for
        commands that only read, such as `mahjong-bot replay` and `db copy`'s source, which
        must create, migrate and write nothing (SQLite `Connection.open_read_only`, PostgreSQL
        read-only transactions)."""
        path = resolve_path(path)
        if is_address(path):
            pg = await PgConnection.open(path, timeout=timeout, read_only=True)
            return cls(pg, time.time)
        return cls(await Connection.open_read_only(path), time.time)

    async def close(self) -> None:
        """Commit the appends already accepted, then close the connection."""
        if self._closed:
            return
        self._closed = True
        await self._appends.drain()
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(sqlite3_connection, *args) on the worker thread (tests read the schema with it)."""
        return await self._db.call(fn, *args)

    def _now(self, now: float | None) -> float:
        return self._clock() if now is None else now

    # ------------------------------------------------------------------ tables

    async def create_table(
        self,
        preset: str,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        options: TableOptions | None = None,
        seats: Iterable[SeatRow] = (),
        now: float | None = None,
    ) -> int:
        """A new table in the lobby; returns its id. The preset must exist (find_preset)."""
        find_preset(preset)
        options = options or TableOptions()
        if options.visibility not in ("public", "private"):
            raise ValueError(f"visibility is public or private, not {options.visibility!r}")
        rows = _seat_tuples(seats)
        return await self._call(
            tables.create_table, preset, guild_id, channel_id, options, rows, self._now(now)
        )

    async def set_options(self, table_id: int, options: TableOptions) -> None:
        """Replace the table's options. Whether it is rated can change only in the lobby: a
        hand that started casual must not end rated, nor the reverse."""
        await self._call(tables.set_options, table_id, options)

    async def set_seats(
        self, table_id: int, seats: Iterable[SeatRow], *, now: float | None = None
    ) -> None:
        """Replace who sits where (joining, leaving, adding a computer). Counts as activity."""
        await self._call(tables.set_seats, table_id, _seat_tuples(seats), self._now(now))

    async def set_phase(self, table_id: int, phase: Phase, *, now: float | None = None) -> None:
        """Move an open table between lobby / playing / between_hands (close with close_table).

        Hands start with start_hand and end with record_hand_result, which set the phase
        themselves; this is for the moves around them (e.g. back to the lobby).
        """
        phase = Phase(phase)
        if phase not in ACTIVE_PHASES:
            raise ValueError(f"set_phase moves between open phases; use close_table for {phase}")
        await self._call(tables.set_phase, table_id, phase, self._now(now))

    async def set_message_id(self, table_id: int, message_id: int | None) -> None:
        """The public table message (not a game action: does not move last_action_at)."""
        await self._call(tables.set_message_id, table_id, message_id)

    async def touch(self, table_id: int, *, now: float | None = None) -> None:
        """Record activity that writes nothing else (e.g. a Ready press between hands)."""
        await self._call(tables.touch, table_id, self._now(now))

    async def close_table(self, table_id: int, reason: str, *, now: float | None = None) -> None:
        """Close a table (players ended it): a hand in play is abandoned, no rating changes."""
        await self._call(tables.close_table, table_id, reason, self._now(now))

    async def expire_idle(
        self, now: float | None = None, idle: float = IDLE_EXPIRY, *, shards: Shards | None = None
    ) -> list[int]:
        """Close every open table with no game action for `idle` seconds; returns their ids.
        `shards` (shards in all, the ids this process runs): only their guilds' tables.

        Found by one query on the (phase, last_action_at) index; closed in the same transaction
        with no rating change (a hand in play is abandoned) and the closing recorded.
        """
        return await self._call(tables.expire_idle, self._now(now), idle, shards)

    # ------------------------------------------------------------------ hands and actions

    async def start_hand(
        self,
        table_id: int,
        hand_no: int,
        seed: int,
        *,
        setup: str | None = None,
        deadlines: Mapping[str, float] | None = None,
        now: float | None = None,
    ) -> int:
        """Begin a hand: store its seed (and the session setup it starts from, JSON text).

        One transaction: the hand row, phase playing, current hand, last action time, and the
        table's deadlines replaced by `deadlines` (none if None). Returns the hand id.
        """
        checked_json(setup, "hand setup")
        return await self._call(
            action_log.start_hand,
            table_id,
            hand_no,
            seed,
            setup,
            dict(deadlines or {}),
            self._now(now),
        )

    async def append_action(
        self,
        table_id: int,
        hand_id: int,
        action: Action | str,
        version: int,
        deadlines: Mapping[str, float] | None = None,
        *,
        now: float | None = None,
    ) -> None:
        """Append one action to a hand's log, with the table's clock; durable on return.

        `version` is the hand's version the action was taken at: the number of actions already
        in the log (0 for the first). Anything else raises StaleVersionError and writes nothing,
        so a log can never have a gap or two actions for one version. `deadlines` replaces the
        table's deadlines (None leaves them as they are). The text is parsed first and stored
        in canonical form, so every stored line reads back.

        The action row, the table's last-action time and its deadlines are written together or
        not at all, in a commit shared with the appends of other tables that arrive meanwhile
        (data/action_log.py). An append once accepted is committed even if its caller is
        cancelled while waiting.
        """
        await self.append_actions(table_id, hand_id, [action], version, deadlines, now=now)

    async def append_actions(
        self,
        table_id: int,
        hand_id: int,
        actions: Sequence[Action | str],
        version: int,
        deadlines: Mapping[str, float] | None = None,
        *,
        now: float | None = None,
        stored_deadlines: Mapping[str, float] | None = None,
    ) -> None:
        """Append a run of actions (`version` is the first's) as `append_action` appends one:
        the whole run or nothing, refused whole if its first version is not the next one, with
        `deadlines` the clock after its last action; one write in the shared commit.

        `stored_deadlines` is what the table's deadlines are before this append, if the caller
        knows it (what it last stored): only the difference is written, with the same result.
        """
        if not actions:
            raise ValueError("an append needs at least one action")
        lines = tuple(map(_line, actions))
        await self._appends.append(
            action_log.Append(
                table_id,
                hand_id,
                lines,
                version,
                None if deadlines is None else dict(deadlines),
                self._now(now),
                asyncio.get_running_loop().create_future(),
                None if stored_deadlines is None else dict(stored_deadlines),
            )
        )

    async def _append_batch(self, batch: Sequence[action_log.Append]) -> list[Exception | None]:
        return await self._call(action_log.append_batch, batch)

    async def hand_log(self, hand_id: int) -> HandLog:
        """One hand's seed and log (any status), for replays and bug reports."""
        return await self._call(action_log.hand_log, hand_id)

    async def last_hand(self, table_id: int) -> HandLog | None:
        """The table's latest hand and its log (between hands: the one just finished)."""
        return await self._call(action_log.last_hand, table_id)

    async def table_hands(self, table_id: int) -> list[HandLog]:
        """Every hand of the table with its log, in the order dealt."""
        return await self._call(action_log.table_hands, table_id)

    # ------------------------------------------------------------------ restoring

    async def load_active_tables(
        self, *, shards: Shards | None = None
    ) -> tuple[list[LoadedTable], list[QuarantinedTable]]:
        """Every open table, ready to rebuild (at startup), and the ones set aside; with
        `shards` (shards in all, the ids this process runs), those of their guilds only (a
        table of no guild belongs to shard 0), so processes sharing a database split them.

        A table naming an unknown preset, or with a log line, seed, session or option that does
        not read back, is quarantined (phase 'quarantined', reason stored, event recorded,
        logged) and reported; the others load regardless.
        """
        return await self._call(restore.load_active_tables, self._now(None), shards)

    # ------------------------------------------------------------------ results and ratings

    async def record_hand_result(
        self,
        table_id: int,
        hand_id: int,
        result: HandResult,
        *,
        session_state: str | None = None,
        deadlines: Mapping[str, float] | None = None,
        now: float | None = None,
        game: GameResult | None = None,
    ) -> RecordedHand:
        """End a hand: history, placements and (rated tables) ratings, all in one transaction.

        With `game`, the hand ends its table's game: the game's standings, its ratings where
        they settle per game (`GameResult.rates`, by final place, returned with the hand's
        changes), and the table closed ("game over") share the hand's transaction.

        Exactly once per hand: submitting the same result again changes nothing and returns
        the stored rating changes (newly_recorded False); a different result for a recorded
        hand raises ResultConflictError. The table moves to between_hands, keeps
        `session_state` if given, and its deadlines become `deadlines` (none if None).
        Ratings move only when the table is rated, and only between its human players.
        """
        checked_json(session_state, "session state")
        return await self._call(
            results.record_hand_result,
            table_id,
            hand_id,
            result,
            session_state,
            dict(deadlines or {}),
            self._now(now),
            game,
        )

    async def game_result(self, table_id: int) -> GameResult | None:
        """A table's finished game: its final standings by seat (None: no finished game)."""
        return await self._call(games.game_result, table_id)

    async def import_ratings(
        self, preset: str, rows: Iterable[tuple[str, float, int]], *, now: float | None = None
    ) -> int:
        """Bulk-load (player_id, rating, games) rows for a preset, replacing existing ones.

        For carrying ratings over from elsewhere and for benchmarks; writes no history.
        """
        return await self._call(results.import_ratings, preset, list(rows), self._now(now))

    # ------------------------------------------------------------------ leaderboard and history

    async def leaderboard(
        self,
        preset: str,
        page: int = 1,
        page_size: int = 10,
        min_games: int = LEADERBOARD_MIN_GAMES,
    ) -> LeaderboardPage:
        """One page of a preset's board: rating order (ties by player id, so pages are stable),
        players with at least `min_games` rated hands, provisional ones marked."""
        if page < 1 or page_size < 1:
            raise ValueError("page and page_size start at 1")
        return await self._call(history.leaderboard, preset, page, page_size, min_games)

    async def ratings_of(self, player_id: str) -> list[RatingRow]:
        """All of a player's ratings, one per preset played rated, by preset id."""
        return await self._call(history.ratings_of, player_id)

    async def recent_hands(
        self,
        player_id: str,
        limit: int = 10,
        *,
        preset: str | None = None,
        game_hands: bool = True,
    ) -> list[HandRecord]:
        """A player's most recent finished hands (optionally in one preset), newest first;
        with `game_hands` False, not the hands of games whose ratings settle per game (they
        are in `recent_games`)."""
        return await self._call(history.recent_hands, player_id, limit, preset, game_hands)

    async def recent_games(
        self, player_id: str, limit: int = 10, *, preset: str | None = None
    ) -> list[GameRecord]:
        """A player's most recent finished games of presets whose ratings settle per game
        (optionally of one preset), newest first: standings, hands, rating changes."""
        return await self._call(history.recent_games, player_id, limit, preset)

    async def hand_record(self, hand_id: int) -> HandRecord | None:
        """One finished hand's history entry: seats, points, wins, rating changes (None if the
        hand has no result)."""
        return await self._call(history.hand_record, hand_id)

    async def table_row(self, table_id: int) -> TableRow:
        """A table as stored (any phase), for reads such as who may replay its hands; unlike
        load_active_tables it restores nothing and quarantines nothing. TableNotFoundError."""
        return await self._call(history.table_row, table_id)

    async def player_stats(self, player_id: str, preset: str | None = None) -> PlayerStats:
        """A player's figures over their finished hands (of `preset`, or of every preset),
        leaving out the hands of games whose ratings settle per game (`game_stats`)."""
        return await self._call(history.player_stats, player_id, preset)

    async def game_stats(self, player_id: str, preset: str | None = None) -> GameStats:
        """A player's figures over their finished games whose ratings settle per game (of
        `preset`, or of every such preset): places, final scores, the hands' wins, deal-ins
        and declarations. A game abandoned or expired before its end counts nowhere."""
        return await self._call(history.game_stats, player_id, preset)

    async def rating_history(self, player_id: str, preset: str) -> list[RatingPoint]:
        """A player's rating after each of their rated hands of `preset`, oldest first."""
        return await self._call(history.rating_history, player_id, preset)

    # ------------------------------------------------------------------ several processes

    @property
    def shared(self) -> bool:
        """Whether several processes may share this database (PostgreSQL): what one process
        stores, the others read, and DM clicks travel between them through the inbox."""
        return isinstance(self._db, PgConnection)

    async def post_to_inbox(self, table_id: int, payload: str) -> None:
        """Hand a DM click (its interaction, JSON) to the process owning `table_id`."""
        checked_json(payload, "inbox payload")
        await self._call(inbox.post, table_id, payload, self._now(None))

    async def take_inbox(self, shards: Shards | None) -> list[tuple[int, str]]:
        """The DM clicks waiting for the tables of `shards`' guilds, oldest first; taken."""
        return await self._call(inbox.take, shards)

    async def take_inbox_orphans(self, now: float | None = None) -> list[tuple[int, str]]:
        """The DM clicks no process will take (inbox.take_orphans), oldest first; taken."""
        return await self._call(inbox.take_orphans, self._now(now), inbox.STALE_AFTER)

    async def listen_inbox(self, wake: Callable[[], None]) -> Listener | None:
        """Call `wake` on every inbox NOTIFY, and once each time the listening connection
        comes back after a loss (PostgreSQL; None on SQLite, where no other process posts)."""
        if not isinstance(self._db, PgConnection):
            return None
        return await Listener.start(self._db.path, inbox.INBOX_CHANNEL, wake)

    async def hold_shards(
        self, shards: Shards | None, lost: Callable[[str], None]
    ) -> ShardLease | None:
        """Hold `shards` (None: every shard) against every other process on this database
        (PostgreSQL; None on SQLite, which one process serves): UnusableDatabaseError if
        another running process holds one of them (data/postgres.py ShardLease)."""
        if not isinstance(self._db, PgConnection):
            return None
        return await ShardLease.hold(self._db.path, shards, lost)

    async def watch(self, *, now: float | None = None) -> Watch:
        """The inbox's depth and age and the queues' sizes (bot/metrics.py); raises if the
        database does not answer, so it is the health check's query too."""
        if self._closed:
            raise StoreError("the store is closed")
        return await self._call(watch.watch, self._now(now))

    # ------------------------------------------------------------------ Quick Play queues

    async def quickplay_join(
        self,
        preset: str,
        rated: bool,
        entry: quickplay.QueueEntry,
        seats: int,
        *,
        now: float | None = None,
    ) -> quickplay.JoinOutcome:
        """Queue `entry` for (preset, rated); once `seats` people wait, the first `seats` are
        taken out and returned (each person matched once, whichever process queued them)."""
        if seats < 1:
            raise ValueError(f"a table seats 1 or more, not {seats}")
        return await self._call(quickplay.join, preset, rated, entry, seats, self._now(now))

    async def quickplay_fill(
        self,
        preset: str,
        seats: int,
        fill_after: float,
        *,
        shards: Shards | None = None,
        now: float | None = None,
    ) -> quickplay.FillOutcome:
        """A casual queue's wait ending for the process of `shards`: its first `seats` taken
        out once this process's earliest person among them waited `fill_after` seconds."""
        return await self._call(quickplay.fill, preset, seats, self._now(now), fill_after, shards)

    async def quickplay_leave(self, player_id: str) -> bool:
        """Take the person out of every queue; whether they were in one."""
        return await self._call(quickplay.leave, player_id)

    async def quickplay_waiting(self, preset: str, rated: bool, *, now: float | None = None) -> int:
        """How many people wait in the queue, on every process."""
        return await self._call(quickplay.waiting, preset, rated, self._now(now))

    async def quickplay_renew(
        self, *, shards: Shards | None = None, now: float | None = None
    ) -> list[quickplay.OwnQueue]:
        """Keep the entries of `shards`' guilds alive (a crashed process's lapse), sweep the
        lapsed ones; the queues holding this process's people."""
        return await self._call(quickplay.renew, shards, self._now(now))

    # ------------------------------------------------------------------ language preferences

    async def set_language(self, scope: str, subject: str, language: str | None) -> None:
        """Store a guild's or a user's language (`scope` "guild" or "user"); None clears it."""
        await self._call(preferences.set_language, scope, subject, language, self._now(None))

    async def languages(self) -> preferences.Preferences:
        """Every stored language preference, by (scope, subject id)."""
        return await self._call(preferences.languages)


# The log line of each action seen, made once: Actions are immutable and a process plays a few
# thousand distinct ones again and again, so looking the text up is cheaper than making it.
_LINES: dict[Action, str] = {}
_MOST_LINES = 1 << 16  # far more than a process plays; cleared when reached, to stay bounded


def _line(action: Action | str) -> str:
    """The canonical text of an action (a text is parsed first, so every stored line reads
    back)."""
    if not isinstance(action, Action):
        return str(Action.parse(action))
    line = _LINES.get(action)
    if line is None:
        if len(_LINES) >= _MOST_LINES:
            _LINES.clear()
        line = _LINES[action] = str(action)
    return line


def _seat_tuples(seats: Iterable[SeatRow]) -> list[tables.SeatTuple]:
    return [(s.seat, s.player_id, int(s.human)) for s in seats]
