"""`guangdong` (RULES.md): self draw and robbing only, the table fan capped at 8, thirteen orphans
at the cap, the horse and its settlement, kong payments at once, winner deals.

Every number is worked out in the comment beside it: points per payer are 2^fan; a robbed player
pays for all three. Seats 0-3 are E S W N from the dealer.
"""

from __future__ import annotations

import random

import pytest

from bot.runtime.words import set_aside_text
from engine.actions import ActionKind
from engine.computer.simulate import play_out
from engine.events import Phase, Termination
from engine.families.selfdraw.rules import horse_count, horse_seat, horse_settlement
from engine.formats.score_request import RequestError, score_request
from engine.hand import HandState
from engine.presets import find_preset
from engine.session import next_dealer_seat
from engine.settlement import Payment, Reason, deltas_of
from engine.tiles import parse_tile
from render import render_result, to_png
from render.adapt import result_view_from_state, table_view_from_state
from tests.hands import act, pattern_ids

GUANGDONG = find_preset("guangdong")


def ask(**fields: object) -> dict[str, object]:
    return score_request({"preset": "guangdong", **fields})


# ------------------------------------------------------------------------------- the preset


def test_the_preset_is_136_tiles_no_chows_a_horse_and_winner_deals() -> None:
    assert len(GUANGDONG.wall) == 136 and not GUANGDONG.chow and not GUANGDONG.uses_bonus
    assert GUANGDONG.fan_cap == 8 and GUANGDONG.rotation.value == "winner_deals"
    state = HandState(GUANGDONG, 11)
    # 136 - 4 x 13 - 1 (the dealer's 14th) - 1 (the horse) = 82
    assert len(state.set_aside) == 1 and state.wall_left == 82
    assert sorted(state.tiles_in_play()) == sorted(GUANGDONG.wall)


def test_the_horse_is_the_last_tile_of_the_wall() -> None:
    state = HandState(GUANGDONG, 5)
    wall = list(GUANGDONG.wall)
    random.Random(5).shuffle(wall)
    assert state.set_aside == [wall[-1]]


# ------------------------------------------------------------------------------- the horse count

# RULES.md: 1, 5, 9, East and Red name the dealer; 2, 6, South, Green the next seat;
# 3, 7, West, White the one after; 4, 8, North the last
HORSE_SEATS = {
    0: ["1", "5", "9", "1z", "7z"],
    1: ["2", "6", "2z", "6z"],
    2: ["3", "7", "3z", "5z"],
    3: ["4", "8", "4z"],
}


@pytest.mark.parametrize("seat", sorted(HORSE_SEATS))
def test_the_horse_names_a_seat_for_every_tile_kind(seat: int) -> None:
    for name in HORSE_SEATS[seat]:
        names = [name] if name.endswith("z") else [name + suit for suit in "mps"]
        for tile_name in names:
            assert horse_seat(parse_tile(tile_name), 4) == seat, tile_name


def test_every_tile_kind_has_a_horse_seat_and_honours_count_in_seed_004_order() -> None:
    named = {t for names in HORSE_SEATS.values() for n in names for t in _kinds(n)}
    assert named == set(range(34))
    # East 1 … North 4, Red 5, Green 6, White 7
    assert [horse_count(parse_tile(f"{n}z")) for n in range(1, 8)] == [1, 2, 3, 4, 7, 6, 5]


def _kinds(name: str) -> list[int]:
    if name.endswith("z"):
        return [parse_tile(name)]
    return [parse_tile(name + suit) for suit in "mps"]


# ------------------------------------------------------------------------------- horse settlement


def test_horse_settlement_mirrors_payments_of_the_horse_seat_onto_the_dealer() -> None:
    # W self-draws 2 from each; the horse is S: S's payment to W is paid again by E
    paid = [Payment(payer, 2, 2, Reason.WIN) for payer in (0, 1, 3)]
    settled = horse_settlement(paid, 1)
    assert deltas_of(settled, 4) == [-4, -2, 8, -2]
    assert [p for p in settled if p.reason is Reason.HORSE] == [Payment(0, 2, 2, Reason.HORSE)]


