"""hk-fw2 (RULES.md `hk-fw2`, seed 003): every faan pattern and limit hand with a concrete hand,
the settling table, the three insurance penalties and their near misses, the table minimum,
head bump, the Four Winds dealer rule and simulated play.

Every number is worked out by hand in the comment beside it. Settling: base by faan 0→1, 1→2,
2→4, 3→8, 4–6→16, 7–9→32, 10+ and limits →64; discard: discarder 2 × base, others base; self
draw: each 2 × base.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.runtime import ManualTimers, Runtime, TableError
from data import Store
from engine.computer.simulate import simulate
from engine.events import Termination
from engine.families.hongkong import scoring_fourwinds as fourwinds
from engine.families.hongkong.rules import InsuranceWatchPart
from engine.formats.score_request import RequestError, score_request
from engine.hand import HandState
from engine.presets import Rotation, find_preset, with_min_fan
from engine.session import Session, next_dealer_seat
from engine.tiles import parse_tile, parse_tiles
from tests.hands import act, pattern_ids
from tests.test_runtime import Recorder

PRESET = "hk-fw2"


def result(**request: object) -> dict[str, object]:
    return score_request({"preset": PRESET, **request})


def test_the_preset_is_data() -> None:
    preset = find_preset(PRESET)
    assert len(preset.wall) == 144 and preset.uses_bonus and preset.chow
    assert preset.start_points == 2000 and preset.min_fan == 0
    assert preset.rotation is Rotation.FOUR_WINDS and preset.shape_rules.seven_pairs
    assert not preset.shape_rules.kong_as_two_pairs
    assert Session(preset, seed=1).points == [2000] * 4


# (request, patterns, fan, points) — "bonus": "1f" keeps no_bonus_tiles out where it would blur
FAAN_TABLE = [
    pytest.param(
        # a chicken hand: a pung of 2m and an unvalued pair score nothing; 0 faan, base 1
        {"hand": "123m456p789s222m44z", "win": "4z", "bonus": "2f"},
        {},
        0,
        {"discarder": 2, "others": 1},
        id="chicken_hand",
    ),
    pytest.param(
        {"hand": "123m456p789s234s55m", "win": "5m", "bonus": "2f"},
        {"chow_hand": 1},
        1,
        {"discarder": 4, "others": 2},
        id="chow_hand",
    ),
    pytest.param(
        # a dragon pair is valued: no chow hand
        {"hand": "123m456p789s234s55z", "win": "5z", "bonus": "2f"},
        {},
        0,
        {"discarder": 2, "others": 1},
        id="chow_hand_needs_an_unvalued_pair",
    ),
    pytest.param(
        {"hand": "123m456p789s234s55m", "win": "5m"},
        {"chow_hand": 1, "no_bonus_tiles": 1},
        2,
        {"discarder": 8, "others": 4},
        id="no_bonus_tiles",
    ),
    pytest.param(
        # own flower (1f at East) 1 + own season (5f) 1; base 4
        {"hand": "123m456p789s222m44z", "win": "4z", "bonus": "1f5f"},
        {"own_flower": 1, "own_season": 1},
        2,
        {"discarder": 8, "others": 4},
        id="own_flower_and_season",
    ),
    pytest.param(
        # the four flowers 2 replace own flower; seasons 6f not own at E
        {"hand": "123m456p789s222m44z", "win": "4z", "bonus": "1f2f3f4f6f"},
        {"flower_set": 2},
        2,
        {"discarder": 8, "others": 4},
        id="flower_set",
    ),
    pytest.param(
        {"hand": "123m456p789s222m44z", "win": "4z", "bonus": "5f6f7f8f", "seat": "S"},
        {"season_set": 2},
        2,
        {"discarder": 8, "others": 4},
        id="season_set",
    ),
    pytest.param(
        # dragon pungs 1 each; 2 faan: base 4
        {"hand": "555z777z123m456p44z", "win": "4z", "bonus": "2f"},
        {"dragon_pung": 2},
        2,
        {"discarder": 8, "others": 4},
        id="dragon_pungs",
    ),
    pytest.param(
        # South seat in the East round: 2z seat wind 1, 1z prevailing wind 1
        {"hand": "111z222z123m456p44z", "win": "4z", "seat": "S", "bonus": "1f"},
        {"seat_wind": 1, "prevailing_wind": 1},
        2,
        {"discarder": 8, "others": 4},
        id="seat_and_prevailing_wind",
    ),
    pytest.param(
        # two dragon pungs 2 + little three dragons 4 = 6: base 16
        {"hand": "555z666z77z123m456p", "win": "4p", "bonus": "2f"},
        {"dragon_pung": 2, "little_three_dragons": 4},
        6,
        {"discarder": 32, "others": 16},
        id="little_three_dragons",
    ),
    pytest.param(
        {"hand": "222p333s444s55m", "win": "5m", "melds": ["pung 111m"], "bonus": "2f"},
        {"pung_hand": 3},
        3,
        {"discarder": 16, "others": 8},
        id="pung_hand",
    ),
    pytest.param(
        {
            "hand": "123m456m789m55z",
            "win": "5z",
            "melds": ["chow 234m"],
            "seat": "S",
            "round": "S",
            "bonus": "1f",
        },
        {"one_suit_with_honours": 3},
        3,
        {"discarder": 16, "others": 8},
        id="one_suit_with_honours",
    ),
    pytest.param(
        # 6 + chow hand 1 = 7: base 32
        {"hand": "123m456m789m234m55m", "win": "5m", "bonus": "2f"},
        {"one_suit_only": 6, "chow_hand": 1},
        7,
        {"discarder": 64, "others": 32},
        id="one_suit_only",
    ),
    pytest.param(
        {"hand": "1133557799m2244p", "win": "4p", "bonus": "2f"},
        {"seven_pairs": 4},
        4,
        {"discarder": 32, "others": 16},
        id="seven_pairs",
    ),
    pytest.param(
        # seven pairs 4 + one suit only 6 + no bonus 1 + self draw 1 = 12: base 64, each 128
        {"hand": "1133557799m2244m", "win": "4m", "by": "self_draw"},
        {"seven_pairs": 4, "one_suit_only": 6, "no_bonus_tiles": 1, "self_draw": 1},
        12,
        {"each": 128},
        id="seven_pairs_with_components",
    ),
    pytest.param(
        # all honours 7 + dragon pungs 2 + pung hand 3 = 12 (every component stacks)
        {"hand": "222z333z555z777z11z", "win": "7z", "seat": "N", "round": "N", "bonus": "2f"},
        {"all_honours": 7, "dragon_pung": 2, "pung_hand": 3},
        12,
        {"discarder": 128, "others": 64},
        id="all_honours_with_components",
    ),
    pytest.param(
        {"hand": "123m456p789s222m44z", "win": "4z", "by": "self_draw", "bonus": "2f"},
        {"self_draw": 1},
        1,
        {"each": 4},
        id="self_draw",
    ),
    pytest.param(
        {"hand": "123m456p789s222m44z", "win": "4z", "flags": ["last_tile"], "bonus": "2f"},
        {"last_tile": 1},
        1,
        {"discarder": 4, "others": 2},
        id="out_on_the_last_discard",
    ),
    pytest.param(
        {
            "hand": "123m456p789s44z",
            "win": "4z",
            "by": "self_draw",
            "bonus": "2f",
            "melds": ["concealed_kong 2222s"],
            "flags": ["kong_replacement"],
        },
        {"self_draw": 1, "kong_replacement": 1},
        2,
        {"each": 8},
        id="out_on_a_kong_supplement",
    ),
    pytest.param(
        {
            "hand": "123m456p789s222m44z",
            "win": "4z",
            "by": "self_draw",
            "bonus": "2f",
            "flags": ["flower_replacement"],
        },
        {"self_draw": 1, "flower_replacement": 1},
        2,
        {"each": 8},
        id="out_on_a_flower_supplement",
    ),
    pytest.param(
        {"hand": "123m456p789s222m44z", "win": "8s", "by": "robbing_kong", "bonus": "2f"},
        {"robbing_kong": 1},
        1,
        {"discarder": 4, "others": 2},
        id="robbing_a_kong",
    ),
]


@pytest.mark.parametrize(("request_", "patterns", "fan", "points"), FAAN_TABLE)
def test_faan_table_and_settling(
    request_: dict[str, object], patterns: dict[str, int], fan: int, points: dict[str, int]
) -> None:
    scored = result(**request_)
    assert scored["valid"] is True and scored["limit"] is False
    assert pattern_ids(scored) == patterns
    assert scored["fan"] == fan and scored["points"] == points


def test_seven_pairs_need_seven_different_pairs() -> None:
    scored = result(hand="1111m3355p7799s22p", win="2p")
    assert scored["valid"] is False and scored["reason"] == "not_a_winning_hand"


@pytest.mark.parametrize("fan", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13])
def test_settling_table(fan: int) -> None:
    base = {0: 1, 1: 2, 2: 4, 3: 8, 4: 16, 5: 16, 6: 16, 7: 32, 8: 32, 9: 32}.get(fan, 64)
    assert fourwinds.base_points(fan) == base


LIMITS = [
    # fully concealed pungs, out on the pair (by discard here)
    pytest.param({"hand": "111m333p555s777s99m", "win": "9m"}, "hidden_treasure", id="hidden"),
    pytest.param({"hand": "555z666z777z123p44p", "win": "4p"}, "three_great_scholars", id="tgs"),
    pytest.param({"hand": "222z333z444z11z789m", "win": "9m"}, "little_four_winds", id="l4w"),
    pytest.param({"hand": "111z222z333z444z55m", "win": "5m"}, "big_four_winds", id="b4w"),
    pytest.param({"hand": "111m999m111p999p11s", "win": "1s"}, "all_terminals", id="terminals"),
    pytest.param({"hand": "11123456789995m", "win": "5m"}, "nine_gates", id="nine_gates"),
    pytest.param({"hand": "19m19p19s1234567z1m", "win": "1m"}, "thirteen_orphans", id="orphans"),
    pytest.param(
        {"hand": "123m456p789s234s55m", "win": "5m", "by": "self_draw", "flags": ["heavenly"]},
        "heavenly_hand",
        id="heavenly",
    ),
    pytest.param(
        {"hand": "123m456p789s234s55m", "win": "5m", "seat": "S", "flags": ["earthly"]},
        "earthly_hand",
        id="earthly",
    ),
    pytest.param({"hand": "666z123s456s789s22s", "win": "2s"}, "jade_dragon", id="jade"),
    pytest.param({"hand": "777z123m456m789m22m", "win": "2m"}, "ruby_dragon", id="ruby"),
    pytest.param({"hand": "555z123p456p789p22p", "win": "2p"}, "pearl_dragon", id="pearl"),
]


@pytest.mark.parametrize(("request_", "limit"), LIMITS)
def test_limit_hands_pay_the_limit(request_: dict[str, object], limit: str) -> None:
    scored = result(**request_)
    assert scored["valid"] is True and scored["limit"] is True
    assert limit in pattern_ids(scored)
    assert all(fan == 10 for fan in pattern_ids(scored).values())  # nothing added
    self_draw = request_.get("by") == "self_draw"
    assert scored["points"] == ({"each": 128} if self_draw else {"discarder": 128, "others": 64})


@pytest.mark.parametrize(
    "request_",
    [
        # the pair is not the winning tile: a pung completed by the discard
        {"hand": "111m333p555s777s99m", "win": "7s"},
        # a claimed pung: not fully concealed
        {"hand": "333p555s777s99m", "win": "9m", "melds": ["pung 111m"]},
        # a jade hand with a stray honour
        {"hand": "666z123s456s789s22z", "win": "2z"},
    ],
)
def test_limit_near_misses(request_: dict[str, object]) -> None:
    scored = result(**request_)
    assert scored["valid"] is True and scored["limit"] is False


# ------------------------------------------------------------------------------- insurance


def test_classical_insurance_three_great_scholars() -> None:
    # two dragon pungs exposed; the discard of 7z completes the third: the discarder pays all
    scored = result(
        hand="77z123p44p7z",
        win="7z",
        melds=["pung 555z from N", "pung 666z from W"],
        **{"from": "S"},
    )
    assert "insurance_classical" in pattern_ids(scored)
    assert scored["points"] == {"discarder": 256, "others": 0}
    assert scored["deltas"] == {"E": 256, "S": -256, "W": 0, "N": 0}


def test_classical_insurance_big_four_winds() -> None:
    scored = result(
        hand="44z55m4z",
        win="4z",
        melds=["pung 111z from S", "pung 222z from W", "kong 3333z from S"],
        **{"from": "W"},
    )
    assert "insurance_classical" in pattern_ids(scored)
    assert scored["deltas"] == {"E": 256, "S": 0, "W": -256, "N": 0}


@pytest.mark.parametrize(
    "request_",
    [
        # the third dragon set is concealed already; the discard completes the pair
        {"hand": "777z123p4p4p", "win": "4p", "melds": ["pung 555z", "pung 666z"]},
        # one dragon exposed, the other a concealed kong: not two exposed sets
        {"hand": "777z123p44p", "win": "7z", "melds": ["pung 555z", "concealed_kong 6666z"]},
        # completed by self draw
        {
            "hand": "77z123p44p7z",
            "win": "7z",
            "melds": ["pung 555z", "pung 666z"],
            "by": "self_draw",
        },
    ],
)
def test_classical_insurance_near_misses(request_: dict[str, object]) -> None:
    scored = result(**request_)
    assert scored["valid"] is True and scored["limit"] is True
    assert "insurance_classical" not in pattern_ids(scored)


def test_nine_tiles_error() -> None:
    # three exposed sets of characters and a one-suit hand won on a discard
    scored = result(
        hand="123m55m",
        win="5m",
        melds=["chow 123m from N", "chow 456m from N", "pung 999m from W"],
        **{"from": "W"},
    )
    # one suit only 6 + no bonus 1 = 7: base 32, the discarder pays 4 × 32
    assert "insurance_nine_tiles" in pattern_ids(scored)
    assert scored["deltas"] == {"E": 128, "S": 0, "W": -128, "N": 0}


@pytest.mark.parametrize(
    "request_",
    [
        # only two exposed sets of the suit
        {"hand": "123m789m55m", "win": "5m", "melds": ["chow 123m", "chow 456m"]},
        # three exposed sets but not a one-suit hand
        {"hand": "123p55m", "win": "5m", "melds": ["chow 123m", "chow 456m", "pung 999m"]},
        # three sets of one suit, one of them a concealed kong
        {
            "hand": "123m55m",
            "win": "5m",
            "melds": ["chow 123m", "chow 456m", "concealed_kong 9999m"],
        },
    ],
)
def test_nine_tiles_error_near_misses(request_: dict[str, object]) -> None:
    scored = result(**request_)
    assert scored["valid"] is True
    assert "insurance_nine_tiles" not in pattern_ids(scored)
    assert scored["points"]["others"] > 0  # type: ignore[index]


def test_last_five_tiles_error() -> None:
    chow = {"hand": "123m456p789s234s55m", "win": "5m", "from": "S"}
    scored = result(**chow, wall_left=5, seen=0)
    # chow hand 1 + no bonus 1 = 2: base 4, the discarder pays 16
    assert "insurance_last_five" in pattern_ids(scored)
    assert scored["deltas"] == {"E": 16, "S": -16, "W": 0, "N": 0}
    for near in ({"wall_left": 6, "seen": 0}, {"wall_left": 5, "seen": 1}, {}):
        missed = result(**chow, **near)
        assert "insurance_last_five" not in pattern_ids(missed)
        assert missed["deltas"] == {"E": 16, "S": -8, "W": -4, "N": -4}


# ------------------------------------------------------------------------------- minimum


def test_minimum_option_at_zero_and_three() -> None:
    chicken = {"hand": "123m456p789s222m44z", "win": "4z", "bonus": "2f"}
    assert result(**chicken)["valid"] is True
    assert result(**chicken, min_fan=0)["valid"] is True
    scored = result(**chicken, min_fan=3)
    assert scored["valid"] is False and scored["reason"] == "below_minimum"
    # bonus tiles count toward the minimum: own flower 1 + own season 1 + self draw 1 = 3
    flowers = {**chicken, "bonus": "1f5f", "by": "self_draw"}
    assert result(**flowers, min_fan=3)["valid"] is True
    assert with_min_fan(find_preset(PRESET), 3).min_fan == 3


@pytest.mark.parametrize(("value", "words"), [(4, "0 to 3"), (-1, "min_fan"), ("3", "min_fan")])
def test_minimum_option_errors(value: object, words: str) -> None:
    with pytest.raises(RequestError, match=words):
        result(hand="123m456p789s222m44z", win="4z", min_fan=value)


def test_only_tables_with_the_option_take_a_minimum() -> None:
    with pytest.raises(RequestError, match="fixed minimum"):
        score_request(
            {"preset": "hkos-3-v1", "hand": "111m555p999s222s77m", "win": "7m", "min_fan": 1}
        )


# ------------------------------------------------------------------------------- in play


def arranged(hands: list[str], draws: str = "", replacements: str = "") -> HandState:
    assert [len(parse_tiles(h)) for h in hands] == [14, 13, 13, 13], hands
    return HandState.arranged(find_preset(PRESET), hands, draws, replacements)


def test_head_bump_only_the_first_winner_after_the_discarder_wins() -> None:
    # the dealer discards 9s; seats 1 and 3 could both win: only seat 1 (first in turn) does
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
    assert outcome is not None and [w.seat for w in outcome.wins] == [1]
    # three great scholars: the limit, base 64: the discarder 128, the others 64 each
    assert list(outcome.deltas) == [-128, 256, -64, -64]
    # a non-dealer won: the deal passes
    assert next_dealer_seat(Rotation.FOUR_WINDS, outcome) == 1


def test_the_deal_passes_after_a_wall_draw() -> None:
    from engine.outcome import Outcome

    draw = Outcome(Termination.WALL_DRAW, (), (0, 0, 0, 0))
    assert next_dealer_seat(Rotation.FOUR_WINDS, draw) == 1
    assert next_dealer_seat(Rotation.HONG_KONG, draw) == 0


def test_play_tells_scoring_the_wall_and_the_copies_seen() -> None:
    # the dealer's 9s lies in its pond when seat 1 discards another: seat 3 sees one copy
    state = arranged(
        [
            "147m258p369s147p2z9s",
            "555z666z777z234m9s",
            "258m369p147s258p3m",
            "111m999m111p999p9s",
        ],
    )
    act(state, "0 discard 9s", "1 pass", "3 pass")
    assert state.turn == 1
    act(state, "1 discard 9s")
    assert state.seats_to_act() == [3]
    watch = state.part_of(InsuranceWatchPart)
    assert watch is not None
    assert watch.context(3) == {"wall_left": state.wall_left, "seen": 1}
    act(state, "3 win")
    outcome = state.outcome()
    assert outcome is not None and outcome.wins[0].discarder == 1
    # all terminals, plenty of wall left: no penalty; the discarder 128, the others 64
    assert "insurance_last_five" not in {p.id for p in outcome.wins[0].score.patterns}
    assert list(outcome.deltas) == [-64, -128, -64, 256]


def test_flower_supplement_win_in_play() -> None:
    # the dealer's drawn... seat 1 draws 1f, its replacement 5m completes the hand
    state = arranged(
        ["147m258p369s147p2z3z", "123m456p789s234s5m", "258m369p147s258p3m", "369m147p258s369p4p"],
        draws="1f",
        replacements="5m",
    )
    act(state, "0 discard 3z")
    while 1 not in state.seats_to_act() or state.turn != 1:
        act(state, f"{state.seats_to_act()[0]} pass")
    assert state.drawn == parse_tile("5m")
    act(state, "1 win")
    outcome = state.outcome()
    assert outcome is not None
    ids = {p.id for p in outcome.wins[0].score.patterns}
    assert {"self_draw", "flower_replacement", "chow_hand"} <= ids


def test_computer_only_play_is_zero_sum_from_2000() -> None:
    hands = list(simulate(find_preset(PRESET), 40, seed=3))
    assert any(hand.winners for hand in hands)
    assert all(sum(hand.deltas) == 0 for hand in hands)
    at_three = list(simulate(with_min_fan(find_preset(PRESET), 3), 40, seed=3))
    assert all(fan >= 3 for hand in at_three for fan in hand.fan)


# ------------------------------------------------------------------------------- table option


def test_a_session_keeps_its_table_minimum() -> None:
    session = Session(with_min_fan(find_preset(PRESET), 2), seed=4)
    again = Session.from_json(session.to_json())
    assert again.preset.min_fan == 2 and again.points == [2000] * 4
    # presets without the option store nothing new
    assert "min_fan" not in Session(find_preset("hkos-3-v1"), seed=4).to_json()


async def test_the_runtime_creates_restores_and_refuses_table_minimums(tmp_path: Path) -> None:
    path = str(tmp_path / "bot.db")
    timers = ManualTimers()
    store = await Store.open(path, clock=timers.now)
    runtime = Runtime(store, Recorder(), timers, seed_source=lambda: 5)
    await runtime.open()
    table = await runtime.create_table(PRESET, creator_id="1", creator_name="Ann", min_fan=3)
    assert table.preset.min_fan == 3 and table.options.extra["options"] == {"min_fan": 3}
    default = await runtime.create_table(PRESET, creator_id="2", creator_name="Bob")
    assert default.preset.min_fan == 0
    for preset_id, value, words in [(PRESET, 4, "0 to 3"), ("hkos-3-v1", 1, "fixed minimum")]:
        with pytest.raises(TableError, match=words):
            await runtime.create_table(preset_id, creator_id="3", creator_name="C", min_fan=value)
    await runtime.close()
    await store.close()
    store = await Store.open(path, clock=timers.now)
    again = Runtime(store, Recorder(), timers, seed_source=lambda: 5)
    await again.open()
    assert again.get(table.id).preset.min_fan == 3
    assert again.get(default.id).preset.min_fan == 0
    await again.close()
    await store.close()


def test_mahjong_create_offers_the_minimum_from_0_to_3() -> None:
    from bot.discord.cogs.lobby import LobbyCog

    option = {p.name: p for p in LobbyCog.create.parameters}["min_fan"]
    assert (option.min_value, option.max_value, option.required) == (0, 3, False)


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"from": "E"}, "own seat"),
        ({"from": "S", "by": "self_draw"}, "no discarder"),
        ({"from": "X"}, "from"),
        ({"wall_left": 200}, "wall_left"),
        ({"seen": 4}, "seen"),
        ({"seen": True}, "seen"),
        ({"melds": ["pung 999m from Q"]}, "melds[0]"),
        ({"melds": ["concealed_kong 9999m from S"]}, "melds[0]"),
        ({"flags": ["flower_replacement"]}, "flower_replacement"),
    ],
)
def test_contract_errors_name_the_field(extra: dict[str, object], words: str) -> None:
    request = {"hand": "123m456p789s55m", "win": "5m", "melds": ["pung 999m from S"], **extra}
    with pytest.raises(RequestError, match=re.escape(words)):
        result(**request)


def test_deltas_for_other_presets_follow_their_payments() -> None:
    # hk-3fan: the discarder alone pays 2^fan; a self draw: each pays
    three = {"preset": "hk-3fan", "hand": "111m222m333p444p55s", "win": "5s"}
    assert score_request({**three, "from": "N"})["deltas"] == {"E": 8, "S": 0, "W": 0, "N": -8}
    drawn = score_request({**three, "by": "self_draw", "seat": "W"})
    assert drawn["deltas"] == {"E": -16, "S": -16, "W": 48, "N": -16}
    # without `from` a discard win names no deltas
    assert "deltas" not in score_request(three)


def pass_claims(state: HandState) -> None:
    while state.phase.value in ("claims", "rob") and state.seats_to_act():
        act(state, f"{state.seats_to_act()[0]} pass")


def test_head_bump_among_robbers_of_an_added_kong() -> None:
    # seat 1 pungs the dealer's 5p and later adds the fourth: seats 2 and 3 both wait on 5p
    state = arranged(
        [
            "147m258s369s147p2z5p",
            "55p258m369m5z6z7z8p9p",
            "123m456m789m46p11s",
            "123s456s789s34p99m",
        ],
        draws="1z3z4z5p",
    )
    act(state, "0 discard 5p", "2 pass", "3 pass", "1 pung 5p")
    for discard in ("1 discard 5z", "2 discard 1z", "3 discard 3z", "0 discard 4z"):
        act(state, discard)
        pass_claims(state)
    assert state.turn == 1 and state.drawn == parse_tile("5p")
    act(state, "1 added_kong 5p")
    assert set(state.seats_to_act()) == {2, 3}
    act(state, "3 win", "2 win")
    outcome = state.outcome()
    assert outcome is not None and [w.seat for w in outcome.wins] == [2]
    win = outcome.wins[0]
    assert win.by.value == "robbing_kong" and win.discarder == 1
    # chow hand 1 + robbing a kong 1 + no bonus tiles 1 = 3: base 8; the robbed player 16
    assert {p.id for p in win.score.patterns} == {"chow_hand", "robbing_kong", "no_bonus_tiles"}
    assert list(outcome.deltas) == [-8, -16, 32, -8]
