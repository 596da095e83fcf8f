"""The Sichuan family (RULES.md "Seed 004 tables"): scoring, openings, void suits, multiple wins,
blood battle, blood flow, kong payments and the wall-draw checks, with concrete hands.

Every number is worked out by hand in the comment beside it. Points per payer are 2^fan with the
fan capped at 4; the void suit is given as "void" in score requests.
"""

from __future__ import annotations

import io
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import shapes
from engine.actions import Action, ActionKind
from engine.computer.easy import choose_action
from engine.computer.simulate import play_out, simulate
from engine.events import Event, Phase, Termination
from engine.families.sichuan import scoring as sichuan
from engine.formats.score_request import RequestError, run_score_lines, score_request
from engine.hand import HandState
from engine.presets import AfterWin, Preset, find_preset
from engine.rules import AfterWinPart, OpeningsPart, VoidPart
from engine.scoring.base import WinBy
from engine.settlement import deltas_of
from engine.tiles import MeldKind, counts_of, format_tiles, parse_tile, parse_tiles, suit_of
from tests.hands import act, pattern_ids

SICHUAN = ("sichuan-bb", "sichuan-swap3", "bloodflow-swap3", "bloodflow-discard3")


def pass_claims(state: HandState) -> None:
    """Pass every open claim (discard or robbing window)."""
    while state.phase in (Phase.CLAIMS, Phase.ROB):
        act(state, f"{state.seats_to_act()[0]} pass")


def play(state: HandState, *texts: str) -> None:
    """Apply each action, letting every claim it opens pass."""
    for text in texts:
        act(state, text)
        pass_claims(state)


def legal(state: HandState, seat: int) -> set[str]:
    return {str(a) for a in state.legal_actions(seat)}


def result(**request: object) -> dict[str, object]:
    """Score a request for sichuan-bb (unless `preset` is given), discard win, void s by default."""
    return score_request({"preset": "sichuan-bb", "void": "s", **request})


# ------------------------------------------------------------------------------- table fan