def test_a_horse_on_the_dealer_doubles_the_dealers_win_payments() -> None:
    # S self-draws 2 from each; the horse names E: E's 2 is paid twice
    paid = [Payment(payer, 1, 2, Reason.WIN) for payer in (0, 2, 3)]
    assert deltas_of(horse_settlement(paid, 0), 4) == [-4, 8, -2, -2]
    # the dealer self-draws: every payment runs to the dealer, so all are doubled
    paid = [Payment(payer, 0, 2, Reason.WIN) for payer in (1, 2, 3)]
    assert deltas_of(horse_settlement(paid, 0), 4) == [12, -4, -4, -4]


# the RULES.md horse example: dealer E, S self-draws a basic hand at 1 fan (self draw)
EXAMPLE_HANDS = [
    "234s678s234m678m9s" + "9p",
    "123m456m789m123p5p",
    "11s99s55s19p33m77m8p",
    "22s66s44p28p44m99m1p",
]


def test_the_rules_md_horse_example_in_a_played_hand() -> None:
    # the horse 2m names S: E, W, N pay S 2 each; mirrored, W and N pay E 2 each
    state = HandState.arranged(GUANGDONG, EXAMPLE_HANDS, draws="5p", replacements="2m")
    assert state.set_aside == [parse_tile("2m")]
    act(state, "0 discard 9p", "1 win")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.WIN
    assert outcome.wins[0].score.fan == 1
    assert outcome.deltas == (2, 6, -4, -4)
    assert outcome.paid_for(Reason.HORSE) == [4, 0, -2, -2]
    # winner deals: S deals the next hand
    assert next_dealer_seat(GUANGDONG.rotation, outcome) == 1


def test_a_played_horse_on_the_dealer() -> None:
    # the horse 5m names E: E pays S 2 and 2 more; W and N pay 2
    state = HandState.arranged(GUANGDONG, EXAMPLE_HANDS, draws="5p", replacements="5m")
    act(state, "0 discard 9p", "1 win")
    outcome = state.outcome()
    assert outcome is not None and outcome.deltas == (-4, 8, -2, -2)


def test_kong_payments_are_paid_at_once_and_never_mirrored() -> None:
    # S draws 5p, makes a concealed kong of 1m (2 from each at once) and blooms on the 3p
    # replacement: self draw 1 + kong bloom 1 + root 1 = 3 fan, 8 from each. The horse 2m is S:
    # W and N pay E 8 each again; the kong's 2s are not mirrored.
    hands = [
        "2z3z4z5z6z7z1s3s5s7s9s2p4p" + "6p",
        "1111m456m789m12p5p",
        "2z3z4z5z6z7z1s3s5s7s9s2p4p",
        "11s99s55s19p33m77m8p",
    ]
    state = HandState.arranged(GUANGDONG, hands, draws="5p", replacements="2m3p")
    act(state, "0 discard 6p", "1 concealed_kong 1m")
    assert state.kong_points == [-2, 6, -2, -2]  # paid when the kong is committed
    act(state, "1 win")
    outcome = state.outcome()
    assert outcome is not None
    win = outcome.wins[0]
    assert {p.id: p.fan for p in win.score.patterns} == {"self_draw": 1, "kong_bloom": 1, "root": 1}
    assert outcome.paid_for(Reason.KONG) == [-2, 6, -2, -2]
    assert outcome.paid_for(Reason.HORSE) == [16, 0, -8, -8]
    assert outcome.deltas == (-2 + 16 - 8, 6 + 24, -2 - 16, -2 - 16)
    assert sum(outcome.deltas) == 0


# ------------------------------------------------------------------------------- how wins come


def test_no_win_on_a_discard() -> None:
    # S waits on 5p (123m456m789m123p5p); E discards a 5p: nobody is offered anything
    hands = ["234s678s234m678m9s" + "5p", *EXAMPLE_HANDS[1:]]
    state = HandState.arranged(GUANGDONG, hands, draws="5p")
    act(state, "0 discard 5p")
    assert state.phase is Phase.TURN and state.turn == 1
    # the same tile drawn is a win
    assert ActionKind.WIN in {a.kind for a in state.legal_actions(1)}


