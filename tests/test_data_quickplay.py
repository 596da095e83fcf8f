"""Quick Play queues in the store (data/quickplay.py), on SQLite and on PostgreSQL: a full
queue is taken out once, in order; a person waits once per queue and a leave takes them out
of every one; an entry whose process stops renewing it lapses and is never matched; a casual
queue's wait ends for the process of its earliest person. On PostgreSQL, two connections (two
processes) joining one queue at once match everybody exactly once."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from data import Store
from data.quickplay import LAPSE, QueueEntry
from tests import test_data_store
from tests.conftest import PgAdmin
from tests.test_data_store import Clock

PRESET = "hkos-3-v1"
SHARDS = 2
GUILD_OF_SHARD = {0: 10 << 22, 1: 11 << 22}  # (guild >> 22) % 2 is the shard
SHARD_ZERO, SHARD_ONE = (SHARDS, (0,)), (SHARDS, (1,))


def person(name: str, shard: int = 0) -> QueueEntry:
    guild = GUILD_OF_SHARD[shard]
    return QueueEntry(name, name.title(), guild, guild + 1)


# the store test file's fixtures: a controllable clock, and a store on it on both databases
clock = test_data_store.clock
store = test_data_store.store


async def test_a_full_queue_is_taken_out_once_in_the_order_people_came(store: Store) -> None:
    for waiting, name in enumerate(("a", "b", "c"), 1):
        assert (await store.quickplay_join(PRESET, True, person(name), 4)).waiting == waiting
    # another queue: the same preset casual, another preset rated
    await store.quickplay_join(PRESET, False, person("x"), 4)
    await store.quickplay_join("hk-3fan", True, person("y"), 4)
    outcome = await store.quickplay_join(PRESET, True, person("d", shard=1), 4)
    assert [q.entry for q in outcome.matched] == [
        person("a"),
        person("b"),
        person("c"),
        person("d", shard=1),
    ]
    assert [q.id for q in outcome.matched] == sorted(q.id for q in outcome.matched)
    assert await store.quickplay_waiting(PRESET, True) == 0
    assert await store.quickplay_waiting(PRESET, False) == 1
    assert await store.quickplay_waiting("hk-3fan", True) == 1
    # the taken people may queue again
    assert (await store.quickplay_join(PRESET, True, person("a"), 4)).waiting == 1


async def test_a_person_waits_once_per_queue_and_a_leave_empties_every_one(store: Store) -> None:
    assert (await store.quickplay_join(PRESET, False, person("a"), 4)).waiting == 1
    again = await store.quickplay_join(PRESET, False, person("a"), 4)
    assert again.already and not again.matched
    assert (await store.quickplay_join(PRESET, True, person("a"), 4)).waiting == 1
    assert await store.quickplay_leave("a")
    assert await store.quickplay_waiting(PRESET, False) == 0
    assert await store.quickplay_waiting(PRESET, True) == 0
    assert not await store.quickplay_leave("a")


async def test_an_entry_its_process_stops_renewing_lapses(store: Store, clock: Clock) -> None:
    """Shard 1's process renews its person; shard 0's process died, so its person lapses and
    the next four people are matched without them."""
    await store.quickplay_join(PRESET, True, person("dead", shard=0), 4)
    await store.quickplay_join(PRESET, True, person("alive", shard=1), 4)
    clock.advance(LAPSE * 2 / 3)
    assert [(q.preset, q.rated) for q in await store.quickplay_renew(shards=SHARD_ONE)] == [
        (PRESET, True)
    ]
    clock.advance(LAPSE * 2 / 3)  # past the dead one's lapse, within the renewed one's
    assert await store.quickplay_waiting(PRESET, True) == 1
    for name in ("b", "c"):
        await store.quickplay_join(PRESET, True, person(name, shard=1), 4)
    outcome = await store.quickplay_join(PRESET, True, person("d", shard=1), 4)
    assert [q.entry.player_id for q in outcome.matched] == ["alive", "b", "c", "d"]
    # swept: the dead process's person is no longer stored at all
    assert not await store.quickplay_leave("dead")
    # and an unsharded process (one process) renews everybody's entries
    await store.quickplay_join(PRESET, False, person("e", shard=0), 4)
    assert [q.preset for q in await store.quickplay_renew()] == [PRESET]


async def test_a_casual_wait_ends_for_the_process_of_its_earliest_person(
    store: Store, clock: Clock
) -> None:
    start = clock.t
    await store.quickplay_join(PRESET, False, person("first", shard=1), 4)
    clock.advance(10)
    await store.quickplay_join(PRESET, False, person("second", shard=0), 4)
    clock.advance(50)
    # shard 0's person has waited 50 s of 60: that process waits for them 10 s more
    early = await store.quickplay_fill(PRESET, 4, 60.0, shards=SHARD_ZERO)
    assert not early.matched and early.again_at == start + 70
    # shard 1's person has waited 60 s: its process takes both for a table with computers
    filled = await store.quickplay_fill(PRESET, 4, 60.0, shards=SHARD_ONE)
    assert [q.entry.player_id for q in filled.matched] == ["first", "second"]
    # the other process's wait then finds nobody of its own
    assert await store.quickplay_fill(PRESET, 4, 60.0, shards=SHARD_ZERO) == type(filled)()


async def test_two_processes_joining_at_once_match_everybody_once(
    postgres: PgAdmin | None,
) -> None:
    if postgres is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql) nor MAHJONG_TEST_PG")
    name = postgres.create()
    try:
        place = postgres.dsn_of(name)
        first, second = await Store.open(place), await Store.open(place)
        try:
            joins = [
                store.quickplay_join(PRESET, True, person(f"p{n}", n % 2), 4)
                for n in range(40)
                for store in [(first, second)[n % 2]]
            ]
            outcomes = await asyncio.gather(*joins)
        finally:
            await first.close()
            await second.close()
        tables = [o.matched for o in outcomes if o.matched]
        seated = Counter(q.entry.player_id for table in tables for q in table)
        assert len(tables) == 10 and all(len(table) == 4 for table in tables)
        assert seated == Counter(f"p{n}" for n in range(40))  # everybody, once
    finally:
        postgres.drop([name])