@pytest.mark.parametrize(
    ("request_", "patterns", "fan", "points"),
    [
        pytest.param(
            {"hand": "123m456m789m234p55p", "win": "5p"}, {}, 0, {"discarder": 1}, id="basic_win"
        ),
        pytest.param(
            {"hand": "111m222m333p444p55p", "win": "5p"},
            {"all_pungs": 1},
            1,
            {"discarder": 2},
            id="all_pungs",
        ),
        pytest.param(
            # pungs in the melds count too: an exposed kong is a pung and a root
            {"hand": "111m333m444p55p", "win": "5p", "melds": ["kong 2222p"]},
            {"all_pungs": 1, "root": 1},
            2,
            {"discarder": 4},
            id="all_pungs_with_a_kong",
        ),
        pytest.param(
            {"hand": "1133557799m2244p", "win": "4p"},
            {"seven_pairs": 2},
            2,
            {"discarder": 4},
            id="seven_pairs",
        ),
        pytest.param(
            {"hand": "123m456m789m234m55m", "win": "5m"},
            {"full_flush": 2},
            2,
            {"discarder": 4},
            id="full_flush",
        ),
        pytest.param(
            # 1m four times: a pung of 1m and 1m in the chow 123m
            {"hand": "111m123m456p789p55p", "win": "5p"},
            {"root": 1},
            1,
            {"discarder": 2},
            id="root_four_held",
        ),
        pytest.param(
            {"hand": "123m456p789p55p", "win": "5p", "melds": ["pung 999m"]},
            {},
            0,
            {"discarder": 1},
            id="pung_meld_alone_is_no_root",
        ),
        pytest.param(
            # pung 9p exposed plus the fourth 9p in the hand: four held, one root
            {"hand": "123m456p789p99m", "win": "9m", "melds": ["pung 999p"]},
            {"root": 1},
            1,
            {"discarder": 2},
            id="root_pung_meld_and_fourth_in_hand",
        ),
        pytest.param(
            # four 1m read as two of the pairs: seven pairs 2 + root 1
            {"hand": "11113355m224466p", "win": "6p"},
            {"seven_pairs": 2, "root": 1},
            3,
            {"discarder": 8},
            id="seven_pairs_with_four_of_a_kind",
        ),
        pytest.param(
            {"hand": "123m456m789m234p55p", "win": "5p", "by": "self_draw"},
            {"self_draw": 1},
            1,
            {"each": 2},
            id="self_draw",
        ),
        pytest.param(
            # root (the kong) 1 + kong bloom 1 + self draw 1
            {
                "hand": "123m456p789p55p",
                "win": "5p",
                "melds": ["concealed_kong 9999m"],
                "by": "self_draw",
                "flags": ["kong_replacement"],
            },
            {"root": 1, "kong_bloom": 1, "self_draw": 1},
            3,
            {"each": 8},
            id="kong_bloom",
        ),
        pytest.param(
            # robbing a kong has no fan of its own; the robbed player pays as the discarder
            {"hand": "123m456m789m234p55p", "win": "2p", "by": "robbing_kong"},
            {},
            0,
            {"discarder": 1},
            id="robbing_kong",
        ),
        pytest.param(
            # 111 222 333m read as pungs (all pungs 1) beats three chows 123m (nothing)
            {"hand": "111m222m333m555p77p", "win": "7p"},
            {"all_pungs": 1},
            1,
            {"discarder": 2},
            id="best_reading_pungs",
        ),
        pytest.param(
            # seven pairs 2 + full flush 2 beats 123 123 456 456 + 77 (full flush 2)
            {"hand": "11223344556677m", "win": "7m"},
            {"seven_pairs": 2, "full_flush": 2},
            4,
            {"discarder": 16},
            id="best_reading_seven_pairs",
        ),
        pytest.param(
            # seven pairs 2 + full flush 2 + root 1 + self draw 1 = 6, capped at 4: 16 each
            {"hand": "11112233556677m", "win": "7m", "by": "self_draw"},
            {"seven_pairs": 2, "full_flush": 2, "root": 1, "self_draw": 1},
            4,
            {"each": 16},
            id="cap_at_four",
        ),
        pytest.param(
            # full flush 2 + all pungs 1 + two roots (kongs) 2 + kong bloom 1 + self draw 1 = 7
            {
                "hand": "333m55m",
                "win": "5m",
                "melds": ["kong 1111m", "concealed_kong 2222m", "pung 999m"],
                "by": "self_draw",
                "flags": ["kong_replacement"],
            },
            {"all_pungs": 1, "full_flush": 2, "root": 2, "kong_bloom": 1, "self_draw": 1},
            4,
            {"each": 16},
            id="cap_with_two_roots",
        ),
        pytest.param(
            # bloodflow-discard3: ten tiles + the winning one, three sets and a pair
            {"preset": "bloodflow-discard3", "hand": "123m456m789p55p", "win": "5p"},
            {},
            0,
            {"discarder": 1},
            id="discard_three_eleven_tiles",
        ),
        pytest.param(
            {"preset": "bloodflow-discard3", "hand": "111m222m333m55m", "win": "5m"},
            {"all_pungs": 1, "full_flush": 2},
            3,
            {"discarder": 8},
            id="discard_three_full_flush_all_pungs",
        ),
    ],
)
def test_table_fan(
    request_: dict[str, object], patterns: dict[str, int], fan: int, points: dict[str, int]
) -> None:
    scored = result(**request_)
    assert scored["valid"] is True
    assert pattern_ids(scored) == patterns
    assert (scored["fan"], scored["unit"], scored["limit"]) == (fan, "fan", False)
    assert scored["points"] == points


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        pytest.param(
            {"hand": "123m456m789m234s55p", "win": "5p", "void": "s"}, "void suit s", id="void_s"
        ),
        pytest.param(
            {"hand": "123m456p789p55p", "win": "5p", "melds": ["pung 222s"], "void": "s"},
            "void suit s",
            id="void_in_a_meld",
        ),
        pytest.param(
            {"hand": "123m456m789m234s55p", "win": "5p", "void": None},
            "three suits",
            id="three_suits_without_a_void",
        ),
        pytest.param(
            {"hand": "123m456m789m234p56p", "win": "6p"},
            "4 sets and a pair or seven pairs",
            id="not_a_shape",
        ),
        pytest.param(
            {"hand": "1133557799m2245p", "win": "5p"},
            "4 sets",
            id="seven_pairs_needs_pairs",
        ),
    ],
)
def test_not_a_winning_hand(request_: dict[str, object], words: str) -> None:
    scored = result(**request_)
    assert scored["valid"] is False and scored["reason"] == "not_a_winning_hand"
    assert words in str(scored["message"])


