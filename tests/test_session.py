"""The session across hands: dealer, prevailing wind, points carried forward."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

from engine.computer.simulate import simulate
from engine.hand import Termination
from engine.outcome import Outcome, WinRecord
from engine.presets import MultiWin, Rotation, find_preset
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


# ------------------------------------------------------------------------------- who deals next

SICHUAN = find_preset("sichuan-bb")


def _wins(*wins: tuple[int, WinBy, int | None, int]) -> Outcome:
    records = tuple(
        WinRecord(seat, by, 0, source, Score(valid=True), (0, 0, 0, 0), (), (), at)
        for seat, by, source, at in wins
    )
    return Outcome(Termination.WIN, records, (0, 0, 0, 0))


def test_winner_deals_the_first_winner_deals_next() -> None:
    session = Session(SICHUAN, seed=1)
    # the dealer wins second: the first winner (hand seat 2) deals, as the dealer's win is later
    session.finish_hand(_wins((2, WinBy.SELF_DRAW, None, 10), (0, WinBy.DISCARD, 3, 20)))
    assert session.dealer == 2 and session.dealer_changes == 1
    # now hand seat 3 is player (2 + 3) % 4 = 1
    session.finish_hand(_wins((3, WinBy.DISCARD, 1, 5)))
    assert session.dealer == 1


def test_winner_deals_several_winners_on_one_discard_give_the_deal_to_the_discarder() -> None:
    session = Session(SICHUAN, seed=1)
    session.finish_hand(_wins((1, WinBy.DISCARD, 3, 7), (2, WinBy.DISCARD, 3, 7)))
    assert session.dealer == 3
    session = Session(SICHUAN, seed=1)
    session.finish_hand(_wins((1, WinBy.ROBBING_KONG, 2, 7), (3, WinBy.ROBBING_KONG, 2, 7)))
    assert session.dealer == 2
    # the same discarder later is another discard: the first winner deals
    session = Session(SICHUAN, seed=1)
    session.finish_hand(_wins((1, WinBy.DISCARD, 3, 7), (2, WinBy.DISCARD, 3, 9)))
    assert session.dealer == 1


def test_winner_deals_no_win_keeps_the_dealer_and_a_deal_limit_rotates_by_its_wins() -> None:
    session = Session(SICHUAN, seed=1)
    session.finish_hand(Outcome(Termination.WALL_DRAW, (), (0, 0, 0, 0)))
    session.finish_hand(Outcome(Termination.DEAL_LIMIT, (), (0, 0, 0, 0)))
    assert session.dealer == 0 and session.dealer_changes == 0
    cut = _wins((3, WinBy.SELF_DRAW, None, 12))
    session.finish_hand(Outcome(Termination.DEAL_LIMIT, cut.wins, cut.deltas))
    assert session.dealer == 3


def test_winner_deals_every_change_counts_toward_the_prevailing_wind() -> None:
    session = Session(SICHUAN, seed=1)
    for _ in range(4):
        session.finish_hand(_wins((2, WinBy.SELF_DRAW, None, 3)))
    assert session.dealer_changes == 4 and session.round_wind == 1


def test_four_winds_passes_the_deal_after_a_wall_draw_and_keeps_it_only_by_winning() -> None:
    fw2 = replace(HKOS, id="test-fw2", rotation=Rotation.FOUR_WINDS)
    session = Session(fw2, seed=1)
    session.finish_hand(_win(0, (8, -8, 0, 0)))
    assert session.dealer == 0
    session.finish_hand(DRAW)
    assert session.dealer == 1
    session.finish_hand(_win(2, (0, -8, 8, 0)))
    assert session.dealer == 2


def test_hong_kong_keeps_the_deal_when_the_dealer_is_among_several_winners() -> None:
    session = Session(replace(HKOS, multi_win=MultiWin.MULTIPLE), seed=1)
    session.finish_hand(_wins((2, WinBy.DISCARD, 1, 4), (0, WinBy.DISCARD, 1, 4)))
    assert session.dealer == 0


def test_simulated_dealers_follow_the_wins_as_seen_from_outside() -> None:
    """`simulate --json` gives each hand's dealer and wins: the next dealer follows from them."""
    for preset_id in ("sichuan-bb", "bloodflow-swap3"):
        hands = [h.to_json() for h in simulate(find_preset(preset_id), 30, 5)]
        for hand, after in pairwise(hands):
            wins = hand["wins"]
            assert isinstance(wins, list)
            seat = 0
            if wins:
                first = wins[0]
                together = [w for w in wins if (w["at"], w["from"]) == (first["at"], first["from"])]
                several = first["by"] != "self_draw" and len(together) > 1
                seat = first["from"] if several else first["seat"]
            assert after["dealer"] == (hand["dealer"] + seat) % 4  # type: ignore[operator]
