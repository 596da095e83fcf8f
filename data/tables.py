"""Tables: their rows and seats, lobby changes, activity, clocks, closing and expiry.

Each function takes the connection (SQLite's, or the PostgreSQL session: data/dialect.py) and
runs its own transaction; the helpers that work inside a caller's transaction say so. The row
helpers here (reading a table back, its events and deadlines) are shared by the other modules.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from data.connection import transaction
from data.dialect import Cursor, Db
from data.errors import StoreError, TableNotFoundError, UnreadableError
from data.rows import ACTIVE_PHASES, Phase, SeatRow, TableOptions, TableRow

log = logging.getLogger(__name__)

IDLE_EXPIRY = 24 * 60 * 60  # RULES.md: a table with no game action for 24 hours expires

# ACTIVE_PHASES as an SQL list, for IN clauses: "('lobby', 'playing', 'between_hands')".
ACTIVE_SQL = "(" + ", ".join(f"'{p.value}'" for p in ACTIVE_PHASES) + ")"

TABLE_COLS = (
    "id, guild_id, channel_id, preset, visibility, rated, time_control, invite_code, "
    "options_json, phase, message_id, session_json, current_hand_id, created_at, "
    "last_action_at, closed_at, closed_reason, quarantine_reason"
)

# The one query that finds idle tables; tests check its plan uses tables_phase_idle.
IDLE_TABLES_SQL = (
    f"SELECT id FROM tables WHERE phase IN {ACTIVE_SQL} AND last_action_at <= ? ORDER BY id"
)

SeatTuple = tuple[int, str, int]  # (seat, player_id, human) as stored

# The shards a process owns: (shards in all, the ids it runs). Several processes share one
# database; each restores, clocks and expires only the tables of its own shards' guilds.
Shards = tuple[int, tuple[int, ...]]


def owned(shards: Shards | None, alias: str = "t") -> tuple[str, list[int]]:
    """An SQL condition (with its parameters) for the tables of `shards`' guilds; a table of
    no guild (a DM or the terminal) belongs to shard 0, as Discord sends DMs there. Discord's
    own rule finds a guild's shard: (guild_id >> 22) % shard count."""
    if shards is None:
        return "1 = 1", []
    count, ids = shards
    if not ids or min(ids) < 0 or max(ids) >= count:
        raise ValueError(f"shards {ids} are not among 0 to {count - 1}")
    marks = ", ".join("?" * len(ids))
    condition = (
        f"(CASE WHEN {alias}.guild_id IS NULL THEN 0"
        f" ELSE ({alias}.guild_id >> 22) % ? END) IN ({marks})"
    )
    return condition, [count, *ids]


def owns(shards: Shards | None, guild_id: int | None) -> bool:
    """Whether the guild (None: no guild, shard 0's) is among `shards`' (`owned` in Python)."""
    if shards is None:
        return True
    count, ids = shards
    return (0 if guild_id is None else (guild_id >> 22) % count) in ids


# ------------------------------------------------------------------ rows (shared)


def table_from(row: Sequence[Any], seats: Iterable[Sequence[Any]]) -> TableRow:
    """A TableRow from its TABLE_COLS row and seat rows; UnreadableError for bad options."""
    (
        tid,
        guild_id,
        channel_id,
        preset,
        visibility,
        rated,
        time_control,
        invite_code,
        options_json,
        phase,
        message_id,
        session_json,
        current_hand_id,
        created_at,
        last_action_at,
        closed_at,
        closed_reason,
        quarantine_reason,
    ) = row
    try:
        extra = json.loads(options_json)
    except ValueError as e:
        raise UnreadableError(f"options unreadable: {e}") from None
    return TableRow(
        id=tid,
        guild_id=guild_id,
        channel_id=channel_id,
        preset=preset,
        options=TableOptions(
            visibility=visibility,
            rated=bool(rated),
            time_control=time_control,
            invite_code=invite_code,
            extra=extra,
        ),
        seats=tuple(SeatRow(s, p, bool(h)) for s, p, h in seats),
        phase=Phase(phase),
        message_id=message_id,
        session_state=session_json,
        current_hand_id=current_hand_id,
        created_at=created_at,
        last_action_at=last_action_at,
        closed_at=closed_at,
        closed_reason=closed_reason,
        quarantine_reason=quarantine_reason,
    )