def test_a_two_suit_hand_needs_no_declared_void() -> None:
    scored = result(hand="123m456m789m234p55p", win="5p", void=None)
    assert scored["valid"] is True and scored["fan"] == 0


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        ({"preset": "bloodflow-discard3", "hand": "123m456m789m234p55p", "win": "5p"}, "11"),
        ({"preset": "sichuan-bb", "hand": "123m456m789p55p", "win": "5p"}, "14"),
        ({"preset": "sichuan-swap3", "hand": "123m456m789m234p55z", "win": "5z"}, "5z"),
        (
            {"preset": "bloodflow-swap3", "hand": "123m456m789m234p55p", "win": "5p", "void": "z"},
            "void",
        ),
    ],
    ids=["discard_three_count", "thirteen_tile_count", "honour_tile", "bad_void"],
)
def test_request_errors(request_: dict[str, object], words: str) -> None:
    with pytest.raises(RequestError, match=words):
        score_request(request_)


def test_score_lines_for_every_sichuan_preset() -> None:
    lines = [
        json.dumps(
            {"preset": preset, "hand": "111m222m333m444m55m", "win": "5m", "void": "p"}
            if preset != "bloodflow-discard3"
            else {"preset": preset, "hand": "111m222m333m55m", "win": "5m", "void": "p"}
        )
        for preset in SICHUAN
    ]
    out, err = io.StringIO(), io.StringIO()
    assert run_score_lines(lines, out, err) == 0 and err.getvalue() == ""
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    # all pungs 1 + full flush 2 = 3 fan: the discarder pays 8
    assert [r["fan"] for r in results] == [3, 3, 3, 3]
    assert all(r["points"] == {"discarder": 8} for r in results)


# ------------------------------------------------------------------------------- openings


def arranged(
    preset_id: str, hands: list[str], draws: str = "", replacements: str = ""
) -> HandState:
    """HandState.arranged, checking that each seat is dealt 13 tiles and the dealer 14."""
    assert [len(parse_tiles(h)) for h in hands] == [14, 13, 13, 13], hands
    return HandState.arranged(find_preset(preset_id), hands, draws, replacements)


# Seats 1-3 holding no bamboo and calling nothing on the discards the tests make.
QUIET_1_2_3 = ["147m258p369m147p2m", "258m369p147m258p3m", "369m147p258m369p4p"]


def test_void_suits_are_hidden_until_all_have_chosen() -> None:
    state = HandState(find_preset("sichuan-bb"), seed=3)
    assert state.phase is Phase.OPENING and state.seats_to_act() == [0, 1, 2, 3]
    assert legal(state, 2) == {"2 void m", "2 void p", "2 void s"}
    for text in ("2 void m", "0 void p", "3 void s"):
        events = act(state, text)
        assert state.require(VoidPart).void == [None] * 4 and not any(
            e.kind == "void_revealed" for e in events
        )
    assert state.seats_to_act() == [1] and state.legal_actions(2) == ()
    events = act(state, "1 void m")
    assert state.require(VoidPart).void == ["p", "m", "m", "s"]
    assert [e.detail for e in events if e.kind == "void_revealed"] == ["pmms"]
    assert state.phase is Phase.TURN and state.turn == 0


@pytest.mark.parametrize(
    ("void", "discards"), [("s", {"5s", "6s", "9s"}), ("p", {"1p", "2p"}), ("m", None)]
)
def test_void_tiles_must_be_discarded_first(void: str, discards: set[str] | None) -> None:
    state = arranged("sichuan-bb", ["123m456m789m12p5s6s" + "9s", *QUIET_1_2_3])
    act(state, f"0 void {void}", "1 void s", "2 void s", "3 void s")
    allowed = {a.split()[-1] for a in legal(state, 0) if "discard" in a}
    if discards is None:  # nine characters held, void m: any of them first
        assert allowed == {"1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"}
    else:
        assert allowed == discards


@pytest.mark.parametrize(
    ("seat1", "can_win"),
    [("123m456m789m111p5p", True), ("123m456m789m111s5p", False)],
    ids=["clean", "holds_its_void_suit"],
)
def test_no_win_while_holding_the_void_suit(seat1: str, can_win: bool) -> None:
    # dots are the dealer's void and 5p its only dot, so 5p is its first discard
    state = arranged(
        "sichuan-bb",
        [
            "2s3s4s5s6s7s8s9s9m9m3m7s8s" + "5p",
            seat1,
            "23p44p66p7p8p9p2m6m8m9s",
            "2p4p6p8m5m5m5m7m7m3s4s6s6s",
        ],
    )
    act(state, "0 void p", "1 void s", "2 void m", "3 void s")
    assert legal(state, 0) == {"0 discard 5p"}
    act(state, "0 discard 5p")
    assert ("1 win" in legal(state, 1)) is can_win
    if not can_win:  # 123m 456m 789m 111s 55p is complete, but holds bamboo: nobody may claim
        assert state.phase is Phase.TURN and state.turn == 1


