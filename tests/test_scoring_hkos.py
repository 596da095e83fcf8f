"""Hong Kong Old Style scoring, case by case from RULES.md `hkos-3-v1`; every number by hand.

Unless a case says otherwise: seat East, prevailing wind East, a discard win, the last tile of
`hand` is the winning tile, and the bonus area holds only 2f (South's flower), which scores
nothing for East but keeps `no_bonus_tiles` away, so each case shows just the pattern it tests.
"""

from __future__ import annotations

import pytest

from engine.families.hongkong.scoring_hkos import PAYMENTS
from engine.presets import HKOS
from engine.scoring import score
from engine.scoring.base import Score, WinBy, WinContext
from engine.tiles import SEAT_NAMES, Meld, parse_tile, parse_tiles

# Three chows of three suits, a bamboo pung and a pair: worth nothing by itself.
CHICKEN = "123m456p789s222s55m"


def win(
    hand: str,
    win: str | None = None,
    melds: tuple[str, ...] = (),
    bonus: str = "2f",
    by: str = "discard",
    seat: str = "E",
    round: str = "E",
    flags: tuple[str, ...] = (),
) -> Score:
    """Score one win written in RULES.md notation."""
    tiles = parse_tiles(hand)
    ctx = WinContext(
        concealed=tuple(tiles),
        win_tile=parse_tile(win) if win else tiles[-1],
        melds=tuple(Meld.parse(m) for m in melds),
        bonus=tuple(parse_tiles(bonus)),
        by=WinBy(by),
        seat=SEAT_NAMES.index(seat),
        round_wind=SEAT_NAMES.index(round),
        flags=frozenset(flags),
    )
    return score(HKOS, ctx)


def patterns_of(result: Score) -> dict[str, int]:
    return {p.id: p.fan for p in result.patterns}


