"""Restoring: the raw material to rebuild open tables, and quarantine for what does not read.

A table naming an unknown preset, or with a log line, seed, session or option that does not
read back, is set aside (phase 'quarantined', reason stored, event recorded, logged) and
reported; nothing of it is deleted, so the log is still there for a bug report.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

from data.action_log import HAND_COLS, hand_from
from data.connection import transaction
from data.dialect import Db
from data.errors import UnreadableError
from data.rows import HandLog, HandStatus, LoadedTable, Phase, QuarantinedTable, TableRow
from data.tables import ACTIVE_SQL, TABLE_COLS, Shards, event, owned, table_from
from engine.actions import Action
from engine.presets import PRESETS

log = logging.getLogger(__name__)


def check_table(table: TableRow, hand: HandLog | None) -> None:
    """What a table must satisfy to be restored; UnreadableError names the first thing wrong."""
    if table.preset not in PRESETS:
        raise UnreadableError(f"unknown preset {table.preset!r}")
    if table.session_state is not None:
        try:
            json.loads(table.session_state)
        except ValueError as e:
            raise UnreadableError(f"session state unreadable: {e}") from None
    if table.phase is Phase.PLAYING and (hand is None or hand.status is not HandStatus.PLAYING):
        raise UnreadableError("phase is playing but no hand is in play")


def load_active_tables(
    conn: Db, now: float, shards: Shards | None = None
) -> tuple[list[LoadedTable], list[QuarantinedTable]]:
    """Every open table (of `shards`' guilds, if given), ready to rebuild, and the ones set
    aside (quarantined here).

    Reads one consistent snapshot with a handful of queries, however many tables there are.
    """
    mine, params = owned(shards)
    with transaction(conn, "DEFERRED"):
        tables = conn.execute(
            f"SELECT {TABLE_COLS} FROM tables t WHERE phase IN {ACTIVE_SQL} AND {mine} ORDER BY id",
            params,
        ).fetchall()
        seats: dict[int, list[tuple[int, str, int]]] = {}
        for tid, seat, player, human in conn.execute(
            "SELECT s.table_id, s.seat, s.player_id, s.human FROM table_seats s"
            f" JOIN tables t ON t.id = s.table_id WHERE t.phase IN {ACTIVE_SQL} AND {mine}"
            " ORDER BY s.table_id, s.seat",
            params,
        ):
            seats.setdefault(tid, []).append((seat, player, human))
        hands = {
            row[0]: row
            for row in conn.execute(
                f"SELECT {', '.join('h.' + c for c in HAND_COLS.split(', '))}"
                " FROM hands h JOIN tables t ON t.current_hand_id = h.id"
                f" WHERE t.phase = 'playing' AND {mine}",
                params,
            )
        }
        lines: dict[int, list[tuple[int, str]]] = {}
        for hid, seq, line in conn.execute(
            "SELECT a.hand_id, a.seq, a.action FROM tables t"
            " JOIN actions a ON a.hand_id = t.current_hand_id"
            f" WHERE t.phase = 'playing' AND {mine} ORDER BY a.hand_id, a.seq",
            params,
        ):
            lines.setdefault(hid, []).append((seq, line))
        deadlines: dict[int, dict[str, float]] = {}
        for tid, name, at in conn.execute(
            "SELECT d.table_id, d.name, d.at FROM clock_deadlines d"
            f" JOIN tables t ON t.id = d.table_id WHERE t.phase IN {ACTIVE_SQL} AND {mine}",
            params,
        ):
            deadlines.setdefault(tid, {})[name] = at
    loaded: list[LoadedTable] = []
    bad: list[QuarantinedTable] = []
    cache: dict[str, Action] = {}
    for row in tables:
        tid = row[0]
        try:
            table = table_from(row, seats.get(tid, ()))
            hand = None
            hid = table.current_hand_id
            if table.phase is Phase.PLAYING and hid is not None and hid in hands:
                hand = hand_from(hands[hid], lines.get(hid, ()), cache)
            check_table(table, hand)
        except UnreadableError as e:
            bad.append(QuarantinedTable(tid, str(e)))
            continue
        loaded.append(LoadedTable(table, hand, deadlines.get(tid, {})))
    if bad:
        quarantine(conn, [(q.table_id, q.reason) for q in bad], now)
    return loaded, bad


def quarantine(conn: Db, items: Sequence[tuple[int, str]], at: float) -> None:
    """Set tables aside: phase quarantined, reason kept, previous phase in the event."""
    for tid, reason in items:
        log.error("table %s quarantined: %s", tid, reason)
    with transaction(conn):
        for tid, reason in items:
            row = conn.execute("SELECT phase FROM tables WHERE id = ?", (tid,)).fetchone()
            if row is None or row[0] in (Phase.QUARANTINED, Phase.CLOSED):
                continue
            conn.execute(
                "UPDATE tables SET phase = 'quarantined', quarantine_reason = ? WHERE id = ?",
                (reason, tid),
            )
            event(conn, tid, at, "quarantined", f"{reason} (was {row[0]})")