SWAP_HANDS = [
    "123m456m789m12p3s5s" + "4s",
    "1p2p3p4p5p6p7p8p9p1s2s3s5m",
    "1m2m3m5s6s7s8s9s9p9p8p7p6p",
    "2m3m4m5m6m7m8m9m1s1s2s2s3s",
]


def test_swap_three_moves_every_pick_in_one_direction() -> None:
    state = arranged("sichuan-swap3", SWAP_HANDS)
    before = [Counter(h) for h in state.hands]
    # a pick is three tiles of one suit
    assert "0 swap 1p2p3s" not in legal(state, 0) and "0 swap 12p9m" not in legal(state, 0)
    picks = ["0 swap 789m", "1 swap 123s", "2 swap 567s", "3 swap 112s"]
    act(state, *picks[:3])
    assert [Counter(h) for h in state.hands] == before  # nothing moves before the last pick
    act(state, picks[3])
    direction = state.require(OpeningsPart).swap_direction
    assert direction == 3  # drawn from the seed (0 for arranged hands): each pick goes to seat-1
    for seat in range(4):
        given = Counter(Action.parse(picks[seat]).tiles)
        received = Counter(Action.parse(picks[(seat - direction) % 4]).tiles)
        assert Counter(state.hands[seat]) == before[seat] - given + received
    # then the void suits
    assert state.phase is Phase.OPENING and state.seats_to_act() == [0, 1, 2, 3]
    assert all(a.kind is ActionKind.VOID for a in state.legal_actions(0))


def test_swap_direction_comes_from_the_seed_and_takes_all_three_values() -> None:
    preset = find_preset("sichuan-swap3")
    directions = set()
    for seed in range(12):
        state = HandState(preset, seed)
        for seat in range(4):
            act(state, str(choose_action(state, seat)))
        directions.add(state.require(OpeningsPart).swap_direction)
        again = HandState.replay(preset, seed, [str(a) for a in state.log])
        assert (
            again.hands == state.hands
            and again.require(OpeningsPart).swap_direction
            == state.require(OpeningsPart).swap_direction
        )
    assert directions == {1, 2, 3}


def discard_three_state() -> HandState:
    """bloodflow-discard3 after the removals and voids; the dealer must discard 3m first.

    Seat 1 keeps 1112m456m789m (waits 2m 3m), seat 3 keeps 3m555p666p777p (waits 3m), seat 2
    keeps 234p789p55m66m and the dealer 111s222s333s4s3m (void m).
    """
    state = arranged(
        "bloodflow-discard3",
        [
            "444p111s222s333s4s" + "3m",
            "1112m456m789m5s6s7s",
            "234p789p55m66m8s8s8s",
            "3m555p666p777p9s9s9s",
        ],
        # 0 draws 6p, 1 draws 1m, 2 draws 9p, 3 draws 5p (kong), 0 draws 1p, 1 draws 2m
        draws="6p1m9p5p1p2m",
        replacements="3m",
    )
    act(state, "0 remove 444p", "1 remove 567s", "2 remove 888s", "3 remove 999s")
    act(state, "0 void m", "1 void s", "2 void s", "3 void s")
    return state


def test_discard_three_leaves_ten_tile_hands_that_win_as_three_sets_and_a_pair() -> None:
    state = discard_three_state()
    assert [len(h) for h in state.hands] == [11, 10, 10, 10]
    assert [len(r) for r in state.require(OpeningsPart).removed] == [3, 3, 3, 3]
    assert Counter(state.tiles_in_play()) == Counter(state.preset.wall)
    assert legal(state, 0) == {"0 discard 3m"}
    act(state, "0 discard 3m")
    assert "1 win" in legal(state, 1) and "3 win" in legal(state, 3)
    act(state, "1 win", "3 win")
    first = state.wins[0]
    # 11 123m 456m 789m: full flush 2, the dealer pays 4
    assert first.seat == 1 and len(first.concealed) == 11
    assert {p.id for p in first.score.patterns} == {"full_flush"} and first.deltas == (-4, 4, 0, 0)


# ------------------------------------------------------------------------------- wins


