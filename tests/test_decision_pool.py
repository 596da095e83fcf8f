"""The strong computer's decisions in worker processes (bot/runtime/decisions.py): the same
choices as inline, a worker stuck on a decision holding up no other, a dead worker replaced
with its decision made inline, and a close, expiry or restart that never applies a decision
twice nor leaves a table waiting on a worker."""

from __future__ import annotations

import asyncio
import gc
import os
import pickle
import signal
from pathlib import Path

import pytest

from bot.discord.config import read_workers, usable_cores
from bot.runtime import ManualTimers, Runtime, StaleActionError
from bot.runtime.computers import Computer
from bot.runtime.decisions import DecisionPool, DecisionsClosed, worth_a_worker
from bot.runtime.recipe import replay_hand
from data import Phase, Store
from engine.actions import Action, kind_named
from engine.computer import choose_strong, seat_view, strong
from engine.hand import HandState
from engine.options import choose
from engine.presets import PRESETS, find_preset
from tests.test_runtime import make_runtime


def test_the_setting_counts_workers() -> None:
    assert read_workers(None) == read_workers(" ") == usable_cores() >= 1
    assert (read_workers("0"), read_workers("3")) == (0, 3)
    for wrong in ("-1", "two", "1.5"):
        with pytest.raises(ValueError, match="MAHJONG_DECISION_WORKERS"):
            read_workers(wrong)


def test_a_view_crosses_as_a_value() -> None:
    """A preset travels as its id and choices; a view comes back equal."""
    for preset in PRESETS.values():
        assert pickle.loads(pickle.dumps(preset)) == preset
    chosen = choose(find_preset("hubei-laizi"), {"green_white": True})
    assert pickle.loads(pickle.dumps(chosen)) == chosen
    for preset_id in ("hkos-3-v1", "riichi", "sichuan-bb"):
        state = HandState(find_preset(preset_id), seed=5)
        for _ in range(30):
            seat = state.seats_to_act()[0]
            view = seat_view(state, seat)
            assert pickle.loads(pickle.dumps(view)) == view
            state.apply(choose_strong(state, seat))


def test_a_pickled_action_is_one_object_per_action() -> None:
    """Actions are made again once each (a worker reads the same ones thousands of times), and
    a rule's declared kind comes back as the one object of its name."""
    state = HandState(find_preset("riichi"), seed=5)
    legal = state.legal_actions(state.seats_to_act()[0])
    first, again = pickle.loads(pickle.dumps(legal)), pickle.loads(pickle.dumps(legal))
    assert first == legal
    assert all(a is b for a, b in zip(first, again, strict=True))
    riichi = kind_named("riichi")
    assert riichi is not None and pickle.loads(pickle.dumps(riichi)) is riichi
    declared = Action(0, riichi, (9,))
    assert pickle.loads(pickle.dumps(declared)).kind is riichi


def test_a_decision_leaves_no_reference_cycle() -> None:
    """A worker runs with the collector off (engine/computer/worker.py): what the strong
    computer makes for a decision must be freed by reference counts alone."""
    views = []
    for preset_id in ("hkos-3-v1", "riichi", "sichuan-bb", "hubei-laizi", "chinese-classical"):
        state = HandState(find_preset(preset_id), seed=7)
        while not state.is_over:
            seat = state.seats_to_act()[0]
            views.append(seat_view(state, seat))
            state.apply(choose_strong(state, seat))
    gc.collect()
    gc.disable()
    try:
        for view in views:
            strong.choose(view)
        unreachable = gc.collect()
    finally:
        gc.enable()
    assert unreachable == 0


async def pooled_hand(pool: DecisionPool, preset_id: str, seed: int) -> int:
    """Play a hand with the strong computer, each decision asked of the pool too: every
    pooled one equals the inline one. How many crossed."""
    state = HandState(find_preset(preset_id), seed=seed)
    crossed = 0
    while not state.is_over:
        seat = state.seats_to_act()[0]
        inline = choose_strong(state, seat)
        pooled = await pool.choose(state, seat)
        if pooled is not None:
            crossed += 1
            assert pooled == inline, (preset_id, seed, state.version)
        state.apply(inline)
    return crossed


async def test_pooled_decisions_are_the_inline_ones() -> None:
    pool = DecisionPool(2)
    try:
        await pool.ready()
        for preset_id in ("hkos-3-v1", "sichuan-bb", "riichi"):  # riichi: red fives
            assert await pooled_hand(pool, preset_id, seed=11) > 10
    finally:
        await pool.close()


async def test_a_worker_stuck_on_a_decision_holds_up_no_other() -> None:
    """One worker stopped mid-decision (as on a long one): the decisions routed to it after
    are taken by the other, idle worker; only the one it holds waits, and it is answered once
    the worker goes on."""
    pool = DecisionPool(2)
    try:
        await pool.ready()
        stopped = pool.worker_pids()[0]
        os.kill(stopped, signal.SIGSTOP)
        held: list[asyncio.Task[Action | None]] = []
        answered = 0
        try:
            for seed in range(1, 25):
                state = HandState(find_preset("hkos-3-v1"), seed=seed)
                while not worth_a_worker(state, seat := state.seats_to_act()[0]):
                    state.apply(choose_strong(state, seat))
                asking = asyncio.create_task(pool.choose(state, seat))
                done, _ = await asyncio.wait([asking], timeout=5)
                if done:
                    assert asking.result() == choose_strong(state, seat)
                    answered += 1
                else:
                    held.append(asking)
        finally:
            os.kill(stopped, signal.SIGCONT)
        assert len(held) == 1 and answered == 23  # the first sent to the stopped worker
        assert await asyncio.wait_for(held[0], 20) is not None
    finally:
        await pool.close()