def test_several_robbers_of_an_added_kong_all_win_paid_by_the_robbed_for_all_three() -> None:
    hands = [
        "99s234m67p15z6z7z1s3s" + "5s",
        "123m456m789m78s5p9s",
        "2z3z4z5z6z7z1p5p9p2s4s1m4m",
        "123p456p789p78s33z",
    ]
    # the horse 1z names the dealer, who is the robbed player: his payments are doubled
    state = HandState.arranged(GUANGDONG, hands, draws="5p1z2m3m9s", replacements="1z")
    act(state, "0 discard 5s", "1 discard 9s", "0 pung 9s", "0 discard 1z")
    act(state, "1 discard 1z", "2 discard 2m", "3 discard 3m", "0 added_kong 9s")
    assert state.phase is Phase.ROB and sorted(state.seats_to_act()) == [1, 3]
    act(state, "1 win", "3 win")
    outcome = state.outcome()
    assert outcome is not None and [w.seat for w in outcome.wins] == [1, 3]
    # each basic win at 0 fan: E pays 3 x 2^0 = 3 to each robber, doubled by the horse
    assert [w.deltas for w in outcome.wins] == [(-6, 6, 0, 0), (-6, 0, 0, 6)]
    assert outcome.deltas == (-12, 6, 0, 6)
    assert outcome.paid_for(Reason.KONG) == [0, 0, 0, 0]  # a robbed kong pays nothing
    # several winners on one robbed kong: the robbed player deals next
    assert next_dealer_seat(GUANGDONG.rotation, outcome) == 0


def test_a_concealed_kong_cannot_be_robbed() -> None:
    hands = [
        "2z3z4z5z6z7z1s3s5s7s9s2p4p" + "6p",
        "111m456m789m12p5p1m",
        "2z3z4z5z6z7z1s3s5s7s9s2p4p",
        "123p456p789p23m33z",  # waits on 1m and 4m
    ]
    state = HandState.arranged(GUANGDONG, hands, draws="5p", replacements="2m3p")
    act(state, "0 discard 6p", "1 concealed_kong 1m")
    assert state.phase is Phase.TURN and state.turn == 1


def test_the_computer_plays_whole_hands_legally() -> None:
    for seed in range(6):
        state = play_out(HandState(GUANGDONG, seed))
        outcome = state.outcome()
        assert outcome is not None and sum(outcome.deltas) == 0
        assert all(w.by.value != "discard" for w in outcome.wins)
        assert sorted(state.tiles_in_play()) == sorted(GUANGDONG.wall)


# ------------------------------------------------------------------------------- the table fan


def test_a_basic_self_draw_is_one_fan() -> None:
    answer = ask(hand="123m456m789m123p55p", win="5p", by="self_draw")
    assert (answer["fan"], pattern_ids(answer), answer["points"]) == (
        1,
        {"self_draw": 1},
        {"each": 2},
    )


def test_all_pungs_with_honours() -> None:
    # all pungs 1 + self draw 1 = 2: 4 from each
    answer = ask(hand="111m555p999s222z77z", win="7z", by="self_draw")
    assert pattern_ids(answer) == {"all_pungs": 1, "self_draw": 1} and answer["points"] == {
        "each": 4
    }


def test_seven_pairs_and_four_of_a_kind_as_two_pairs() -> None:
    # seven pairs 2 + self draw 1 = 3: 8 from each
    answer = ask(hand="1133m5577p99s1155z", win="5z", by="self_draw")
    assert pattern_ids(answer) == {"seven_pairs": 2, "self_draw": 1} and answer["fan"] == 3
    assert answer["points"] == {"each": 8}
    # four 1m as two pairs: a root as well (seven pairs 2 + root 1 + self draw 1 = 4)
    answer = ask(hand="1111m5577p99s1155z", win="5z", by="self_draw")
    assert pattern_ids(answer) == {"seven_pairs": 2, "root": 1, "self_draw": 1}


def test_full_flush_is_one_suit_without_honours() -> None:
    # full flush 2 + self draw 1 = 3
    answer = ask(hand="234m456m789m111m55m", win="5m", by="self_draw")
    assert pattern_ids(answer) == {"full_flush": 2, "self_draw": 1}
    # one suit with honours is no pattern at all (no half flush)
    answer = ask(hand="123456789m11m222z", win="2z", by="self_draw")
    assert pattern_ids(answer) == {"self_draw": 1}
    # all honours: all pungs, but no flush
    answer = ask(hand="111222333444z55z", win="5z", by="self_draw")
    assert pattern_ids(answer) == {"all_pungs": 1, "self_draw": 1}


def test_thirteen_orphans_scores_the_cap() -> None:
    answer = ask(hand="19m19p19s1234567z1z", win="1z", by="self_draw")
    assert (answer["fan"], pattern_ids(answer)) == (8, {"thirteen_orphans": 8})
    assert answer["points"] == {"each": 256}


