"""The public status line says a discard is open to calls, never who may claim it or who
has chosen in an opening."""

from __future__ import annotations

from engine.actions import Action
from engine.events import Phase
from engine.hand import HandState
from engine.presets import find_preset
from render.adapt import status_line

NAMES = ("Ann", "Bob", "Cat", "Dan")


def test_claim_windows_do_not_name_the_seats_that_may_claim() -> None:
    # seat 1 may chow and seat 2 may pung the dealer's 5m (see tests/test_hand.py)
    state = HandState.arranged(
        find_preset("hkos-3-v1"),
        [
            "234p678p234s678s3z5m",
            "4m6m1p1p3s3s5s5s7s7s9s9s1z",
            "5m5m8m8m3p3p5p5p9p9p1s1s4z",
            "1m2m3m7m7m9m9m4s4s7z7z6z6z",
        ],
    )
    state.apply(Action.parse("0 discard 5m"))
    assert state.phase is Phase.CLAIMS and state.seats_to_act() == [1, 2]
    line = status_line(state, NAMES)
    assert line == "The latest discard is open to calls"
    assert not any(name in line for name in NAMES)


def test_openings_do_not_name_who_has_chosen() -> None:
    state = HandState(find_preset("sichuan-swap3"), seed=4)
    assert state.phase is Phase.OPENING
    before = status_line(state, NAMES)
    state.apply(state.legal_actions(2)[0])  # West has chosen; the others have not
    after = status_line(state, NAMES)
    assert before == after == "Opening: each player chooses three tiles of one suit to pass on"
