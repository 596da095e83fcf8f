"""`mahjong-bot score` for `riichi`, `riichi-majsoul` and `sanma` (DESIGN.md "Riichi in the `score`
contract", RULES.md "Riichi"): concrete hands with their known values, payments around them, and
refusals."""

from __future__ import annotations

import io
import json
import re

import pytest

from engine.score_request import RequestError, run_score_lines, score_request


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
    assert (answer["fu"], answer["points"]) == (fu, points)


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