def read_table(conn: Db, table_id: int) -> TableRow:
    """One table with its seats (any phase). TableNotFoundError, or UnreadableError."""
    row = conn.execute(f"SELECT {TABLE_COLS} FROM tables WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        raise TableNotFoundError(f"no table {table_id}")
    seats = conn.execute(
        "SELECT seat, player_id, human FROM table_seats WHERE table_id = ? ORDER BY seat",
        (table_id,),
    ).fetchall()
    return table_from(row, seats)


def found(cur: Cursor, table_id: int) -> None:
    """TableNotFoundError if the `UPDATE … RETURNING id` in `cur` matched no table (the
    returned rows count what changed, on both stores)."""
    if cur.fetchone() is None:
        raise TableNotFoundError(f"no table {table_id}")


def event(conn: Db, table_id: int, at: float, kind: str, detail: str) -> None:
    """Record a lifecycle event (created, closed, quarantined) in the caller's transaction."""
    conn.execute(
        "INSERT INTO table_events (table_id, at, kind, detail) VALUES (?, ?, ?, ?)",
        (table_id, at, kind, detail),
    )


def deadline_changes(
    deadlines: Mapping[str, float], stored: Mapping[str, float] | None
) -> tuple[bool, list[str], dict[str, float]]:
    """What turns a table's clocks from `stored` (None: not known) into `deadlines`: whether
    to clear them all first, the names to delete, and the clocks to write (a move changes two
    of a table's seven clocks: only those are written)."""
    if stored is None:
        return True, [], dict(deadlines)
    gone = [name for name in stored if name not in deadlines]
    return False, gone, {name: at for name, at in deadlines.items() if stored.get(name) != at}


def replace_deadlines(conn: Db, table_id: int, deadlines: Mapping[str, float]) -> None:
    """The table's clock deadlines become `deadlines`, in the caller's transaction: two
    statements (one row each of an executemany would be a statement each)."""
    conn.execute("DELETE FROM clock_deadlines WHERE table_id = ?", (table_id,))
    if deadlines:
        conn.execute(
            "INSERT INTO clock_deadlines (table_id, name, at) VALUES "
            + ", ".join(["(?, ?, ?)"] * len(deadlines)),
            [value for name, at in deadlines.items() for value in (table_id, name, float(at))],
        )


# ------------------------------------------------------------------ the lobby


def create_table(
    conn: Db,
    preset: str,
    guild_id: int | None,
    channel_id: int | None,
    options: TableOptions,
    seats: Sequence[SeatTuple],
    at: float,
) -> int:
    extra = json.dumps(options.extra, sort_keys=True)
    with transaction(conn):
        cur = conn.execute(
            "INSERT INTO tables (guild_id, channel_id, preset, visibility, rated,"
            " time_control, invite_code, options_json, phase, created_at, last_action_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?) RETURNING id",
            (
                guild_id,
                channel_id,
                preset,
                options.visibility,
                int(options.rated),
                options.time_control,
                options.invite_code,
                extra,
                at,
                at,
            ),
        )
        tid = int(cur.fetchone()[0])  # ids come from one sequence, whichever process asks
        conn.executemany(
            "INSERT INTO table_seats (table_id, seat, player_id, human) VALUES (?, ?, ?, ?)",
            [(tid, *s) for s in seats],
        )
        event(conn, tid, at, "created", preset)
        return tid


def set_options(conn: Db, table_id: int, options: TableOptions) -> None:
    extra = json.dumps(options.extra, sort_keys=True)
    with transaction(conn):
        cur = conn.execute(
            "UPDATE tables SET visibility = ?, rated = ?, time_control = ?,"
            " invite_code = ?, options_json = ?"
            " WHERE id = ? AND (phase = 'lobby' OR rated = ?2) RETURNING id",  # ?2: the new rated
            (
                options.visibility,
                int(options.rated),
                options.time_control,
                options.invite_code,
                extra,
                table_id,
            ),
        )
        if cur.fetchone() is None:
            read_table(conn, table_id)  # raises if there is no such table
            raise StoreError(f"table {table_id} has left the lobby; rated is fixed")


def set_seats(conn: Db, table_id: int, seats: Sequence[SeatTuple], at: float) -> None:
    with transaction(conn):
        cur = conn.execute(
            "UPDATE tables SET last_action_at = ? WHERE id = ? RETURNING id", (at, table_id)
        )
        found(cur, table_id)
        conn.execute("DELETE FROM table_seats WHERE table_id = ?", (table_id,))
        conn.executemany(
            "INSERT INTO table_seats (table_id, seat, player_id, human) VALUES (?, ?, ?, ?)",
            [(table_id, *s) for s in seats],
        )


def set_phase(conn: Db, table_id: int, phase: Phase, at: float) -> None:
    with transaction(conn):
        cur = conn.execute(
            f"UPDATE tables SET phase = ?, last_action_at = ?"
            f" WHERE id = ? AND phase IN {ACTIVE_SQL} RETURNING id",
            (phase.value, at, table_id),
        )
        if cur.fetchone() is None:
            read_table(conn, table_id)  # raises if missing
            raise StoreError(f"table {table_id} is closed; its phase cannot change")


def set_message_id(conn: Db, table_id: int, message_id: int | None) -> None:
    with transaction(conn):
        cur = conn.execute(
            "UPDATE tables SET message_id = ? WHERE id = ? RETURNING id", (message_id, table_id)
        )
        found(cur, table_id)


def touch(conn: Db, table_id: int, at: float) -> None:
    with transaction(conn):
        cur = conn.execute(
            "UPDATE tables SET last_action_at = ? WHERE id = ? RETURNING id", (at, table_id)
        )
        found(cur, table_id)


# ------------------------------------------------------------------ closing and expiry


def close_table(conn: Db, table_id: int, reason: str, at: float) -> None:
    with transaction(conn):
        row = conn.execute("SELECT phase FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise TableNotFoundError(f"no table {table_id}")
        if row[0] != Phase.CLOSED:
            close(conn, [table_id], reason, at)


def expire_idle(conn: Db, at: float, idle: float, shards: Shards | None = None) -> list[int]:
    with transaction(conn):
        if shards is None:
            ids = [r[0] for r in conn.execute(IDLE_TABLES_SQL, (at - idle,))]
        else:
            condition, params = owned(shards, "tables")
            ids = [
                r[0]
                for r in conn.execute(
                    IDLE_TABLES_SQL.replace(" ORDER BY", f" AND {condition} ORDER BY"),
                    (at - idle, *params),
                )
            ]
        close(conn, ids, f"expired: no game action for {idle / 3600:g} h", at)
    if ids:
        log.info("expired %d idle table(s): %s", len(ids), ids)
    return ids


def close(conn: Db, table_ids: Sequence[int], reason: str, at: float) -> None:
    """Close tables inside the caller's transaction: the hand in play is abandoned (no result,
    so no rating change), clocks cleared, the closing recorded as an event."""
    if not table_ids:
        return
    conn.executemany(
        "UPDATE hands SET status = 'abandoned', ended_at = ?1"
        " WHERE id = (SELECT current_hand_id FROM tables WHERE id = ?2) AND status = 'playing'",
        [(at, tid) for tid in table_ids],
    )
    conn.executemany(
        "UPDATE tables SET phase = 'closed', closed_at = ?, closed_reason = ?,"
        " current_hand_id = NULL WHERE id = ?",
        [(at, reason, tid) for tid in table_ids],
    )
    conn.executemany("DELETE FROM clock_deadlines WHERE table_id = ?", [(t,) for t in table_ids])
    for tid in table_ids:
        event(conn, tid, at, "closed", reason)
