"""`mahjong-bot score` for `riichi`, `riichi-majsoul` and `sanma` (DESIGN.md "Riichi in the `score`
contract", RULES.md "Riichi"): concrete hands with their known values, payments around them, and
refusals."""

from __future__ import annotations

import io
import json
import random
import re
from collections import Counter

import pytest
from mahjong.constants import AKA_DORAS, EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.hand_calculating.hand_response import HandResponse
from mahjong.meld import Meld as PackageMeld
from mahjong.tile import TilesConverter

from bot.cli import main as cli_main
from engine.families.riichi.scoring import RIICHI_RULES
from engine.formats.score_request import RequestError, run_score_lines, score_request
from engine.presets import PRESETS
from engine.tiles import (
    NORTH,
    SEAT_NAMES,
    format_tiles,
    is_red,
    kind_of,
    parse_tile,
    parse_tiles,
    sort_tiles,
    tile_name,
)


def riichi(**fields: object) -> dict[str, object]:
    """Score a request; `from_` stands for the `from` field."""
    if "from_" in fields:
        fields["from"] = fields.pop("from_")
    return score_request({"preset": "riichi", **fields})


def ids(answer: dict[str, object]) -> list[tuple[str, int]]:
    """The answer's yaku with their han, in a fixed order (the answer's own order is the
    package's, by its yaku numbers)."""
    return sorted((y["id"], y["han"]) for y in answer["yaku"])  # type: ignore[attr-defined]


def test_the_design_example_gives_exactly_its_answer() -> None:
    request = {
        "preset": "riichi",
        "hand": "23455m678p",
        "win": "8p",
        "melds": ["pon 555z from W", "chi 340s from E"],
        "by": "discard",
        "from": "N",
        "seat": "S",
        "round": "E",
        "dora": "4m",
        "honba": 1,
        "sticks": 1,
    }
    assert score_request(request) == {
        "valid": True,
        "han": 4,
        "fu": 30,
        "unit": "han",
        "yaku": [
            {"id": "yakuhai_haku", "han": 1},
            {"id": "dora", "han": 2},
            {"id": "aka_dora", "han": 1},
        ],
        "limit": None,
        "points": {"discarder": 7700},
        "deltas": {"E": 0, "S": 9000, "W": 0, "N": -8000},
    }


