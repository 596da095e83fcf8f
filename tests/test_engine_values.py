"""Engine values a caller is handed: legal actions it cannot corrupt, wins with one name each."""

from __future__ import annotations

import pytest

import data
import engine.outcome
from engine.computer.easy import choose_action
from engine.hand import HandState
from engine.presets import find_preset


def test_legal_actions_cannot_be_changed_by_a_caller() -> None:
    state = HandState(find_preset("hkos-3-v1"), 3)
    seat = state.turn
    legal = state.legal_actions(seat)
    assert isinstance(legal, tuple)
    with pytest.raises(AttributeError):
        legal.clear()  # type: ignore[attr-defined]
    assert state.legal_actions(seat) == legal and state.is_legal(legal[0])


def test_legal_actions_stay_what_the_hand_offers_through_a_whole_hand() -> None:
    state = HandState(find_preset("sichuan-swap3"), 7)
    while not state.is_over:
        for seat in state.seats_to_act():
            offered = state.legal_actions(seat)
            assert isinstance(offered, tuple) and offered
            assert all(state.is_legal(action) for action in offered)
        seat = state.seats_to_act()[0]
        state.apply(choose_action(state, seat))
    assert all(state.legal_actions(seat) == () for seat in state.seats)


def test_the_stored_win_and_the_played_win_have_their_own_names() -> None:
    """data counts table seats and the engine hand seats: one name for each, never both."""
    assert data.StoredWin.__name__ != engine.outcome.WinRecord.__name__
    assert not hasattr(data, "WinRecord")