def battle_state() -> HandState:
    """sichuan-bb where the dealer's first discard 5p is a win for seats 1 and 3."""
    state = arranged(
        "sichuan-bb",
        [
            "1s1s1s2s3s4s5s6s7s8s9m9m3m" + "5p",
            "123m456m789m111p5p",  # waits 5p: a basic win, 1 point
            "123p456p789p2s3s99s",  # void m; waits 1s 4s
            "222m555m888m666p5p",  # waits 5p: all pungs, 2 points
        ],
        draws="1s4s",  # the dealer draws its fourth 1s, seat 2 its winning 4s
        replacements="6m",
    )
    act(state, "0 void p", "1 void s", "2 void m", "3 void s")
    return state


def test_multiple_discard_wins_are_each_paid_and_blood_battle_winners_leave() -> None:
    state = battle_state()
    act(state, "0 discard 5p")
    assert state.seats_to_act() == [1, 3]
    act(state, "3 win", "1 win")  # the order of answers does not matter, turn order does
    assert [(w.seat, w.by, w.discarder) for w in state.wins] == [
        (1, WinBy.DISCARD, 0),
        (3, WinBy.DISCARD, 0),
    ]
    assert [w.deltas for w in state.wins] == [(-1, 1, 0, 0), (-2, 0, 0, 2)]
    assert (
        state.require(AfterWinPart).left == [False, True, False, True] and state.outcome() is None
    )
    # the one physical winning tile is set aside with the first winner
    assert (
        state.require(AfterWinPart).won_tiles[1] == [parse_tile("5p")]
        and state.require(AfterWinPart).won_tiles[3] == []
    )
    # play goes on with the next player still in after the last winner: the dealer
    assert state.phase is Phase.TURN and state.turn == 0 and state.drawn == parse_tile("1s")
    assert Counter(state.tiles_in_play()) == Counter(state.preset.wall)


def test_blood_battle_ends_when_three_have_won_and_leavers_pay_nothing() -> None:
    state = battle_state()
    act(state, "0 discard 5p", "1 win", "3 win")
    # seat 2 waits on 1s, but only an added kong may be robbed: the concealed kong is committed
    # at once, and only seat 2, the one other player still in, pays its 2
    act(state, "0 concealed_kong 1s")
    assert state.phase is Phase.TURN and state.melds[0][0].kind is MeldKind.CONCEALED_KONG
    assert state.points == [-3 + 2, 1, -2, 2]
    play(state, "0 discard 6m")  # seat 2's void suit: nobody may claim it
    assert state.turn == 2 and "2 win" in legal(state, 2)
    act(state, "2 win")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.WIN
    assert outcome.winners == (1, 3, 2)
    # 123p 456p 789p 234s 99s self-drawn: self draw 1, so 2 from the dealer, the only one left
    assert outcome.wins[2].deltas == (-2, 0, 2, 0)
    assert outcome.deltas == (-3, 1, 0, 2)


def test_after_a_win_play_goes_on_after_the_winner() -> None:
    state = arranged(
        "sichuan-bb",
        [
            "1s1s1s2s3s4s5s6s7s8s9m9m3m" + "5p",
            "147m258m369m1p4p7p2m",
            "123m456m789m111p5p",
            "258p369p147m258m3m",
        ],
    )
    act(state, "0 void p", "1 void s", "2 void s", "3 void s")
    act(state, "0 discard 5p", "2 win")
    # seat 1 sits between the discarder and the winner, but play resumes after the winner
    assert state.require(AfterWinPart).left == [False, False, True, False]
    assert state.phase is Phase.TURN and state.turn == 3