# (name, request fields, yaku with han, fu, points): a non-dealer (S) winner unless said
YAKU_CASES = [
    (
        "riichi_pinfu",
        {"hand": "123456m234p55s678s", "win": "6m", "from_": "W", "flags": ["riichi"]},
        [("riichi", 1), ("pinfu", 1)],
        30,
        {"discarder": 2000},
    ),
    (
        "tsumo_pinfu_20_fu",
        {"hand": "123456m234p55s678s", "win": "6m", "by": "self_draw"},
        [("menzen_tsumo", 1), ("pinfu", 1)],
        20,
        {"dealer": 700, "others": 400},
    ),
    (
        "open_tanyao",
        {"hand": "567m345p55s678s", "win": "8s", "melds": ["chi 234p from E"], "from_": "N"},
        [("tanyao", 1)],
        30,
        {"discarder": 1000},
    ),
    (
        "yakuhai_chun_tanki",
        {"hand": "123m456p789s11p", "win": "1p", "melds": ["pon 777z from W"], "from_": "N"},
        [("yakuhai_chun", 1)],
        30,
        {"discarder": 1000},
    ),
    (
        "double_wind",
        {
            "hand": "123m456p789s11p",
            "win": "1p",
            "round": "S",
            "melds": ["pon 222z from W"],
            "from_": "N",
        },
        [("yakuhai_seat_wind", 1), ("yakuhai_round_wind", 1)],
        30,
        {"discarder": 2000},
    ),
    (
        "chiitoitsu_25_fu",
        {"hand": "1122m3344p5566s77z", "win": "7z", "from_": "N"},
        [("chiitoitsu", 2)],
        25,
        {"discarder": 1600},
    ),
    (
        "iipeikou_tanki",
        {"hand": "112233m456p678s99p", "win": "9p", "from_": "N"},
        [("iipeikou", 1)],
        40,
        {"discarder": 1300},
    ),
    (
        "toitoi",
        {
            "hand": "444m666m99s",
            "win": "6m",
            "melds": ["pon 222p from E", "pon 888s from W"],
            "from_": "N",
        },
        [("toitoi", 2)],
        30,
        {"discarder": 2000},
    ),
    (
        "open_honitsu_ittsu",
        {"hand": "12345678911m", "win": "5m", "melds": ["pon 555z from W"], "from_": "N"},
        [("yakuhai_haku", 1), ("ittsu", 1), ("honitsu", 2)],
        30,
        {"discarder": 7700},
    ),
    (
        "sanshoku",
        {"hand": "123456m123p123s99s", "win": "6m", "from_": "N"},
        [("pinfu", 1), ("sanshoku", 2)],
        30,
        {"discarder": 3900},
    ),
    (
        "shousangen",
        {
            "hand": "123m456m77z",
            "win": "6m",
            "melds": ["pon 555z from W", "pon 666z from N"],
            "from_": "N",
        },
        [("yakuhai_haku", 1), ("yakuhai_hatsu", 1), ("shousangen", 2), ("honitsu", 2)],
        30,
        {"discarder": 12000},
    ),
    (
        "riichi_ippatsu_tsumo",
        {
            "hand": "123456m234p55s678s",
            "win": "6m",
            "by": "self_draw",
            "flags": ["riichi", "ippatsu"],
        },
        [("menzen_tsumo", 1), ("riichi", 1), ("ippatsu", 1), ("pinfu", 1)],
        20,
        {"dealer": 2600, "others": 1300},  # 4 han 20 fu: 1,280 base points
    ),
    (
        "double_riichi",
        {"hand": "123456m234p55s678s", "win": "6m", "from_": "W", "flags": ["double_riichi"]},
        [("double_riichi", 2), ("pinfu", 1)],
        30,
        {"discarder": 3900},
    ),
    (
        "houtei",
        {"hand": "123456m234p55s678s", "win": "6m", "from_": "W", "flags": ["houtei"]},
        [("pinfu", 1), ("houtei", 1)],
        30,
        {"discarder": 2000},
    ),
    (
        "haitei",
        {"hand": "123456m234p55s678s", "win": "6m", "by": "self_draw", "flags": ["haitei"]},
        [("menzen_tsumo", 1), ("pinfu", 1), ("haitei", 1)],
        20,
        {"dealer": 1300, "others": 700},
    ),
    (
        "rinshan_after_a_closed_kan",
        {
            "hand": "123m456p789s99s",
            "win": "9s",
            "by": "self_draw",
            "melds": ["closed_kan 2222z"],
            "flags": ["rinshan"],
        },
        None,  # checked below: menzen_tsumo and rinshan are both there
        None,
        None,
    ),
    (
        "chankan",
        {"hand": "123456m234p55s678s", "win": "6m", "by": "robbing_kong", "from_": "W"},
        [("pinfu", 1), ("chankan", 1)],
        30,
        {"discarder": 2000},
    ),
    (
        "dealer_ron",
        {"hand": "123456m234p55s678s", "win": "6m", "seat": "E", "from_": "W", "flags": ["riichi"]},
        [("riichi", 1), ("pinfu", 1)],
        30,
        {"discarder": 2900},
    ),
    (
        "dealer_tsumo",
        {"hand": "123456m234p55s678s", "win": "6m", "seat": "E", "by": "self_draw"},
        [("menzen_tsumo", 1), ("pinfu", 1)],
        20,
        {"each": 700},
    ),
]


@pytest.mark.parametrize(
    ("fields", "yaku", "fu", "points"),
    [pytest.param(*case[1:], id=case[0]) for case in YAKU_CASES],
)
def test_yaku_families(
    fields: dict[str, object],
    yaku: list[tuple[str, int]] | None,
    fu: int | None,
    points: dict[str, int] | None,
) -> None:
    answer = riichi(**{"seat": "S", **fields})
    assert answer["valid"] is True
    if yaku is None:
        assert {"menzen_tsumo", "rinshan"} <= {y for y, _ in ids(answer)}
        return
    assert ids(answer) == sorted(yaku)
    assert answer["han"] == sum(h for _, h in yaku)
    named_fu = None if answer["limit"] is not None else fu  # a limit hand names no fu
    assert (answer["fu"], answer["points"]) == (named_fu, points)


# ----------------------------------------------------------------------------- limits

