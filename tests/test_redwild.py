"""`redwild` (RULES.md): 112 tiles, the red dragons wild and never claimed, self draw and robbing
only, four red dragons win on the own turn, four birds, base 2 (4 with no red dragon) + 2 a hit.

Every number is worked out in the comment beside it. Seats 0-3 are E S W N from the dealer.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.runtime.words import event_lines, set_aside_text
from engine.actions import Action, ActionKind
from engine.computer.easy import choose_action
from engine.computer.simulate import play_out
from engine.events import Phase
from engine.families.selfdraw.rules import bird_hits
from engine.formats.score_request import RequestError, score_request
from engine.hand import HandState
from engine.presets import find_preset
from engine.session import next_dealer_seat
from engine.settlement import Reason
from engine.tiles import RED, parse_tiles
from render import render_result, to_png
from render.adapt import hand_view_from_state, result_view_from_state, table_view_from_state
from tests.hands import act

REDWILD = find_preset("redwild")


def kinds(state: HandState, seat: int) -> set[ActionKind]:
    return {a.kind for a in state.legal_actions(seat)}


def ask(**fields: object) -> dict[str, object]:
    return score_request({"preset": "redwild", "by": "self_draw", **fields})


# ------------------------------------------------------------------------------- the preset


def test_the_preset_is_three_suits_and_four_red_dragons_with_four_birds() -> None:
    assert len(REDWILD.wall) == 112 and REDWILD.wall.count(RED) == 4
    assert set(REDWILD.wall) == set(range(27)) | {RED}
    state = HandState(REDWILD, 8)
    # 112 - 4 x 13 - 1 - 4 birds = 55
    assert len(state.set_aside) == 4 and state.wall_left == 55
    assert sorted(state.tiles_in_play()) == sorted(REDWILD.wall)
    assert state.wild_kinds == frozenset({RED})


# ------------------------------------------------------------------------------- wilds in a win


@pytest.mark.parametrize(
    ("hand", "stands_for"),
    [
        ("123m456m789m11p55p7z", "a pung (555p)"),
        ("12m456m789m123p55p7z", "a chow in the hand (3m)"),
        ("123m456m789m123p5p7z", "the pair (5p)"),
        ("1133m5577p99s22s1s7z", "a seven-pairs tile (1s)"),
        ("123m456m789m12p7z7z7z", "two tiles at once (3p and a pair)"),
    ],
)
def test_a_red_dragon_stands_for_any_tile(hand: str, stands_for: str) -> None:
    answer = ask(hand=hand, win="7z")
    assert answer["valid"], stands_for
    assert answer["points"] == {"each": 2}  # base 2: the hand holds a red dragon


def test_a_hand_with_no_red_dragon_pays_a_base_of_4() -> None:
    answer = ask(hand="123m456m789m123p55p", win="5p")
    assert answer["points"] == {"each": 4} and answer["unit"] == "points"
    assert answer["deltas"] == {"E": 12, "S": -4, "W": -4, "N": -4}


def test_wilds_cannot_make_a_hand_that_is_too_far_from_complete() -> None:
    answer = ask(hand="13579m2468p1357s7z", win="7z")
    assert not answer["valid"] and answer["reason"] == "not_a_winning_hand"


def test_four_red_dragons_win_whatever_the_rest_of_the_hand() -> None:
    answer = ask(hand="13579m2468p1s7z7z7z7z", win="7z")
    assert answer["valid"] and {p["id"] for p in answer["patterns"]} == {"four_red_dragons"}
    assert answer["points"] == {"each": 2}
    # only on the own turn: robbing with the same tiles is no win
    robbing = ask(hand="13579m2468p1s7z7z7z7z", win="1s", by="robbing_kong", **{"from": "W"})
    assert not robbing["valid"]


# ------------------------------------------------------------------------------- birds


@pytest.mark.parametrize(
    ("birds", "hits"),
    [("2468m", 0), ("1m234p", 1), ("15m8s2p", 2), ("159m2p", 3), ("19s5p7z", 4)],
)
def test_birds_hit_on_1_5_9_and_red_and_pay_2_a_hit(birds: str, hits: int) -> None:
    assert len(bird_hits(parse_tiles(birds))) == hits
    answer = ask(hand="123m456m789m123p5p7z", win="5p", seat="S", birds=birds)
    each = 2 + 2 * hits
    assert answer["deltas"] == {"E": -each, "S": 3 * each, "W": -each, "N": -each}


def test_robbing_is_paid_by_the_robbed_for_all_three_birds_included() -> None:
    # base 2 + 2 hits x 2 = 6 a payer; W pays for three: 18
    answer = ask(
        hand="123m456m789m8s7z33s9s",
        win="9s",
        by="robbing_kong",
        seat="N",
        birds="1m5p2s3s",
        **{"from": "W"},
    )
    assert answer["points"] == {"discarder": 6}
    assert answer["deltas"] == {"E": 0, "S": 0, "W": -18, "N": 18}


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"hand": "123m456m789m55p", "win": "5p", "melds": ["pung 777z"]}, "wild"),
        ({"hand": "123m456m789m55p", "win": "5p", "melds": ["chow 123p"]}, "no chows"),
        ({"hand": "123m456m789m123p55p", "win": "5p", "by": "discard"}, "no discard wins"),
        ({"hand": "123m456m789m123p55p", "win": "5p", "horse": "1m"}, "horse"),
        ({"hand": "123m456m789m123p55p", "win": "5p", "birds": "159m"}, "birds"),
        ({"hand": "123m456m789m123p55p", "win": "5p", "birds": "1z5m9m1p"}, "1z"),
    ],
)
def test_requests_redwild_cannot_have_are_refused(fields: dict[str, object], words: str) -> None:
    with pytest.raises(RequestError, match=words):
        ask(**fields)


# ------------------------------------------------------------------------------- played hands

FILLER = "13579m2468p"  # nine tiles with no pairs: nothing anyone claims


def test_a_discarded_red_dragon_is_never_claimed() -> None:
    hands = [
        FILLER + "1s3s5s9s" + "7z",
        "123m456m789m7z7z2s4s",
        FILLER + "2s4s7s8s",
        "2m4m6m8m1p3p5p7p9p2s4s6s8s",
    ]
    state = HandState.arranged(REDWILD, hands, draws="9s")
    act(state, "0 discard 7z")
    # S holds two red dragons, yet no window opens: S simply draws
    assert state.phase is Phase.TURN and state.turn == 1


def test_a_played_wild_win_with_birds() -> None:
    # S: 123m456m789m12p5p7z draws 5p, the red dragon stands for 3p; birds 1s 5s 9s 2s: 3 hits,
    # each pays 2 + 6 = 8
    hands = [
        FILLER + "1s3s5s9s" + "6s",
        "123m456m789m12p5p7z",
        FILLER + "2s4s7s8s",
        "2m4m6m8m1p3p6p7p9p4s6s8s3s",
    ]
    state = HandState.arranged(REDWILD, hands, draws="5p", replacements="1s5s9s2s")
    assert state.set_aside == parse_tiles("1s5s9s2s")
    act(state, "0 discard 6s")
    assert ActionKind.WIN in kinds(state, 1)
    act(state, "1 win")
    outcome = state.outcome()
    assert outcome is not None and outcome.deltas == (-8, 24, -8, -8)
    assert outcome.paid_for(Reason.BIRD) == [-6, 18, -6, -6]
    assert outcome.wins[0].score.points == {"each": 2}
    assert next_dealer_seat(REDWILD.rotation, outcome) == 1


def test_four_red_dragons_are_a_win_and_never_a_kong() -> None:
    hands = [
        FILLER + "1s3s5s9s" + "6s",
        "7z7z7z123m456m12p5p9s",
        FILLER + "2s4s7s8s",
        "2m4m6m8m1p3p6p7p9p4s6s8s3s",
    ]
    state = HandState.arranged(REDWILD, hands, draws="7z", replacements="2m3m4m6m")
    act(state, "0 discard 6s")
    assert ActionKind.WIN in kinds(state, 1)
    assert ActionKind.CONCEALED_KONG not in kinds(state, 1)
    act(state, "1 win")
    outcome = state.outcome()
    assert outcome is not None
    assert [p.id for p in outcome.wins[0].score.patterns] == ["four_red_dragons"]
    assert outcome.deltas == (-2, 6, -2, -2)  # base 2, no bird hits


def test_the_computer_keeps_its_red_dragons() -> None:
    hands = [
        FILLER + "1s3s5s9s" + "6s",
        "7z123m456m12p5p9s1s3s",
        FILLER + "2s4s7s8s",
        "2m4m6m8m1p3p6p7p9p4s6s8s3s",
    ]
    state = HandState.arranged(REDWILD, hands, draws="9p")
    act(state, "0 discard 6s")
    choice = choose_action(state, 1)
    assert choice.kind is ActionKind.DISCARD and choice.tile != RED


def test_the_computer_plays_whole_hands_legally() -> None:
    for seed in range(6):
        state = play_out(HandState(REDWILD, seed))
        outcome = state.outcome()
        assert outcome is not None and sum(outcome.deltas) == 0
        assert all(w.by.value != "discard" for w in outcome.wins)
        assert sorted(state.tiles_in_play()) == sorted(REDWILD.wall)


# ------------------------------------------------------------------------------- pictures


def test_birds_face_down_at_the_table_revealed_with_their_hits_and_wild_badges() -> None:
    hands = [
        FILLER + "1s3s5s9s" + "6s",
        "123m456m789m12p5p7z",
        FILLER + "2s4s7s8s",
        "2m4m6m8m1p3p6p7p9p4s6s8s3s",
    ]
    state = HandState.arranged(REDWILD, hands, draws="5p", replacements="1s2s9s7s")
    table = table_view_from_state(state)
    assert table.wild == frozenset({RED}) and hand_view_from_state(state, 1).wild == {RED}
    (birds,) = table.set_aside
    assert (str(birds.label), birds.tiles, birds.face_down) == ("Birds", (), 4)
    act(state, "0 discard 6s", "1 win")
    result = result_view_from_state(state)
    (birds,) = result.set_aside
    assert birds.tiles == tuple(parse_tiles("1s2s9s7s")) and birds.hits == {0, 2}
    assert result.wild == {RED}
    assert to_png(render_result(result)).startswith(b"\x89PNG")
    assert set_aside_text(state) == ["Birds (1s 2s 9s 7s), 2 hits."]


def test_waits_count_held_wilds_as_jokers() -> None:
    # four pungs and a red dragon: any tile pairs with the wild
    waits = HandState(REDWILD, 1).waits(parse_tiles("111m222m333m444m7z"))
    assert {parse_tiles("9s")[0], parse_tiles("5p")[0], RED} <= set(waits)


def test_several_robbers_with_and_without_wilds_are_paid_by_the_robbed_for_all_three() -> None:
    hands = [
        "99s2468m1368p135s" + "7s",
        "123m456m789m78s5p9s",
        "13579m2479p2467s",
        "123p456p789p8s7z33s",  # waits on 9s with the red dragon standing for 7s
    ]
    # birds 1m 5p 2s 3m: two hits
    state = HandState.arranged(REDWILD, hands, draws="5p4m6p5m9s", replacements="1m5p2s3m")
    act(state, "0 discard 7s", "1 discard 9s", "0 pung 9s", "0 discard 1p")
    act(state, "1 discard 4m", "2 discard 6p", "3 discard 5m", "0 added_kong 9s")
    assert state.phase is Phase.ROB and sorted(state.seats_to_act()) == [1, 3]
    act(state, "1 win", "3 win")
    outcome = state.outcome()
    assert outcome is not None
    # S holds no red dragon: (4 + 2 x 2) x 3 = 24; N holds one: (2 + 2 x 2) x 3 = 18
    assert outcome.deltas == (-42, 24, 0, 18)
    assert outcome.paid_for(Reason.BIRD) == [-24, 12, 0, 12]
    assert outcome.paid_for(Reason.KONG) == [0, 0, 0, 0]
    assert next_dealer_seat(REDWILD.rotation, outcome) == 0


def test_the_narration_of_a_win_reveals_the_birds() -> None:
    hands = [
        FILLER + "1s3s5s9s" + "6s",
        "123m456m789m12p5p7z",
        FILLER + "2s4s7s8s",
        "2m4m6m8m1p3p6p7p9p4s6s8s3s",
    ]
    state = HandState.arranged(REDWILD, hands, draws="5p", replacements="1s5s9s2s")
    act(state, "0 discard 6s")
    events = state.apply(Action.parse("1 win"))
    table = SimpleNamespace(hand=state)
    lines = event_lines(table, events, ["A", "B", "C", "D"])  # type: ignore[arg-type]
    # a win with no pattern says no empty brackets
    assert lines[:3] == [
        "B won by self draw: 2 points.",
        "Payment: A -8, B +24, C -8, D -8.",
        "Birds (1s 5s 9s 2s), 3 hits.",
    ]
