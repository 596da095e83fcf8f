"""The `mahjong-bot score` JSON contract (DESIGN.md): results, every error class, JSON lines."""

from __future__ import annotations

import io
import json

import pytest

from engine.formats.score_request import RequestError, parse_request, run_score_lines, score_request

BASE = {"preset": "hkos-3-v1", "hand": "111m555p999s222s77m", "win": "7m"}


def request(**changes: object) -> dict[str, object]:
    """BASE (all pungs, 3 faan + no bonus tiles 1) with some fields changed or added."""
    return {**BASE, **changes}


def test_design_example() -> None:
    result = score_request(
        {
            "preset": "hkos-3-v1",
            "hand": "123m456p789s1z1z",
            "win": "1z",
            "melds": ["pung 555z"],
            "bonus": "1f5f",
            "by": "discard",
            "seat": "E",
            "round": "E",
            "flags": ["last_tile"],
        }
    )
    # dragon pung 1 + last tile 1 + own flower 1 + own season 1; the East pair scores nothing
    patterns = result.pop("patterns")
    assert result == {
        "valid": True,
        "fan": 4,
        "unit": "faan",
        "limit": False,
        "points": {"discarder": 16},
    }
    assert sorted(patterns, key=lambda p: p["id"]) == [
        {"id": "dragon_pung", "fan": 1},
        {"id": "last_tile", "fan": 1},
        {"id": "own_flower", "fan": 1},
        {"id": "own_season", "fan": 1},
    ]


def test_defaults_are_discard_east_east_no_melds_no_bonus() -> None:
    explicit = request(melds=[], bonus="", by="discard", seat="E", round="E", flags=[])
    assert score_request(BASE) == score_request(explicit)
    assert score_request(BASE) == {
        "valid": True,
        "fan": 4,
        "unit": "faan",
        "limit": False,
        "patterns": [{"id": "all_pungs", "fan": 3}, {"id": "no_bonus_tiles", "fan": 1}],
        "points": {"discarder": 16},
    }


def test_self_draw_pays_each() -> None:
    assert score_request(request(by="self_draw"))["points"] == {"each": 12}  # 5 faan


def test_robbing_kong_pays_as_discarder() -> None:
    # all chows 1 + half flush 3 + robbing a kong 1 + no bonus tiles 1; the only 1m is robbed
    result = score_request(
        {"preset": "hkos-3-v1", "hand": "123m456m789m234m33z", "win": "1m", "by": "robbing_kong"}
    )
    assert result["fan"] == 6
    assert result["points"] == {"discarder": 32}


def test_seat_and_round_letters() -> None:
    hand = {"preset": "hkos-3-v1", "hand": "123m456m789m222z55m", "win": "5m"}
    # half flush 3 + South pung: seat S and round S both score, plus no bonus tiles
    assert score_request({**hand, "seat": "S", "round": "S"})["fan"] == 6
    assert score_request({**hand, "seat": "W", "round": "N"})["fan"] == 4


def test_not_a_winning_hand_is_a_result_not_an_error() -> None:
    result = score_request(request(hand="111m555p999s222s78m", win="8m"))
    assert result["valid"] is False
    assert result["reason"] == "not_a_winning_hand"
    assert set(result) == {"valid", "reason", "message"}
    assert result["message"]


def test_below_minimum_result_has_fan() -> None:
    result = score_request(request(hand="123m456p789s222s55m", win="5m", bonus="2f"))
    assert result == {
        "valid": False,
        "reason": "below_minimum",
        "message": result["message"],
        "fan": 0,
        "patterns": [],
    }


def test_void_is_passed_on_where_the_preset_has_void_suits() -> None:
    sichuan = {"preset": "sichuan-bb", "hand": "111222333m777p55p", "win": "5p"}
    _, ctx = parse_request({**sichuan, "void": "s"})
    assert ctx.void_suit == "s"
    assert parse_request(sichuan)[1].void_suit is None
    assert parse_request(request(void=None))[1].void_suit is None  # null is the same as absent