CHINITSU = "12334556778999s"  # closed pure flush, pinfu on the 9s: 7 han, haneman


@pytest.mark.parametrize(
    ("fields", "han", "limit", "discarder"),
    [
        ({"hand": "123m456p789s11p", "win": "1p", "melds": ["pon 777z from W"]}, 1, None, 1000),
        # 4 han 40 fu is 2,560 base points: a mangan (no kiriage for 4 han 30 fu below)
        (
            {"hand": "111m456p789s234s99s", "win": "9s", "flags": ["riichi"], "dora": "8s"},
            4,
            "mangan",
            8000,
        ),
        (
            {
                "hand": "23455m678p",
                "win": "8p",
                "melds": ["pon 555z from W", "chi 340s from E"],
                "dora": "4m",
            },
            4,
            None,
            7700,
        ),
        ({"hand": CHINITSU, "win": "9s"}, 7, "haneman", 12000),
        ({"hand": CHINITSU, "win": "9s", "flags": ["riichi"], "dora": "1s"}, 9, "baiman", 16000),
        (
            {"hand": CHINITSU, "win": "9s", "flags": ["riichi"], "dora": "8s", "ura": "1z"},
            11,
            "sanbaiman",
            24000,
        ),
        # kazoe: 13 counted han or more is a yakuman, reported with its counted han
        (
            {
                "hand": CHINITSU,
                "win": "9s",
                "flags": ["riichi", "ippatsu"],
                "dora": "8s",
                "ura": "4s",
            },
            14,
            "yakuman",
            32000,
        ),
        ({"hand": "119m19p19s1234567z", "win": "1z"}, 13, "yakuman", 32000),
    ],
)
def test_limits(fields: dict[str, object], han: int, limit: str | None, discarder: int) -> None:
    answer = riichi(**{"seat": "S", "from_": "N", **fields})
    assert (answer["han"], answer["limit"], answer["points"]) == (
        han,
        limit,
        {"discarder": discarder},
    )


def test_kazoe_names_no_yakuman_and_counts_like_one() -> None:
    answer = riichi(
        hand=CHINITSU,
        win="9s",
        seat="S",
        by="self_draw",
        flags=["riichi", "ippatsu"],
        dora="8s7s",
        ura="4s1z",
    )
    assert answer["han"] == 16 and answer["limit"] == "yakuman"
    assert all(han < 13 for _, han in ids(answer))
    assert answer["points"] == {"dealer": 16000, "others": 8000}


def test_no_kiriage_4_han_30_fu_is_7700() -> None:
    # riichi, pinfu and two dora (5s): 4 han 30 fu, 1,920 base points, not rounded to mangan
    answer = riichi(**RON_2000, from_="W", dora="4s")
    assert (answer["han"], answer["fu"], answer["limit"]) == (4, 30, None)
    assert answer["points"] == {"discarder": 7700}


# ----------------------------------------------------------------------------- payments

RON_2000 = {"hand": "123456m234p55s678s", "win": "6m", "seat": "S", "flags": ["riichi"]}


def test_honba_and_the_pot_on_a_ron() -> None:
    answer = riichi(**RON_2000, from_="W", honba=2, sticks=3)
    assert answer["points"] == {"discarder": 2000}  # the price itself
    assert answer["deltas"] == {"E": 0, "S": 2000 + 600 + 3000, "W": -2600, "N": 0}


def test_honba_on_a_self_draw_is_100_from_each_payer() -> None:
    answer = riichi(**{**RON_2000, "by": "self_draw"}, honba=3, sticks=1)
    # riichi tsumo pinfu: 3 han 20 fu, 1,300 / 700
    assert answer["points"] == {"dealer": 1300, "others": 700}
    assert answer["deltas"] == {
        "E": -1600,
        "S": 1300 + 700 * 2 + 900 + 1000,
        "W": -1000,
        "N": -1000,
    }


@pytest.mark.parametrize(
    ("seat", "deltas"),
    [
        ("S", {"E": -4000, "S": 8000, "W": -2000, "N": -2000}),  # non-dealer mangan
        ("E", {"E": 12000, "S": -4000, "W": -4000, "N": -4000}),  # dealer mangan
    ],
)
def test_tsumo_splits(seat: str, deltas: dict[str, int]) -> None:
    answer = riichi(
        hand="111m456p789s234s99s", win="9s", seat=seat, by="self_draw", dora="8s", flags=["riichi"]
    )
    assert answer["limit"] == "mangan"
    assert answer["deltas"] == deltas