def test_blood_flow_winners_stay_with_locked_hands() -> None:
    state = discard_three_state()
    act(state, "0 discard 3m", "1 win", "3 win")
    assert (
        state.require(AfterWinPart).locked == [False, True, False, True]
        and state.require(AfterWinPart).left == [False] * 4
    )
    assert state.turn == 0
    # seat 3 is locked: the last 6p may not be punged or konged, so no window opens at all
    act(state, "0 discard 6p")
    assert state.phase is Phase.TURN and state.turn == 1
    # a locked hand discards the drawn tile; a kong of 1m would change the waits 2m 3m to 2m
    assert legal(state, 1) == {"1 discard 1m"}
    play(state, "1 discard 1m", "2 discard 9p")
    # a kong of 5p keeps seat 3's wait on 3m, so it is allowed, and each of the other three
    # pays 2 (in blood flow everyone stays in)
    assert legal(state, 3) == {"3 discard 5p", "3 concealed_kong 5p"}
    before = list(state.points)
    act(state, "3 concealed_kong 5p")
    assert [a - b for a, b in zip(state.points, before, strict=True)] == [-2, -2, -2, 6]
    # the replacement 3m wins again: all pungs 1 + root 1 + kong bloom 1 + self draw 1 = 4
    assert state.drawn == parse_tile("3m") and "3 win" in legal(state, 3)
    act(state, "3 win")
    bloom = state.wins[-1]
    assert bloom.seat == 3 and bloom.score.fan == 4 and bloom.deltas == (-16, -16, -16, 48)
    assert {p.id for p in bloom.score.patterns} == {"all_pungs", "root", "kong_bloom", "self_draw"}
    assert state.require(AfterWinPart).locked[3] and state.turn == 0
    play(state, "0 discard 1p")
    # seat 1 draws 2m, one of its waits: it may win again (or discard it)
    assert legal(state, 1) == {"1 win", "1 discard 2m"}
    act(state, "1 win")
    # 111 22 456 789m self-drawn: full flush 2 + self draw 1 = 3, 8 from each of the three
    assert state.wins[-1].deltas == (-8, 24, -8, -8)
    assert [w.seat for w in state.wins] == [1, 3, 3, 1]
    # the dealer paid 4 + 2 for the first wins, 2 for the kong, 16 and 8
    assert state.points == [-32, 4 - 2 - 16 + 24, -2 - 16 - 8, 2 + 6 + 48 - 8]
    assert state.outcome() is None
    assert Counter(state.tiles_in_play()) == Counter(state.preset.wall)


def test_computer_players_keep_a_locked_hand_and_take_the_paid_kong() -> None:
    state = discard_three_state()
    act(state, "0 discard 3m", "1 win", "3 win", "0 discard 6p")
    assert choose_action(state, 1) == Action.parse("1 discard 1m")
    play(state, "1 discard 1m", "2 discard 9p")
    assert choose_action(state, 3) == Action.parse("3 concealed_kong 5p")
    act(state, "3 concealed_kong 5p")
    assert choose_action(state, 3) == Action.parse("3 win")


# ------------------------------------------------------------------------------- kongs


def kong_state(seat2: str) -> HandState:
    """sichuan-bb, every void bamboo and no bamboo held: an exposed kong (seat 2 on the dealer's
    7p), a concealed kong (seat 1's 1m) and a pung of 9m (seat 3) that it later adds to."""
    state = arranged(
        "sichuan-bb",
        ["234m56m123p456p89p" + "7p", "111m234m456m88p5p7m", seat2, "99m4m7m6m3p6p9p8p8m5p2p2m"],
        # 3 draws 4p, 0 draws 1p, 1 draws 1m, 0 draws 9p, 1 draws 1p, 2 draws 4p, 3 draws 9m
        draws="4p1p1m9p1p4p9m",
        replacements="9p9m3m",
    )
    act(state, "0 void s", "1 void s", "2 void s", "3 void s")
    act(state, "0 discard 7p")
    assert legal(state, 2) == {"2 pass", "2 pung 7p", "2 kong 7p"}
    act(state, "2 kong 7p")
    assert state.drawn == parse_tile("9p") and state.after_kong
    play(state, "2 discard 9p", "3 discard 4p", "0 discard 1p")
    act(state, "1 concealed_kong 1m")
    assert state.drawn == parse_tile("9m")
    act(state, "1 discard 9m")
    if 2 in state.seats_to_act():
        act(state, "2 pass")
    act(state, "3 pung 9m")
    play(state, "3 discard 2m", "0 discard 9p", "1 discard 1p", "2 discard 4p")
    assert state.turn == 3 and state.drawn == parse_tile("9m")
    return state


def test_kong_payments_are_made_at_once() -> None:
    state = kong_state("777p68m123p456p55m")  # waits 7m
    # exposed kong: the dealer pays 2; concealed kong: each other player pays 2
    assert state.points == [-2 - 2, 6, 2 - 2, -2]
    act(state, "3 added_kong 9m")
    # nobody can rob it: committed, and each other player pays 1
    assert state.phase is Phase.TURN and state.melds[3][0].kind is MeldKind.ADDED_KONG
    assert state.points == [-5, 5, -1, 1]
    assert state.drawn == parse_tile("3m")


