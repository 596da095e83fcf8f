"""The public moment a control names (`bot.runtime.snapshots.public_moment`): a restored hand
names the same moment as the live one at every point of its log, and no seat meets a moment
again once it has answered it (else a control used before a restart would be taken again)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.runtime.snapshots import public_moment
from engine.actions import Action
from engine.computer.easy import choose_action
from engine.hand import HandState
from engine.hand_setup import HandSetup
from engine.presets import PRESETS
from engine.session import Session

TABLES = [(p, n) for p in sorted(PRESETS) for n in PRESETS[p].seat_counts]


def played(
    preset_id: str, seats: int, seed: int, picks: st.DataObject, smart: bool, asked: bool
) -> tuple[HandState, list[tuple[int, int]]]:
    """A hand of random legal play (or the easy computer's), with every seat always asked in
    claim windows when `asked` (as at a Discord table of people); the moment after each action."""
    session = Session(PRESETS[preset_id], seed, seat_count=seats)
    hand = session.new_hand()
    if asked:
        hand.always_ask = frozenset(hand.seats)
    moments = [(public_moment(hand), -1)]
    answered: dict[int, int] = {}  # seat -> the moment it last answered
    while not hand.is_over:
        to_act = hand.seats_to_act()
        seat = picks.draw(st.sampled_from(to_act)) if len(to_act) > 1 else to_act[0]
        moment = public_moment(hand)
        assert answered.get(seat, -1) < moment, (
            f"seat {seat} decides again at moment {moment}, which it answered already"
        )
        legal = hand.legal_actions(seat)
        action = choose_action(hand, seat) if smart else picks.draw(st.sampled_from(legal))
        hand.apply(action)
        answered[seat] = moment
        moments.append((public_moment(hand), hand.version))
    return hand, moments


@pytest.mark.parametrize(("preset_id", "seats"), TABLES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), picks=st.data(), smart=st.booleans(), asked=st.booleans())
def test_a_restored_hand_names_the_live_moment_at_every_point(
    preset_id: str, seats: int, seed: int, picks: st.DataObject, smart: bool, asked: bool
) -> None:
    live, moments = played(preset_id, seats, seed, picks, smart, asked)
    # what a restore reads back: the stored setup, the log as text, who is always asked
    setup = HandSetup.from_json(json.loads(json.dumps(live.setup.to_json())))
    ask = json.loads(json.dumps(sorted(live.always_ask)))
    restored = HandState(PRESETS[preset_id], live.seed, setup, seat_count=seats, always_ask=ask)
    assert public_moment(restored) == moments[0][0]
    for step, line in enumerate(str(a) for a in live.log):
        restored.apply(Action.parse(line))
        assert public_moment(restored) == moments[step + 1][0], (step, line)
    # the moment only grows: a number names one point of the hand
    assert [m for m, _ in moments] == sorted(m for m, _ in moments)
