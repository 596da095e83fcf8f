"""The `score` contract's edges found against an independent scorer (issue 29): hubei-laizi's kong
bloom after a red or wild kong, its liability read from the third claimed meld, its `last_tile`
flag, and impossible requests refused (exit 2) rather than scored."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from engine.formats.score_request import RequestError, run_score_lines, score_request


def hubei(hand: str, win: str, melds: list[str], **fields: Any) -> dict[str, Any]:
    """A hubei-laizi request, the wild 9m, without the minimum unless `min_fan` says."""
    request = {"preset": "hubei-laizi", "hand": hand, "win": win, "melds": melds, "wild": "9m"}
    request.update({"min_fan": 0, **fields})
    return score_request(request)


def ids(result: dict[str, Any]) -> list[str]:
    return [p["id"] for p in result["patterns"]]


def test_kong_bloom_after_a_red_kong_without_an_ordinary_kong() -> None:
    issue_example = {
        "preset": "hubei-laizi",
        "hand": "456p12223s",
        "win": "6p",
        "by": "self_draw",
        "melds": ["chow 123m from S", "chow 789p from S"],
        "seat": "E",
        "flags": ["kong_replacement"],
        "wild": "6m",
        "players": 2,
        "special_kongs": {"red": 1},
    }
    result = score_request(issue_example)
    assert result["valid"] and "kong_bloom" in ids(result) and "red_kong" in ids(result)
    wild = hubei(
        "234m567p678s55s",
        "5s",
        ["chow 789s from N"],
        by="self_draw",
        flags=["kong_replacement"],
        special_kongs={"wild": 1},
    )
    assert ids(wild) == ["kong_bloom", "hard_win", "wild_kong"]


def test_kong_bloom_still_needs_some_kong() -> None:
    with pytest.raises(RequestError, match="kong_replacement"):
        hubei(
            "234m567p678s55s",
            "5s",
            ["chow 789s from N"],
            by="self_draw",
            flags=["kong_replacement"],
        )


def test_liability_goes_to_the_feeder_of_the_third_claimed_meld() -> None:
    # S wins an all 2-5-8 by self draw at a table of three; the first two pungs name no source,
    # the third was fed by W: W pays for E too
    result = hubei(
        "222s88m",
        "8m",
        ["pung 222p", "pung 555m", "pung 888p from W"],
        by="self_draw",
        seat="S",
        players=3,
    )
    assert "all_258" in ids(result)
    assert result["deltas"] == {"E": 0, "S": 16, "W": -16}


def test_a_chows_feeder_is_the_preceding_seat_named_or_not() -> None:
    # E's full flush: the third claimed meld is a chow, fed by N (the seat before E)
    melds = ["pung 444s from S", "pung 999s from W", "chow 123s", "chow 678s"]
    result = hubei("55s", "5s", melds, by="self_draw")
    assert "full_flush" in ids(result)
    assert result["deltas"] == {"E": 12, "S": 0, "W": 0, "N": -12}


def test_the_contracts_last_tile_flag_is_hubeis_last_draw() -> None:
    melds = ["chow 789s from N"]
    for flag in ("last_tile", "last_draw"):
        result = hubei("234m567p678s55s", "5s", melds, by="self_draw", flags=[flag])
        assert ids(result) == ["last_draw", "hard_win"], flag


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        # a pung of the wild; a pung of red dragons (never punged)
        ({"hand": "234m567p55s", "melds": ["chow 789s from N", "pung 999m from W"]}, "wild"),
        ({"hand": "234m567p55s", "melds": ["chow 789s from N", "pung 777z from W"]}, "red"),
        ({"hand": "234m567p678s5s9m", "win": "9m"}, "wild"),  # a discard win on the wild
        ({"wild": "7z"}, "wild"),  # the red dragon is never the wild
        ({"hand": "234m567p678s5s9m", "special_kongs": {"wild": 4}}, "9m"),  # five wilds
        ({"melds": ["chow 789s from W"]}, "preceding"),  # a chow comes from the seat before
        ({"melds": ["pung 111s from E"]}, "own"),  # nobody claims their own discard
    ],
)
def test_impossible_hubei_requests_are_refused(fields: dict[str, Any], words: str) -> None:
    request = {
        "hand": "234m567p678s55s",
        "win": "5s",
        "melds": ["chow 789s from N"],
        "by": "discard",
        "from": "W",
        **fields,
    }
    with pytest.raises(RequestError, match=words):
        hubei(**request)


HK3 = {"preset": "hk-3fan", "hand": "123m456m11122z", "win": "2z", "melds": ["pung 777z"]}


def test_hk3fan_chow_only_from_the_preceding_seat() -> None:
    fine = score_request({**HK3, "melds": ["chow 789m from N"], "hand": "123m456m11122z"})
    assert "valid" in fine
    with pytest.raises(RequestError, match="preceding"):
        score_request({**HK3, "melds": ["chow 789m from S"]})
    with pytest.raises(RequestError, match="preceding"):
        score_request({**HK3, "melds": ["chow 789m from N"], "seat": "S"})


@pytest.mark.parametrize(
    ("field", "value"),
    [("wild", "5m"), ("special_kongs", {"red": 1}), ("others", {"S": {"melds": []}})],
)
def test_hubei_fields_are_refused_on_presets_without_them(field: str, value: object) -> None:
    for preset in ("hkos-3-v1", "redwild"):
        request = {**HK3, "preset": preset, field: value}
        if preset == "redwild":
            request.update(hand="123m456m789m11p22p", win="2p", melds=[], by="self_draw")
        with pytest.raises(RequestError, match=field):
            score_request(request)


def test_an_impossible_line_exits_2_with_one_line() -> None:
    line = json.dumps(
        {
            "preset": "hubei-laizi",
            "hand": "234m567p55s",
            "win": "5s",
            "melds": ["chow 789s from N", "pung 777z from W"],
            "wild": "9m",
        }
    )
    out, err = io.StringIO(), io.StringIO()
    assert run_score_lines([line], out, err) == 2
    assert "error" in json.loads(out.getvalue()) and err.getvalue().count("\n") == 1


def test_the_contract_says_tw16_points_leave_the_dealer_bonus_out_and_deltas_carry_it() -> None:
    contract = Path(__file__).parent.parent / "docs" / "scoring-contract.md"
    readme = contract.read_text(encoding="utf-8")
    assert "its `points` leave the dealer bonus out" in readme
    assert '`"points": {"discarder": 4}`' in readme and "+5 and −5" in readme
    dealer_wins = {
        "preset": "tw-16",
        "hand": "123m456m789m123p11122z",
        "win": "2z",
        "seat": "E",
        "from": "S",
    }
    result = score_request(dealer_wins)
    assert result["fan"] == 3 and result["points"] == {"discarder": 4}
    assert result["deltas"] == {"E": 5, "S": -5, "W": 0, "N": 0}
