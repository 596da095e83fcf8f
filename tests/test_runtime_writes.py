"""What one action costs the store and the timers: one write per run of moves (a person's move
and the computers' answers), and a timer job only when a deadline changes."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot.runtime import ManualTimers
from bot.runtime.timers import Callback
from data import Store
from engine.actions import Action
from engine.computer.easy import choose_action
from engine.events import Phase as HandPhase
from tests.test_runtime import arranged, four_humans, make_runtime, play


class CountingTimers(ManualTimers):
    """ManualTimers that write down every job made, by key."""

    def __init__(self) -> None:
        super().__init__()
        self.made: list[str] = []

    def schedule(self, key: str, at: float, callback: Callback) -> None:
        self.made.append(key)
        super().schedule(key, at, callback)

    def count(self, prefix: str) -> int:
        return sum(key.startswith(prefix) for key in self.made)


async def test_a_move_and_the_computers_answers_are_one_write(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = await make_runtime(store, ManualTimers())
    table = await runtime.create_table("hkos-3-v1", creator_id="1", creator_name="A", computers=3)
    await runtime.start_table(table.id, "1")
    assert table.hand is not None and table.hand_id is not None
    real = store.append_actions
    writes: list[tuple[int, int]] = []

    async def counted(
        table_id: int,
        hand_id: int,
        actions: Sequence[Action | str],
        version: int,
        *a: object,
        **k: object,
    ) -> None:
        writes.append((version, len(actions)))
        await real(table_id, hand_id, actions, version, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "append_actions", counted)
    for _ in range(5):
        if table.hand.is_over or not table.players_to_act():
            break
        before = table.version
        action = choose_action(table.hand, table.hand_seat(0))
        await runtime.act(table.id, "1", action, before)
        moved = table.version - before
        assert writes[-1] == (before, moved)  # everything since the person's move, at once
        assert moved > 1 or table.hand.is_over or table.players_to_act() == [0]
    assert len(writes) >= 2
    log = await store.hand_log(table.hand_id)
    assert list(log.actions) == table.hand.log


async def test_answers_inside_one_claim_window_make_no_new_timer_job(store: Store) -> None:
    timers = CountingTimers()
    runtime = await make_runtime(store, timers, hand_factory=arranged)
    table = await four_humans(runtime, time_control="standard")
    await play(runtime, table, "0 discard 5m")
    assert table.hand is not None and table.hand.phase is HandPhase.CLAIMS
    jobs, deadline = timers.count("decision:"), table.deadline
    await play(runtime, table, "1 pass")  # the window stays open for seat 2's pung
    assert table.hand.phase is HandPhase.CLAIMS and table.deadline == deadline
    assert timers.count("decision:") == jobs
    # the window's job still plays the time-out for whoever has not answered
    await timers.advance(6)
    assert table.hand.phase is HandPhase.TURN and table.hand.turn == 1
    assert timers.count("decision:") == jobs + 1  # the next turn's clock


async def test_the_deal_limit_is_one_job_a_hand(store: Store) -> None:
    timers = CountingTimers()
    runtime = await make_runtime(store, timers)
    table = await runtime.create_table("sichuan-bb", creator_id="1", creator_name="A", computers=3)
    await runtime.start_table(table.id, "1")
    assert table.hand is not None and table.deal_deadline is not None
    for _ in range(8):
        if table.hand.is_over or not table.players_to_act():
            break
        action = choose_action(table.hand, table.hand_seat(0))
        await runtime.act(table.id, "1", action, table.version)
    assert timers.count("decision:") > 3 and timers.count("deal:") == 1