def test_no_deltas_without_the_discarder() -> None:
    answer = riichi(**RON_2000)
    assert answer["points"] == {"discarder": 2000} and "deltas" not in answer


SANMA_HAND = {"hand": "11m999m123s456s777z", "win": "1m", "seat": "S"}


def sanma(**fields: object) -> dict[str, object]:
    if "from_" in fields:
        fields["from"] = fields.pop("from_")
    return score_request({"preset": "sanma", **SANMA_HAND, **fields})


def test_sanma_tsumo_loses_the_missing_share() -> None:
    answer = sanma(by="self_draw", flags=["riichi"], dora="1m")  # 9m dora x3: 6 han, haneman
    assert answer["limit"] == "haneman"
    assert answer["points"] == {"dealer": 6000, "others": 3000}
    assert answer["deltas"] == {"E": -6000, "S": 9000, "W": -3000}  # not 12,000: no fourth seat


def test_sanma_honba_is_200_on_a_ron_and_100_a_payer_on_a_self_draw() -> None:
    ron = sanma(from_="E", honba=1)
    assert ron["deltas"] == {
        "E": -(ron["points"]["discarder"] + 200),
        "S": ron["points"]["discarder"] + 200,
        "W": 0,
    }  # type: ignore[index]
    tsumo = sanma(by="self_draw", honba=2)
    points = tsumo["points"]
    assert tsumo["deltas"] == {
        "E": -(points["dealer"] + 200),  # type: ignore[index]
        "S": points["dealer"] + points["others"] + 400,  # type: ignore[index]
        "W": -(points["others"] + 200),  # type: ignore[index]
    }


def test_sanma_nuki_and_its_dora_indicator_1m_makes_9m_dora() -> None:
    answer = sanma(by="self_draw", dora="1m", nuki=2)
    assert ids(answer) == sorted(
        [
            ("menzen_tsumo", 1),
            ("yakuhai_chun", 1),
            ("dora", 3),  # three 9m: 1m indicates 9m in sanma
            ("nuki_dora", 2),
        ]
    )
    north_is_dora = sanma(by="self_draw", dora="3z", nuki=1)  # West indicates North
    assert ("nuki_dora", 1) in ids(north_is_dora) and ("dora", 1) in ids(north_is_dora)


# ----------------------------------------------------------------------------- pao

DAISANGEN = {
    "hand": "123m22z",
    "win": "3m",
    "seat": "S",
    "melds": ["pon 555z from E", "pon 666z from N", "pon 777z from W"],  # W fed the third
}
# big three dragons and all honours: two yakuman, W liable for the first only
DOUBLE = {**DAISANGEN, "hand": "11122z", "win": "2z"}


@pytest.mark.parametrize("preset", ["riichi", "riichi-majsoul"])
def test_pao_on_a_single_yakuman_is_the_same_on_both_platforms(preset: str) -> None:
    ron = score_request({"preset": preset, **DAISANGEN, "from": "N", "honba": 1})
    assert ron["liable"] == "W"
    assert ron["deltas"] == {"E": 0, "S": 32300, "W": -16300, "N": -16000}  # W pays the honba
    tsumo = score_request({"preset": preset, **DAISANGEN, "by": "self_draw"})
    assert tsumo["deltas"] == {"E": 0, "S": 32000, "W": -32000, "N": 0}
    fed = score_request({"preset": preset, **DAISANGEN, "from": "W"})
    assert fed["deltas"] == {"E": 0, "S": 32000, "W": -32000, "N": 0}


def test_pao_covers_the_whole_hand_in_riichi_and_the_liable_yakuman_alone_in_majsoul() -> None:
    tenhou = score_request({"preset": "riichi", **DOUBLE, "from": "N"})
    majsoul = score_request({"preset": "riichi-majsoul", **DOUBLE, "from": "N"})
    assert ids(tenhou) == ids(majsoul) == [("daisangen", 13), ("tsuuiisou", 13)]
    assert tenhou["deltas"] == {"E": 0, "S": 64000, "W": -32000, "N": -32000}
    assert majsoul["deltas"] == {"E": 0, "S": 64000, "W": -16000, "N": -48000}
    tenhou = score_request({"preset": "riichi", **DOUBLE, "by": "self_draw"})
    majsoul = score_request({"preset": "riichi-majsoul", **DOUBLE, "by": "self_draw"})
    assert tenhou["deltas"] == {"E": 0, "S": 64000, "W": -64000, "N": 0}
    # W: the daisangen as a ron, 32,000; the all-honours yakuman split as a self draw
    assert majsoul["deltas"] == {"E": -16000, "S": 64000, "W": -40000, "N": -8000}


