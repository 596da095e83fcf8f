"""Every retried write is exactly-once on PostgreSQL (issue 40.1), through a proxy that lies as a
network does (tests/fault_proxy.py): the server commits and its answer is lost, or comes after
the statement timeout; or the link is cut as a statement goes out. Each store call that writes
gives the answer of one run and leaves the rows of one run: a COMMIT whose answer did not come
is settled by asking the server (txid_status), never run again, and never said to have kept
nothing unless the server says so."""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from data import SeatRow, Store, StoreError, TableOptions
from data.quickplay import QueueEntry
from tests.conftest import PgAdmin
from tests.fault_proxy import Fault, FaultProxy
from tests.test_data_store import result

PRESET = "hkos-3-v1"
PLAYERS = ("a", "b", "c", "d")
TIMEOUT = 0.5  # the proxied store's statement timeout; a late answer comes after LATE_BY
LATE_BY = 1.0


@dataclass
class Lying:
    """A store whose connection goes through the proxy, and one that does not (to look); the
    names of the test's people and places (one database serves every test of the file)."""

    store: Store
    direct: Store
    proxy: FaultProxy
    fault: Fault
    pass_first: int
    tag: str

    def arm(self) -> None:
        self.proxy.arm(self.fault, LATE_BY, self.pass_first)

    def names(self) -> tuple[str, ...]:
        return tuple(f"{self.tag}{name}" for name in "abcd")

    @property
    def guild(self) -> int:
        return int(self.tag, 16)


FAULTS = {
    "lost-answer": (Fault.LOSE_COMMIT_REPLY, 0),
    "late-answer": (Fault.LATE_COMMIT_REPLY, 0),
    "cut-mid-transaction": (Fault.CUT_NEXT_STATEMENT, 2),
}


@pytest.fixture(scope="module")
def database(postgres: PgAdmin | None) -> Iterator[str]:
    """One database of the bot's schema for the file's tests (making one takes a second)."""
    if postgres is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql) nor MAHJONG_TEST_PG")
    name = postgres.create()
    yield postgres.dsn_of(name)
    postgres.drop([name])


@pytest.fixture(params=list(FAULTS))
async def lying(request: pytest.FixtureRequest, database: str) -> AsyncIterator[Lying]:
    direct = await Store.open(database)
    fault, pass_first = FAULTS[request.param]
    with FaultProxy.before(database) as (proxy, through):
        store = await Store.open(through, timeout=TIMEOUT, reconnect_for=10.0)
        yield Lying(store, direct, proxy, fault, pass_first, uuid.uuid4().hex[:8])
        if fault is not Fault.CUT_NEXT_STATEMENT:
            assert proxy.fired == [fault], "the fault never met a COMMIT"
        await store.close()
    await direct.close()


def entry(name: str) -> QueueEntry:
    return QueueEntry(name, name.title(), 7, 8)


def tables_of(conn: Any, guild: int) -> list[int]:
    rows = conn.execute("SELECT id FROM tables WHERE guild_id = ?", (guild,)).fetchall()
    return [row[0] for row in rows]


async def create_table(s: Lying) -> None:
    s.arm()
    tid = await s.store.create_table(PRESET, guild_id=s.guild)
    assert await s.direct._call(tables_of, s.guild) == [tid]


async def post_to_inbox(s: Lying) -> None:
    tid = await s.store.create_table(PRESET)
    s.arm()
    await s.store.post_to_inbox(tid, '{"click": 1}')
    assert await s.direct.take_inbox(None) == [(tid, '{"click": 1}')]


async def take_inbox(s: Lying) -> None:
    tid = await s.store.create_table(PRESET)
    await s.store.post_to_inbox(tid, '{"click": 1}')
    s.arm()
    assert await s.store.take_inbox(None) == [(tid, '{"click": 1}')]  # not lost on a retry
    assert await s.direct.take_inbox(None) == []


async def quickplay_join_completing(s: Lying) -> None:
    people = s.names()
    for name in people[:3]:
        await s.store.quickplay_join(PRESET, False, entry(name), 4)
    s.arm()
    outcome = await s.store.quickplay_join(PRESET, False, entry(people[3]), 4)
    assert [q.entry.player_id for q in outcome.matched] == list(people)
    assert await s.direct.quickplay_waiting(PRESET, False) == 0


async def quickplay_join_waiting(s: Lying) -> None:
    s.arm()
    outcome = await s.store.quickplay_join(PRESET, False, entry(s.names()[0]), 4)
    assert (outcome.waiting, outcome.already) == (1, False)  # not "already" on a retry
    assert await s.direct.quickplay_waiting(PRESET, False) == 1
    assert await s.direct.quickplay_leave(s.names()[0])


async def quickplay_leave(s: Lying) -> None:
    await s.store.quickplay_join(PRESET, False, entry(s.names()[0]), 4)
    s.arm()
    assert await s.store.quickplay_leave(s.names()[0]) is True  # not False on a retry
    assert await s.direct.quickplay_waiting(PRESET, False) == 0


