"""hubei-laizi (RULES.md `hubei-laizi`): the wall, the wild, fixed kongs, calls, last draws, the
first dealer, and every fan item, payment, cap and liability as concrete hands."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.actions import Action, ActionKind
from engine.computer.simulate import play_out, play_session
from engine.events import Phase, Termination
from engine.families.hubei.presets import with_fixed_wild
from engine.families.hubei.rules import TurnedWildPart
from engine.formats.score_request import RequestError, score_request
from engine.hand import HandState
from engine.presets import find_preset, with_options
from engine.session import Session
from engine.tiles import GREEN, RED, WHITE, parse_tile, parse_tiles

HUBEI = find_preset("hubei-laizi")
# arranged hands need a known wild (5p) and most tests a table without the minimum
FIXED = with_fixed_wild(HUBEI, parse_tile("5p"))
OPEN_TABLE = with_options(FIXED, ["no_minimum"])


def t(text: str) -> int:
    return parse_tile(text)


def kinds(state: HandState, seat: int) -> set[ActionKind]:
    return {a.kind for a in state.legal_actions(seat)}


def pass_others(state: HandState, keep: int | None = None) -> None:
    """Every seat waited on in a window passes, except `keep`."""
    for seat in list(state.seats_to_act()):
        if seat != keep and state.phase in (Phase.CLAIMS, Phase.ROB):
            state.apply(Action(seat, ActionKind.PASS))


def discard(state: HandState, seat: int, tile: str) -> None:
    assert state.phase is Phase.TURN and state.turn == seat, state.describe()
    state.apply(Action(seat, ActionKind.DISCARD, (t(tile),)))


def conserved(state: HandState) -> bool:
    return sorted(state.tiles_in_play()) == sorted(state.preset.wall)


# ------------------------------------------------------------------------------- the wall


def test_wall_is_112_tiles_or_120_with_green_white() -> None:
    counts = Counter(HUBEI.wall)
    assert len(HUBEI.wall) == 112 and counts[RED] == 4 and GREEN not in counts
    wider = with_options(HUBEI, ["green_white"])
    assert len(wider.wall) == 120 and Counter(wider.wall)[GREEN] == Counter(wider.wall)[WHITE] == 4
    with pytest.raises(ValueError, match="no table option"):
        with_options(HUBEI, ["flowers"])


@pytest.mark.parametrize("players", [4, 3, 2])
def test_deal_dealer_14_others_13(players: int) -> None:
    state = HandState(HUBEI, seed=3, seat_count=players)
    assert [len(state.hands[s]) for s in state.seats] == [14] + [13] * (players - 1)
    assert state.turn == 0 and state.phase is Phase.TURN


def test_the_wild_is_a_live_wall_kind_never_red_and_all_copies_stay() -> None:
    seen = set()
    for seed in range(300):
        state = HandState(HUBEI, seed=seed)
        part = state.part_of(TurnedWildPart)
        assert part is not None and part.wild is not None
        assert part.wild != RED
        seen.add(part.wild)
        assert conserved(state)  # the wild tile stays in the wall: four copies in play
    assert len(seen) > 20
    # the same seed turns the same wild
    again = HandState(HUBEI, seed=5).part_of(TurnedWildPart)
    assert again is not None and again.wild == HandState(HUBEI, seed=5).part_of(TurnedWildPart).wild


def test_green_is_never_the_wild_either() -> None:
    wider = with_options(HUBEI, ["green_white"])
    for seed in range(300):
        part = HandState(wider, seed=seed).part_of(TurnedWildPart)
        assert part is not None and part.wild not in (RED, GREEN)


# ------------------------------------------------------------------------------- fixed kongs

FILLER = ["147m147p147s2m8p", "369m369p369s1p", "258s2m4m6m8m1s2s3s", "9m9p9s6s3p"]


def test_red_kong_draws_from_the_back_and_plays_on_nobody_claims() -> None:
    state = HandState.arranged(
        OPEN_TABLE,
        ["123m456m789m123s7z", "7z7z1p4p7p2p3p6p9p1s3s4s", "147s258s369s11m", "99s88s66m22p7z"],
        replacements="8s",
    )
    discard(state, 0, "7z")
    assert state.phase is Phase.TURN and state.turn == 0  # plays on: no claim window
    assert state.drawn == t("8s") and state.after_kong
    assert state.ponds[0] == []
    assert conserved(state)
    assert kinds(state, 0) >= {ActionKind.DISCARD}


def test_wild_kong_and_wilds_are_never_claimed() -> None:
    state = HandState.arranged(
        OPEN_TABLE,
        ["123m456m789m12s5p5p", "5p4p6p7p8p9p1p2p3p4s4s6s", "147s258s369s11m", "99s88s66m22p7z"],
        replacements="8s",
    )
    discard(state, 0, "5p")  # a wild kong: seat 1 could chow 4p6p or pung nothing, it may not
    assert state.phase is Phase.TURN and state.turn == 0 and state.drawn == t("8s")
    assert state.part_of(TurnedWildPart).wild_kongs[0] == [t("5p")]  # type: ignore[union-attr]
    assert conserved(state)


def test_no_chow_or_pung_uses_a_wild() -> None:
    state = HandState.arranged(
        OPEN_TABLE,
        ["123m456m789m12s7s6p", "5p4p1p2p3p9p8p1m4m7m2s3s", "147s258s369s11m", "99s88s66m22p9m"],
    )
    discard(state, 0, "6p")  # seat 1 holds 4p5p (wild) and no 7p: no chow 456p through the wild
    assert ActionKind.CHOW not in kinds(state, 1)


def test_four_red_dragons_are_not_a_concealed_kong() -> None:
    state = HandState.arranged(
        OPEN_TABLE,
        ["123m456m789m5s7777z", "1p2p3p4p6p7p8p9p1s2s3s4s6s", "147s258s369s11m", "99s88s66m22p9m"],
    )
    assert ActionKind.CONCEALED_KONG not in kinds(state, 0)


# ------------------------------------------------------------------------------- winning


def test_holding_red_or_a_closed_hand_cannot_win() -> None:
    # a complete small win by shape, but closed: no win offered on the self draw
    closed = HandState.arranged(
        OPEN_TABLE,
        ["123m456m789m234s22s", "1p2p3p4p6p7p8p9p1s4s6s7s9s", "147s258s369s11m", "99s88s66m33p9m"],
    )
    assert ActionKind.WIN not in kinds(closed, 0)
    assert score_request(
        {"preset": "hubei-laizi", "hand": "123m456m789m234s22s", "win": "2s", "by": "self_draw"}
    ) == {
        "valid": False,
        "reason": "not_a_winning_hand",
        "message": "only an open hand (a chow, pung, exposed or added kong) may win",
    }
    red = score_request(
        {
            "preset": "hubei-laizi",
            "hand": "123m456m789m7z7z",
            "win": "7z",
            "melds": ["pung 999p from S"],
            "by": "self_draw",
        }
    )
    assert red["valid"] is False and "red" in str(red["message"])


def open_hand_state(single: str = "5s") -> HandState:
    """Seat 1 punges 9s from the dealer, discards 1p and waits on 5s (a small win, hard)."""
    state = HandState.arranged(
        OPEN_TABLE,
        [
            "1m4m7m1p4p7p1s4s2m3p6p9m3s9s",
            f"9s9s234m567m678s{single}1p",
            "1m4m7m3p6p9p2s3s6s2p4p8m5s",
            "2m7m3p4s5s6p7s7p9p2p6m8m8p",
        ],
        draws="1s2s3m" + ("5s" if single == "5s" else "4s"),
    )
    discard(state, 0, "9s")
    state.apply(Action(1, ActionKind.PUNG, (t("9s"),)))
    pass_others(state)
    discard(state, 1, "1p")
    pass_others(state)
    return state


def test_an_open_hand_wins_a_small_win_on_a_discard() -> None:
    state = open_hand_state()
    state.apply(Action(2, ActionKind.DISCARD, (t("5s"),)))
    assert ActionKind.WIN in kinds(state, 1)
    state.apply(Action(1, ActionKind.WIN))
    pass_others(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.WIN
    win = outcome.wins[0]
    assert win.seat == 1 and [p.id for p in win.score.patterns] == ["hard_win"]
    # small win: the discarder alone pays 2^(1 + 0)
    assert outcome.deltas == (0, 2, -2, 0)


def test_passing_a_win_blocks_discard_wins_until_the_next_draw_not_self_draw() -> None:
    state = open_hand_state()
    discard(state, 2, "5s")
    state.apply(Action(1, ActionKind.PASS))
    pass_others(state)
    discard(state, 3, "5s")
    assert 1 not in state.pending  # blocked: no win offered on the next discard
    pass_others(state)
    discard(state, 0, "3m")
    pass_others(state)
    assert state.turn == 1 and state.drawn == t("5s")
    assert ActionKind.WIN in kinds(state, 1)  # a self draw is not blocked


def test_passing_a_pung_blocks_punging_until_the_next_draw() -> None:
    state = HandState.arranged(
        OPEN_TABLE,
        [
            "1m4m7m1p4p7p1s4s7s3p6p9p9m1m",
            "2m2p3s6s9s5s8s8p6m3m4s7m3m",
            "1m1m2m2m9m9m8s8s6p6p4s5s7s",
            "2s2s3s6s9s5s8m8m6m3m4s7m2p",
        ],
        draws="7z7z7z7z",
    )
    discard(state, 0, "1m")
    assert ActionKind.PUNG in kinds(state, 2)
    state.apply(Action(2, ActionKind.PASS))
    pass_others(state)
    discard(state, 1, "2m")  # seat 2 holds 2m2m: blocked until its next draw
    assert ActionKind.PUNG not in kinds(state, 2)
    pass_others(state)
    assert state.turn == 2  # its draw clears the block
    discard(state, 2, "7z")  # a red kong: replacement, play on
    discard(state, 2, state_drawn(state))
    pass_others(state)
    discard(state, 3, "2p")
    pass_others(state)
    discard(state, 0, "9m")
    assert ActionKind.PUNG in kinds(state, 2)


def state_drawn(state: HandState) -> str:
    from engine.tiles import tile_name

    assert state.drawn is not None
    return tile_name(state.drawn)


def test_robbing_an_added_kong_pays_40_by_the_robbed_player_only() -> None:
    result = score_request(
        {
            "preset": "hubei-laizi",
            "hand": "234m567p678s55s",
            "win": "6s",
            "melds": ["chow 789s from N"],
            "by": "robbing_kong",
            "from": "S",
            "wild": "9m",
            "min_fan": 0,
        }
    )
    assert result["valid"] is True
    # no 2-5-8 pair? 55s is one: a small win, hard (no wild): 50 × base
    assert result["deltas"] == {"E": 50, "S": -50, "W": 0, "N": 0}


# ------------------------------------------------------------------------------- last draws


@pytest.mark.parametrize("players", [4, 3, 2])
def test_last_draws_each_seat_draws_once_then_the_hand_is_drawn(players: int) -> None:
    state = HandState(OPEN_TABLE, seed=1, seat_count=players)
    while state.wall_left >= 14 and not state.is_over:
        seat = state.seats_to_act()[0]
        if state.phase is Phase.TURN:
            drawn = state.drawn
            held = state.hands[seat]
            tile = (
                drawn
                if drawn not in (RED, t("5p"))
                else next(x for x in held if x not in (RED, t("5p")))
            )
            state.apply(Action(seat, ActionKind.DISCARD, (tile,)))
        else:
            state.apply(Action(seat, ActionKind.PASS))
    if state.is_over:
        pytest.skip("someone won before the last draws")
    drew = []
    while not state.is_over:
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        assert {a.kind for a in legal} <= {ActionKind.PASS, ActionKind.WIN}
        drew.append(seat)
        state.apply(Action(seat, ActionKind.PASS))
    assert len(drew) == players and len(set(drew)) == players
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.WALL_DRAW
    assert state.wall_left == 14 - players


# ------------------------------------------------------------------------------- the deal


def test_first_dealer_is_random_from_the_session_seed_then_the_winner_deals() -> None:
    dealers = {Session(HUBEI, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert Session(HUBEI, seed=7).dealer == Session(HUBEI, seed=7).dealer
    assert {Session(HUBEI, seed=s, seat_count=2).dealer for s in range(40)} == {0, 1}
    session = Session(HUBEI, seed=4, seat_count=3)
    won = 0
    for _ in range(30):
        dealer = session.dealer
        state = play_out(session.new_hand())
        outcome = state.outcome()
        assert outcome is not None
        session.finish_hand(outcome)
        if outcome.wins:
            won += 1
            assert session.dealer == (dealer + outcome.wins[0].seat) % 3  # the winner deals
        else:
            assert session.dealer == dealer  # a drawn hand keeps its dealer
    assert won


@pytest.mark.parametrize("players", [4, 3, 2])
def test_simulated_sessions_conserve_tiles_and_points(players: int) -> None:
    wins = 0
    for played in play_session(HUBEI, 40, seed=players, seat_count=players):
        state, outcome = played.state, played.outcome
        assert conserved(state)
        assert sum(outcome.deltas) == 0 and len(outcome.deltas) == players
        for win in outcome.wins:
            wins += 1
            assert not any(x in (RED,) for x in win.concealed)
            assert any(m.kind.value != "concealed_kong" for m in win.melds)
            assert win.score.fan + 0 >= 0
        replayed = HandState.replay(HUBEI, state.seed, state.log, seat_count=players)
        assert replayed.outcome() == outcome
    assert wins > 0


# ------------------------------------------------------------------------------- scoring


def ask(hand: str, win: str, melds: list[str], **fields: Any) -> dict[str, Any]:
    """A hubei-laizi score request, the wild 9m, without the minimum unless `min_fan` says."""
    request = {"preset": "hubei-laizi", "hand": hand, "win": win, "melds": melds, "wild": "9m"}
    request.update({"min_fan": 0, **fields})
    return score_request(request)


def ids(result: dict[str, Any]) -> list[str]:
    return [p["id"] for p in result["patterns"]]


OPENED = {"melds": ["pung 111p from E"]}  # an open loser


def test_small_win_needs_a_chow_a_258_pair_and_at_most_one_wild() -> None:
    melds = ["chow 789s from N"]
    base = {"by": "discard", "from": "W", "min_fan": 0}
    assert ask("234m567p678s66s", "6s", melds, **base)["valid"] is False  # pair 3s/6s: no 2-5-8
    won = ask("234m567p678s55s", "5s", melds, **base)
    assert won["valid"] and ids(won) == ["hard_win"]
    one_wild = ask("234m567p678s5s9m", "5s", melds, **base)  # the wild makes the 5s pair
    assert one_wild["valid"] and ids(one_wild) == []
    two_wilds = ask("234m567p678s9m9m", "8s", melds, **base)
    assert two_wilds["valid"] is False
    no_chow = ask("222m555p333s55s", "5s", ["pung 111s from N"], **base)
    assert ids(no_chow) == ["all_pungs", "hard_win"]  # no chow: only as a big win


def test_big_wins_stack_and_each_is_named() -> None:
    flush = ask("234s567s678s55s", "5s", ["chow 789s from N"], by="self_draw")
    assert ids(flush) == ["full_flush", "hard_win"]
    two_five_eight = ask(
        "258m258p88s", "8s", ["pung 222s from N", "pung 555s from W"], by="discard", **{"from": "W"}
    )
    assert "all_258" in ids(two_five_eight)
    pungs_wilds = ask("222m555p9m9m4s33s", "3s", ["pung 111s from N"], by="self_draw")
    assert "all_pungs" in ids(pungs_wilds) and "hard_win" not in ids(pungs_wilds)
    single = ask(
        "44s",
        "4s",
        ["pung 111s from N", "chow 123m from N", "chow 345p from N", "pung 666m from S"],
        by="discard",
        **{"from": "S"},
    )
    assert ids(single) == ["all_melded_single_wait", "hard_win"]
    concealed = ask(
        "55s",
        "5s",
        ["pung 111s from N", "chow 123m from N", "chow 345p from N", "concealed_kong 6666m"],
        by="discard",
        **{"from": "S"},
    )
    assert ids(concealed) == ["hard_win", "concealed_kong"]  # a small win, not a single wait


def test_all_258_needs_no_standard_shape() -> None:
    result = ask("258m258p8s2s", "2s", ["pung 555s from N", "pung 888m from W"], by="self_draw")
    assert ids(result)[:1] == ["all_258"]


def test_winner_fan_items_kong_bloom_last_draw_hard_win_four_wilds_and_kongs() -> None:
    melds = [
        "chow 123s from N",
        "kong 4444p from S",
        "added_kong 6666p from W",
        "concealed_kong 7777m",
    ]
    bloom = ask("55s", "5s", melds, by="self_draw", flags=["kong_replacement"])
    assert ids(bloom) == ["kong_bloom", "hard_win", "exposed_kong", "added_kong", "concealed_kong"]
    assert bloom["fan"] == 1 + 1 + 1 + 1 + 2
    last = ask("55s", "5s", melds, by="self_draw", flags=["last_draw"])
    assert "last_draw" in ids(last)
    special = ask(
        "234m567p678s55s",
        "5s",
        ["chow 789s from N"],
        by="self_draw",
        special_kongs={"red": 2, "wild": 1},
    )
    assert [(p["id"], p["fan"]) for p in special["patterns"]] == [
        ("hard_win", 1),
        ("red_kong", 2),
        ("wild_kong", 2),
    ]
    four = ask(
        "222m55p9m9m9m",
        "9m",
        ["pung 111s from N", "pung 333s from W"],
        by="self_draw",
        special_kongs={"wild": 1},
    )
    assert "four_wilds" in ids(four) and "all_pungs" in ids(four)


def test_who_pays_and_loser_fan() -> None:
    melds = ["chow 789s from N"]
    # discard small win: the discarder alone, no discarder fan; open hand 1
    small = ask("234m567p678s55s", "5s", melds, by="discard", **{"from": "W"}, others={"W": OPENED})
    assert small["losers"] == {"W": {"fan": 1, "pays": 4}}  # 2^(1 hard + 1 open)
    assert small["deltas"] == {"E": 4, "S": 0, "W": -4, "N": 0}
    # discard big win: everyone pays, the discarder adds 1
    flush = ask(
        "234s567s678s55s",
        "5s",
        melds,
        by="discard",
        **{"from": "W"},
        others={"W": OPENED, "S": {"special_kongs": {"red": 1}}},
    )
    assert flush["losers"] == {
        "S": {"fan": 1, "pays": 8},
        "W": {"fan": 2, "pays": 16},
        "N": {"fan": 0, "pays": 4},
    }
    assert sum(flush["deltas"].values()) == 0 and flush["deltas"]["E"] == 28


def test_minimum_3_for_at_least_one_payer_and_no_minimum() -> None:
    melds = ["chow 789s from N"]
    low = ask("234m567p678s55s", "5s", melds, by="discard", **{"from": "W"}, min_fan=3)
    assert low["valid"] is False and low["reason"] == "below_minimum"
    met = ask(
        "234m567p678s55s",
        "5s",
        melds,
        by="discard",
        **{"from": "W"},
        others={"W": {"melds": ["pung 111p from E", "kong 2222m from N"]}},
        min_fan=3,
    )
    assert met["valid"] and met["losers"]["W"]["fan"] == 2
    lifted = ask("234m567p678s55s", "5s", melds, by="discard", **{"from": "W"}, min_fan=0)
    assert lifted["valid"]


def test_silver_cap_30() -> None:
    melds = [
        "chow 123s from N",
        "kong 4444p from S",
        "added_kong 6666p from W",
        "concealed_kong 7777m",
    ]
    # winner fan 6 (hard, kongs 1+1+2, kong bloom 1... by discard: 5): 2^5 = 32 → 30
    result = ask("55s", "5s", melds, by="discard", **{"from": "W"})
    assert result["losers"] == {"W": {"fan": 0, "pays": 30}}


def test_gold_open_40_closed_50_and_diamond_60() -> None:
    melds = [
        "chow 123s from N",
        "kong 4444p from S",
        "added_kong 6666p from W",
        "concealed_kong 7777m",
    ]
    gold = ask("55s", "5s", melds, by="self_draw", others={"S": OPENED})
    assert {s: v["pays"] for s, v in gold["losers"].items()} == {"S": 40, "W": 50, "N": 50}
    diamond = ask("55s", "5s", melds, by="self_draw", others={s: OPENED for s in "SWN"})
    assert {v["pays"] for v in diamond["losers"].values()} == {60}


def test_cap_exceptions_for_two_players() -> None:
    melds = [
        "chow 123s from S",
        "kong 4444p from S",
        "added_kong 6666p from S",
        "concealed_kong 7777m",
    ]
    # 2 players, small win: no gold, the silver cap
    small = ask("55s", "5s", melds, by="self_draw", players=2, others={"S": OPENED})
    assert small["losers"] == {"S": {"fan": 1, "pays": 30}}
    # 2 players, big win (full flush not possible here: all pungs): gold but never diamond
    big = ask(
        "55s",
        "5s",
        [
            "pung 111s from S",
            "kong 4444p from S",
            "added_kong 6666p from S",
            "concealed_kong 7777m",
        ],
        by="self_draw",
        players=2,
        others={"S": OPENED},
    )
    assert "all_pungs" in ids(big) and big["losers"] == {"S": {"fan": 1, "pays": 40}}
    at_three = ["chow 123s from W", *melds[1:]]  # W precedes E at a table of three
    three = ask("55s", "5s", at_three, by="self_draw", players=3, others={"S": OPENED, "W": OPENED})
    assert {v["pays"] for v in three["losers"].values()} == {60}


def test_liability_third_meld_feeder_pays_for_all() -> None:
    result = ask(
        "55s",
        "5s",
        ["chow 123s from N", "pung 444s from S", "pung 999s from W", "chow 678s from N"],
        by="self_draw",
        min_fan=0,
    )
    assert "full_flush" in ids(result)
    # every loser pays 2^2 = 4; the feeder of the third claimed meld (W) pays all 12
    assert result["deltas"] == {"E": 12, "S": 0, "W": -12, "N": 0}


def test_liability_single_wait_discarder_not_ready() -> None:
    melds = ["pung 111s from N", "chow 123m from N", "chow 345p from N", "pung 666m from S"]
    ready = ask(
        "44s", "4s", melds, by="discard", **{"from": "S"}, min_fan=0, others={"S": {"ready": True}}
    )
    assert ready["deltas"] == {"E": 16, "S": -8, "W": -4, "N": -4}
    unready = ask(
        "44s", "4s", melds, by="discard", **{"from": "S"}, min_fan=0, others={"S": {"ready": False}}
    )
    assert unready["deltas"] == {"E": 16, "S": -16, "W": 0, "N": 0}


def test_robbed_kong_40_or_50_on_a_hard_win_no_cap_no_liability() -> None:
    soft = ask(
        "234m567p678s5s9m",
        "6s",
        ["chow 789s from N"],
        by="robbing_kong",
        **{"from": "S"},
        min_fan=0,
    )
    assert ids(soft) == [] and soft["deltas"] == {"E": 40, "S": -40, "W": 0, "N": 0}


def test_the_robbed_player_counts_open_hand_even_when_others_leaves_its_pung_out() -> None:
    # winner fan 2 (hard win, exposed kong) + the robbed player's open hand 1 reaches 3
    robbed = ask(
        "234m678s55s",
        "6s",
        ["chow 123s from N", "kong 4444p from W"],
        by="robbing_kong",
        **{"from": "S"},
        min_fan=3,
    )
    assert robbed["valid"] is True, robbed
    assert robbed["losers"] == {"S": {"fan": 1, "pays": 50}}


def test_score_request_refuses_bad_hubei_fields() -> None:
    with pytest.raises(RequestError, match="players"):
        ask("234m567p678s55s", "5s", ["chow 789s from N"], players=5)
    with pytest.raises(RequestError, match="special_kongs"):
        ask("234m567p678s55s", "5s", ["chow 789s from N"], special_kongs={"blue": 1})
    with pytest.raises(RequestError, match="others"):
        ask("234m567p678s55s", "5s", ["chow 789s from N"], others={"X": {}})
    with pytest.raises(RequestError, match="melds"):
        ask("234m567p678s55s", "5s", ["chow 789s from Q"])
    with pytest.raises(RequestError, match="from: a win by discard needs"):
        ask("234m567p678s55s", "5s", ["chow 789s from N"], by="discard")
    with pytest.raises(RequestError, match="from: a win by robbing_kong"):
        ask("234m567p678s55s", "6s", ["chow 789s from N"], by="robbing_kong", **{"from": "E"})
    assert parse_tiles("5z6z")  # green and white are scored as at a green_white table
    white = ask("234m567p55s5z5z5z", "5s", ["chow 789s from N"], by="self_draw", min_fan=0)
    assert white["valid"]


# ------------------------------------------------------------------------------- pictures


def test_pictures_badge_the_wild_show_it_and_the_special_kongs() -> None:
    from render.adapt import hand_view_from_state, table_view_from_state

    state = HandState.arranged(
        OPEN_TABLE,
        ["123m456m789m12s7z5p", "5p4p1p2p3p9p8p1m4m7m2s3s", "147s258s369s11m", "99s88s66m22p9m"],
        replacements="8s",
    )
    discard(state, 0, "7z")
    hand = hand_view_from_state(state, 0)
    assert hand.wild == frozenset({t("5p")}) and hand.fixed_first == frozenset({RED})
    assert [(str(a.label), a.tiles) for a in hand.set_aside] == [("Wild", (t("5p"),))]
    table = table_view_from_state(state)
    assert table.wild == frozenset({t("5p")})
    assert [(str(a.label), a.tiles) for a in table.seats[0].set_aside] == [("Kongs", (RED,))]
    assert table.seats[1].set_aside == ()


def test_a_seats_own_picture_notes_its_pass_blocks() -> None:
    from render.adapt import hand_view_from_state

    state = open_hand_state()
    discard(state, 2, "5s")
    state.apply(Action(1, ActionKind.PASS))
    assert tuple(map(str, hand_view_from_state(state, 1).blocked)) == (
        "no win on a discard until your draw",
    )
    assert hand_view_from_state(state, 3).blocked == ()


# ------------------------------------------------------------------------------- moving pictures


def _frames(data: bytes) -> tuple[int, int]:
    """(frames, total milliseconds) of a GIF."""
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(data))
    total = 0
    for index in range(image.n_frames):
        image.seek(index)
        total += int(image.info.get("duration", 0))
    return image.n_frames, total


@pytest.mark.parametrize("moment", ["wild", "red_kong", "wild_kong", "robbed_kong", "gold"])
def test_moving_pictures_are_short_small_gifs(moment: str) -> None:
    from render.animate import animate_moment, animate_wild

    data = animate_wild(t("5p")) if moment == "wild" else animate_moment(moment, (t("7z"),))
    frames, total = _frames(data)
    assert data[:6] == b"GIF89a" and frames > 3 and 0 < total <= 2000
    assert len(data) < 300_000


def test_the_turned_wild_and_each_fixed_kong_are_moments() -> None:
    from render.animate import animations_of, moments_of

    state = HandState.arranged(
        OPEN_TABLE,
        ["123m456m789m12s7z5p", "5p4p1p2p3p9p8p1m4m7m2s3s", "147s258s369s11m", "99s88s66m22p9m"],
        replacements="8s9s",
    )
    assert moments_of(state, state._events) == [("wild", (t("5p"),))]  # the deal's events
    events = state.apply(Action(0, ActionKind.DISCARD, (RED,)))
    assert moments_of(state, events) == [("red_kong", (RED,))]
    events = state.apply(Action(0, ActionKind.DISCARD, (t("5p"),)))
    assert [name for name, _ in animations_of(state, events)] == ["wild_kong"]
    events = state.apply(Action(0, ActionKind.DISCARD, (t("1s"),)))
    assert moments_of(state, events) == []


def test_the_start_of_the_last_draws_is_a_moment() -> None:
    from render.animate import moments_of

    state = HandState(OPEN_TABLE, seed=1, seat_count=2)
    found = []
    while not state.is_over:
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        plain = [a for a in legal if a.kind in (ActionKind.DISCARD, ActionKind.PASS)]
        action = next((a for a in plain if a.tiles and a.tile not in (RED, t("5p"))), plain[0])
        found += [name for name, _ in moments_of(state, state.apply(action))]
    if state.wins:
        pytest.skip("a win came first")
    assert found.count("last_draws") == 1


# ------------------------------------------------------------------------------- the computer


def test_the_computer_sets_red_down_first_and_keeps_the_wild() -> None:
    from engine.computer.easy import choose_action

    state = HandState.arranged(
        OPEN_TABLE,
        ["123m456m789m19s5p7z", "4p1p2p3p9p8p1m4m7m2s3s6p6s", "147s258s369s11m", "99s88s66m22p9m"],
        replacements="1p",
    )
    assert choose_action(state, 0) == Action(0, ActionKind.DISCARD, (RED,))
    state.apply(choose_action(state, 0))
    choice = choose_action(state, 0)
    assert choice.kind is ActionKind.DISCARD and choice.tile != t("5p")


def test_robbing_an_added_kong_in_play_the_robbed_player_pays_50_on_a_hard_win() -> None:
    state = HandState.arranged(
        OPEN_TABLE,
        ["22m234p678p78s11s4m9s", "9s9s1s147m147p258s3m"],
        draws="9s",
    )
    discard(state, 0, "9s")
    state.apply(Action(1, ActionKind.PUNG, (t("9s"),)))
    discard(state, 1, "1s")
    state.apply(Action(0, ActionKind.PUNG, (t("1s"),)))
    discard(state, 0, "4m")
    pass_others(state)
    assert state.turn == 1 and state.drawn == t("9s")
    state.apply(Action(1, ActionKind.ADDED_KONG, (t("9s"),)))
    assert state.phase is Phase.ROB and ActionKind.WIN in kinds(state, 0)
    state.apply(Action(0, ActionKind.WIN))
    outcome = state.outcome()
    assert outcome is not None and outcome.wins[0].by.value == "robbing_kong"
    assert outcome.deltas == (50, -50)


def test_in_play_the_robbed_players_open_hand_meets_the_minimum() -> None:
    # with the minimum of 3: winner fan 2 (hard win, exposed kong) + the robbed pung's open hand
    state = HandState.arranged(
        FIXED,
        ["22m234p678p78s111s9s", "9s9s1s147m147p258s3m"],
        draws="9s",
        replacements="4m",
    )
    discard(state, 0, "9s")
    state.apply(Action(1, ActionKind.PUNG, (t("9s"),)))
    discard(state, 1, "1s")
    state.apply(Action(0, ActionKind.KONG, (t("1s"),)))
    discard(state, 0, "4m")
    pass_others(state)
    state.apply(Action(1, ActionKind.ADDED_KONG, (t("9s"),)))
    assert state.phase is Phase.ROB and ActionKind.WIN in kinds(state, 0)
    state.apply(Action(0, ActionKind.WIN))
    outcome = state.outcome()
    assert outcome is not None and outcome.wins[0].score.fan == 2
    assert outcome.deltas == (50, -50)


def test_the_result_names_each_paying_losers_fan_and_payment() -> None:
    from render.adapt import result_view_from_state

    state = open_hand_state()
    discard(state, 2, "5s")
    state.apply(Action(1, ActionKind.WIN))
    pass_others(state)
    view = result_view_from_state(state, ["Ann", "Bob", "Cy", "Di"])
    win = view.wins[0]
    assert " · ".join(map(str, (win.by, *win.notes))) == "a discard from Cy · Cy 0 fan pays 2"
    assert view.wins[0].patterns == (("hard_win", 1),)


def test_a_wild_stands_for_the_pair_in_play() -> None:
    state = open_hand_state(single="5p")  # seat 1 waits with the wild alone: any tile pairs it
    discard(state, 2, "2s")
    assert ActionKind.WIN in kinds(state, 1)
    state.apply(Action(1, ActionKind.WIN))
    pass_others(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.wins[0].score.patterns == ()  # a small win, not hard
    assert outcome.deltas == (0, 1, -1, 0)


def test_table_options_travel_with_a_stored_session() -> None:
    wider = with_options(HUBEI, ["green_white", "no_minimum"])
    session = Session(wider, seed=9, seat_count=3)
    again = Session.from_json(session.to_json())
    assert again.preset == wider and len(again.new_hand().preset.wall) == 120
    assert "table_options" not in Session(HUBEI, seed=9).to_json()


# ------------------------------------------------------------------------------- tables


async def test_a_table_takes_hubei_options_and_keeps_them_over_a_restart(tmp_path: Any) -> None:
    from bot.runtime import TableError
    from data import Store
    from tests.test_runtime import PLAYERS, ManualTimers, make_runtime

    path = str(tmp_path / "bot.db")
    timers = ManualTimers()
    store = await Store.open(path, clock=timers.now)
    runtime = await make_runtime(store, timers)
    with pytest.raises(TableError, match="no table option"):
        await runtime.create_table(
            "hkos-3-v1", creator_id="101", creator_name="Ann", table_options=["green_white"]
        )
    table = await runtime.create_table(
        "hubei-laizi",
        creator_id=PLAYERS[0][0],
        creator_name=PLAYERS[0][1],
        table_options=["green_white", "no_minimum"],
        computers=3,
    )
    await runtime.start_table(table.id, PLAYERS[0][0])
    assert table.hand is not None and len(table.hand.preset.wall) == 120
    assert table.preset.min_fan == 0
    await runtime.close()
    await store.close()
    store = await Store.open(path, clock=timers.now)
    again = await make_runtime(store, timers)
    restored = again.get(table.id)
    assert restored.preset == table.preset
    assert restored.hand is not None and len(restored.hand.preset.wall) == 120
    await store.close()


def test_a_self_draw_in_the_last_draws_is_flagged_last_draw() -> None:
    from engine.rules import WinConditions
    from engine.scoring.base import WinBy

    state = HandState(OPEN_TABLE, seed=2)
    conditions = WinConditions()
    assert "last_draw" not in conditions.flags(state, 0, WinBy.SELF_DRAW)
    state.front = state.back - 13  # the wall as it is after the first last draw
    assert "last_draw" in conditions.flags(state, 0, WinBy.SELF_DRAW)
    assert "last_draw" not in conditions.flags(state, 0, WinBy.DISCARD)


def test_simulate_takes_the_number_of_players(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from bot.cli import main

    assert (
        main(["simulate", "--preset", "hubei-laizi", "--hands", "3", "--players", "2", "--json"])
        == 0
    )
    hands = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(hands) == 3 and all(len(h["deltas"]) == 2 for h in hands)
    assert main(["simulate", "--preset", "hkos-3-v1", "--hands", "3", "--players", "3"]) == 2
    assert "seats 4 players, not 3" in capsys.readouterr().err