def test_no_pao_when_the_last_dragon_was_not_claimed() -> None:
    concealed = {**DAISANGEN, "hand": "123m22z777z", "melds": DAISANGEN["melds"][:2]}  # type: ignore[index]
    answer = riichi(**concealed, from_="N")
    assert "liable" not in answer
    assert answer["deltas"] == {"E": 0, "S": 32000, "W": 0, "N": -32000}


def test_big_four_winds_liability_reads_the_fourth_wind() -> None:
    answer = riichi(
        hand="55m",
        win="5m",
        seat="S",
        by="self_draw",
        melds=["pon 111z from W", "pon 222z from N", "pon 333z from E", "pon 444z from E"],
    )
    assert answer["liable"] == "E"
    assert ids(answer) == [("daisuushii", 13)]  # not a double yakuman on Tenhou
    assert answer["deltas"] == {"E": -32000, "S": 32000, "W": 0, "N": 0}


# ----------------------------------------------------------------------------- double yakuman


@pytest.mark.parametrize(
    ("fields", "yakuman"),
    [
        ({"hand": "19m19p19s1234567z1m", "win": "1m"}, "kokushi_musou_juusanmen"),
        ({"hand": "111m333p555s777s99p", "win": "9p", "by": "self_draw"}, "suuankou_tanki"),
        ({"hand": "11123455678999m", "win": "5m"}, "junsei_chuuren_poutou"),
    ],
)
def test_double_yakuman_counts_twice_only_in_majsoul(
    fields: dict[str, object], yakuman: str
) -> None:
    request = {"seat": "S", "from": "N", **fields}
    if request.get("by") == "self_draw":
        del request["from"]
    tenhou = score_request({"preset": "riichi", **request})
    majsoul = score_request({"preset": "riichi-majsoul", **request})
    assert ids(tenhou) == [(yakuman, 13)] and ids(majsoul) == [(yakuman, 26)]
    assert sum(majsoul["deltas"].values()) == 2 * sum(tenhou["deltas"].values()) == 2 * 0  # type: ignore[union-attr]
    assert majsoul["deltas"]["S"] == 2 * tenhou["deltas"]["S"] == 64000  # type: ignore[index]


# ----------------------------------------------------------------------------- invalid hands


def test_a_hand_without_yaku_is_no_yaku() -> None:
    answer = riichi(
        hand="123m456p789s11z", win="1z", seat="S", from_="N", melds=["chi 234m from E"], dora="9s"
    )
    assert answer["valid"] is False and answer["reason"] == "no_yaku"
    chinese = riichi(
        hand="123m456p789s11z",
        win="1z",
        seat="S",
        melds=["chi 234m from E"],
        lang="zh-CN",
    )
    assert chinese["reason"] == "no_yaku" and "役" in chinese["message"]  # type: ignore[operator]


def test_a_hand_that_is_not_complete() -> None:
    answer = riichi(hand="123m456p789s11z245m", win="5m", seat="S")
    assert answer == {
        "valid": False,
        "reason": "not_a_winning_hand",
        "message": "the tiles are neither four sets and a pair, seven different pairs nor "
        "thirteen orphans",
    }


def test_a_red_five_may_be_the_winning_tile() -> None:
    answer = riichi(hand="123456m234p55s670s", win="0s", seat="S", from_="W", flags=["riichi"])
    assert ids(answer) == [("aka_dora", 1), ("pinfu", 1), ("riichi", 1)]


def test_red_fives_score_one_dora_more_each() -> None:
    plain = riichi(**{**RON_2000, "hand": "123456m234p55s678s"}, from_="W")
    red = riichi(**{**RON_2000, "hand": "123406m234p50s678s"}, from_="W")
    assert ids(red) == sorted([*ids(plain), ("aka_dora", 2)])


