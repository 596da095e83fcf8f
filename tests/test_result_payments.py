"""A hand's points split into its wins, kongs paid at once and wall-draw checks; the result
picture's view lists each part."""

from __future__ import annotations

import pytest

from engine.computer.simulate import play_out
from engine.hand import HandState
from engine.presets import find_preset
from render.adapt import result_view_from_state

NAMES = ("A", "B", "C", "D")


@pytest.mark.parametrize("preset_id", ["hkos-3-v1", "sichuan-bb", "bloodflow-swap3"])
def test_points_are_wins_plus_kongs_plus_wall_draw_checks(preset_id: str) -> None:
    kongs_seen = False
    for seed in range(40):
        state = play_out(HandState(find_preset(preset_id), seed))
        outcome = state.outcome()
        assert outcome is not None
        for seat in range(4):
            from_wins = sum(win.deltas[seat] for win in outcome.wins)
            assert outcome.deltas[seat] == (
                from_wins + state.kong_points[seat] + state.draw_points[seat]
            )
        view = result_view_from_state(state, NAMES)
        for win, win_view in zip(outcome.wins, view.wins, strict=True):
            paid = sum(points for _, points in win_view.paid_by)
            assert paid == win.deltas[win.seat]
        labels = [str(label) for label, _ in view.other_payments]
        assert ("Kongs" in labels) == any(state.kong_points)
        kongs_seen |= any(state.kong_points)
    if preset_id != "hkos-3-v1":
        assert kongs_seen  # Sichuan pays kongs at once: some of 40 hands have one
