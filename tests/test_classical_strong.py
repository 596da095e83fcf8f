"""The strong computer's Chinese Classical knowledge (engine/families/classical/advice.py): a
losing hand is scored, so the hand as it stands is worth its score; no defence."""

from __future__ import annotations

from engine.families.classical.advice import KNOWLEDGE, STANDING_WEIGHT
from engine.hand import HandState
from engine.seat_view import SeatView
from engine.tiles import counts_of, parse_tiles
from tests.test_classical_play import CLASSICAL, DEALER_5M, QUIET_1


def test_a_hand_as_it_stands_is_worth_its_loser_score() -> None:
    state = HandState.arranged(
        CLASSICAL, [DEALER_5M, QUIET_1, "123m46m789p111z99s", "555z666z777z1s1s4m6m"]
    )
    view = SeatView.of(state, 3)
    assert KNOWLEDGE.standing is not None
    dragons = tuple(counts_of(parse_tiles("555z666z777z1s1s4m6m")[:13]))
    # three concealed dragon pungs: 24 points, 3 dragon doubles and three concealed pungs
    assert KNOWLEDGE.standing(view, dragons, ()) == STANDING_WEIGHT * 24 * 2**4
    plain = tuple(counts_of(parse_tiles("123m456m789p1s2s3s4m")))
    assert KNOWLEDGE.standing(view, plain, ()) == 0


def test_no_defence_where_a_deal_in_costs_no_more() -> None:
    assert KNOWLEDGE.opponent_value == KNOWLEDGE.flush_value == 0