def test_a_chow_is_fine_where_the_preset_has_chows() -> None:
    _, ctx = parse_request(request(hand="111m555p999s77m", melds=["chow 123s"]))
    assert [str(m) for m in ctx.melds] == ["chow 123s"]


def test_parsed_context() -> None:
    preset, ctx = parse_request(
        request(
            hand="111m999s77m",
            melds=["pung 333p", "concealed_kong 4444s"],
            bonus="3f",
            by="self_draw",
            seat="N",
            round="W",
            flags=["kong_replacement"],
        )
    )
    assert preset.id == "hkos-3-v1"
    assert len(ctx.concealed) == 8
    assert [str(m) for m in ctx.melds] == ["pung 333p", "concealed_kong 4444s"]
    assert (ctx.seat, ctx.round_wind) == (3, 2)
    assert ctx.flags == {"kong_replacement"}


# (case id, the request, words the one-sentence message must contain)
ERRORS = [
    ("not_an_object", ["hkos-3-v1"], "JSON object"),
    ("unknown_preset", request(preset="nope"), "unknown preset 'nope'"),
    ("unknown_field", request(hands="123m"), "'hands'"),
    ("missing_hand", {"preset": "hkos-3-v1", "win": "1m"}, "'hand'"),
    ("missing_preset", {"hand": "111m555p999s222s77m", "win": "7m"}, "'preset'"),
    ("hand_not_a_string", request(hand=123), "hand"),
    ("bad_suit_letter", request(hand="111m555p999s222s77x"), "'x'"),
    ("bad_token", request(hand="111m555p999s222s77m3"), "'3'"),
    ("no_such_rank", request(hand="011m555p999s222s77m"), "0m"),
    ("honour_rank_8", request(hand="111m555p999s222s88z"), "8z"),
    ("win_is_two_tiles", request(win="77m"), "win"),
    ("bonus_tile_in_hand", request(hand="111m555p999s222s7m1f", win="7m"), "1f"),
    (
        "tile_not_in_preset",
        {"preset": "sichuan-bb", "hand": "111m555p999s222s11z", "win": "1z"},
        "1z",
    ),
    (
        "bonus_not_in_preset",
        {"preset": "sichuan-bb", "hand": "111m555p999s222s77m", "win": "7m", "bonus": "1f"},
        "1f",
    ),
    ("five_of_a_tile_in_hand", request(hand="11111m55p999s222s7m", win="7m"), "1m"),
    (
        "five_of_a_tile_across_melds",
        request(hand="11m456p789s", melds=["kong 1111m", "chow 123s"], win="1m"),
        "1m",
    ),
    ("duplicate_bonus_tile", request(bonus="1f1f"), "1f"),
    ("bonus_field_not_bonus", request(bonus="1m"), "bonus"),
    ("bad_bonus_notation", request(bonus="1q"), "'q'"),
    ("too_few_tiles", request(hand="111m555p999s222s7m"), "13"),
    ("too_many_tiles_with_melds", request(melds=["pung 333p"]), "17"),
    ("win_not_in_hand", request(win="8m"), "8m"),
    ("bad_by", request(by="tsumo"), "'tsumo'"),
    ("bad_seat", request(seat="X"), "'X'"),
    ("bad_round", request(round="east"), "'east'"),
    ("unknown_flag", request(flags=["riichi"]), "'riichi'"),
    ("flags_not_a_list", request(flags="last_tile"), "flags"),
    ("melds_not_a_list", request(melds="pung 555z"), "melds"),
    ("meld_not_a_string", request(melds=[5]), "melds[0]"),
    ("bad_meld", request(hand="111m555p999s77m", melds=["pung 223s"]), "melds[0]"),
    ("bad_meld_kind", request(hand="111m555p999s77m", melds=["triple 222s"]), "'triple'"),
    ("bad_void", request(preset="sichuan-bb", void="z"), "void"),
    ("void_without_void_suits", request(void="s"), "void: hkos-3-v1 has no void suit"),
    (
        "chow_without_chows",
        {
            "preset": "sichuan-bb",
            "hand": "555p999p22m",
            "win": "2m",
            "melds": ["pung 777p", "chow 123m"],
        },
        "melds[1]: chow 123m cannot be claimed in sichuan-bb",
    ),
    (
        "kong_replacement_without_kong",
        request(by="self_draw", flags=["kong_replacement"]),
        "kong_replacement",
    ),
    (
        "kong_replacement_on_a_discard",
        request(hand="111m999s77m", melds=["pung 333p", "kong 4444s"], flags=["kong_replacement"]),
        "kong_replacement",
    ),
    ("heavenly_not_east", request(by="self_draw", seat="S", flags=["heavenly"]), "heavenly"),
    ("heavenly_on_a_discard", request(flags=["heavenly"]), "heavenly"),
    ("earthly_for_east", request(flags=["earthly"]), "earthly"),
    ("earthly_self_drawn", request(seat="S", by="self_draw", flags=["earthly"]), "earthly"),
    ("robbing_a_tile_the_winner_also_holds", request(by="robbing_kong"), "robbing"),
]


