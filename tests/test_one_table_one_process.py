"""One table, one process (issue 40.3): a process whose shards another live process holds does
not start; a write to a table another process changed meanwhile refuses that table only; a
person waiting in several Quick Play queues is seated at one table (matched in one queue, they
leave the others)."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from data import SeatRow, StaleVersionError, Store, StoreError, action_log
from data.postgres import ShardLease
from data.quickplay import QueueEntry
from tests import test_data_store, test_inbox_waits

PRESET = "hkos-3-v1"
OTHER = "hk-3fan"

# the fixtures of the store tests (a store on both databases) and of the inbox tests (on PostgreSQL)
clock = test_data_store.clock
store = test_data_store.store
admin = test_inbox_waits.admin
pg = test_inbox_waits.pg


def person(name: str) -> QueueEntry:
    return QueueEntry(name, name.title(), 7, 8)


async def test_matched_in_one_queue_a_person_leaves_every_other(store: Store) -> None:
    await store.quickplay_join(OTHER, False, person("ann"), 4)
    await store.quickplay_join(OTHER, False, person("bo"), 4)
    for name in ("ann", "cy", "di"):
        assert (await store.quickplay_join(PRESET, False, person(name), 4)).waiting
    matched = (await store.quickplay_join(PRESET, False, person("ed"), 4)).matched
    assert [q.entry.player_id for q in matched] == ["ann", "cy", "di", "ed"]
    assert await store.quickplay_waiting(OTHER, False) == 1  # bo: ann left with her table
    for name in ("fay", "gus"):
        assert (await store.quickplay_join(OTHER, False, person(name), 4)).waiting
    matched = (await store.quickplay_join(OTHER, False, person("hal"), 4)).matched
    assert [q.entry.player_id for q in matched] == ["bo", "fay", "gus", "hal"]


async def test_a_process_whose_shards_another_holds_does_not_start(pg: Store) -> None:
    lost: list[str] = []
    first = await pg.hold_shards((4, (0, 1)), lost.append)
    assert isinstance(first, ShardLease)
    second = await pg.hold_shards((4, (2, 3)), lost.append)  # other shards: both run
    assert second is not None
    for overlapping in [(4, (1, 2)), None]:
        with pytest.raises(StoreError, match="another running process on this database holds"):
            await pg.hold_shards(overlapping, lost.append)
    await first.release()
    again = await pg.hold_shards((4, (1,)), lost.append)  # released: free to take
    assert again is not None
    await again.release()
    await second.release()
    unsharded = await pg.hold_shards(None, lost.append)
    assert unsharded is not None
    with pytest.raises(StoreError, match="holds shard\\(s\\) 3 of 4"):
        await pg.hold_shards((4, (3,)), lost.append)
    await unsharded.release()
    assert lost == []


async def test_a_killed_process_s_shards_are_free_at_once(pg: Store) -> None:
    lease = await pg.hold_shards(None, lambda why: None)
    assert lease is not None and lease._task is not None
    lease._task.cancel()  # as if the process were killed: its connection closes
    assert lease._conn is not None
    lease._conn.terminate()
    taken = await pg.hold_shards(None, lambda why: None)
    assert taken is not None
    await taken.release()


async def test_sqlite_holds_no_lease(tmp_path: object) -> None:
    async with await Store.open(":memory:") as memory:
        assert await memory.hold_shards(None, lambda why: None) is None


async def test_a_stale_write_refuses_its_table_only(pg: Store) -> None:
    """Another process (a connection of its own) stores version 0 of a hand while this one's
    group commit is between its check and its write: that append is refused as stale, the
    other table's append in the same commit is stored."""
    seats = [SeatRow(0, "a", True)]
    tables = [await pg.create_table(PRESET, seats=seats) for _ in range(2)]
    hands = [await pg.start_hand(t, 0, 1) for t in tables]
    other = await asyncpg.connect(pg.path)
    try:
        writing = other.transaction()
        await writing.start()
        await other.execute(
            "INSERT INTO actions (hand_id, seq, action, at) VALUES ($1, 0, '0 discard 1m', 0)",
            hands[0],
        )
        loop = asyncio.get_running_loop()
        batch = [
            action_log.Append(t, h, ("0 discard 2m",), 0, None, 1.0, loop.create_future())
            for t, h in zip(tables, hands, strict=True)
        ]
        commit = asyncio.create_task(pg._call(action_log.append_batch, batch))
        await asyncio.sleep(0.3)  # the commit waits on the other's row
        assert not commit.done()
        await writing.commit()
        outcomes = await commit
    finally:
        await other.close()
    assert isinstance(outcomes[0], StaleVersionError) and outcomes[1] is None
    assert [str(a) for a in (await pg.hand_log(hands[0])).actions] == ["0 discard 1m"]
    assert [str(a) for a in (await pg.hand_log(hands[1])).actions] == ["0 discard 2m"]
