"""A finished hand is freed as soon as its last reader drops it, without the cycle collector.

A live bot freezes its long-lived objects (`gc.freeze()`), so full collections are short; a hand
that only the collector could free would make them long again (about 100 ms at 5,000 tables).
"""

from __future__ import annotations

import copy
import weakref

import pytest

from engine.computer.simulate import play_session
from engine.presets import PRESETS


@pytest.mark.parametrize("level", ["easy", "strong"])
@pytest.mark.parametrize("preset_id", sorted(PRESETS))
def test_a_played_hand_is_freed_by_reference_counting(
    preset_id: str, level: str, no_collector: None
) -> None:
    preset = PRESETS[preset_id]
    for seats in preset.seat_counts[:1] + preset.seat_counts[-1:]:
        played = next(play_session(preset, 1, seed=11, seat_count=seats, level=level))
        freed = weakref.ref(played.state)
        parts = [weakref.ref(part) for part in played.state.parts]
        del played
        assert freed() is None, f"{preset_id} at {seats} seats: the hand is in a cycle"
        assert all(part() is None for part in parts)


def test_a_copied_hand_plays_its_own_state(no_collector: None) -> None:
    played = next(play_session(PRESETS["sichuan-bb"], 1, seed=3))
    state = played.state
    other = copy.deepcopy(state)
    assert other.parts == state.parts
    for part, copied in zip(state.parts, other.parts, strict=True):
        assert copied is not part
        # each copied part reads the copy, not the hand it was copied from
        assert copied.state.hands is other.hands
        assert part.state.hands is state.hands
    freed = weakref.ref(other)
    del other
    assert freed() is None
