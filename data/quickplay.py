"""Quick Play queues, shared by every process on the database (migration 7).

A queue is a preset's, rated or casual; its entries in the order people queued. A join that
completes a table's worth takes those entries out in its own transaction, so nobody is matched
twice, whichever processes the people queued on. A person may wait in several queues at once;
matched in one, they are taken out of all the others in the same transaction, so they are
never seated at two tables: every queue's changes take one turn among processes (`take_turns`
on one key, not one a queue, so two queues cannot match one person at the same moment).
The process whose join completed the queue makes the table; a casual queue that waited long
enough is completed with computers by the process serving its earliest person's guild
(bot/runtime/quickplay.py).

An entry lives while the process serving its guild is alive: that process renews
`alive_until` every RENEW_EVERY seconds while it has people queued, so a crashed process's
entries lapse within LAPSE seconds and are swept (a restarted process renews its guilds'
entries again if it is back in time). A lapsed entry is never matched.
"""

from __future__ import annotations

from dataclasses import dataclass

from data.connection import transaction
from data.dialect import Db, take_turns
from data.tables import Shards, owned, owns

LAPSE = 90.0  # seconds an entry outlives its process's last renewal
RENEW_EVERY = 30.0  # seconds between a process's renewals of its people's entries

_COLS = "id, player_id, name, guild_id, channel_id, queued_at"


@dataclass(frozen=True, slots=True)
class QueueEntry:
    """One person waiting, and where the table should be posted if they open it."""

    player_id: str
    name: str
    guild_id: int | None
    channel_id: int | None


@dataclass(frozen=True, slots=True)
class Queued:
    """A queued person as stored: the entry, its place in the queue, when it was made."""

    id: int
    entry: QueueEntry
    queued_at: float


@dataclass(frozen=True, slots=True)
class JoinOutcome:
    """What a join did: `matched` the entries taken out to make a table (the joiner's among
    them), else `waiting` people in the queue now; `already` if the person was queued."""

    matched: tuple[Queued, ...] = ()
    waiting: int = 0
    already: bool = False


@dataclass(frozen=True, slots=True)
class FillOutcome:
    """What a casual queue's wait ending did: `matched` the entries taken out for a table
    with computers, else `again_at` when this process's earliest person will have waited
    long enough (None: it has nobody in the queue)."""

    matched: tuple[Queued, ...] = ()
    again_at: float | None = None


@dataclass(frozen=True, slots=True)
class OwnQueue:
    """A queue holding people of this process's guilds, and when its earliest one queued."""

    preset: str
    rated: bool
    first_queued_at: float


def join(
    conn: Db, preset: str, rated: bool, entry: QueueEntry, seats: int, at: float
) -> JoinOutcome:
    """Queue `entry`; once the queue holds `seats` people, take its first `seats` out."""
    with transaction(conn):
        _turn(conn, preset, rated, at)
        if conn.execute(
            "SELECT 1 FROM quickplay_queue WHERE preset = ? AND rated = ? AND player_id = ?",
            (preset, int(rated), entry.player_id),
        ).fetchone():
            return JoinOutcome(already=True)
        conn.execute(
            "INSERT INTO quickplay_queue (preset, rated, player_id, name, guild_id,"
            " channel_id, queued_at, alive_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                preset,
                int(rated),
                entry.player_id,
                entry.name,
                entry.guild_id,
                entry.channel_id,
                at,
                at + LAPSE,
            ),
        )
        first = _first(conn, preset, rated, seats)
        if len(first) < seats:
            return JoinOutcome(waiting=len(first))
        _take(conn, first)
        return JoinOutcome(matched=first)


def fill(
    conn: Db,
    preset: str,
    seats: int,
    at: float,
    fill_after: float,
    shards: Shards | None,
) -> FillOutcome:
    """A casual queue's wait is over for this process if its earliest person among the
    queue's first `seats` has waited `fill_after` seconds: those first `seats` (older people
    of other processes too) are taken out for a table with computers."""
    with transaction(conn):
        _turn(conn, preset, False, at)
        first = _first(conn, preset, False, seats)
        mine = [q for q in first if owns(shards, q.entry.guild_id)]
        if not mine:
            return FillOutcome()
        if mine[0].queued_at + fill_after > at:
            return FillOutcome(again_at=mine[0].queued_at + fill_after)
        _take(conn, first)
        return FillOutcome(matched=first)


def leave(conn: Db, player_id: str) -> bool:
    """Take `player_id` out of every queue; whether they were in one."""
    with transaction(conn):
        return bool(
            conn.execute(
                "DELETE FROM quickplay_queue WHERE player_id = ? RETURNING id", (player_id,)
            ).fetchall()
        )


def waiting(conn: Db, preset: str, rated: bool, at: float) -> int:
    """How many people wait in the queue (lapsed entries not counted)."""
    with transaction(conn, "DEFERRED"):
        return int(
            conn.execute(
                "SELECT count(*) FROM quickplay_queue"
                " WHERE preset = ? AND rated = ? AND alive_until >= ?",
                (preset, int(rated), at),
            ).fetchone()[0]
        )


def renew(conn: Db, shards: Shards | None, at: float) -> list[OwnQueue]:
    """Sweep lapsed entries, keep `shards`' guilds' entries alive for LAPSE more seconds;
    the queues holding them (each with its earliest such person's time)."""
    mine, params = owned(shards, "q")
    with transaction(conn):
        conn.execute("DELETE FROM quickplay_queue WHERE alive_until < ?", (at,))
        conn.execute(
            f"UPDATE quickplay_queue SET alive_until = ? WHERE id IN"
            f" (SELECT q.id FROM quickplay_queue q WHERE {mine})",
            (at + LAPSE, *params),
        )
        rows = conn.execute(
            f"SELECT q.preset, q.rated, min(q.queued_at) FROM quickplay_queue q WHERE {mine}"
            " GROUP BY q.preset, q.rated ORDER BY q.preset, q.rated",
            params,
        ).fetchall()
    return [OwnQueue(preset, bool(rated), float(first)) for preset, rated, first in rows]


# ------------------------------------------------------------------ inside a transaction


def _turn(conn: Db, preset: str, rated: bool, at: float) -> None:
    """Take the queues' turn among processes, and sweep this queue's lapsed entries."""
    take_turns(conn, "quickplay")
    conn.execute(
        "DELETE FROM quickplay_queue WHERE preset = ? AND rated = ? AND alive_until < ?",
        (preset, int(rated), at),
    )


def _first(conn: Db, preset: str, rated: bool, seats: int) -> tuple[Queued, ...]:
    rows = conn.execute(
        f"SELECT {_COLS} FROM quickplay_queue WHERE preset = ? AND rated = ? ORDER BY id LIMIT ?",
        (preset, int(rated), seats),
    ).fetchall()
    return tuple(
        Queued(qid, QueueEntry(player, name, guild, channel), float(queued))
        for qid, player, name, guild, channel, queued in rows
    )


def _take(conn: Db, entries: tuple[Queued, ...]) -> None:
    """The matched people out of this queue and of every other they wait in."""
    marks = ", ".join("?" * len(entries))
    conn.execute(
        f"DELETE FROM quickplay_queue WHERE player_id IN ({marks})",
        tuple(q.entry.player_id for q in entries),
    )