# ----------------------------------------------------------------------------- refusals

GOOD = {"preset": "riichi", "hand": "123456m234p55s678s", "win": "6m", "seat": "S", "from": "W"}

REFUSALS = [
    ("second_0m", {"hand": "123400m234p55s678s", "win": "4m"}, "0m appears 2 times"),
    ("four_plain_fives", {"hand": "5555m234p55s678s11z", "win": "1z"}, "5m appears 4 times"),
    ("five_counting_reds", {"hand": "5550m234p55s678s", "win": "5m", "dora": "5m"}, "has 3 (+ 0m)"),
    (
        "chi_in_sanma",
        {"preset": "sanma", "hand": "11m999m123s777z", "win": "1m", "melds": ["chi 345s from E"]},
        "no chows",
    ),
    (
        "0m_in_sanma",
        {"preset": "sanma", "hand": "0m11m999m123s456s77z", "win": "1m"},
        "does not use the tile 0m",
    ),
    (
        "2m_in_sanma",
        {"preset": "sanma", "hand": "234m999m123s456s77z", "win": "2m"},
        "does not use the tile 2m",
    ),
    ("ura_without_riichi", {"dora": "1m", "ura": "2m"}, "ura indicators count only for a riichi"),
    (
        "ura_count",
        {"dora": "1m3p", "ura": "2m", "flags": ["riichi"]},
        "1 ura indicators for 2 dora",
    ),
    ("ippatsu_without_riichi", {"flags": ["ippatsu"]}, "ippatsu needs riichi"),
    (
        "riichi_open",
        {"hand": "567m345p55s678s", "win": "8s", "melds": ["chi 234p from E"], "flags": ["riichi"]},
        "closed hand",
    ),
    (
        "chi_not_from_the_left",
        {"hand": "567m345p55s678s", "win": "8s", "melds": ["chi 234p from N"]},
        "player on the left (E)",
    ),
    (
        "meld_from_the_winner",
        {"hand": "567m345p55s678s", "win": "8s", "melds": ["pon 222p from S"]},
        "cannot come from S",
    ),
    ("nuki_in_riichi", {"nuki": 1}, "only sanma"),
    (
        "too_many_norths_with_nuki",
        {"preset": "sanma", "hand": "11m999m123s456s44z", "win": "1m", "nuki": 3},
        "4z appears 5 times",
    ),
    ("unknown_field", {"bonus": "1f"}, "unknown field 'bonus'"),
    ("flower", {"dora": "1f"}, "does not use the tile 1f"),
    ("wrong_count", {"hand": "123456m234p55s67s"}, "13 tiles"),
    ("win_not_in_hand", {"win": "9m"}, "9m is not in the hand"),
    ("plain_win_red_held", {"hand": "123456m234p99s670s", "win": "5s"}, "5s is not in the hand"),
    ("from_on_self_draw", {"by": "self_draw"}, "self draw has no discarder"),
    ("from_own_seat", {"from": "S"}, "winner's own seat"),
    (
        "seat_north_in_sanma",
        {"preset": "sanma", "hand": "11m999m123s456s777z", "win": "1m", "seat": "N", "from": "E"},
        "seat",
    ),
    ("rinshan_without_kan", {"by": "self_draw", "from": None, "flags": ["rinshan"]}, "rinshan"),
    ("haitei_on_a_ron", {"flags": ["haitei"]}, "haitei"),
    ("tenhou_not_dealer", {"by": "self_draw", "from": None, "flags": ["tenhou"]}, "tenhou"),
    ("six_indicators", {"dora": "123456m"}, "at most 5 indicators"),
    ("unknown_flag", {"flags": ["last_tile"]}, "unknown flag 'last_tile'"),
    (
        "robbing_a_held_tile",
        {"by": "robbing_kong", "hand": "123456m234p55s666s", "win": "6s"},
        "leaves no other 6s",
    ),
]


@pytest.mark.parametrize(
    ("changes", "says"), [pytest.param(*case[1:], id=case[0]) for case in REFUSALS]
)
def test_bad_requests_get_one_clear_line(changes: dict[str, object], says: str) -> None:
    request = {key: value for key, value in {**GOOD, **changes}.items() if value is not None}
    with pytest.raises(RequestError, match=re.escape(says)) as raised:
        score_request(request)
    assert "\n" not in str(raised.value)


