"""The tenhou.net/6 log format: hand-made logs read, ordered and written back
(engine.formats.tenhou6.log)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine.formats.tenhou6.log import (
    Call,
    CallKind,
    Discard,
    Hand,
    KanGap,
    Nuki,
    Tenhou6Error,
    anonymous,
    decode_call,
    encode_call,
    from_json,
    read,
    to_json,
    write,
)
from engine.formats.tenhou6.order import Action, ActionKind, describe, order_of_play
from engine.tiles import parse_tile
from tests.tenhou6_logs import REAL_LOGS

FOUR = ["Ann", "Bo", "Cy", "Di"]


def log_of(*hands: list[Any], names: list[str] = FOUR, disp: str = "般南喰赤") -> dict[str, Any]:
    return {"title": ["", ""], "name": names, "rule": {"disp": disp, "aka": 1}, "log": list(hands)}


def hand_of(
    kyoku: int, seats: list[tuple[list[Any], list[Any], list[Any]]], result: list[Any]
) -> list[Any]:
    """A hand; `seats` lists (start, takes, discards) from seat 0, a missing fourth left empty."""
    points = [25000] * len(seats) + [0] * (4 - len(seats))
    raw: list[Any] = [[kyoku, 0, 0], points, [15], []]
    for seat in range(4):
        raw += list(seats[seat]) if seat < len(seats) else [[], [], []]
    return [*raw, result]


# Seat 0 deals; pons from the left (p at 0), across (at 1) and right (at 2), a chi, a riichi with
# the drawn tile, and a ron.
CALLS = hand_of(
    0,
    [
        (
            [11, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23],
            [41, 42, 43, 47],
            [60, 60, 60, "r60"],
        ),
        ([41, 41, 24, 25, 26, 27, 28, 29, 31, 32, 33, 34, 35], ["p414141", 29], [24, 60]),
        ([42, 42, 25, 26, 36, 37, 38, 39, 11, 12, 13, 14, 15], ["c242526", "42p4242"], [36, 37]),
        ([43, 43, 21, 22, 23, 24, 25, 26, 27, 28, 29, 31, 32], [45, 46, "4343p43"], [60, 60, 21]),
    ],
    ["和了", [1000, -1000, 0, 0], [0, 1, 0, "30符1飜1000点", "立直(1飜)"]],
)

# Seat 1 deals: a concealed kong and its replacement draw, an open kong with its empty discard slot
# (0), a pon then an added kong of it robbed by two rons at once.
KONGS = hand_of(
    1,
    [
        ([46, 46, 46, 47, 47, 47, 45, 45, 44, 44, 43, 43, 19], [12, 33], [60, 60]),
        (
            [11, 11, 11, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19],
            [11, 21, "p121212", 14],
            ["111111a11", 60, 13, "k12121212"],
        ),
        ([21, 21, 21, 22, 23, 24, 25, 26, 27, 28, 29, 41, 41], ["m21212121", 41, 29], [0, 22, 60]),
        ([31, 31, 32, 33, 34, 35, 36, 37, 38, 39, 42, 43, 44], [31, 25], [60, 60]),
    ],
    [
        "和了",
        [0, -2000, 2000, 0],
        [2, 1, 2, "30符2飜2000点", "槍槓(1飜)", "平和(1飜)"],
        [0, -1000, 0, 1000],
        [3, 1, 3, "30符1飜1000点", "槍槓(1飜)"],
    ],
)

# Three players (the fourth seat empty): a north set aside and its replacement, a pon from the
# seat two back written as the seat across (four-seat geometry), and a self-drawn win.
SANMA = hand_of(
    0,
    [
        ([44, 11, 19, 21, 22, 23, 24, 25, 26, 27, 28, 29, 31], [42, 45, 47], ["f44", 42]),
        ([41, 41, 32, 33, 34, 35, 36, 37, 38, 39, 21, 29, 11], [], []),
        ([42, 42, 36, 11, 19, 13, 14, 15, 16, 17, 18, 19, 31], ["42p4242"], [36]),
    ],
    ["和了", [6000, -3000, -3000, 0], [0, 0, 0, "満貫2000点∀", "北抜き(1飜)"]],
)

WINDS = [41, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23]


def draw_hand(result: list[Any], rounds: int = 1, declare: bool = False) -> list[Any]:
    """Every seat draws 31 and throws the east wind `rounds` times; with `declare` the dealer stops
    after its first draw (nine terminals)."""
    if declare:
        return hand_of(
            0, [(WINDS, [31], []), (WINDS, [], []), (WINDS, [], []), (WINDS, [], [])], result
        )
    seat = (WINDS, [31] * rounds, [41] + [60] * (rounds - 1))
    return hand_of(0, [seat] * 4, result)


def actions(hand: list[Any]) -> list[str]:
    log = from_json(log_of(hand))
    played = order_of_play(log.hands[0])
    assert tiles_add_up(log.hands[0], played)
    return [describe(action) for action in played]


def test_calls_from_every_seat_riichi_and_ron_in_order() -> None:
    assert actions(CALLS) == [
        "0 draw 1z", "0 discard 1z", "1 pon 1z from 0", "1 discard 4p",
        "2 chi 4p from 1", "2 discard 6s", "3 draw 5z", "3 discard 5z",
        "0 draw 2z", "0 discard 2z", "2 pon 2z from 0", "2 discard 7s",
        "3 draw 6z", "3 discard 6z", "0 draw 3z", "0 discard 3z", "3 pon 3z from 0",
        "3 discard 1p", "0 draw 7z", "0 riichi", "0 discard 7z",
        "1 draw 9p", "1 discard 9p", "0 ron 9p from 1",
    ]  # fmt: skip


def test_call_markers_read_as_tiles_and_sources() -> None:
    log = from_json(log_of(CALLS))
    pon, draw = log.hands[0].takes[3][2], log.hands[0].takes[0][0]
    assert pon == Call(CallKind.PON, (parse_tile("3z"),) * 3, 2)
    assert pon.source(3) == 0 and draw == parse_tile("1z")
    assert log.hands[0].discards[0] == (Discard(None),) * 3 + (Discard(None, riichi=True),)


@pytest.mark.parametrize(
    ("text", "kind", "offset"),
    [
        ("c122113", CallKind.CHI, 3),
        ("p252525", CallKind.PON, 3),
        ("25p2525", CallKind.PON, 2),
        ("2525p25", CallKind.PON, 1),
        ("m39393939", CallKind.DAIMINKAN, 3),
        ("39m393939", CallKind.DAIMINKAN, 2),
        ("393939m39", CallKind.DAIMINKAN, 1),
        ("k51151515", CallKind.KAKAN, 3),
        ("31k313131", CallKind.KAKAN, 2),
        ("3737k3737", CallKind.KAKAN, 1),
        ("525252a51", CallKind.ANKAN, None),
    ],
)
def test_each_marker_place_names_its_source(text: str, kind: CallKind, offset: int | None) -> None:
    call = decode_call(text, "here")
    assert (call.kind, call.offset) == (kind, offset)
    assert encode_call(call) == text


@pytest.mark.parametrize(
    "text", ["2121m2121", "12c2113", "a52525251", "p2525", "pp2525", "25p25x5"]
)
def test_a_marker_out_of_place_is_no_call(text: str) -> None:
    with pytest.raises(Tenhou6Error, match=f"here: '{text}' is not a call"):
        decode_call(text, "here")


def tiles_add_up(hand: Hand, played: tuple[Action, ...]) -> bool:
    """Whether every seat holds 13 tiles (counting each meld as three) after each of its
    discards, nuki set aside, as a right order of play must."""
    held = [len(start) for start in hand.starts]
    change = {ActionKind.DRAW: 1, ActionKind.DISCARD: -1, ActionKind.NUKI: -1, ActionKind.KAKAN: -1}
    # A chi or pon adds the called tile; an open kong adds it but its replacement comes as a draw.
    change |= {ActionKind.CHI: 1, ActionKind.PON: 1, ActionKind.ANKAN: -1}
    for action in played:
        held[action.seat] += change.get(action.kind, 0)
        if action.kind is ActionKind.DISCARD and held[action.seat] != 13:
            return False
    return True


def test_kongs_replacement_draws_and_a_robbed_kong_won_twice() -> None:
    assert actions(KONGS) == [
        "1 draw 1m", "1 ankan 1m", "1 draw 1p", "1 discard 1p",
        "2 daiminkan 1p from 1", "2 draw 1z", "2 discard 2p",
        "3 draw 1s", "3 discard 1s", "0 draw 2m", "0 discard 2m",
        "1 pon 2m from 0", "1 discard 3m", "2 draw 9p", "2 discard 9p",
        "3 draw 5p", "3 discard 5p", "0 draw 3s", "0 discard 3s",
        "1 draw 4m", "1 kakan 2m from 0", "2 ron 2m from 1", "3 ron 2m from 1",
    ]  # fmt: skip
    hand = from_json(log_of(KONGS)).hands[0]
    assert hand.discards[2][0] == KanGap()
    assert [win.winner for win in hand.result.wins] == [2, 3]


def test_three_player_log_with_nuki_in_four_seat_geometry() -> None:
    log = from_json(log_of(SANMA, names=["Ann", "Bo", "Cy", ""], disp="三般東喰赤"))
    assert log.seats == 3 and log.hands[0].points == (25000,) * 3
    assert log.hands[0].discards[0][0] == Nuki(parse_tile("4z"))
    assert [describe(a) for a in order_of_play(log.hands[0])] == [
        "0 draw 2z", "0 nuki 4z", "0 draw 5z", "0 discard 2z",
        "2 pon 2z from 0", "2 discard 6s", "0 draw 7z", "0 tsumo 7z",
    ]  # fmt: skip


def test_an_empty_fourth_seat_means_three_players_without_the_display_saying_so() -> None:
    data = log_of(SANMA, names=["Ann", "Bo", "Cy", ""], disp="")
    assert from_json(data).seats == 3
    written = to_json(from_json(data))
    assert written["name"][3] == "" and written["log"][0][13:16] == [[], [], []]


# Seat 1 throws 5p twice and seat 3 pons the second: taking the first (the eager reading) leaves
# seat 1's pon of seat 2's north where a draw is due, so the walk must back up and let it pass.
LATER_OF_TWO = hand_of(
    0,
    [
        ([41, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23], [11, 12], [60, 60]),
        ([25, 25, 44, 44, 31, 32, 33, 34, 35, 36, 37, 38, 39], [19, "4444p44"], [25, 25]),
        ([44, 21, 22, 23, 24, 26, 27, 28, 29, 11, 12, 13, 14], [17], [44]),
        ([25, 25, 41, 42, 43, 11, 12, 13, 14, 15, 16, 17, 18], ["25p2525"], [41]),
    ],
    ["全員不聴"],
)


def test_a_call_of_the_later_of_two_equal_discards() -> None:
    assert actions(LATER_OF_TWO) == [
        "0 draw 1m", "0 discard 1m", "1 draw 9m", "1 discard 5p",
        "2 draw 7m", "2 discard 4z", "1 pon 4z from 2", "1 discard 5p",
        "3 pon 5p from 1", "3 discard 1z", "0 draw 2m", "0 discard 2m",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("result", "rounds", "declare", "last"),
    [
        (["流局", [1500, 1500, -1500, -1500]], 2, False, "3 discard 1s"),
        (["流し満貫", [12000, -4000, -4000, -4000]], 2, False, "3 discard 1s"),
        (["全員聴牌"], 2, False, "3 discard 1s"),
        (["四風連打"], 1, False, "3 discard 1z"),
        (["九種九牌"], 1, True, "0 nine_terminals"),
    ],
)
def test_each_kind_of_draw_ends_the_order(
    result: list[Any], rounds: int, declare: bool, last: str
) -> None:
    hand = draw_hand(result, rounds, declare)
    assert actions(hand)[-1] == last
    assert from_json(log_of(hand)).hands[0].result.name == result[0]


ALL = [CALLS, KONGS, LATER_OF_TWO, draw_hand(["流局", [1500, 1500, -1500, -1500]], 2)]


@pytest.mark.parametrize("hand", [*ALL, SANMA])
def test_write_gives_back_the_log_it_read(hand: list[Any]) -> None:
    names = FOUR if hand is not SANMA else ["Ann", "Bo", "Cy", ""]
    data = log_of(hand, names=names)
    log = from_json(data)
    assert to_json(log) == data
    assert read(write(log)) == log


def test_separate_red_five_counts_round_trip() -> None:
    data = log_of(CALLS)
    data["rule"] = {"disp": "特南喰赤", "aka51": 1, "aka52": 2, "aka53": 1}
    log = from_json(data)
    assert log.red_fives == (1, 2, 1)
    assert to_json(log)["rule"] == data["rule"]


def test_names_can_be_removed() -> None:
    log = anonymous(read(json.dumps(log_of(*ALL))))
    text = write(log)
    assert not any(name in text for name in FOUR)
    assert json.loads(text)["name"] == ["A", "B", "C", "D"]


def broken(path: tuple[int, ...], value: Any, hand: list[Any] = CALLS) -> dict[str, Any]:
    raw = copy.deepcopy(hand)
    target = raw
    for index in path[:-1]:
        target = target[index]
    target[path[-1]] = value
    return log_of(CALLS, raw)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (broken((12, 1), 48), ["hand 2, seat 2, discards", "48"]),
        (broken((8, 0), "p4141"), ["hand 2, seat 1, takes", "'p4141'"]),
        (broken((8, 0), "41p414141"), ["hand 2, seat 1, takes", "41p414141"]),
        (broken((11, 0), "r4141"), ["hand 2, seat 2, takes", "r4141"]),
        (broken((9, 0), "p414141"), ["hand 2, seat 1, discards", "p414141"]),
        (broken((16, 0), "引き分け"), ["hand 2", "引き分け"]),
        (broken((4,), [11] * 12), ["hand 2, seat 0, start hand", "12 tiles"]),
        (broken((0,), [1, 0]), ["hand 2", "[1, 0]"]),
        (broken((16, 2), [5, 1, 0]), ["hand 2, win 1", "[5, 1, 0]"]),
    ],
)
def test_malformed_logs_name_the_hand_seat_and_token(
    data: dict[str, Any], words: list[str]
) -> None:
    with pytest.raises(Tenhou6Error) as caught:
        from_json(data)
    assert all(word in str(caught.value) for word in words), str(caught.value)


@pytest.mark.parametrize(
    ("path", "value", "words"),
    [
        ((9, 0), 47, ["hand 1, seat 1, token 47", "not in the hand"]),
        ((8, 0), "p424242", ["hand 1, seat 1, token 'p424242'", "a call where a draw is due"]),
        ((15, 3), 47, ["hand 1, seat 3, token 47", "left over"]),
        ((16, 2), [0, 2, 0], ["hand 1, seat 0, token [0, 2, 0]", "does not follow its tile"]),
        ((16, 2), [1, 1, 1], ["hand 1, seat 1, token [1, 1, 1]", "does not follow its tile"]),
    ],
)
def test_lists_that_make_no_order_of_play_name_the_seat_and_token(
    path: tuple[int, ...], value: Any, words: list[str]
) -> None:
    raw = copy.deepcopy(CALLS)
    items = raw[path[0]]
    items[path[1] : path[1] + 1] = [value]  # one past the end adds an item
    log = from_json(log_of(raw))
    with pytest.raises(Tenhou6Error) as caught:
        order_of_play(log.hands[0])
    assert all(word in str(caught.value) for word in words), str(caught.value)


def test_a_three_player_log_must_leave_the_fourth_seat_empty() -> None:
    data = log_of(SANMA, names=["Ann", "Bo", "Cy", ""], disp="三般東喰赤")
    data["log"][0][13] = list(WINDS)
    with pytest.raises(Tenhou6Error, match="hand 1, seat 3"):
        from_json(data)


def test_not_a_log() -> None:
    with pytest.raises(Tenhou6Error, match="not JSON"):
        read("{")
    with pytest.raises(Tenhou6Error, match='no "log"'):
        read('{"name": [], "rule": {}}')


@pytest.mark.parametrize("path", REAL_LOGS, ids=lambda path: path.name)
def test_real_logs_read_order_and_round_trip(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    log = from_json(data)
    assert read(write(log)) == log
    assert to_json(log)["log"] == data["log"]
    assert not any(name and name in write(anonymous(log)) for name in log.names if len(name) > 1)
    for number, hand in enumerate(log.hands, 1):
        played = order_of_play(hand, number)
        assert tiles_add_up(hand, played)
        wins = [a for a in played if a.kind in (ActionKind.RON, ActionKind.TSUMO)]
        assert len(wins) == len(hand.result.wins)