@pytest.mark.parametrize(
    ("bad", "words"), [pytest.param(case[1], case[2], id=case[0]) for case in ERRORS]
)
def test_request_errors(bad: object, words: str) -> None:
    with pytest.raises(RequestError) as caught:
        score_request(bad)
    message = str(caught.value)
    assert words in message
    assert "\n" not in message
    assert isinstance(caught.value, ValueError)


def test_json_lines_all_good() -> None:
    lines = [json.dumps(BASE), "", "   ", json.dumps(request(by="self_draw")) + "\n"]
    out, err = io.StringIO(), io.StringIO()
    assert run_score_lines(lines, out, err) == 0
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["points"] for r in results] == [{"discarder": 16}, {"each": 12}]
    assert err.getvalue() == ""


def test_json_lines_invalid_hand_is_not_an_error() -> None:
    lines = [json.dumps(request(hand="111m555p999s222s78m", win="8m"))]
    out, err = io.StringIO(), io.StringIO()
    assert run_score_lines(lines, out, err) == 0
    assert json.loads(out.getvalue())["reason"] == "not_a_winning_hand"


@pytest.mark.parametrize(
    ("bad_line", "words"),
    [
        pytest.param("{not json", "not valid JSON", id="bad_json"),
        pytest.param(json.dumps(request(hand="55555m")), "5m", id="bad_request"),
        pytest.param("[1, 2]", "JSON object", id="not_an_object"),
        pytest.param("[" * 100_000 + "]" * 100_000, "nested too deeply", id="deeply_nested"),
        pytest.param('{"preset": ' + "7" * 5000 + "}", "4300 digits", id="huge_integer"),
        pytest.param(json.dumps(request(seat=10**4000)), "seat: expected a string", id="big"),
    ],
)
def test_json_lines_answer_every_line_in_order(bad_line: str, words: str) -> None:
    lines = [json.dumps(BASE), bad_line, json.dumps(BASE)]
    out, err = io.StringIO(), io.StringIO()
    assert run_score_lines(lines, out, err) == 2  # at the end, because a line was bad
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == 3  # the line after the bad one is scored too
    assert answers[0] == answers[2] == score_request(BASE)
    assert list(answers[1]) == ["error"] and words in answers[1]["error"]
    errors = err.getvalue().splitlines()
    assert len(errors) == 1
    assert errors[0].startswith("error: ")
    assert "line 2" in errors[0]
    assert words in errors[0]


@pytest.mark.parametrize(
    "bad",
    [
        request(hand="1m" * 500_000),
        request(hand="x" * 1_000_000),
        request(melds=["pung " + "5z" * 500_000]),
        request(seat="N" * 1_000_000),
        request(flags=["f" * 1_000_000]),
        request(melds=[[1] * 300_000]),
        {**BASE, "z" * 1_000_000: 1},
        request(preset="p" * 1_000_000),
    ],
)
def test_error_lines_echo_a_short_excerpt_of_a_bad_value(bad: dict[str, object]) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run_score_lines([json.dumps(bad)], out, err) == 2
    (line,) = err.getvalue().splitlines()
    assert len(line) < 400, line[:500]
    assert len(out.getvalue()) < 450


