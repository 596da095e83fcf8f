"""Quick Play through the runtime, its queues in the store: two processes on one PostgreSQL
(shards 0 and 1 of 2) put their people at one table, made by the process whose join or wait
completed it in a channel of its own guilds; a process keeps its people's entries alive while
it runs; a restarted process keeps its queue and its casual wait."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.runtime import LiveTable, ManualTimers, Runtime
from data import Phase, Store
from data.quickplay import LAPSE
from tests.conftest import Databases, PgAdmin
from tests.test_runtime import make_runtime

PRESET = "hkos-3-v1"
SHARDS = 2
GUILD = {0: 10 << 22, 1: 11 << 22}  # a guild of each shard: (guild >> 22) % 2


def people(table: LiveTable) -> list[str]:
    """The people seated, in seat order (the table's maker first)."""
    return [seat.player_id for seat in table.seats if seat is not None and seat.human]


async def queue(runtime: Runtime, name: str, rated: bool) -> LiveTable | None:
    """`name` queues through `runtime`, from a channel of a guild of its first shard."""
    shard = runtime.shards[1][0] if runtime.shards else 0
    guild = GUILD[shard]
    return await runtime.quickplay(
        PRESET, name, name.title(), guild_id=guild, channel_id=guild + 1, rated=rated
    )


class Two:
    """Two processes' runtimes (shards 0 and 1) on one PostgreSQL database, each with its
    own clock, moved together."""

    def __init__(self, zero: Runtime, one: Runtime) -> None:
        self.zero, self.one = zero, one

    async def advance(self, seconds: float) -> None:
        for runtime in (self.zero, self.one):
            assert isinstance(runtime.timers, ManualTimers)
            await runtime.timers.advance(seconds)


@pytest.fixture
async def two(postgres: PgAdmin | None) -> AsyncIterator[Two]:
    if postgres is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql) nor MAHJONG_TEST_PG")
    name = postgres.create()
    stores: list[Store] = []
    runtimes: list[Runtime] = []
    try:
        for shard in (0, 1):
            store = await Store.open(postgres.dsn_of(name))
            stores.append(store)
            runtime = await make_runtime(
                store, ManualTimers(), quickplay_fill_after=60.0, shards=(SHARDS, (shard,))
            )
            runtimes.append(runtime)
        yield Two(*runtimes)
    finally:
        for runtime in runtimes:
            await runtime.close()
        for store in stores:
            await store.close()
        postgres.drop([name])


async def test_people_queued_on_two_processes_meet_at_one_table(two: Two) -> None:
    assert await queue(two.zero, "ann", rated=True) is None
    assert await queue(two.zero, "bob", rated=True) is None
    assert await queue(two.one, "cat", rated=True) is None
    assert await two.one.quickplay_waiting(PRESET, rated=True) == 3  # counted on every process
    table = await queue(two.one, "dan", rated=True)
    # made by the process whose join completed the queue, in its earliest person's channel
    assert table is not None and list(two.one.tables) == [table.id]
    assert not two.zero.tables
    assert (table.guild_id, table.channel_id) == (GUILD[1], GUILD[1] + 1)
    assert people(table) == ["cat", "ann", "bob", "dan"]  # Cat made it; the rest in order
    assert table.phase is Phase.PLAYING
    assert await two.zero.quickplay_waiting(PRESET, rated=True) == 0


async def test_a_casual_wait_is_ended_by_the_process_of_its_earliest_person(two: Two) -> None:
    assert await queue(two.zero, "ann", rated=False) is None
    await two.advance(10)
    assert await queue(two.one, "bob", rated=False) is None
    await two.advance(51)  # Ann has waited 61 s, Bob 51: shard 0's process fills the table
    [table] = two.zero.tables.values()
    assert not two.one.tables
    assert people(table) == ["ann", "bob"] and len(table.seats) == 4
    assert table.guild_id == GUILD[0]
    await two.advance(20)  # Bob's process's wait ends too, and finds nobody to seat
    assert not two.one.tables and len(two.zero.tables) == 1


async def test_a_running_process_keeps_its_people_queued_a_dead_ones_lapse(two: Two) -> None:
    assert await queue(two.zero, "ann", rated=True) is None
    await two.advance(LAPSE * 3)  # shard 0's process renews Ann's entry meanwhile
    assert await two.one.quickplay_waiting(PRESET, rated=True) == 1
    # shard 0's process dies (its clock stops: it renews nothing more)
    await two.zero.close()
    await two.one.timers.advance(LAPSE + 1)  # type: ignore[attr-defined]
    assert await two.one.quickplay_waiting(PRESET, rated=True) == 0
    for name in ("bob", "cat", "dan"):
        assert await queue(two.one, name, rated=True) is None  # not matched with Ann


async def test_a_leave_on_one_process_takes_the_person_out_for_every_process(two: Two) -> None:
    assert await queue(two.zero, "ann", rated=True) is None
    assert await two.one.leave_queue("ann")
    assert await two.zero.quickplay_waiting(PRESET, rated=True) == 0
    assert not await two.zero.leave_queue("ann")


async def test_a_restarted_process_keeps_its_queue_and_its_casual_wait(db: Databases) -> None:
    place = db("bot")
    store = await Store.open(place)
    before = ManualTimers()
    runtime = await make_runtime(store, before, quickplay_fill_after=60.0)
    assert await queue(runtime, "ann", rated=False) is None
    await runtime.close()
    await store.close()

    store = await Store.open(place)
    after = ManualTimers(before.now() + 20)  # back 20 s later, well within the lapse
    runtime = await make_runtime(store, after, quickplay_fill_after=60.0)
    try:
        assert await runtime.quickplay_waiting(PRESET) == 1
        await after.advance(39)
        assert not runtime.tables
        await after.advance(2)  # Ann has waited 61 s since she queued, before the restart
        [table] = runtime.tables.values()
        assert people(table) == ["ann"] and table.phase is Phase.PLAYING
    finally:
        await runtime.close()
        await store.close()