def test_refusals_are_worded_in_the_request_language_and_exit_2() -> None:
    bad = {**GOOD, "flags": ["ippatsu"], "lang": "zh-TW"}
    out, err = io.StringIO(), io.StringIO()
    assert run_score_lines([json.dumps(bad), json.dumps(GOOD)], out, err) == 2
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert "一發" in first["error"] and second["valid"] is True
    assert len(err.getvalue().splitlines()) == 1


# ----------------------------------------------------------------------------- against the package

PACKAGE_SUITS = {"m": "man", "p": "pin", "s": "sou", "z": "honors"}
DOUBLE_YAKUMAN = {"riichi": False, "riichi-majsoul": True, "sanma": False}


def _random_request(rng: random.Random, preset: str) -> dict[str, object]:
    """A random complete hand of four sets and a pair drawn from the preset's physical set,
    some sets called, with random circumstances."""
    players = 3 if preset == "sanma" else 4
    pool = Counter(RIICHI_RULES[preset].wall)

    def take(kinds: list[int]) -> list[int] | None:
        """Physical tiles of these kinds from the pool (a red five when one is left, at random)."""
        chosen: list[int] = []
        for kind in kinds:
            options = [t for t in pool if kind_of(t) == kind and pool[t] > chosen.count(t)]
            if not options:
                return None
            chosen.append(rng.choice(sorted(options)))
        pool.subtract(chosen)
        return chosen

    sets: list[tuple[str, list[int]]] = []
    while len(sets) < 4:
        start = rng.randrange(34)
        chi = start < 27 and start % 9 < 7 and rng.random() < 0.5
        kinds = [start, start + 1, start + 2] if chi else [start] * 3
        tiles = take(kinds)
        if tiles is not None:
            sets.append(("chi" if chi else "pon", tiles))
    pair = None
    while pair is None:
        pair = take([rng.randrange(34)] * 2)
    seat = rng.randrange(players)
    called = rng.choice([0, 0, 0, 1, 2])
    melds, concealed = [], list(pair)
    for index, (word, tiles) in enumerate(sets):
        if index >= called or (word == "chi" and preset == "sanma"):  # no chi in sanma
            concealed += tiles
            continue
        others = [s for s in range(players) if s != seat]
        source = (seat - 1) % players if word == "chi" else rng.choice(others)
        melds.append(f"{word} {format_tiles(sort_tiles(tiles))} from {SEAT_NAMES[source]}")
    request: dict[str, object] = {
        "preset": preset,
        "hand": format_tiles(concealed),
        "win": tile_name(rng.choice(concealed)),
        "melds": melds,
        "seat": SEAT_NAMES[seat],
        "round": rng.choice("ES"),
        "honba": rng.choice([0, 0, 1, 2, 5]),
        "sticks": rng.choice([0, 0, 1, 3]),
    }
    if rng.random() < 0.5:
        request["by"] = "self_draw"
    else:
        request["from"] = SEAT_NAMES[rng.choice([s for s in range(players) if s != seat])]
    indicators = [take([rng.randrange(34)]) for _ in range(rng.choice([0, 1, 1, 2]))]
    request["dora"] = format_tiles(t for tiles in indicators if tiles for t in tiles)
    count = len(parse_tiles(str(request["dora"])))
    if not melds and rng.random() < 0.5:
        request["flags"] = ["riichi"] + (["ippatsu"] if rng.random() < 0.3 else [])
        ura = [take([rng.randrange(34)]) for _ in range(count)]
        if all(ura):
            request["ura"] = format_tiles(t for tiles in ura if tiles for t in tiles)
    if preset == "sanma" and pool[NORTH] and rng.random() < 0.5:
        request["nuki"] = rng.randint(1, pool[NORTH])
    return request


