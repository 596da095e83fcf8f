"""chinese-classical scoring (RULES.md): every hand scored, payments with the losers' settlement."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.families.classical.scoring import (
    DOUBLE_IDS,
    LIMIT_IDS,
    POINT_IDS,
    HandScore,
    SeatHand,
    payments,
    score_loser,
    score_table,
    score_winner,
    winning_kinds,
)
from engine.formats.score_request import RequestError, score_request
from engine.scoring.base import WinBy, WinContext
from engine.settlement import Reason, deltas_of
from engine.tiles import Meld, parse_tile, parse_tiles

E, S, W, N = range(4)


def win(
    hand: str,
    tile: str,
    *melds: str,
    by: WinBy = WinBy.DISCARD,
    seat: int = S,
    round_wind: int = E,
    bonus: str = "",
    flags: frozenset[str] = frozenset(),
    streak: int = 1,
    east_nine: bool = True,
) -> HandScore:
    ctx = WinContext(
        tuple(parse_tiles(hand)),
        parse_tile(tile),
        tuple(Meld.parse(m) for m in melds),
        tuple(parse_tiles(bonus)),
        by,
        seat,
        round_wind,
        flags,
    )
    found = score_winner(ctx, streak=streak, east_nine=east_nine)
    assert found is not None
    return found


def loser(hand: str, *melds: str, seat: int = W, round_wind: int = E, bonus: str = "") -> HandScore:
    return score_loser(
        SeatHand(
            tuple(parse_tiles(hand)), tuple(Meld.parse(m) for m in melds), tuple(parse_tiles(bonus))
        ),
        seat,
        round_wind,
    )


def ids(items: tuple[object, ...]) -> dict[str, int]:
    return {p.id: p.fan for p in items}  # type: ignore[attr-defined]


# --- points -----------------------------------------------------------------------------------


def test_going_out_and_a_chow_hand_discard() -> None:
    # 12m waits on 3m only (an edge wait): the only place
    found = win("123m678m789p234s55s", "3m")
    assert ids(found.points) == {"going_out": 10, "only_place": 2}
    assert ids(found.doubles) == {"chow_hand": 1}
    assert (found.raw, found.score) == (24, 24)


def test_two_sided_wait_is_not_the_only_place() -> None:
    found = win("234m456m789p234s55s", "4m")  # 23m waits on 1m and 4m
    assert "only_place" not in ids(found.points)


def test_a_kind_whose_four_copies_the_winner_holds_is_no_way() -> None:
    # 1111m? no: 2345m waiting 2m/5m, but the four 5m... holds 555m pung in melds + one 5m
    assert winning_kinds(parse_tiles("234m789p234s55s6p7p"), ()) == [
        parse_tile("5p"),
        parse_tile("8p"),
    ]
    before = parse_tiles("2345m999s")
    melds = (Meld.parse("pung 555m"), Meld.parse("chow 789p"))
    # 2345m waits 2m or 5m for a pair, but three 5m are in the pung and one in hand: 5m is no way
    assert winning_kinds(before, melds) == [parse_tile("2m")]


def test_sets_exposed_and_concealed_simples_and_majors() -> None:
    found = win(
        "222m999p55s", "5s", "pung 333s", "pung 111z", by=WinBy.SELF_DRAW, seat=S, round_wind=S
    )
    # concealed 222m 4, concealed 999p 8, exposed 333s 2, exposed East (not own/prevailing) 4
    assert ids(found.points)["pung_simples_concealed"] == 4
    assert ids(found.points)["pung_major_concealed"] == 8
    assert ids(found.points)["pung_simples_exposed"] == 2
    assert ids(found.points)["pung_major_exposed"] == 4
    assert ids(found.points)["self_drawn"] == 2
    assert ids(found.points)["eyes"] == 2  # the self-drawn 5s completed the pair of simples
    assert ids(found.points)["only_place"] == 2  # 222m999p5s waits only on 5s
    assert ids(found.doubles) == {"no_chows": 1}


def test_kongs_and_their_points() -> None:
    found = win(
        "123m55p",
        "1m",
        "kong 2222s",
        "concealed_kong 9999p",
        "added_kong 7777z",
        seat=E,
        round_wind=E,
    )
    points = ids(found.points)
    assert points["kong_simples_exposed"] == 8
    assert points["kong_major_concealed"] == 32
    assert points["kong_major_exposed"] == 16
    assert ids(found.doubles)["dragon_pung"] == 1


def test_a_pung_completed_by_the_winning_discard_is_exposed() -> None:
    found = win("123m456p78999s", "9s", "chow 345s")
    # 7899s + 9s: the win completes 789s or the pair 99s; the pair is worth more (eyes)
    assert ids(found.points).get("eyes") == 4
    pung = win("123m456p55s888s", "8s", "chow 345s")
    # 888s completed by the discard (the pair wait 55s/88s shape): exposed, 2 points
    assert ids(pung.points)["pung_simples_exposed"] == 2
    drawn = win("123m456p55s888s", "8s", "chow 345s", by=WinBy.SELF_DRAW)
    assert ids(drawn.points)["pung_simples_concealed"] == 4


def test_valued_pairs_and_bonus_tiles() -> None:
    found = win("123m456p789s11z", "3m", "chow 234s", seat=E, round_wind=E, bonus="1f5f2f")
    points = ids(found.points)
    assert points["pair_own_wind"] == 2 and points["pair_prevailing_wind"] == 2
    assert points["bonus_tile"] == 12
    assert ids(found.doubles)["own_flower_and_season"] == 1
    assert "chow_hand" not in ids(found.doubles)  # the pair is a valued one
    dragon = win("123m456p789s66z", "3m", "chow 234s")
    assert ids(dragon.points)["pair_dragon"] == 2


def test_eyes_on_a_single_wait_for_a_terminal_pair_and_its_doubles() -> None:
    found = win("123m456p789s234s99m", "9m")
    assert ids(found.points) == {"going_out": 10, "only_place": 2, "eyes": 4}
    assert ids(found.doubles) == {"chow_hand": 1}  # winning on the pair does not spoil it
    assert found.raw == 16 * 2
    suit = win("123m456m789m234m99m", "9m")  # 1234567892349m waits on more than 9m
    assert ids(suit.points) == {"going_out": 10, "eyes": 4}
    assert ids(suit.doubles) == {"chow_hand": 1, "one_suit_only": 3}


# --- doubles ----------------------------------------------------------------------------------


def test_wind_pungs_own_and_prevailing() -> None:
    found = win("123m456p789s22z", "3m", "pung 111z", seat=E, round_wind=E)
    assert ids(found.doubles)["own_wind_pung"] == 1
    assert ids(found.doubles)["prevailing_wind_pung"] == 1


def test_little_three_dragons_over_the_dragon_pungs() -> None:
    found = win("123m555z66z", "3m", "pung 777z", "chow 456p")
    doubles = ids(found.doubles)
    assert doubles["dragon_pung"] == 2 and doubles["little_three_dragons"] == 1


def test_three_concealed_pungs_counts_a_kong_claimed_onto_a_concealed_pung() -> None:
    found = win("222m333p55s", "5s", "kong 4444s", "chow 678s", by=WinBy.SELF_DRAW)
    assert ids(found.doubles)["three_concealed_pungs"] == 1
    added = win("222m333p55s", "5s", "added_kong 4444s", "chow 678s", by=WinBy.SELF_DRAW)
    assert "three_concealed_pungs" not in ids(added.doubles)


def test_flowers_and_seasons() -> None:
    found = win("123m456p789s234s55s", "1m", bonus="1f2f3f4f5f6f7f8f", seat=S)
    doubles = ids(found.doubles)
    assert doubles["all_flowers"] == 1 and doubles["all_seasons"] == 1
    assert doubles["own_flower_and_season"] == 1
    assert ids(found.points)["bonus_tile"] == 32


def test_fully_concealed_and_the_win_circumstances() -> None:
    drawn = win("123m456p789s234s55s", "2s", by=WinBy.SELF_DRAW, flags=frozenset({"last_tile"}))
    assert ids(drawn.doubles)["fully_concealed"] == 1
    assert ids(drawn.doubles)["last_tile"] == 1
    discard = win("123m456p789s234s55s", "2s", flags=frozenset({"last_tile"}))
    assert ids(discard.doubles)["last_discard"] == 1
    assert "fully_concealed" not in ids(discard.doubles)
    replacement = win(
        "123m456p789s55s",
        "1m",
        "concealed_kong 2222s",
        by=WinBy.SELF_DRAW,
        flags=frozenset({"kong_replacement"}),
    )
    assert ids(replacement.doubles)["kong_replacement"] == 1
    assert ids(replacement.doubles)["fully_concealed"] == 1  # a concealed kong keeps it
    robbed = win("123m456p789s234s55s", "2s", by=WinBy.ROBBING_KONG)
    assert ids(robbed.doubles)["robbing_kong"] == 1


def test_all_terminals_and_honours_and_one_suit_with_honours() -> None:
    found = win("111m999m11z", "1z", "pung 999p", "pung 777z")
    assert ids(found.doubles)["all_terminals_and_honours"] == 1
    suit = win("123m456m789m11z", "3m", "pung 222z")
    assert ids(suit.doubles)["one_suit_with_honours"] == 1


def test_the_hand_is_capped_at_the_limit_but_is_no_limit_hand() -> None:
    found = win("555z666z11z", "1z", "pung 777z", "pung 222z", seat=E, round_wind=E)
    # three great scholars: a limit hand
    assert found.limit and found.score == 1000
    capped = win("555z666z11z", "1z", "pung 999p", "pung 222z", seat=E, round_wind=E, bonus="1f5f")
    assert not capped.limit and capped.capped and capped.score == 1000 and capped.raw > 1000


def test_no_seven_pairs() -> None:
    ctx = WinContext(tuple(parse_tiles("1133557799m1122p")[:14]), parse_tile("1m"))
    assert score_winner(ctx) is None


# --- limit hands ------------------------------------------------------------------------------


def test_limit_hands() -> None:
    cases = {
        "thirteen_orphans": ("19m19p19s12345677z", "7z", ()),
        "nine_gates": ("11123455678999m", "5m", ()),
        "all_honours": ("111z222z333z55z", "5z", ("pung 777z",)),
        "all_terminals": ("111m999m11p", "1p", ("pung 999s", "pung 111s")),
        "all_green": ("234s666s88s", "8s", ("pung 666z", "chow 234s")),
        "big_four_winds": ("111z222z55m", "5m", ("pung 333z", "pung 444z")),
        "little_four_winds": ("111z222z44z", "4z", ("pung 333z", "chow 123m")),
        "four_kongs": ("55m", "5m", ("kong 1111m", "kong 2222p", "kong 3333s", "kong 4444s")),
    }
    for expected, (hand, tile, melds) in cases.items():
        hand_tiles = hand if expected != "nine_gates" else "11123456789995m"
        found = win(hand_tiles, tile, *melds)
        assert found.limit and found.score == 1000, expected
        assert expected in ids(found.doubles), (expected, found)


def test_limit_hands_of_concealment_and_circumstance() -> None:
    treasure = win("111m222p333s444s55m", "5m", by=WinBy.SELF_DRAW)
    assert "hidden_treasure" in ids(treasure.doubles)
    assert not win("111m222p333s444s55m", "4s").limit  # a discard: the 444s is exposed
    suit = win("123m456m789m234m55m", "5m", by=WinBy.SELF_DRAW)
    assert "concealed_one_suit" in ids(suit.doubles)
    heavenly = win(
        "123m456p789s234s55s", "5s", by=WinBy.SELF_DRAW, seat=E, flags=frozenset({"heavenly"})
    )
    assert "heavenly" in ids(heavenly.doubles)
    earthly = win("123m456p789s234s55s", "5s", flags=frozenset({"earthly"}))
    assert "earthly" in ids(earthly.doubles)
    ninth = win("123m456p789s234s55s", "1m", seat=E, streak=9)
    assert ids(ninth.doubles) == {"east_ninth_win": 0}
    assert not win("123m456p789s234s55s", "1m", seat=E, streak=9, east_nine=False).limit
    assert not win("123m456p789s234s55s", "1m", seat=E, streak=8).limit


# --- losers -----------------------------------------------------------------------------------


def test_a_losers_hand_counts_sets_pairs_and_flowers_only() -> None:
    found = loser("123m5555p66z77z9s", "pung 222s", seat=W, round_wind=E, bonus="3f7f")
    points = ids(found.points)
    # 5555p never declared: a concealed pung and a loose tile; two dragon pairs; exposed 222s
    assert points == {
        "pung_simples_exposed": 2,
        "pung_simples_concealed": 4,
        "pair_dragon": 4,
        "bonus_tile": 8,
    }
    assert ids(found.doubles) == {"own_flower_and_season": 1}
    assert found.raw == 36


def test_a_losers_honour_pungs_double() -> None:
    found = loser("555z666z77z13m", seat=N, round_wind=E)
    assert ids(found.doubles) == {"dragon_pung": 2, "little_three_dragons": 1}
    assert ids(found.points) == {"pung_major_concealed": 16, "pair_dragon": 2}
    assert found.score == 18 * 8


def test_a_hand_with_nothing_scores_nothing() -> None:
    assert loser("123m456p789s2468s").score == 0


# --- payments ---------------------------------------------------------------------------------


def test_four_winds_worked_example() -> None:
    paid = payments({E: 2, S: 46, W: 12, N: 192}, N)
    assert [(p.payer, p.payee, p.amount, p.reason) for p in paid] == [
        (E, N, 384, Reason.WIN),
        (S, N, 192, Reason.WIN),
        (W, N, 192, Reason.WIN),
        (E, S, 88, Reason.SETTLEMENT),
        (E, W, 20, Reason.SETTLEMENT),
        (W, S, 34, Reason.SETTLEMENT),
    ]
    assert [2000 + d for d in deltas_of(paid, 4)] == [1508, 1930, 1794, 2768]


def test_an_east_winner_collects_double_and_equal_losers_pay_nothing() -> None:
    paid = payments({E: 100, S: 10, W: 10, N: 30}, E)
    assert deltas_of(paid, 4) == [600, -200 - 20, -200 - 20, -200 + 40]


def test_score_table_scores_every_seat_and_pays() -> None:
    ctx = WinContext(tuple(parse_tiles("123m456p789s234s55s")), parse_tile("1m"), seat=N)
    others = {
        E: SeatHand(tuple(parse_tiles("111z2345m678p99s"))),
        S: SeatHand(tuple(parse_tiles("123m456p789s1234s"))),
        W: SeatHand(tuple(parse_tiles("555z123m456p789s"))),
    }
    table = score_table(ctx, others)
    assert table is not None
    # E: a concealed pung of his own and the prevailing wind, 8 x 2^2; N: 10 x 2 (chow hand)
    assert table.scores == {E: 32, S: 0, W: 16, N: 20}
    assert sum(deltas_of(table.payments, 4)) == 0


@given(
    st.lists(st.integers(0, 1000), min_size=4, max_size=4),
    st.integers(0, 3),
)
def test_payments_sum_to_zero_with_every_seat_as_the_winner(scores: list[int], winner: int) -> None:
    # East is seat 0; the winner ranges over every seat, so every seat is East relative to a win
    paid = payments(dict(enumerate(scores)), winner)
    deltas = deltas_of(paid, 4)
    assert sum(deltas) == 0
    assert deltas[winner] >= 0
    assert all(p.amount > 0 for p in paid)


# --- the `score` contract ---------------------------------------------------------------------

REQUEST: dict[str, object] = {
    "preset": "chinese-classical",
    "hand": "123m456p789s234s55s",
    "win": "1m",
    "seat": "N",
    "others": {
        "E": {"hand": "111z2345m678p888p"},
        "S": {"hand": "123m456p789s1234s"},
        "W": {"hand": "555z123m456p789s1s"},
    },
}


def asked(**changes: object) -> dict[str, object]:
    return score_request({**REQUEST, **changes})


def refused(**changes: object) -> str:
    with pytest.raises(RequestError) as raised:
        asked(**changes)
    return str(raised.value)


def test_the_contract_answers_every_seat() -> None:
    answer = asked()
    assert answer["valid"] is True and answer["unit"] == "points" and answer["limit"] is False
    assert answer["scores"] == {"E": 48, "S": 0, "W": 16, "N": 20}
    hands = answer["hands"]
    assert isinstance(hands, dict)
    assert hands["N"] == {
        "points": [{"id": "going_out", "points": 10}],
        "doubles": [{"id": "chow_hand", "doubles": 1}],
        "raw": 20,
        "score": 20,
        "limit": False,
    }
    assert answer["payments"][0] == {"from": "E", "to": "N", "amount": 40, "reason": "win"}  # type: ignore[index]
    assert {p["reason"] for p in answer["payments"]} == {"win", "settlement"}  # type: ignore[attr-defined]
    assert answer["deltas"] == {"E": 120, "S": -132, "W": -68, "N": 80}


def test_a_capped_hand_and_a_limit_hand_answer_so() -> None:
    capped = asked(
        hand="555z666z11z",
        win="1z",
        melds=["pung 999p", "pung 222z"],
        seat="E",
        bonus="1f5f",
        others={
            "S": {"hand": "123m456p789s1234s"},
            "W": {"hand": "123m456p789s1234s"},
            "N": {"hand": "123m456p789s1234s"},
        },
    )
    east = capped["hands"]["E"]  # type: ignore[index]
    assert east["limit"] is False and east["capped"] is True and east["score"] == 1000
    assert capped["deltas"]["E"] == 6000  # type: ignore[index]
    limit = asked(hand="19m19p19s12345677z", win="7z")
    assert limit["limit"] is True
    assert limit["hands"]["N"]["doubles"] == [{"id": "thirteen_orphans", "doubles": 0}]  # type: ignore[index]


def test_not_a_winning_hand() -> None:
    answer = asked(hand="1199p1199s223344z", win="2z")  # seven pairs are none here
    assert answer["valid"] is False and answer["reason"] == "not_a_winning_hand"


def test_refusals() -> None:
    assert "seat W is missing" in refused(
        others={"E": {"hand": "111z2345m678p888p"}, "S": {"hand": "123m456p789s1234s"}}
    )
    many = refused(others={**REQUEST["others"], "E": {"hand": "1111m2345m678p88p"}})  # type: ignore[dict-item]
    assert "1m appears 7 times" in many
    twice = refused(
        bonus="1f", others={**REQUEST["others"], "E": {"hand": "111z2345m678p888p", "bonus": "1f"}}
    )  # type: ignore[dict-item]
    assert "1f appears 2 times" in twice
    chow = refused(hand="456p789s234s55s", win="4p", melds=["chow 123m from E"])
    assert "melds[0]" in chow and "on the left (W)" in chow
    assert asked(hand="456p789s234s55s", win="4p", melds=["chow 123m from W"])["valid"]
    other_chow = refused(
        others={
            **REQUEST["others"],  # type: ignore[dict-item]
            "S": {"hand": "456p789s1234s", "melds": ["chow 123m from W"]},
        }
    )
    assert "others.S.melds[0]" in other_chow and "(E)" in other_chow
    assert "13" in refused(others={**REQUEST["others"], "S": {"hand": "123m"}})  # type: ignore[dict-item]
    assert "streak" in refused(streak=9)


def test_every_id_scored_is_one_the_family_lists() -> None:
    listed = {*POINT_IDS, *DOUBLE_IDS, *LIMIT_IDS}
    hands = [
        win("555z666z11z", "1z", "pung 999p", "pung 222z", seat=E, round_wind=E, bonus="1f5f"),
        win("123m456p789s234s55s", "2s", by=WinBy.SELF_DRAW, flags=frozenset({"last_tile"})),
        loser("123m5555p66z77z9s", "pung 222s", bonus="3f7f"),
    ]
    for hand in hands:
        assert {p.id for p in hand.points + hand.doubles} <= listed
