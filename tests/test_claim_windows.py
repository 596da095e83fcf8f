"""Claim windows that do not tell who can call (RULES.md "Hidden information stays hidden").

The people at a table are asked on every discard and every declared kong, whatever they hold:
seats in `HandState.always_ask` get a window whose only answer is Pass when they have nothing
to claim. Whether a window opens then depends only on who is seated, never on their tiles, and
the hand plays out exactly as it would have without the extra questions.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.runtime import ManualTimers, Runtime
from data import Phase as DataPhase
from data import Store
from engine.actions import Action, ActionKind
from engine.computer.easy import choose_action
from engine.events import Phase
from engine.hand import HandState
from engine.presets import PRESETS, find_preset

HKOS = find_preset("hkos-3-v1")
NOBODY_CAN_CLAIM = [  # seat 0 discards 9p: no seat holds a pair of it, a run or a wait on it
    "123m456m789m1s2s3s9p1z",
    "1p1p4p5p6p7p2s3s4s8s8s2z3z",
    "1m1m4s5s6s7s8s9s2p3p4p5z6z",
    "5m6m7m2m3m4m6s6s7p8p9p7z7z",
]


def _discard_9p(always_ask: tuple[int, ...]) -> HandState:
    hand = HandState.arranged(HKOS, NOBODY_CAN_CLAIM)
    hand.always_ask = frozenset(always_ask)
    hand.apply(Action.parse("0 discard 9p"))
    return hand


def test_without_anyone_to_ask_a_window_nobody_can_use_does_not_open() -> None:
    hand = _discard_9p(())
    assert hand.phase is Phase.TURN and hand.turn == 1


def test_the_people_are_asked_even_with_nothing_to_claim() -> None:
    hand = _discard_9p((1, 3))
    assert hand.phase is Phase.CLAIMS
    assert sorted(hand.seats_to_act()) == [1, 3]
    assert [str(a) for a in hand.legal_actions(1)] == ["1 pass"]
    assert [str(a) for a in hand.legal_actions(3)] == ["3 pass"]
    assert hand.legal_actions(2) == ()  # a computer seat with nothing to claim is not asked


def test_passing_a_window_nobody_could_use_leaves_the_hand_as_without_it() -> None:
    asked = _discard_9p((1, 2, 3))
    for seat in (1, 2, 3):
        asked.apply(Action(seat, ActionKind.PASS))
    plain = _discard_9p(())
    assert asked.phase is plain.phase is Phase.TURN
    assert (asked.turn, asked.drawn, asked.hands, asked.ponds, asked.wall_left) == (
        plain.turn,
        plain.drawn,
        plain.hands,
        plain.ponds,
        plain.wall_left,
    )


@pytest.mark.parametrize("preset_id", sorted(PRESETS))
@pytest.mark.parametrize("seed", range(4))
def test_asking_everyone_changes_no_outcome(preset_id: str, seed: int) -> None:
    preset = find_preset(preset_id)

    def play(always_ask: tuple[int, ...]) -> HandState:
        hand = HandState(preset, seed, always_ask=always_ask)
        while not hand.is_over:
            seat = hand.seats_to_act()[0]
            hand.apply(choose_action(hand, seat))
        return hand

    plain, asked = play(()), play(tuple(range(4)))
    assert asked.outcome() == plain.outcome()
    passes = [a for a in asked.log if a.kind is ActionKind.PASS]
    assert len(asked.log) - len(passes) == len(
        [a for a in plain.log if a.kind is not ActionKind.PASS]
    )
    replayed = HandState.replay(preset, seed, asked.log, always_ask=range(4))
    assert replayed.outcome() == asked.outcome() and replayed.version == asked.version


# ------------------------------------------------------------------ the runtime


async def test_every_discard_asks_the_person_and_passes_for_them_after_the_wait(
    tmp_path: Path,
) -> None:
    """One person and three computers: every computer discard opens a window for the person
    (whatever they hold); with nothing to claim it passes by itself once the wait is over,
    and it survives a restart (the stored setup says who is always asked)."""
    store = await Store.open(str(tmp_path / "t.db"))
    timers = ManualTimers()
    runtime = Runtime(store, timers=timers, no_call_wait=2.0, seed_source=lambda: 5)
    await runtime.open()
    table = await runtime.create_table(
        "hkos-3-v1", creator_id="alice", creator_name="Alice", computers=3
    )
    await runtime.start_table(table.id, "alice")
    windows = waited = 0
    for _ in range(600):
        if table.phase is not DataPhase.PLAYING:
            break
        hand = table.hand
        assert hand is not None
        assert table.players_to_act() == [0]  # only the person is ever waited for
        seat = table.hand_seat(0)
        if hand.phase is Phase.CLAIMS:
            windows += 1
            if len(table.legal_for(0)) == 1:  # nothing to claim: wait it out
                version = hand.version
                await timers.advance(1.5)
                assert table.hand is hand and hand.version == version  # still open
                await timers.advance(0.6)
                assert table.hand is not hand or hand.version > version
                waited += 1
                continue
        await runtime.act(table.id, "alice", choose_action(hand, seat), hand.decision_version)
    assert table.phase is DataPhase.BETWEEN_HANDS
    hand = table.hand
    assert hand is not None and hand.always_ask == {table.hand_seat(0)}
    computer_discards = sum(
        1 for a in hand.log if a.kind is ActionKind.DISCARD and a.seat != table.hand_seat(0)
    )
    assert windows == computer_discards and waited > 0
    reopened = Runtime(store, timers=ManualTimers(), no_call_wait=2.0)
    await reopened.open()
    restored = reopened.tables[table.id].hand
    assert restored is not None and restored.outcome() == hand.outcome()
    await store.close()