async def start_hand(s: Lying) -> None:
    tid = await s.store.create_table(PRESET)
    s.arm()
    hid = await s.store.start_hand(tid, 0, 7)
    last = await s.direct.last_hand(tid)
    assert last is not None and last.hand_id == hid


async def append_action(s: Lying) -> None:
    tid = await s.store.create_table(PRESET)
    hid = await s.store.start_hand(tid, 0, 7)
    s.arm()
    await s.store.append_action(tid, hid, "0 discard 5m", 0)
    assert (await s.direct.hand_log(hid)).lines == ("0 discard 5m",)


async def record_hand_result(s: Lying) -> None:
    people = s.names()
    seats = [SeatRow(i, p, True) for i, p in enumerate(people)]
    tid = await s.store.create_table(PRESET, seats=seats, options=TableOptions(rated=True))
    hid = await s.store.start_hand(tid, 0, 7)
    s.arm()
    recorded = await s.store.record_hand_result(tid, hid, result(people, (8, -8, 0, 0)))
    assert recorded.newly_recorded and [c.games for c in recorded.rating_changes] == [1] * 4
    assert [r.games for r in await s.direct.ratings_of(people[0])] == [1]


async def close_table(s: Lying) -> None:
    tid = await s.store.create_table(PRESET)
    s.arm()
    await s.store.close_table(tid, "ended by players")
    assert (await s.direct.table_row(tid)).phase == "closed"


async def set_language(s: Lying) -> None:
    s.arm()
    await s.store.set_language("user", s.tag, "zh-CN")
    assert (await s.direct.languages())[("user", s.tag)] == "zh-CN"


async def import_ratings(s: Lying) -> None:
    x, y = s.names()[:2]
    s.arm()
    assert await s.store.import_ratings("hk-3fan", [(x, 1600.0, 3), (y, 1500.0, 1)]) == 2
    assert [r.games for r in await s.direct.ratings_of(x)] == [3]


async def take_inbox_orphans(s: Lying) -> None:
    never = 10**12 + s.guild  # no such table
    await s.store.post_to_inbox(never, '{"click": 1}')
    s.arm()
    assert (never, '{"click": 1}') in await s.store.take_inbox_orphans()  # not lost
    assert (never, '{"click": 1}') not in await s.direct.take_inbox_orphans()


async def expire_idle(s: Lying) -> None:
    tid = await s.store.create_table(PRESET, now=1.0)
    s.arm()
    assert tid in await s.store.expire_idle(now=10.0**6)  # not [] on a retry
    assert (await s.direct.table_row(tid)).phase == "closed"


async def quickplay_fill(s: Lying) -> None:
    people = s.names()[:2]
    for name in people:
        await s.store.quickplay_join(PRESET, False, entry(name), 4)
    s.arm()
    outcome = await s.store.quickplay_fill(PRESET, 4, 0.0)
    assert [q.entry.player_id for q in outcome.matched] == list(people)  # not () on a retry
    assert await s.direct.quickplay_waiting(PRESET, False) == 0


async def set_seats(s: Lying) -> None:
    tid = await s.store.create_table(PRESET)
    s.arm()
    await s.store.set_seats(tid, [SeatRow(0, s.names()[0], True)])
    assert [seat.player_id for seat in (await s.direct.table_row(tid)).seats] == [s.names()[0]]


CALLS: list[Callable[[Lying], Awaitable[None]]] = [
    create_table,
    post_to_inbox,
    take_inbox,
    quickplay_join_completing,
    quickplay_join_waiting,
    quickplay_leave,
    start_hand,
    append_action,
    record_hand_result,
    close_table,
    set_language,
    import_ratings,
    take_inbox_orphans,
    expire_idle,
    quickplay_fill,
    set_seats,
]


@pytest.mark.parametrize("call", CALLS, ids=[c.__name__ for c in CALLS])
async def test_a_write_is_kept_once_whatever_the_network_does(
    lying: Lying, call: Callable[[Lying], Awaitable[None]]
) -> None:
    started = time.monotonic()
    await call(lying)
    assert time.monotonic() - started < 5


async def test_an_outcome_nobody_can_learn_is_said_to_be_unknown(database: str) -> None:
    """The answer to a COMMIT is lost and the server cannot be reached again: the caller is told
    that whether the change was kept is not known, never that nothing was kept."""
    with FaultProxy.before(database) as (proxy, through):
        store = await Store.open(through, timeout=TIMEOUT, reconnect_for=0.5)
        lose = proxy._take

        def lose_then_silence(fault: Fault) -> bool:
            taken = lose(fault)
            if taken:  # nothing passes from now on: the server cannot be asked
                proxy.silent = True
            return taken

        proxy._take = lose_then_silence  # type: ignore[method-assign]
        proxy.arm(Fault.LOSE_COMMIT_REPLY)
        with pytest.raises(StoreError, match="whether this change was kept is not known"):
            await store.create_table(PRESET)
    await store.close()  # the proxy is gone: its connections closed
