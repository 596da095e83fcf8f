"""hk-3fan (RULES.md "Seed 004 tables", `hk-3fan`): every fan pattern and limit hand with a
concrete hand, the 3-fan minimum, 2^fan capped at 8, multiple discard wins, kong payments at once,
the Hong Kong dealer rotation and simulated play.

Every number is worked out by hand in the comment beside it.
"""

from __future__ import annotations

import pytest

from bot.runtime.clocks import fixed_clock
from engine.computer.simulate import simulate
from engine.events import Termination
from engine.formats.score_request import score_request
from engine.hand import HandState
from engine.presets import ConcealedRob, MultiWin, Rotation, find_preset
from engine.session import Session, next_dealer_seat
from engine.tiles import BONUS, parse_tile, parse_tiles
from tests.hands import act, pattern_ids

PRESET = "hk-3fan"


def result(**request: object) -> dict[str, object]:
    return score_request({"preset": PRESET, **request})


def test_the_preset_is_data() -> None:
    preset = find_preset(PRESET)
    assert len(preset.wall) == 136 and not any(t in BONUS for t in preset.wall)
    assert preset.multi_win is MultiWin.MULTIPLE and preset.chow
    assert preset.min_fan == 3 and preset.fan_cap == 8
    assert preset.rotation is Rotation.HONG_KONG
    assert preset.concealed_rob is ConcealedRob.NEVER
    assert preset.time_control == preset.rated_time_control == "table"


@pytest.mark.parametrize(
    ("request_", "patterns", "fan", "points"),
    [
        pytest.param(
            # 4 + nothing else: 2^4 = 16
            {"hand": "1133557799m2244p", "win": "4p"},
            {"seven_pairs": 4},
            4,
            {"discarder": 16},
            id="seven_pairs",
        ),
        pytest.param(
            # four of a kind counts as two pairs at seed-004 tables
            {"hand": "1111m3355p7799s22p", "win": "2p"},
            {"seven_pairs": 4},
            4,
            {"discarder": 16},
            id="seven_pairs_with_four_of_a_kind",
        ),
        pytest.param(
            {"hand": "111m222m333p444p55s", "win": "5s"},
            {"all_pungs": 3},
            3,
            {"discarder": 8},
            id="all_pungs",
        ),
        pytest.param(
            {"hand": "123m456m789m66z", "win": "6z", "melds": ["chow 234m"]},
            {"half_flush": 3},
            3,
            {"discarder": 8},
            id="half_flush",
        ),
        pytest.param(
            {"hand": "123m456m789m234m55m", "win": "5m"},
            {"full_flush": 6},
            6,
            {"discarder": 64},
            id="full_flush",
        ),
        pytest.param(
            # 5z and 7z pungs 1 each + half flush 3 = 5
            {"hand": "123p456p55p", "win": "5p", "melds": ["pung 555z", "pung 777z"]},
            {"dragon_pung": 2, "half_flush": 3},
            5,
            {"discarder": 32},
            id="two_dragon_pungs",
        ),
        pytest.param(
            # East seat in the East round: seat wind 1 + round wind 1 + all pungs 3 = 5
            {"hand": "111z222m333p444p55s", "win": "5s"},
            {"all_pungs": 3, "seat_wind": 1, "prevailing_wind": 1},
            5,
            {"discarder": 32},
            id="seat_and_round_wind",
        ),
        pytest.param(
            # South seat, West round: a 3z pung is the round wind only
            {
                "hand": "333z123m456p789s55s",
                "win": "5s",
                "seat": "S",
                "round": "W",
                "by": "self_draw",
            },
            {"prevailing_wind": 1, "self_draw": 1},
            2,
            None,
            id="round_wind_and_self_draw_below_minimum",
        ),
        pytest.param(
            # 2z pung at seat S: seat wind 1 + self draw 1 + dragon 1 = 3: 2^3 = 8 from each
            {"hand": "222z555z123m456p55s", "win": "5s", "seat": "S", "by": "self_draw"},
            {"seat_wind": 1, "dragon_pung": 1, "self_draw": 1},
            3,
            {"each": 8},
            id="self_draw",
        ),
        pytest.param(
            # two dragon pungs + dragon pair: little three dragons 5 replaces the dragon pungs
            {"hand": "555z666z77z123m456p", "win": "4p"},
            {"little_three_dragons": 5},
            5,
            {"discarder": 32},
            id="little_three_dragons",
        ),
        pytest.param(
            # seven pairs 4 + full flush 6 = 10, capped at 8: 2^8 = 256
            {"hand": "1133557799m2244m", "win": "4m"},
            {"seven_pairs": 4, "full_flush": 6},
            8,
            {"discarder": 256},
            id="cap_at_eight_names_every_pattern",
        ),
    ],
)
def test_fan_table(
    request_: dict[str, object],
    patterns: dict[str, int],
    fan: int,
    points: dict[str, int] | None,
) -> None:
    scored = result(**request_)
    assert pattern_ids(scored) == patterns
    assert scored["fan"] == fan
    if points is None:
        assert scored["valid"] is False and scored["reason"] == "below_minimum"
    else:
        assert scored["valid"] is True and scored["limit"] is False
        assert scored["points"] == points