async def wait_for(condition: object, seconds: float = 20.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():  # type: ignore[operator]
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


async def test_a_dead_worker_is_replaced_and_its_decision_made_inline() -> None:
    pool = DecisionPool(1)
    try:
        await pool.ready()
        state = HandState(find_preset("hkos-3-v1"), seed=3)
        seat = state.seats_to_act()[0]
        (pid,) = pool.worker_pids()
        thinking = asyncio.create_task(pool.choose(state, seat))
        await asyncio.sleep(0)  # the view is sent
        os.kill(pid, signal.SIGKILL)
        # the worker may have answered first; else its decision is left to the caller
        assert await asyncio.wait_for(thinking, 20) in (None, choose_strong(state, seat))
        await wait_for(lambda: pool.replaced == 1)
        (new_pid,) = pool.worker_pids()
        assert new_pid != pid
        await pool.ready()
        assert await pooled_hand(pool, "hkos-3-v1", seed=3) > 0  # the new one answers
    finally:
        await pool.close()


async def test_closing_refuses_the_decisions_waited_for() -> None:
    pool = DecisionPool(1)
    await pool.ready()
    state = HandState(find_preset("hkos-3-v1"), seed=3)
    seat = state.seats_to_act()[0]
    thinking = asyncio.create_task(pool.choose(state, seat))
    await asyncio.sleep(0)
    await pool.close()
    with pytest.raises(DecisionsClosed):
        await thinking
    with pytest.raises(DecisionsClosed):
        await pool.choose(state, seat)
    assert pool.worker_pids() == []


class HeldPool:
    """A pool whose decisions wait until released (the strong computer's, made here)."""

    def __init__(self) -> None:
        self.asked = asyncio.Event()
        self.release = asyncio.Event()
        self.closed = False

    def thinks_for(self, computer: Computer) -> bool:
        return computer is choose_strong

    async def choose(self, state: HandState, seat: int) -> Action | None:
        self.asked.set()
        await self.release.wait()
        if self.closed:
            raise DecisionsClosed("closed")
        return choose_strong(state, seat)

    async def close(self) -> None:
        self.closed = True
        self.release.set()


async def strong_table(runtime: Runtime) -> int:
    table = await runtime.create_table(
        "hkos-3-v1", creator_id="101", creator_name="Ann", computers=3, level="strong"
    )
    await runtime.start_table(table.id, "101")
    return table.id


async def person_acts(runtime: Runtime, table_id: int) -> None:
    table = runtime.get(table_id)
    assert table.hand is not None
    seat = table.hand_seat(0)
    await runtime.act(table_id, "101", choose_strong(table.hand, seat), table.version)


async def until_a_computer_thinks(runtime: Runtime, table_id: int, pool: HeldPool) -> None:
    """The person acts until a computer's decision waits on the pool."""
    pool.release.set()
    while True:
        pool.asked.clear()
        pool.release.clear()
        acting = asyncio.create_task(person_acts(runtime, table_id))
        asked = asyncio.create_task(pool.asked.wait())
        # whichever comes first: a computer asks the pool, or the action is answered without
        await asyncio.wait([acting, asked], timeout=10, return_when=asyncio.FIRST_COMPLETED)
        asked.cancel()
        if pool.asked.is_set() and not acting.done():
            return acting  # type: ignore[return-value]
        pool.release.set()
        await acting


async def stored_actions(store: Store, runtime: Runtime, table_id: int) -> list[str]:
    table_hand = runtime.tables[table_id].hand_id
    assert table_hand is not None
    return [str(a) for a in (await store.hand_log(table_hand)).actions]


async def test_a_close_while_a_computer_thinks_applies_nothing_and_a_restart_goes_on(
    tmp_path: Path,
) -> None:
    store = await Store.open(str(tmp_path / "x.db"))
    pool = HeldPool()
    runtime = await make_runtime(store, ManualTimers(), decisions=pool)
    table_id = await strong_table(runtime)
    acting = await until_a_computer_thinks(runtime, table_id, pool)
    hand_id = runtime.tables[table_id].hand_id
    assert hand_id is not None
    before = [str(a) for a in (await store.hand_log(hand_id)).actions]
    await runtime.close()
    with pytest.raises(DecisionsClosed):
        await acting
    # the run (the person's action and the computers' before this one) was never stored
    assert [str(a) for a in (await store.hand_log(hand_id)).actions] == before
    restarted = await make_runtime(store, ManualTimers())
    table = restarted.tables[table_id]
    await person_acts(restarted, table_id)  # asked again, answered once
    log = (await store.hand_log(hand_id)).actions
    assert table.recipe is not None and table.hand is not None
    assert replay_hand(table.recipe, log).version == table.hand.version
    assert len(log) == table.hand.version
    await restarted.close()
    await store.close()


async def test_an_expiry_while_a_computer_thinks_moves_the_table_no_more(
    tmp_path: Path,
) -> None:
    timers = ManualTimers()
    store = await Store.open(str(tmp_path / "x.db"), clock=timers.now)
    pool = HeldPool()
    runtime = await make_runtime(store, timers, decisions=pool)
    table_id = await strong_table(runtime)
    acting = await until_a_computer_thinks(runtime, table_id, pool)
    hand_id = runtime.tables[table_id].hand_id
    assert hand_id is not None
    before = [str(a) for a in (await store.hand_log(hand_id)).actions]
    timers._now += 25 * 3600  # a day passes for the store's idle check, no clock fires
    assert await runtime.expire_idle_tables() == [table_id]
    pool.release.set()
    with pytest.raises(StaleActionError):
        await acting
    assert [str(a) for a in (await store.hand_log(hand_id)).actions] == before
    assert table_id not in runtime.tables
    assert (await store.table_row(table_id)).phase is Phase.CLOSED
    await runtime.close()
    await store.close()
