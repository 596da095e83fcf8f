"""The bot's garbage collection policy (bot/pauses.py)."""

from __future__ import annotations

import asyncio
import gc
import sys
import weakref
from collections.abc import Iterator

import pytest

from bot import pauses


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def dropped_cycle() -> weakref.ref[Node]:
    first, second = Node(), Node()
    first.other, second.other = second, first
    return weakref.ref(first)


@pytest.fixture
def thawed() -> Iterator[None]:
    gc.collect()
    interval = sys.getswitchinterval()
    yield
    gc.unfreeze()
    gc.collect()
    sys.setswitchinterval(interval)


def test_freezing_survivors_frees_a_dropped_cycle_instead_of_freezing_it(thawed: None) -> None:
    cycle = dropped_cycle()
    kept = Node()
    pauses.freeze_survivors()
    assert cycle() is None
    assert gc.get_freeze_count() > 0
    assert kept is not None


def test_a_frozen_cycle_waits_for_the_sweep(thawed: None) -> None:
    first, second = Node(), Node()
    first.other, second.other = second, first
    cycle = weakref.ref(first)
    pauses.freeze_survivors()
    del first, second
    gc.collect()
    assert cycle() is not None  # frozen: ordinary collections leave it
    assert pauses.sweep() > 0
    assert cycle() is None
    assert gc.get_freeze_count() > 0  # what is alive is frozen again


def test_a_frozen_object_without_a_cycle_is_still_freed(thawed: None) -> None:
    node = Node()
    alive = weakref.ref(node)
    pauses.freeze_survivors()
    del node
    assert alive() is None


async def test_the_policy_switches_sooner_and_freezes_at_once_and_on_its_period(
    thawed: None,
) -> None:
    task = asyncio.create_task(pauses.keep_pauses_short(refreeze_seconds=0.01))
    await asyncio.sleep(0)
    frozen_at_start = gc.get_freeze_count()
    assert frozen_at_start > 0
    assert sys.getswitchinterval() == pytest.approx(pauses.SWITCH_INTERVAL)
    made_since = [Node() for _ in range(1000)]
    await asyncio.sleep(0.05)
    assert gc.get_freeze_count() >= frozen_at_start + len(made_since)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


def test_a_sweep_is_due_once_the_objects_have_grown_enough(
    thawed: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pauses, "SWEEP_FLOOR", 1000)
    gc.freeze()
    after_sweep = sys.getallocatedblocks()
    assert not pauses.sweep_due(after_sweep)
    kept = [Node() for _ in range(after_sweep + 1001)]  # a block each at least
    gc.freeze()
    assert pauses.sweep_due(after_sweep)
    assert not pauses.sweep_due(sys.getallocatedblocks())
    assert kept


def test_growth_is_judged_without_walking_the_frozen_objects(
    thawed: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """gc.get_freeze_count() walks every frozen object (27 ms at 3 million): read each second,
    it held the event loop longer than anything the policy saves."""

    def walks(*_: object) -> int:
        raise AssertionError("the frozen set was walked")

    monkeypatch.setattr(gc, "get_freeze_count", walks)
    assert not pauses.sweep_due(sys.getallocatedblocks())


async def test_frozen_garbage_is_swept_when_it_has_grown_not_only_after_hours(
    thawed: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cycles frozen while alive, then dropped (as the front end's views are), are freed by a
    sweep once there are enough of them, long before SWEEP_SECONDS."""
    monkeypatch.setattr(pauses, "SWEEP_FLOOR", 1000)
    task = asyncio.create_task(pauses.keep_pauses_short(refreeze_seconds=0.01))
    await asyncio.sleep(0)
    nodes = [Node() for _ in range(sys.getallocatedblocks() // 2 * 2 + 2000)]
    for first, second in zip(nodes[::2], nodes[1::2], strict=True):
        first.other, second.other = second, first
    some = weakref.ref(nodes[0])
    gc.freeze()  # frozen while alive, as the policy's next freeze would
    del nodes, first, second
    gc.collect()
    assert some() is not None  # dropped, but frozen: only a sweep frees it
    for _ in range(100):
        await asyncio.sleep(0.01)
        if some() is None:
            break
    assert some() is None
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
