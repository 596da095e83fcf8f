"""Properties over random legal play of every playable preset: conservation of tiles and of
points (seats and pot), replay."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.computer.easy import choose_action
from engine.hand import HandState
from engine.presets import PRESETS, find_preset

PRESET_IDS = sorted(PRESETS)


def check_invariants(state: HandState) -> None:
    assert Counter(state.tiles_in_play()) == Counter(state.preset.wall), state.describe()
    # the seats and the pot together conserve points (a stake paid in, the pot taken out)
    assert sum(state.points) + state.pot_change == 0, (state.points, state.pot_change)
    outcome = state.outcome()
    if outcome is not None:
        assert sum(outcome.deltas) + outcome.pot == 0, outcome
    if not state.is_over:
        assert state.seats_to_act(), state.describe()
        for seat in state.seats_to_act():
            assert state.legal_actions(seat), (seat, state.describe())


def random_hand(preset_id: str, seed: int, picks: st.DataObject, smart: bool) -> HandState:
    state = HandState(find_preset(preset_id), seed)
    check_invariants(state)
    while not state.is_over:
        seats = state.seats_to_act()
        seat = picks.draw(st.sampled_from(seats)) if len(seats) > 1 else seats[0]
        if smart:
            action = choose_action(state, seat)
        else:
            action = picks.draw(st.sampled_from(state.legal_actions(seat)))
        version = state.version
        state.apply(action)
        assert state.version == version + 1
        check_invariants(state)
    return state


@pytest.mark.parametrize("preset_id", PRESET_IDS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), picks=st.data(), smart=st.booleans())
def test_random_play_conserves_tiles_sums_to_zero_and_replays(
    preset_id: str, seed: int, picks: st.DataObject, smart: bool
) -> None:
    live = random_hand(preset_id, seed, picks, smart)
    again = HandState.replay(find_preset(preset_id), seed, [str(a) for a in live.log])
    assert again.hands == live.hands
    assert again.melds == live.melds
    assert again.ponds == live.ponds
    assert again.bonus == live.bonus
    assert again.points == live.points
    assert again.outcome() == live.outcome()
    assert again.version == live.version