@pytest.mark.parametrize(
    ("request_", "limit", "others"),
    [
        pytest.param(
            {"hand": "19m19p19s1234567z1m", "win": "1m"}, "thirteen_orphans", {}, id="orphans"
        ),
        pytest.param(
            {"hand": "11123456789995m", "win": "5m"},
            "nine_gates",
            {"full_flush": 6},
            id="nine_gates",
        ),
        pytest.param(
            {"hand": "111z222z333z444z55m", "win": "5m"},
            "big_four_winds",
            {"all_pungs": 3, "seat_wind": 1, "prevailing_wind": 1, "half_flush": 3},
            id="big_four_winds",
        ),
        pytest.param(
            {"hand": "222z333z444z11z789m", "win": "9m", "seat": "N", "round": "S"},
            "little_four_winds",
            {"seat_wind": 1, "prevailing_wind": 1, "half_flush": 3},
            id="little_four_winds",
        ),
        pytest.param(
            # big three dragons replaces the dragon pungs
            {"hand": "555z666z777z123p44p", "win": "4p"},
            "big_three_dragons",
            {"half_flush": 3},
            id="big_three_dragons",
        ),
        pytest.param(
            {"hand": "111z555z666z777z22z", "win": "2z", "seat": "W", "round": "N"},
            "all_honours",
            {"all_pungs": 3, "big_three_dragons": 8},
            id="all_honours",
        ),
        pytest.param(
            {"hand": "111m999m111p999p11s", "win": "1s"},
            "all_terminals",
            {"all_pungs": 3},
            id="all_terminals",
        ),
        pytest.param(
            {
                "hand": "55p",
                "win": "5p",
                "melds": ["kong 1111m", "concealed_kong 2222p", "added_kong 3333s", "kong 4444s"],
            },
            "four_kongs",
            {"all_pungs": 3},
            id="four_kongs",
        ),
        pytest.param(
            {"hand": "123m456p789s234s55m", "win": "5m", "by": "self_draw", "flags": ["heavenly"]},
            "heavenly_hand",
            {"self_draw": 1},
            id="heavenly",
        ),
        pytest.param(
            {"hand": "123m456p789s234s55m", "win": "5m", "seat": "S", "flags": ["earthly"]},
            "earthly_hand",
            {},
            id="earthly",
        ),
    ],
)
def test_limit_hands_score_the_cap(
    request_: dict[str, object], limit: str, others: dict[str, int]
) -> None:
    scored = result(**request_)
    assert scored["valid"] is True and scored["limit"] is True
    assert pattern_ids(scored) == {limit: 8, **others}
    assert scored["fan"] == 8
    by = request_.get("by", "discard")
    assert scored["points"] == ({"each": 256} if by == "self_draw" else {"discarder": 256})


@pytest.mark.parametrize(
    "request_",
    [
        # all chows, a mixed hand: no all-chows fan here
        {"hand": "123m456m789p234s55s", "win": "5s"},
        # robbing a kong, a kong replacement and the last tile score nothing
        {"hand": "123m456m789p234s55s", "win": "4s", "by": "robbing_kong"},
        {
            "hand": "123m456m789p55s",
            "win": "5s",
            "melds": ["concealed_kong 2222s"],
            "by": "self_draw",
            "flags": ["kong_replacement", "last_tile"],
        },
    ],
)
def test_nothing_else_scores(request_: dict[str, object]) -> None:
    scored = result(**request_)
    assert scored["valid"] is False and scored["reason"] == "below_minimum"
    assert scored["fan"] == (1 if request_.get("by") == "self_draw" else 0)