def test_robbing_an_added_kong_is_paid_by_the_robbed_player() -> None:
    state = kong_state("777p78m123p456p55m")  # waits 6m 9m
    act(state, "3 added_kong 9m")
    assert state.phase is Phase.ROB and legal(state, 2) == {"2 pass", "2 win"}
    act(state, "2 win")
    win = state.wins[0]
    # 789m 123p 456p 55m + kong 7777p: root 1 -> the robbed player pays 2, the kong pays nothing
    assert win.by is WinBy.ROBBING_KONG and win.discarder == 3
    assert {p.id for p in win.score.patterns} == {"root"} and win.deltas == (0, 0, 2, -2)
    assert state.points == [-4, 6, 0 + 2, -2 - 2]
    assert state.melds[3][0].kind is MeldKind.PUNG and state.require(AfterWinPart).left[2]
    assert state.turn == 3  # play goes on after the winner


def kong_deltas(
    preset: Preset, kind: MeldKind, seat: int, discarder: int | None, in_play: tuple[int, ...]
) -> list[int]:
    return deltas_of(sichuan.kong_payments(preset, kind, seat, discarder, in_play), 4)


def wall_draw_deltas(preset: Preset, state: HandState) -> list[int]:
    return deltas_of(sichuan.wall_draw_payments(preset, state), state.seat_count)


def test_kong_payment_hook() -> None:
    preset = find_preset("sichuan-bb")
    everyone = (0, 1, 2, 3)
    assert kong_deltas(preset, MeldKind.KONG, 2, 3, everyone) == [0, 0, 2, -2]
    assert kong_deltas(preset, MeldKind.ADDED_KONG, 2, None, everyone) == [-1, -1, 3, -1]
    # seat 1 has left (blood battle): it pays nothing
    assert kong_deltas(preset, MeldKind.CONCEALED_KONG, 2, None, (0, 2, 3)) == [
        -2,
        0,
        4,
        -2,
    ]


# ------------------------------------------------------------------------------- wall draw


WALL_DRAW_HANDS = [
    "1112345678999m" + "7p",  # void s; nine gates: waits 1m-9m, best 1m/9m = 3 fan, 8
    "1m4m7m9m2p5p8p3p6p9p1p4p7p",  # void s; not ready
    "111p222p333p44s55s",  # void m; waits 4s 5s: all pungs 1 fan, 2
    "2m2m3m3m5m6m8m4p5p6p8p9p5s",  # void s, holds 5s: the flower pig
]


def wall_draw_state() -> HandState:
    """sichuan-bb played to the wall's end: everyone discards each drawn tile, passes every claim;
    the pig (seat 3) draws only bamboo, so it ends holding its 5s."""
    preset = find_preset("sichuan-bb")
    rest = Counter(preset.wall) - Counter(t for h in WALL_DRAW_HANDS for t in parse_tiles(h))
    pool = sorted(rest.elements())
    bamboo = [t for t in pool if suit_of(t) == "s"][:14]
    others = list((Counter(pool) - Counter(bamboo)).elements())
    # draw k (1-55) goes to seat k % 4
    draws = [bamboo.pop() if k % 4 == 3 else others.pop() for k in range(1, 56)]
    state = arranged("sichuan-bb", WALL_DRAW_HANDS, format_tiles(draws))
    act(state, "0 void s", "1 void s", "2 void m", "3 void s")
    while not state.is_over:
        seat = state.seats_to_act()[0]
        if state.phase is Phase.CLAIMS:
            act(state, f"{seat} pass")
        else:
            state.apply(Action(seat, ActionKind.DISCARD, (state.drawn,)))  # type: ignore[arg-type]
    return state


def test_wall_draw_flower_pig_and_not_ready_payments() -> None:
    state = wall_draw_state()
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.WALL_DRAW
    assert [sorted(h) for h in state.hands] == [
        sorted(parse_tiles(h)[:13]) for h in WALL_DRAW_HANDS
    ]
    assert shapes.shanten(counts_of(state.hands[1])) > 0
    # the pig pays 16 to each of the three clean players; seat 1 (not ready) pays seat 0 its
    # best win 8 and seat 2 its best win 2
    assert outcome.deltas == (16 + 8, 16 - 8 - 2, 16 + 2, -48)


def test_wall_draw_checks_only_the_players_who_have_not_won() -> None:
    state = wall_draw_state()
    preset = state.preset
    state.require(AfterWinPart).locked[0] = True  # as if seat 0 had won in blood flow
    assert wall_draw_deltas(preset, state) == [0, 16 - 2, 16 + 2, -32]
    state.require(AfterWinPart).locked[0] = False
    state.require(AfterWinPart).left[2] = True  # as if seat 2 had won and left in blood battle
    assert wall_draw_deltas(preset, state) == [16 + 8, 16 - 8, 0, -32]
    assert sichuan.is_flower_pig(state, 3) and not sichuan.is_flower_pig(state, 0)
    assert [sichuan.best_win(preset, state, s) for s in range(3)] == [8, 0, 2]