# (case id, win() keywords, fan, patterns, points when valid or the invalid reason)
CASES = [
    # --- hand patterns ---
    ("all_chows", dict(hand="123m456m789p234s55s"), 1, {"all_chows": 1}, "below_minimum"),
    (
        "all_chows_with_claimed_chow",
        dict(hand="456m789p234s55s", melds=("chow 123m",)),
        1,
        {"all_chows": 1},
        "below_minimum",
    ),
    (
        "all_chows_wind_pair_scores_nothing",
        dict(hand="123m456m789p234s11z"),
        1,
        {"all_chows": 1},
        "below_minimum",
    ),
    (
        "all_chows_dragon_pair_scores_nothing",
        dict(hand="123m456m789p234s55z"),
        1,
        {"all_chows": 1},
        "below_minimum",
    ),
    ("dragon_pung", dict(hand="123m456p789s555z22s"), 1, {"dragon_pung": 1}, "below_minimum"),
    (
        "dragon_pung_two_in_one_entry",
        dict(hand="123m456p555z666z22s"),
        2,
        {"dragon_pung": 2},
        "below_minimum",
    ),
    (
        "dragon_kong_counts_as_pung",
        dict(hand="123m456p789s22s", melds=("kong 7777z",)),
        1,
        {"dragon_pung": 1},
        "below_minimum",
    ),
    (
        "seat_wind",
        dict(hand="123m456p789s222z55s", seat="S", bonus="1f"),
        1,
        {"seat_wind": 1},
        "below_minimum",
    ),
    (
        "prevailing_wind",
        dict(hand="123m456p789s222z55s", round="S"),
        1,
        {"prevailing_wind": 1},
        "below_minimum",
    ),
    (
        "seat_and_prevailing_wind_both",
        dict(hand="123m456p789s111z55s"),
        2,
        {"seat_wind": 1, "prevailing_wind": 1},
        "below_minimum",
    ),
    ("other_wind_pung_scores_nothing", dict(hand="123m456p789s333z55s"), 0, {}, "below_minimum"),
    (
        "wind_added_kong_counts_for_both_winds",
        dict(hand="123m456p789s55s", melds=("added_kong 2222z",), seat="S", round="S", bonus="1f"),
        2,
        {"seat_wind": 1, "prevailing_wind": 1},
        "below_minimum",
    ),
    ("all_pungs", dict(hand="111m555p999s222s77m"), 3, {"all_pungs": 3}, {"discarder": 8}),
    (
        "all_pungs_with_claimed_pung_and_kong",
        dict(hand="111m999s77m", melds=("pung 333p", "kong 4444s")),
        3,
        {"all_pungs": 3},
        {"discarder": 8},
    ),
    (
        "kongs_count_as_pungs_for_dragon_wind_all_pungs",
        dict(hand="111m999p77s", melds=("concealed_kong 5555z", "kong 1111z")),
        6,
        {"dragon_pung": 1, "seat_wind": 1, "prevailing_wind": 1, "all_pungs": 3},
        {"discarder": 32},
    ),
    ("half_flush", dict(hand="123m456m789m333z55m"), 3, {"half_flush": 3}, {"discarder": 8}),
    (
        "half_flush_honour_pair_with_all_chows",
        dict(hand="123m456m789m234m33z"),
        4,
        {"all_chows": 1, "half_flush": 3},
        {"discarder": 16},
    ),
    (
        "little_three_dragons_replaces_dragon_pungs",
        dict(hand="123m456p555z666z77z"),
        5,
        {"little_three_dragons": 5},
        {"discarder": 24},
    ),
    ("pure_flush", dict(hand="123m456m789m222m55m"), 7, {"pure_flush": 7}, {"discarder": 48}),
    (
        "big_three_dragons_replaces_dragon_pungs",
        dict(hand="123m555z666z777z22p"),
        8,
        {"big_three_dragons": 8},
        {"discarder": 64},
    ),
    # --- ten-faan patterns and what they replace ---
    (
        "little_four_winds_replaces_half_flush_and_winds",
        dict(hand="111z222z333z44z123m"),
        10,
        {"little_four_winds": 10},
        {"discarder": 128},
    ),
    (
        "three_wind_pungs_without_a_wind_pair_are_not_little_four_winds",
        dict(hand="111z222z333z123m55m"),
        5,
        {"seat_wind": 1, "prevailing_wind": 1, "half_flush": 3},
        {"discarder": 24},
    ),
    (
        "all_honours_replaces_little_three_dragons_winds_all_pungs",
        dict(hand="111z333z555z666z77z"),
        10,
        {"all_honours": 10},
        {"discarder": 128},
    ),
    (
        "all_honours_replaces_big_three_dragons",
        dict(hand="555z666z777z111z22z"),
        10,
        {"all_honours": 10},
        {"discarder": 128},
    ),
    (
        "all_terminals_replaces_all_pungs",
        dict(hand="111m999m111p999p11s"),
        10,
        {"all_terminals": 10},
        {"discarder": 128},
    ),
    (
        "terminals_with_honours_are_not_all_terminals",
        dict(hand="111m999p111z555z99s"),
        6,
        {"dragon_pung": 1, "seat_wind": 1, "prevailing_wind": 1, "all_pungs": 3},
        {"discarder": 32},
    ),
    (
        "ten_faan_patterns_do_not_replace_each_other_and_cap_at_13",
        dict(hand="111z222z333z44z555z"),
        13,
        {"little_four_winds": 10, "all_honours": 10},
        {"discarder": 384},
    ),
    (
        "ten_faan_still_takes_win_and_bonus_patterns",
        dict(hand="111m999m111p999p11s", by="self_draw", bonus="1f"),
        12,
        {"all_terminals": 10, "self_draw": 1, "own_flower": 1},
        {"each": 128},
    ),
    # --- win patterns ---
    ("self_draw", dict(hand=CHICKEN, by="self_draw"), 1, {"self_draw": 1}, "below_minimum"),
    (
        "kong_replacement_on_top_of_self_draw",
        dict(
            hand="123m456p789s55m",
            melds=("kong 2222s",),
            by="self_draw",
            flags=("kong_replacement",),
        ),
        2,
        {"self_draw": 1, "kong_replacement": 1},
        "below_minimum",
    ),
    (
        "robbing_kong",
        dict(hand=CHICKEN, win="1m", by="robbing_kong"),
        1,
        {"robbing_kong": 1},
        "below_minimum",
    ),
    ("last_tile", dict(hand=CHICKEN, flags=("last_tile",)), 1, {"last_tile": 1}, "below_minimum"),
    (
        "win_patterns_reach_the_minimum",
        dict(
            hand="123m456p789s55m",
            melds=("kong 2222s",),
            by="self_draw",
            flags=("kong_replacement", "last_tile"),
        ),
        3,
        {"self_draw": 1, "kong_replacement": 1, "last_tile": 1},
        {"each": 4},
    ),
    (
        "robbing_kong_is_paid_by_the_robbed_player_as_discarder",
        dict(hand="123m456m789m234m33z", win="1m", by="robbing_kong", bonus=""),
        6,
        {"all_chows": 1, "half_flush": 3, "robbing_kong": 1, "no_bonus_tiles": 1},
        {"discarder": 32},
    ),
    # --- bonus-tile patterns (East owns 1f and 5f) ---
    ("no_bonus_tiles", dict(hand=CHICKEN, bonus=""), 1, {"no_bonus_tiles": 1}, "below_minimum"),
    ("own_flower", dict(hand=CHICKEN, bonus="1f"), 1, {"own_flower": 1}, "below_minimum"),
    ("own_season", dict(hand=CHICKEN, bonus="5f"), 1, {"own_season": 1}, "below_minimum"),
    (
        "own_flower_and_season_south",
        dict(hand=CHICKEN, seat="S", bonus="2f6f"),
        2,
        {"own_flower": 1, "own_season": 1},
        "below_minimum",
    ),
    (
        "own_flower_and_season_north",
        dict(hand=CHICKEN, seat="N", bonus="3f4f8f"),
        2,
        {"own_flower": 1, "own_season": 1},
        "below_minimum",
    ),
    (
        "other_seats_bonus_tiles_score_nothing",
        dict(hand=CHICKEN, bonus="2f3f6f"),
        0,
        {},
        "below_minimum",
    ),
    (
        "flower_set_replaces_own_flower",
        dict(hand=CHICKEN, bonus="1234f"),
        2,
        {"flower_set": 2},
        "below_minimum",
    ),
    (
        "season_set_replaces_own_season",
        dict(hand=CHICKEN, bonus="5678f"),
        2,
        {"season_set": 2},
        "below_minimum",
    ),
    (
        "flower_set_for_west",
        dict(hand=CHICKEN, seat="W", bonus="1234f"),
        2,
        {"flower_set": 2},
        "below_minimum",
    ),
    (
        "flower_set_keeps_own_season_and_reaches_minimum_on_bonus_alone",
        dict(hand=CHICKEN, bonus="1234f5f"),
        3,
        {"flower_set": 2, "own_season": 1},
        {"discarder": 8},
    ),
    (
        "all_bonus_tiles_replaces_every_other_bonus_pattern",
        dict(hand=CHICKEN, bonus="12345678f"),
        8,
        {"all_bonus_tiles": 8},
        {"discarder": 64},
    ),
    (
        "all_bonus_tiles_self_draw",
        dict(hand=CHICKEN, bonus="12345678f", by="self_draw"),
        9,
        {"all_bonus_tiles": 8, "self_draw": 1},
        {"each": 48},
    ),
    # --- the 3-faan minimum ---
    (
        "two_faan_is_below_minimum",
        dict(hand=CHICKEN, bonus="1f5f"),
        2,
        {"own_flower": 1, "own_season": 1},
        "below_minimum",
    ),
    (
        "three_faan_with_bonus_faan_is_valid",
        dict(hand=CHICKEN, bonus="1f5f", flags=("last_tile",)),
        3,
        {"own_flower": 1, "own_season": 1, "last_tile": 1},
        {"discarder": 8},
    ),
    # --- the best reading counts ---
    (
        "pung_reading_beats_chow_reading",
        dict(hand="111222333m777p55s", bonus=""),
        4,
        {"all_pungs": 3, "no_bonus_tiles": 1},
        {"discarder": 16},
    ),
    (
        "chow_reading_beats_pung_reading",
        dict(hand="111222333m789p55s", bonus="", by="self_draw"),
        3,
        {"all_chows": 1, "no_bonus_tiles": 1, "self_draw": 1},
        {"each": 4},
    ),
    (
        "pure_flush_all_pungs_reading",
        dict(hand="111222333m555m77m"),
        10,
        {"pure_flush": 7, "all_pungs": 3},
        {"discarder": 128},
    ),
    # --- the 13 cap ---
    (
        "exactly_thirteen",
        dict(hand="111m333m555m777m99m", by="self_draw", bonus="1234f"),
        13,
        {"pure_flush": 7, "all_pungs": 3, "self_draw": 1, "flower_set": 2},
        {"each": 192},
    ),
    (
        "fourteen_capped_to_thirteen",
        dict(hand="111m333m555m777m99m", by="self_draw", bonus="1234f", flags=("last_tile",)),
        13,
        {"pure_flush": 7, "all_pungs": 3, "self_draw": 1, "last_tile": 1, "flower_set": 2},
        {"each": 192},
    ),
    # --- limit hands: 13 flat, nothing added ---
    (
        "thirteen_orphans",
        dict(hand="19m19p19s12345677z"),
        13,
        {"thirteen_orphans": 13},
        {"discarder": 384},
    ),
    (
        "thirteen_orphans_self_draw_flower_adds_nothing",
        dict(hand="19m19p19s11234567z", win="1z", by="self_draw", bonus="1f"),
        13,
        {"thirteen_orphans": 13},
        {"each": 192},
    ),
    (
        "nine_gates",
        dict(hand="11123455678999m", win="5m"),
        13,
        {"nine_gates": 13},
        {"discarder": 384},
    ),
    (
        "nine_gates_on_a_one",
        dict(hand="11112345678999m", win="1m", by="self_draw", bonus=""),
        13,
        {"nine_gates": 13},
        {"each": 192},
    ),
    (
        "nine_gates_needs_a_concealed_hand",
        dict(hand="23455678999m", melds=("pung 111m",)),
        7,
        {"pure_flush": 7},
        {"discarder": 48},
    ),
    (
        "big_four_winds",
        dict(hand="111z222z333z444z55m"),
        13,
        {"big_four_winds": 13},
        {"discarder": 384},
    ),
    (
        "big_four_winds_with_melds_adds_nothing",
        dict(hand="333z444z55m", melds=("pung 111z", "kong 2222z"), by="self_draw", bonus="1234f"),
        13,
        {"big_four_winds": 13},
        {"each": 192},
    ),
    (
        "four_kongs",
        dict(
            hand="55m",
            melds=("kong 1111m", "concealed_kong 2222p", "added_kong 3333s", "kong 4444z"),
        ),
        13,
        {"four_kongs": 13},
        {"discarder": 384},
    ),
    (
        "four_kongs_on_kong_replacement_adds_nothing",
        dict(
            hand="55m",
            melds=("kong 1111m", "concealed_kong 2222p", "added_kong 3333s", "kong 4444z"),
            by="self_draw",
            flags=("kong_replacement",),
        ),
        13,
        {"four_kongs": 13},
        {"each": 192},
    ),
    (
        "three_kongs_and_a_pung_are_not_four_kongs",
        dict(
            hand="55m",
            melds=("kong 1111m", "concealed_kong 2222p", "added_kong 3333s", "pung 444z"),
        ),
        3,
        {"all_pungs": 3},
        {"discarder": 8},
    ),
    (
        "heavenly_hand",
        dict(hand=CHICKEN, by="self_draw", flags=("heavenly",)),
        13,
        {"heavenly_hand": 13},
        {"each": 192},
    ),
    (
        "earthly_hand",
        dict(hand=CHICKEN, seat="S", bonus="1f", flags=("earthly",)),
        13,
        {"earthly_hand": 13},
        {"discarder": 384},
    ),
    (
        "heavenly_thirteen_orphans_lists_both_and_is_worth_13",
        dict(hand="19m19p19s12345677z", by="self_draw", flags=("heavenly",)),
        13,
        {"thirteen_orphans": 13, "heavenly_hand": 13},
        {"each": 192},
    ),
    # --- not a winning shape, whatever else is there ---
    ("not_a_winning_shape", dict(hand="123m456p789s222s57m"), 0, {}, "not_a_winning_hand"),
    (
        "all_bonus_tiles_never_win_on_their_own",
        dict(hand="123m456p789s222s57m", bonus="12345678f"),
        0,
        {},
        "not_a_winning_hand",
    ),
    (
        "heavenly_needs_a_winning_shape",
        dict(hand="123m456p789s222s57m", by="self_draw", flags=("heavenly",)),
        0,
        {},
        "not_a_winning_hand",
    ),
    ("seven_pairs_is_not_a_win", dict(hand="1122m3344p5566s77z"), 0, {}, "not_a_winning_hand"),
    (
        "thirteen_orphans_missing_one_kind",
        dict(hand="119m19p19s123456z6z"),
        0,
        {},
        "not_a_winning_hand",
    ),
]


