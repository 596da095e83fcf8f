"""The DM inbox never waits for ever (issue 40.2): it is read on a timer as well as on NOTIFY,
a listening connection that went silent without closing is noticed and opened again, and a
click no process will take (its table closed or never made, or nobody took it in time) is
answered that the table is over and removed."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from types import SimpleNamespace
from typing import Any

import asyncpg
import pytest

import bot.discord.inbox as inbox_module
from bot.discord.inbox import DmInbox
from data import Store, inbox
from data.postgres import Listener
from tests.conftest import PgAdmin
from tests.fault_proxy import Fault, FaultProxy

PRESET = "hkos-3-v1"
SHARD_ONE = (5 << 22) | 1  # a guild of shard 1 of 2


async def test_rows_no_process_will_take_are_taken_as_orphans(store: Store) -> None:
    live = await store.create_table(PRESET, guild_id=SHARD_ONE)
    closed = await store.create_table(PRESET, guild_id=SHARD_ONE)
    await store.close_table(closed, "ended by players")
    now = time.time()
    await store.post_to_inbox(live, '{"fresh": 1}')
    await store.post_to_inbox(closed, '{"closed": 1}')
    await store.post_to_inbox(12345, '{"never": 1}')
    await store._call(inbox.post, live, '{"old": 1}', now - inbox.STALE_AFTER - 1)
    orphans = await store.take_inbox_orphans(now)
    assert sorted(orphans) == sorted(
        [(closed, '{"closed": 1}'), (12345, '{"never": 1}'), (live, '{"old": 1}')]
    )
    assert await store.take_inbox_orphans(now) == []
    assert await store.take_inbox((2, (1,))) == [(live, '{"fresh": 1}')]


@pytest.fixture
def admin(postgres: PgAdmin | None) -> PgAdmin:
    if postgres is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql) nor MAHJONG_TEST_PG")
    return postgres


@pytest.fixture
async def pg(admin: PgAdmin) -> AsyncIterator[Store]:
    name = admin.create()
    store = await Store.open(admin.dsn_of(name))
    yield store
    await store.close()
    admin.drop([name])


async def until(check: Callable[[], bool], within: float, what: str) -> None:
    deadline = time.monotonic() + within
    while not check():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.02)


async def test_a_silent_listening_connection_is_noticed_and_opened_again(
    pg: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The link goes silent without a reset (a half-open connection): the listener's own
    query gets no answer, so it connects again and wakes its owner, and NOTIFYs arrive again."""
    monkeypatch.setattr(Listener, "CHECK_EVERY", 0.2)
    monkeypatch.setattr(Listener, "ANSWER_WITHIN", 0.3)
    wakes: list[float] = []
    with FaultProxy.before(pg.path) as (proxy, through):
        listener = await Listener.start(through, inbox.INBOX_CHANNEL, lambda: wakes.append(1))
        try:
            proxy.arm(Fault.SILENCE)
            await asyncio.sleep(0.3)  # the next check meets the silence
            proxy.heal()  # new connections pass; the silent one stays silent
            await until(lambda: len(wakes) == 1, 5, "the silent connection was never noticed")
            table = await pg.create_table(PRESET)
            await pg.post_to_inbox(table, "{}")
            await until(lambda: len(wakes) == 2, 5, "no NOTIFY on the new connection")
        finally:
            await listener.close()


def a_process(store: Store, shard: int, seen: list[Any]) -> DmInbox:
    """The inbox of a process running `shard` of 2 (no Discord: a click taken is recorded)."""
    config = SimpleNamespace(owned_shards=(2, (shard,)), serves=lambda guild: shard == 0)
    state = SimpleNamespace(parsers={"INTERACTION_CREATE": lambda data: None})
    bot = SimpleNamespace(store=store, config=config, _connection=state)
    dm = DmInbox(bot)  # type: ignore[arg-type]
    dm.read_every = 0.1
    dm._run = seen.append  # type: ignore[method-assign]
    dm._interaction = lambda data: data  # type: ignore[method-assign]
    return dm


async def test_a_click_waits_a_few_seconds_at_most_wherever_it_lands(
    pg: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No NOTIFY at all (a row written without one): the owner's timer reads it; a click for a
    table never made, or closed, is answered by shard 0's process and removed."""
    answered: list[tuple[Any, str]] = []

    async def tell(interaction: Any, message: Any) -> None:
        answered.append((interaction, message.key))

    monkeypatch.setattr(inbox_module, "tell", tell)
    taken: list[Any] = []
    owner, zero = a_process(pg, 1, taken), a_process(pg, 0, [])
    await owner.start()
    await zero.start()
    try:
        table = await pg.create_table(PRESET, guild_id=SHARD_ONE)
        conn = await asyncpg.connect(pg.path)
        try:  # no pg_notify: only the timer finds it
            await conn.execute(
                "INSERT INTO dm_inbox (table_id, payload, created_at) VALUES ($1, $2, $3)",
                table,
                '{"click": 1}',
                time.time(),
            )
        finally:
            await conn.close()
        started = time.monotonic()
        await until(lambda: taken == [{"click": 1}], 3, "the timer never read the inbox")
        assert time.monotonic() - started < 3
        await pg.post_to_inbox(99999, '{"click": 2}')
        await until(lambda: len(answered) == 1, 3, "a click for no table was never answered")
        await owner.close()  # now no process owns shard 1
        monkeypatch.setattr(inbox, "STALE_AFTER", 0.5)
        closed = await pg.create_table(PRESET, guild_id=SHARD_ONE)
        await pg.close_table(closed, "ended by players")
        await pg.post_to_inbox(closed, '{"click": 3}')
        await pg.post_to_inbox(table, '{"click": 4}')
        await until(lambda: len(answered) == 3, 3, "the orphans were never answered")
        assert answered == [
            ({"click": 2}, "bot.control.table_closed"),
            ({"click": 3}, "bot.control.table_closed"),
            ({"click": 4}, "bot.control.table_closed"),
        ]
        assert taken == [{"click": 1}]
        assert await pg.take_inbox(None) == []
    finally:
        await owner.close()
        await zero.close()