def test_the_fan_is_capped_at_8() -> None:
    # four concealed kongs of one suit and a pair: all pungs 1 + full flush 2 + 4 roots
    # + kong bloom 1 + self draw 1 = 9, capped at 8: 256 from each
    answer = ask(
        hand="55m",
        win="5m",
        by="self_draw",
        melds=[f"concealed_kong {n}{n}{n}{n}m" for n in (1, 2, 3, 4)],
        flags=["kong_replacement"],
    )
    assert sum(pattern_ids(answer).values()) == 9
    assert answer["fan"] == 8 and answer["points"] == {"each": 256}


def test_robbing_is_paid_by_the_robbed_for_all_three() -> None:
    # a basic win robbing W's kong of 9s: 3 x 2^0 = 3 from W
    answer = ask(
        hand="123m456m789m78s55p9s", win="9s", by="robbing_kong", seat="S", **{"from": "W"}
    )
    assert answer["fan"] == 0 and answer["points"] == {"discarder": 3}
    assert answer["deltas"] == {"E": 0, "S": 3, "W": -3, "N": 0}
    # the horse 3p names W: W's payment is mirrored, E pays S 3 more
    answer = ask(
        hand="123m456m789m78s55p9s",
        win="9s",
        by="robbing_kong",
        seat="S",
        horse="3p",
        **{"from": "W"},
    )
    assert answer["deltas"] == {"E": -3, "S": 6, "W": -3, "N": 0}


def test_the_score_contract_takes_the_horse_and_answers_deltas() -> None:
    answer = ask(hand="123m456m789m123p55p", win="5p", by="self_draw", seat="S", horse="2m")
    assert answer["deltas"] == {"E": 2, "S": 6, "W": -4, "N": -4}
    # without a horse the deltas are the plain self draw
    answer = ask(hand="123m456m789m123p55p", win="5p", by="self_draw", seat="S")
    assert answer["deltas"] == {"E": -2, "S": 6, "W": -2, "N": -2}


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"hand": "456m789m123p55p", "win": "5p", "melds": ["chow 123m"]}, "no chows"),
        ({"hand": "123m456m789m123p55p", "win": "5p"}, "no discard wins"),
        (
            {"hand": "123m456m789m123p55p", "win": "5p", "by": "self_draw", "birds": "1m1m1m1m"},
            "birds",
        ),
        ({"hand": "123m456m789m123p55p", "win": "5p", "by": "self_draw", "horse": "2m3m"}, "horse"),
        (
            {"hand": "123m456m789m123p55p", "win": "5p", "by": "self_draw", "from": "W"},
            "self draw",
        ),
        ({"hand": "111m123m789m123p55p", "win": "5p", "by": "self_draw", "horse": "1m"}, "1m"),
    ],
)
def test_requests_guangdong_cannot_have_are_refused(fields: dict[str, object], words: str) -> None:
    with pytest.raises(RequestError, match=words):
        ask(**fields)


# ------------------------------------------------------------------------------- pictures


def test_the_horse_is_face_down_at_the_table_and_revealed_in_the_result() -> None:
    state = HandState.arranged(GUANGDONG, EXAMPLE_HANDS, draws="5p", replacements="2m")
    (horse,) = table_view_from_state(state).set_aside
    assert (str(horse.label), horse.tiles, horse.face_down) == ("Horse", (), 1)
    act(state, "0 discard 9p", "1 win")
    result = result_view_from_state(state)
    (horse,) = result.set_aside
    assert (str(horse.label), horse.tiles, horse.face_down) == (
        "Horse: South",
        (parse_tile("2m"),),
        0,
    )
    paid = [(str(label), deltas) for label, deltas in result.other_payments]
    assert ("Horse", (("Player 1", 4), ("Player 3", -2), ("Player 4", -2))) in paid
    png = to_png(render_result(result))
    assert png.startswith(b"\x89PNG")
    # the terminal and Discord narration reveal it with the win
    assert set_aside_text(state) == ["Horse: South (2m)."]


def test_the_horse_stays_face_down_after_a_wall_draw() -> None:
    state = play_out(HandState(GUANGDONG, 4))
    outcome = state.outcome()
    assert outcome is not None and not outcome.wins
    (horse,) = result_view_from_state(state).set_aside
    assert horse.tiles == () and horse.face_down == 1