def test_the_score_command_gives_one_line_and_no_traceback(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    lines = [json.dumps(BASE), "[" * 50_000, '{"seat": ' + "9" * 5000 + "}", json.dumps(BASE)]
    done = subprocess.run(
        [sys.executable, "-m", "bot", "score"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 2 and len(done.stdout.splitlines()) == 4


# ------------------------------------------------------------------ lang: the message's language


def test_lang_words_the_message_and_leaves_the_ids_english() -> None:
    chows = request(hand="123m456p789s234s77m")  # all chows 1 + no bonus tiles 1: below 3
    english = score_request(chows)
    simplified = score_request({**chows, "lang": "zh-CN"})
    traditional = score_request({**chows, "lang": "zh-TW"})
    assert english["message"] == "2 faan is below this table's 3-faan minimum"
    assert simplified["message"] == "2 番，不到本桌 3 番起胡"
    assert traditional["message"] == "2 番，不到本桌 3 番起胡"
    without = {k: v for k, v in simplified.items() if k != "message"}
    assert without == {k: v for k, v in english.items() if k != "message"}  # ids, fan: the same
    assert score_request({**chows, "lang": "en"}) == english


@pytest.mark.parametrize(
    ("fields", "simplified", "traditional"),
    [
        (
            {"hand": "123m456p789s234s78m", "win": "8m"},
            "这手牌既不是 4 组牌加一对将，也不是十三幺",
            "這手牌既不是 4 組牌加一對眼，也不是十三么",
        ),
        (
            {"preset": "sichuan-bb", "hand": "123m456m789p111m22m", "win": "2m", "void": "p"},
            "这手牌里有缺的那一门（p）",
            "這手牌裡有缺的那一門（p）",
        ),
        (
            {"preset": "hubei-laizi", "hand": "123m456m789m111p22s", "win": "2s", "wild": "9s"},
            "必须开口（吃、碰、明杠或补杠）才能胡牌",
            "必須開口（吃、碰、明槓或補槓）才能胡牌",
        ),
    ],
)
def test_a_hand_that_does_not_win_says_why_in_chinese(
    fields: dict[str, object], simplified: str, traditional: str
) -> None:
    assert score_request({**request(**fields), "lang": "zh-CN"})["message"] == simplified
    assert score_request({**request(**fields), "lang": "zh-TW"})["message"] == traditional


@pytest.mark.parametrize("value", ["fr", "zh", "", 3, None])
def test_a_language_we_do_not_answer_in_is_refused(value: object) -> None:
    with pytest.raises(RequestError, match=r"lang: .* is not one of en, zh-CN, zh-TW"):
        score_request({**BASE, "lang": value})


def test_lang_in_json_lines() -> None:
    out, err = io.StringIO(), io.StringIO()
    chows = json.dumps({**request(hand="123m456p789s234s77m"), "lang": "zh-TW"})
    bad = json.dumps({**BASE, "lang": "de"})
    assert run_score_lines([chows, bad], out, err) == 2
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first["message"] == "2 番，不到本桌 3 番起胡" and first["reason"] == "below_minimum"
    assert "lang" in second["error"] and "lang" in err.getvalue()


def test_the_wall_and_the_tiles_seen_are_refused_where_no_rule_reads_them() -> None:
    request = {"preset": "hkos-3-v1", "hand": "123m456m789m123p55s", "win": "5s", "by": "self_draw"}
    for field, value in (("wall_left", 3), ("seen", 0)):
        with pytest.raises(RequestError, match=f"{field}: hkos-3-v1 does not use it"):
            score_request({**request, field: value})
    fw2 = {**request, "preset": "hk-fw2", "wall_left": 3, "seen": 0}
    assert score_request(fw2)["valid"] is True
