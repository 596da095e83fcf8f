"""The DM inbox: clicks in hand DMs handed from the process that received them to the process
that owns their table (several processes on one PostgreSQL).

Discord sends every DM interaction to shard 0's process. A DM click for a table another process
owns is acknowledged there at once and posted here, with a NOTIFY on INBOX_CHANNEL as a wake-up
(sent at the commit); the owner takes the rows of its own shards' tables (a delete that returns
them: each row is taken once, by one process) whenever it is woken, once more after its
listening connection was lost and came back, and on a timer besides (a wake-up can be lost
without the connection saying so). No row lives for ever: shard 0's process takes the rows no
process will (`take_orphans`: a table that never existed or is closed, or a row left waiting
past STALE_AFTER because no live process owns its table) and answers them "this table is over".
"""

from __future__ import annotations

from data.connection import transaction
from data.dialect import Db, is_postgres
from data.tables import Shards, owned

INBOX_CHANNEL = "mahjong_inbox"
STALE_AFTER = 30.0  # seconds: an owner reads every few seconds, so nobody will take the row


def post(conn: Db, table_id: int, payload: str, at: float) -> None:
    with transaction(conn):
        conn.execute(
            "INSERT INTO dm_inbox (table_id, payload, created_at) VALUES (?, ?, ?)",
            (table_id, payload, at),
        )
        if is_postgres(conn):
            conn.execute("SELECT pg_notify(?, ?)", (INBOX_CHANNEL, str(table_id)))


def take(conn: Db, shards: Shards | None) -> list[tuple[int, str]]:
    """The waiting clicks for the tables of `shards`' guilds, oldest first, removed."""
    mine, params = owned(shards)
    with transaction(conn):
        rows = conn.execute(
            "DELETE FROM dm_inbox WHERE table_id IN"
            f" (SELECT t.id FROM tables t WHERE {mine}) RETURNING id, table_id, payload",
            params,
        ).fetchall()
    return [(table_id, payload) for _, table_id, payload in sorted(rows)]


def take_orphans(conn: Db, now: float, stale_after: float = STALE_AFTER) -> list[tuple[int, str]]:
    """The clicks no process will take, oldest first, removed: for a table that never existed
    or is closed, or waiting since before `now - stale_after`."""
    with transaction(conn):
        rows = conn.execute(
            "DELETE FROM dm_inbox WHERE created_at < ? OR table_id NOT IN"
            " (SELECT id FROM tables WHERE phase <> 'closed') RETURNING id, table_id, payload",
            (now - stale_after,),
        ).fetchall()
    return [(table_id, payload) for _, table_id, payload in sorted(rows)]