def test_not_a_winning_hand_and_no_flowers() -> None:
    scored = result(hand="123m456m789p234s59s", win="9s")
    assert scored["valid"] is False and scored["reason"] == "not_a_winning_hand"
    with pytest.raises(ValueError, match="does not use the tile"):
        result(hand="123m456m789m234m55m", win="5m", bonus="1f")


# ------------------------------------------------------------------------------- in play


def arranged(hands: list[str], draws: str = "", replacements: str = "") -> HandState:
    assert [len(parse_tiles(h)) for h in hands] == [14, 13, 13, 13], hands
    return HandState.arranged(find_preset(PRESET), hands, draws, replacements)


def test_multiple_discard_wins_are_each_paid_by_the_discarder() -> None:
    # the dealer discards 9s: seat 1 (big three dragons) and seat 3 (all terminals) both win
    state = arranged(
        [
            "147m258p369s147p2z9s",
            "555z666z777z234m9s",
            "258m369p147s258p3m",
            "111m999m111p999p9s",
        ],
    )
    act(state, "0 discard 9s")
    assert set(state.seats_to_act()) == {1, 3}
    act(state, "3 win", "1 win")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.WIN
    assert [w.seat for w in outcome.wins] == [1, 3]  # in turn order after the discarder
    assert all(w.discarder == 0 and w.score.fan == 8 for w in outcome.wins)
    assert list(outcome.deltas) == [-512, 256, 0, 256]
    # the dealer did not win: the deal moves on
    assert next_dealer_seat(Rotation.HONG_KONG, outcome) == 1


def test_kong_payments_are_made_at_once_and_stand() -> None:
    # seat 1 holds three 7z and claims the dealer's 7z as an exposed kong: the dealer pays 2
    state = arranged(
        ["147m258p369s147p2z7z", "777z123m456m789p1s", "258m369p147s258p3m", "369m147p258s369p4p"],
        replacements="2s",
    )
    act(state, "0 discard 7z")
    assert "1 kong 7z" in {str(a) for a in state.legal_actions(1)}
    act(state, "1 kong 7z")
    assert state.points == [-2, 2, 0, 0]
    assert state.drawn == parse_tile("2s")
    # the deal limit ends the hand with no winner; the kong payment stands
    state.end_by_deal_limit()
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.DEAL_LIMIT
    assert list(outcome.deltas) == [-2, 2, 0, 0] and not outcome.wins


def test_dealer_rotation_is_hong_kong_style() -> None:
    session = Session(find_preset(PRESET), seed=1)
    hand = session.new_hand()
    hand.end_by_deal_limit()
    assert hand.outcome() is not None
    # no win: the dealer keeps the deal
    assert next_dealer_seat(session.preset.rotation, hand.outcome()) == 0


def test_computer_only_play_wins_with_three_fan_and_pays_by_the_table() -> None:
    hands = list(simulate(find_preset(PRESET), 60, seed=5))
    fans = [fan for hand in hands for fan in hand.fan]
    assert fans and min(fans) >= 3 and max(fans) <= 8
    assert all(sum(hand.deltas) == 0 for hand in hands)


def test_a_concealed_kong_is_paid_by_every_other_player_and_cannot_be_robbed() -> None:
    # seat 3 waits on 1m with thirteen orphans, yet a concealed kong cannot be robbed here
    state = arranged(
        ["1111m258p369s147p2z", "258m369p147s258p3m", "368m147p258s369p4p", "99m19p19s1234567z"],
        replacements="5s",
    )
    act(state, "0 concealed_kong 1m")
    assert state.melds[0][0].kind.value == "concealed_kong"
    assert state.points == [6, -2, -2, -2]
    assert state.drawn == parse_tile("5s")


def test_the_table_clock_is_fixed() -> None:
    preset = find_preset(PRESET)
    assert fixed_clock(preset, rated=False) == fixed_clock(preset, rated=True) == "table"
