"""What an operator watches of the database (bot/metrics.py): the DM inbox's depth and age and the
Quick Play queues' sizes, read in one short snapshot that also tells that the store answers."""

from __future__ import annotations

from dataclasses import dataclass

from data.connection import transaction
from data.dialect import Db


@dataclass(frozen=True, slots=True)
class Watch:
    inbox_depth: int  # DM clicks waiting for their table's process, every process's
    inbox_oldest: float | None  # when the oldest of them was posted
    queues: tuple[tuple[str, bool, int], ...]  # (preset, rated, people waiting) per queue


def watch(conn: Db, at: float) -> Watch:
    with transaction(conn, "DEFERRED"):
        depth, oldest = conn.execute("SELECT count(*), min(created_at) FROM dm_inbox").fetchone()
        queues = conn.execute(
            "SELECT preset, rated, count(*) FROM quickplay_queue WHERE alive_until >= ?"
            " GROUP BY preset, rated ORDER BY preset, rated",
            (at,),
        ).fetchall()
    return Watch(
        int(depth),
        None if oldest is None else float(oldest),
        tuple((preset, bool(rated), int(count)) for preset, rated, count in queues),
    )