@pytest.mark.parametrize(
    ("kwargs", "fan", "patterns", "outcome"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_case(
    kwargs: dict[str, object], fan: int, patterns: dict[str, int], outcome: object
) -> None:
    result = win(**kwargs)  # type: ignore[arg-type]
    if isinstance(outcome, dict):
        assert result.valid, result
        assert result.points == outcome
    else:
        assert not result.valid
        assert result.reason == outcome
        assert result.message
    assert result.fan == fan
    assert patterns_of(result) == patterns
    assert result.limit == (fan == 13 and all(v == 13 for v in patterns.values()))


# Hands worth exactly N faan as a discard win (keywords for win()).
HANDS_BY_FAN = {
    2: dict(hand=CHICKEN, bonus="1f5f"),  # own flower 1 + own season 1
    3: dict(hand="111m555p999s222s77m"),  # all pungs 3
    4: dict(hand="111m555p999s222s77m", bonus=""),  # all pungs 3 + no bonus tiles 1
    5: dict(hand="123m456p555z666z77z"),  # little three dragons 5
    6: dict(hand="111m555m999m333z77m"),  # half flush 3 + all pungs 3
    7: dict(hand="123m456m789m222m55m"),  # pure flush 7
    8: dict(hand="123m555z666z777z22p"),  # big three dragons 8
    9: dict(hand="123m345m567m789m99m", bonus=""),  # pure flush 7 + all chows 1 + no bonus 1
    10: dict(hand="111m999m111p999p11s"),  # all terminals 10
    11: dict(hand="111m999m111p999p11s", bonus=""),  # all terminals 10 + no bonus 1
    12: dict(hand="111m999m111p999p11s", bonus="", flags=("last_tile",)),  # + last tile 1
    # pure flush 7 + all pungs 3 + flower set 2 + last tile 1
    13: dict(hand="111m333m555m777m99m", bonus="1234f", flags=("last_tile",)),
    # little four winds 10 + all honours 10 = 20, over the cap
    20: dict(hand="111z222z333z44z555z"),
}

# RULES.md's half-laak table, copied by hand: faan -> (discarder pays, each pays on self draw).
TABLE = {
    3: (8, 4),
    4: (16, 8),
    5: (24, 12),
    6: (32, 16),
    7: (48, 24),
    8: (64, 32),
    9: (96, 48),
    10: (128, 64),
    11: (192, 96),
    12: (256, 128),
    13: (384, 192),
}


@pytest.mark.parametrize("fan", [*range(3, 14), 20])
def test_discard_payment_row(fan: int) -> None:
    result = win(**HANDS_BY_FAN[fan])  # type: ignore[arg-type]
    assert result.valid
    assert result.fan == min(fan, 13)
    assert sum(p.fan for p in result.patterns) == fan
    assert result.points == {"discarder": TABLE[min(fan, 13)][0]}


@pytest.mark.parametrize("fan", [*range(3, 14), 21])
def test_self_draw_payment_row(fan: int) -> None:
    """A hand worth N-1 on a discard is worth N self-drawn (self draw adds 1)."""
    result = win(**{**HANDS_BY_FAN[fan - 1], "by": "self_draw"})  # type: ignore[arg-type]
    assert result.valid
    assert result.fan == min(fan, 13)
    assert result.points == {"each": TABLE[min(fan, 13)][1]}


def test_payment_table_matches_rules() -> None:
    assert TABLE == PAYMENTS


def test_robbing_kong_pays_like_a_discard_and_self_draw_does_not() -> None:
    hand = dict(hand="123m456m789m234m33z", win="1m", bonus="")
    robbed = win(**hand, by="robbing_kong")  # type: ignore[arg-type]
    discarded = win(**hand)  # type: ignore[arg-type]
    assert robbed.fan == discarded.fan + 1
    assert set(robbed.points) == set(discarded.points) == {"discarder"}


def test_unit_and_json_shape() -> None:
    result = win("111m555p999s222s77m").to_json()
    assert result == {
        "valid": True,
        "fan": 3,
        "unit": "faan",
        "limit": False,
        "patterns": [{"id": "all_pungs", "fan": 3}],
        "points": {"discarder": 8},
    }


def test_below_minimum_json_keeps_fan_and_patterns() -> None:
    result = win(CHICKEN, bonus="1f5f").to_json()
    assert result["valid"] is False
    assert result["reason"] == "below_minimum"
    assert result["fan"] == 2
    assert sorted(p["id"] for p in result["patterns"]) == ["own_flower", "own_season"]