# ------------------------------------------------------------------------------- computers


def test_computer_declares_the_weakest_suit_void_and_swaps_from_it() -> None:
    state = arranged("sichuan-swap3", SWAP_HANDS)
    # the dealer: nine characters, two dots, three bamboo -> the bamboo (dots have no three)
    assert choose_action(state, 0) == Action.parse("0 swap 345s")
    # seat 1: nine dots, three bamboo, one character -> its three bamboo
    assert choose_action(state, 1) == Action.parse("1 swap 123s")
    # seat 3: eight characters, five bamboo -> three of the bamboo
    assert {suit_of(t) for t in choose_action(state, 3).tiles} == {"s"}
    state = arranged("sichuan-bb", SWAP_HANDS)
    # void: the suit with the fewest tiles (dots for the dealer, none held by seat 3)
    assert [str(choose_action(state, seat)) for seat in range(4)] == [
        "0 void p",
        "1 void m",
        "2 void m",
        "3 void p",
    ]


# ------------------------------------------------------------------------------- properties


def payments_of(events: list[Event]) -> list[list[int]]:
    return [[int(d) for d in e.detail.split()] for e in events if e.kind == "payment"]


@pytest.mark.parametrize("preset_id", SICHUAN)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), picks=st.data())
def test_random_play_pays_only_by_the_table_rules(
    preset_id: str, seed: int, picks: st.DataObject
) -> None:
    preset = find_preset(preset_id)
    state = HandState(preset, seed)
    payments: list[list[int]] = []
    while not state.is_over:
        seat = picks.draw(st.sampled_from(state.seats_to_act()))
        if picks.draw(st.booleans()):
            action = choose_action(state, seat)
        else:
            action = picks.draw(st.sampled_from(state.legal_actions(seat)))
        payments += payments_of(state.apply(action))
    # every point moved in a zero-sum payment, and they add up to the hand's points
    assert all(sum(p) == 0 for p in payments)
    assert [sum(column) for column in zip(*payments, strict=True)] == (
        state.points if payments else []
    )
    for win in state.wins:
        per_payer = 2 ** min(win.score.fan, 4)
        payers = [s for s, d in enumerate(win.deltas) if d < 0]
        assert all(win.deltas[s] == -per_payer for s in payers)
        assert win.deltas[win.seat] == per_payer * len(payers)
        if win.by is WinBy.SELF_DRAW:
            assert win.seat not in payers and payers
        else:
            assert payers == [win.discarder]
        assert not any(suit_of(t) == state.require(VoidPart).void[win.seat] for t in win.concealed)
    winners = [w.seat for w in state.wins]
    if preset.after_win is AfterWin.LEAVE:
        assert len(winners) == len(set(winners)) <= 3
    finished_by_wins = preset.after_win is AfterWin.LEAVE and len(winners) == 3
    if not finished_by_wins:
        assert state.wall_left == 0
        checks = wall_draw_deltas(preset, state)
        if any(checks):
            assert payments[-1] == checks
    # replaying the log gives the same hand
    again = HandState.replay(find_preset(preset_id), seed, [str(a) for a in state.log])
    assert again.points == state.points and again.outcome() == state.outcome()


@pytest.mark.parametrize("preset_id", SICHUAN)
def test_simulate_plays_sessions_of_each_preset(preset_id: str) -> None:
    preset = find_preset(preset_id)
    hands = list(simulate(preset, 4, seed=2))
    for hand in hands:
        assert sum(hand.deltas) == 0 and all(0 <= fan <= 4 for fan in hand.fan)
        if preset.after_win is AfterWin.LEAVE:
            assert len(hand.winners) == len(set(hand.winners)) <= 3
        else:
            assert hand.wall_left == 0
    assert sum(len(hand.winners) for hand in hands) >= 4


def test_simulated_hands_replay() -> None:
    rng = random.Random(5)
    for preset_id in SICHUAN:
        seed = rng.getrandbits(32)
        live = play_out(HandState(find_preset(preset_id), seed))
        again = HandState.replay(find_preset(preset_id), seed, [str(a) for a in live.log])
        assert again.outcome() == live.outcome() and again.hands == live.hands