def _package_answer(request: dict[str, object]) -> HandResponse:
    """The `mahjong` package's own answer, from the request text (not from our wiring)."""
    hand = parse_tiles(str(request["hand"]))
    melds = [str(m).split() for m in request["melds"]]  # type: ignore[attr-defined]
    every = hand + [t for word, tiles, *_ in melds for t in parse_tiles(tiles)]
    text = {suit: "" for suit in PACKAGE_SUITS}
    for tile in every:
        name = tile_name(tile)
        text[name[1]] += name[0]
    ids = TilesConverter.string_to_136_array(
        **{PACKAGE_SUITS[s]: digits for s, digits in text.items()}, has_aka_dora=True
    )
    free = {(i // 4, i in AKA_DORAS): [] for i in ids}  # type: ignore[var-annotated]
    for i in ids:
        free[(i // 4, i in AKA_DORAS)].append(i)

    def pick(tile: int) -> int:
        return free[(kind_of(tile), is_red(tile))].pop()

    hand_ids = [pick(t) for t in hand]
    win = hand_ids[hand.index(parse_tile(str(request["win"])))]
    package_melds = []
    for word, tiles, *_ in melds:
        meld_ids = [pick(t) for t in parse_tiles(tiles)]
        kind = PackageMeld.CHI if word == "chi" else PackageMeld.PON
        package_melds.append(PackageMeld(kind, meld_ids, True))
    flags = request.get("flags", [])
    seat, round_wind = "ESWN".index(str(request["seat"])), "ESWN".index(str(request["round"]))
    config = HandConfig(
        is_tsumo=request.get("by") == "self_draw",
        is_riichi="riichi" in flags,  # type: ignore[operator]
        is_ippatsu="ippatsu" in flags,  # type: ignore[operator]
        player_wind=EAST + seat,
        round_wind=EAST + round_wind,
        num_nuki_dora=int(request.get("nuki", 0)),  # type: ignore[call-overload]
        tsumi_number=int(request["honba"]),  # type: ignore[call-overload]
        kyoutaku_number=int(request["sticks"]),  # type: ignore[call-overload]
        options=OptionalRules(
            has_open_tanyao=True,
            has_aka_dora=True,
            has_double_yakuman=DOUBLE_YAKUMAN[str(request["preset"])],
            kazoe_limit=HandConfig.KAZOE_LIMITED,
            kiriage=False,
            is_three_player=request["preset"] == "sanma",
        ),
    )

    def indicator_ids(field: str) -> list[int]:
        return [kind_of(t) * 4 + 1 for t in parse_tiles(str(request.get(field, "")))]

    return HandCalculator.estimate_hand_value(
        hand_ids + [i for m in package_melds for i in m.tiles],
        win,
        melds=package_melds,
        dora_indicators=indicator_ids("dora"),
        ura_dora_indicators=indicator_ids("ura"),
        config=config,
    )


@pytest.mark.parametrize("preset", ["riichi", "riichi-majsoul", "sanma"])
def test_random_hands_agree_with_the_package_called_on_its_own(preset: str) -> None:
    rng = random.Random(f"riichi-score:{preset}")
    valid = 0
    for _ in range(150):
        request = _random_request(rng, preset)
        ours = score_request(request)
        theirs = _package_answer(request)
        if theirs.error is not None:
            expected = "no_yaku" if theirs.error == HandCalculator.ERR_NO_YAKU else theirs.error
            assert ours["reason"] == expected, request
            continue
        valid += 1
        fu = None if ours["limit"] is not None else theirs.fu  # a limit names no fu
        assert (ours["han"], ours["fu"]) == (theirs.han, fu), request
        assert theirs.cost is not None and theirs.yaku is not None
        main, additional = theirs.cost["main"], theirs.cost["additional"]
        points = ours["points"]
        if request.get("by") != "self_draw":
            assert points == {"discarder": main}, request
        elif request["seat"] == "E":
            assert points == {"each": main}, request
        else:
            assert points == {"dealer": main, "others": additional}, request
        assert sum(y["han"] for y in ours["yaku"]) == theirs.han, request  # type: ignore[attr-defined]
        deltas = ours["deltas"]
        assert "liable" not in ours, request  # the random hands hold no pao
        assert deltas[request["seat"]] == theirs.cost["total"], request  # type: ignore[index]
        assert sum(deltas.values()) == 1000 * request["sticks"], request  # type: ignore[attr-defined, operator]
    assert valid >= 30  # the random hands reach the scoring, not only its refusals


def test_presets_lists_the_riichi_presets_and_sanma_as_playable(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli_main(["presets"]) == 0
    listed = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    for playable in ("riichi", "riichi-majsoul", "sanma"):
        assert playable in PRESETS
        assert "in development" not in listed[playable] and "`score` only" not in listed[playable]
        assert PRESETS[playable].name in listed[playable]
