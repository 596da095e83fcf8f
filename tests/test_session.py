"""The session across hands: dealer, prevailing wind, points carried forward."""

from __future__ import annotations

from engine.hand import Outcome, Termination, WinRecord
from engine.presets import find_preset
from engine.scoring.base import Score, WinBy
from engine.session import Session

HKOS = find_preset("hkos-3-v1")


def _win(seat: int, deltas: tuple[int, ...]) -> Outcome:
    record = WinRecord(seat, WinBy.DISCARD, 0, 1, Score(valid=True, fan=3), deltas, (), ())
    return Outcome(Termination.WIN, (record,), deltas)


DRAW = Outcome(Termination.WALL_DRAW, (), (0, 0, 0, 0))


def test_dealer_keeps_after_winning_or_a_wall_draw() -> None:
    session = Session(HKOS, seed=1)
    session.finish_hand(_win(0, (8, -8, 0, 0)))
    assert session.dealer == 0
    session.finish_hand(DRAW)
    assert session.dealer == 0 and session.hand_number == 2


def test_deal_passes_when_another_seat_wins_and_points_carry_forward() -> None:
    session = Session(HKOS, seed=1)
    session.finish_hand(_win(2, (0, -24, 24, 0)))
    assert session.dealer == 1
    assert session.points == [0, -24, 24, 0]
    # now seat 0 is player 1: a win by hand seat 1 is player 2's
    deltas = session.finish_hand(_win(1, (-8, 8, 0, 0)))
    assert deltas == [0, -8, 8, 0]
    assert session.points == [0, -32, 32, 0]
    assert session.dealer == 2


def test_four_dealer_changes_advance_the_prevailing_wind() -> None:
    session = Session(HKOS, seed=1)
    for expected_dealer in (1, 2, 3):
        session.finish_hand(_win(1, (-8, 8, 0, 0)))
        assert session.dealer == expected_dealer and session.round_wind == 0
    session.finish_hand(_win(1, (-8, 8, 0, 0)))
    assert session.dealer == 0 and session.round_wind == 1
    assert sum(session.points) == 0


def test_session_round_trips_through_json_and_derives_distinct_seeds() -> None:
    session = Session(HKOS, seed=9)
    session.finish_hand(_win(3, (0, 0, -8, 8)))
    again = Session.from_json(session.to_json())
    assert again == session
    assert len({session.hand_seed(n) for n in range(50)}) == 50
