"""Every hand scored, in words and pictures (RULES.md `chinese-classical`): each seat's points,
doubles and score, and who paid whom (to the winner, the losers' settlement, East x2), read from
the hand's payments, in English and Chinese; the table shows points below zero."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.runtime.every_hand_words import every_hand_lines, every_hand_parts
from bot.runtime.words import in_person
from engine.every_hand import seat_scores, transfers
from engine.hand import HandState
from engine.scoring.base import SeatScore
from engine.settlement import Payment, Reason
from render.adapt import result_view_from_state
from render.result import render_result, score_cells, transfer_words
from render.table import points_text
from render.views import HandScoreView, TransferView
from tests.test_classical_play import CLASSICAL, DEALER_5M, QUIET_1, act, play

NAMES = ("Alice", "Bob", "Carol", "Dai")


def west_wins() -> HandState:
    """West goes out for 40 (20 points, 1 double); North lost with 24 points x 2^4 = 384."""
    state = HandState.arranged(
        CLASSICAL,
        [DEALER_5M, QUIET_1, "123m46m789p111z99s", "555z666z777z1s1s4m6m"],
        draws="1p2p3p9m",
    )
    play(state, "0 discard 3z", "1 discard 1p", "2 discard 2p", "3 discard 3p")
    act(state, "0 discard 5m")
    act(state, "3 win")
    act(state, "2 win")
    return state


def test_each_seat_scores_points_times_two_to_the_doubles() -> None:
    outcome = west_wins().outcome()
    assert outcome is not None
    assert seat_scores(outcome) == (
        SeatScore(0, 0, 0, 0),
        SeatScore(1, 0, 0, 0),
        SeatScore(2, 20, 1, 40),
        SeatScore(3, 24, 4, 384),
    )


def test_the_picture_says_who_paid_whom_from_the_payments() -> None:
    state = west_wins()
    view = result_view_from_state(state, NAMES)
    assert [(h.name, h.points, h.doubles, h.score, h.won) for h in view.hand_scores] == [
        ("Alice", 0, 0, 0, False),
        ("Bob", 0, 0, 0, False),
        ("Carol", 20, 1, 40, True),
        ("Dai", 24, 4, 384, False),
    ]
    assert view.transfers == (
        TransferView("Alice", "Carol", 80, times=2),  # East pays double
        TransferView("Bob", "Carol", 40),
        TransferView("Dai", "Carol", 40),
        TransferView("Alice", "Dai", 768, settlement=True, times=2),
        TransferView("Bob", "Dai", 384, settlement=True),
    )
    # the view follows what was paid, whatever a rule would have paid
    outcome = state.outcome()
    assert outcome is not None
    paid = (
        Payment(1, 2, 40, Reason.WIN),
        Payment(1, 3, 384, Reason.SETTLEMENT),
        *[
            Payment(0, 3, 5, Reason.KONG)  # not a payment of the win: not said
        ],
    )
    said = transfers(replace(outcome, payments=paid))
    assert [(t.payer, t.payee, t.amount, t.times) for t in said] == [(1, 2, 40, 1), (1, 3, 384, 1)]


def test_no_hand_scores_where_only_the_winner_is_scored() -> None:
    from engine.computer.simulate import play_out
    from engine.presets import find_preset

    state = play_out(HandState(find_preset("hkos-3-v1"), 1))
    view = result_view_from_state(state, NAMES)
    assert view.hand_scores == () and view.transfers == ()
    outcome = state.outcome()
    assert outcome is not None and every_hand_parts(outcome, NAMES) == ()


def test_the_words_say_each_score_and_each_payment() -> None:
    outcome = west_wins().outcome()
    assert outcome is not None
    lines = every_hand_lines(every_hand_parts(outcome, NAMES))
    assert [line.in_language("en") for line in lines] == [
        "Each hand's score (points, doubled once per double; 1,000 at most):",
        "  Alice: 0 points, 0 doubles = 0",
        "  Bob: 0 points, 0 doubles = 0",
        "  Carol: 20 points, 1 double = 40",
        "  Dai: 24 points, 4 doubles = 384",
        "Who pays whom (each loser pays the winner, then the losers settle):",
        "  Alice pays Carol: 80 (×2 with East)",
        "  Bob pays Carol: 40",
        "  Dai pays Carol: 40",
        "  Alice pays Dai: 768 in the losers' settlement (×2 with East)",
        "  Bob pays Dai: 384 in the losers' settlement",
    ]
    chinese = [line.in_language("zh-CN") for line in lines]
    assert chinese[4] == "  Dai：底分 24，4 番 = 384"
    assert chinese[6] == "  Alice → Carol：80（东家 ×2）"
    assert chinese[9] == "  Alice → Dai：768（输家互付）（东家 ×2）"
    assert [line.in_language("zh-TW") for line in lines][
        9
    ] == "  Alice → Dai：768（輸家互付）（東家 ×2）"
    yours = in_person(replace(lines[6], fields={**lines[6].fields, "payer": "You"}), "You")
    assert str(yours) == "  You pay Carol: 80 (×2 with East)"


def test_a_limit_hand_and_a_hand_at_the_limit_say_so() -> None:
    from bot.runtime.every_hand_words import seat_score_text

    capped = SeatScore(1, 48, 5, 1000, capped=True)
    assert seat_score_text(capped, "Bob").in_language("en") == (
        "  Bob: 48 points, 5 doubles = 1,000 (the limit)"
    )
    limit = SeatScore(2, 0, 0, 1000, limit=True)
    assert seat_score_text(limit, "Carol").in_language("zh-TW") == "  Carol：滿貫牌 1,000"
    assert score_cells(HandScoreView("Bob", 48, 5, 1000, capped=True), "en") == (
        "48",
        "5",
        "Limit 1,000",
    )
    assert score_cells(HandScoreView("Carol", 0, 0, 1000, limit=True), "zh-CN")[:2] == ("—", "—")
    assert transfer_words(TransferView("Alice", "Carol", 2000, times=2), "en") == (
        "Alice → Carol",
        "2,000 (×2)",  # 2,000 in all, East's double in it
    )


@pytest.mark.parametrize("language", ["en", "zh-CN", "zh-TW"])
def test_the_result_picture_draws_the_scores_in_every_language(language: str) -> None:
    view = result_view_from_state(west_wins(), NAMES)
    plain = replace(view, hand_scores=(), transfers=())
    drawn, without = render_result(view, language), render_result(plain, language)
    assert drawn.width == without.width == 800  # 400 px wide at half size
    assert drawn.height > without.height + 200  # four score rows and three payment rows


def test_the_table_shows_points_below_zero() -> None:
    assert points_text(-848, False, "en") == "−848 pts"
    assert points_text(-848, False, "zh-CN").startswith("−848")


def test_play_length_serves_every_preset_with_a_length_option() -> None:
    from bot.cli import _parser, length_help
    from engine.options import choose, parse_choices

    for length, rounds in (("east", 1), ("full", 4)):
        args = _parser().parse_args(["play", "--preset", "chinese-classical", "--length", length])
        assert args.option == [f"length={length}"]
        assert choose(CLASSICAL, parse_choices(CLASSICAL, args.option)).game.rounds == rounds
    assert "chinese-classical: full or east" in length_help()
    assert "riichi, riichi-majsoul, sanma: south or east" in length_help()


def test_a_matchs_final_score_is_what_it_won_or_lost() -> None:
    from render.standings import score_text

    final = CLASSICAL.game.score
    assert final is not None
    scores = final.scores([2180, 2046, 1972, 1802], [1, 2, 3, 4])
    assert scores == [180, 46, -28, -198] and sum(scores) == 0
    assert score_text(-1180.0) == "-1,180"
