"""Taiwanese sixteen tiles (`tw-16`, RULES.md): tai per pattern, the dealer bonus and the cap,
the score contract, and the play on arranged walls (the deal and its flowers, the dead wall, the
passed-win block, multiple wins, robbing an added kong, kong payments at once)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.runtime import LiveTable, Seat
from bot.runtime.snapshots import private_snapshot, public_snapshot
from bot.terminal import hand_line
from data import Phase as TablePhase
from data import TableOptions
from engine.actions import Action, ActionKind
from engine.computer.simulate import play_out
from engine.events import Phase, Termination
from engine.families.taiwan.rules import DealerBonus
from engine.families.taiwan.scoring import score
from engine.formats.score_request import RequestError, parse_request, score_request
from engine.hand import HandState
from engine.presets import Rotation, find_preset
from engine.rules import PassPart
from engine.scoring.base import WinBy
from engine.session import Session, next_dealer_seat
from engine.settlement import Payment, Reason
from engine.tiles import parse_tile, parse_tiles
from render import render_hand
from render.adapt import hand_view_from_state
from tests.hands import act
from tests.test_pictures_at_size import shown

TW = find_preset("tw-16")


def tw(hand: str, win: str | None = None, **fields: Any) -> dict[str, Any]:
    """Score a tw-16 request (the winning tile defaults to the hand's last)."""
    return score_request({"preset": "tw-16", "hand": hand, "win": win or hand[-2:], **fields})


def tai(result: dict[str, Any]) -> dict[str, int]:
    return {p["id"]: p["fan"] for p in result["patterns"]}


# ------------------------------------------------------------------------------- tai


def test_a_plain_closed_hand_on_a_discard_is_one_tai_and_pays_two() -> None:
    result = tw("123m456m789m234p567p99s")
    assert result["unit"] == "tai" and result["valid"]
    assert tai(result) == {"closed_hand": 1}
    assert result["fan"] == 1 and result["points"] == {"discarder": 2}


def test_a_claimed_meld_opens_the_hand_but_a_concealed_kong_does_not() -> None:
    opened = tw("123m456m789m234p99s", melds=["chow 567p"])
    assert tai(opened) == {} and opened["points"] == {"discarder": 1}
    kong = tw("123m456m789m234p99s", melds=["concealed_kong 5555p"])
    assert tai(kong) == {"closed_hand": 1}


def test_self_draw_is_one_tai_and_each_pays() -> None:
    result = tw("123m456m789m234p567p99s", by="self_draw")
    assert tai(result) == {"closed_hand": 1, "self_draw": 1}
    assert result["points"] == {"each": 3}


def test_each_dragon_pung_is_one_tai() -> None:
    result = tw("123m456m789m555z666z99s")
    assert tai(result) == {"closed_hand": 1, "dragon_pung": 2}


def test_seat_and_round_wind_pungs_score_apart_and_together() -> None:
    hand = "123m456m789m234p222z99s"  # a South pung
    assert tai(tw(hand, seat="S")) == {"closed_hand": 1, "seat_wind": 1}
    assert tai(tw(hand, round="S")) == {"closed_hand": 1, "prevailing_wind": 1}
    assert tai(tw(hand, seat="S", round="S")) == {
        "closed_hand": 1,
        "seat_wind": 1,
        "prevailing_wind": 1,
    }
    assert tai(tw(hand)) == {"closed_hand": 1}  # East seat, East round: no wind tai


def test_all_pungs_is_four_tai() -> None:
    result = tw("111m444p777s99s", melds=["pung 222m", "pung 888p"])
    assert tai(result) == {"all_pungs": 4}


def test_half_flush_is_four_and_full_flush_eight() -> None:
    assert tai(tw("123m456m789m234m777z11m")) == {
        "closed_hand": 1,
        "dragon_pung": 1,
        "half_flush": 4,
    }
    assert tai(tw("123m456m789m234m678m11m")) == {"closed_hand": 1, "full_flush": 8}


def test_little_and_big_three_dragons_replace_the_dragon_pungs() -> None:
    little = tw("123m456m789p555z666z77z")
    assert tai(little) == {"closed_hand": 1, "little_three_dragons": 4}
    big = tw("123m456m555z666z777z99s")
    assert tai(big) == {"closed_hand": 1, "big_three_dragons": 8}


def test_little_and_big_four_winds_replace_the_wind_pungs() -> None:
    little = tw("123m456m111z222z333z44z", seat="S", round="E")
    assert tai(little) == {"closed_hand": 1, "half_flush": 4, "little_four_winds": 8}
    big = tw("123m111z222z333z444z99m", seat="S", round="E")
    assert tai(big) == {"closed_hand": 1, "half_flush": 4, "big_four_winds": 16}


def test_each_own_seat_flower_and_season_is_one_tai() -> None:
    hand = "123m456m789m234p567p99s"
    assert tai(tw(hand, seat="W", bonus="3f7f")) == {
        "closed_hand": 1,
        "own_flower": 1,
        "own_season": 1,
    }
    assert tai(tw(hand, seat="W", bonus="1f2f5f6f")) == {"closed_hand": 1}


def test_the_best_reading_counts() -> None:
    # 111222333m as three pungs or three chows: with pungs everywhere it is all pungs
    result = tw("111222333m555p77z", melds=["pung 999s"])
    assert tai(result)["all_pungs"] == 4


# the most a tw-16 hand can hold: big four winds, a dragon pung, a suited pair, closed, self
# drawn, both own bonus tiles: 16 + 1 + 4 + 4 + 1 + 1 + 2 = 29 tai (30 with the dealer bonus)
TOP = {"hand": "111z222z333z444z555z99m", "win": "9m", "by": "self_draw", "bonus": "1f5f"}


def test_the_highest_hand_is_29_tai() -> None:
    result = tw(**TOP)
    assert tai(result) == {
        "closed_hand": 1,
        "self_draw": 1,
        "dragon_pung": 1,
        "all_pungs": 4,
        "half_flush": 4,
        "big_four_winds": 16,
        "own_flower": 1,
        "own_season": 1,
    }
    assert result["fan"] == 29 and result["points"] == {"each": 30}
    assert result["deltas"] == {"E": 93, "S": -31, "W": -31, "N": -31}


def test_tai_are_capped_and_the_cap_includes_the_dealer_bonus() -> None:
    # no tw-16 hand reaches 32 tai, so the cap is shown on a smaller one
    _, ctx = parse_request({"preset": "tw-16", **TOP})
    capped = score(replace(TW, fan_cap=20), ctx)
    assert capped.fan == 20 and capped.points == {"each": 21}
    rule = DealerBonus(tai=1, cap=32)
    at_cap = [Payment(1, 0, 33, Reason.WIN)]  # 32 tai: no room for the bonus
    assert rule.bonus_payments(at_cap) == []
    below = [Payment(0, 2, 32, Reason.WIN), Payment(1, 2, 32, Reason.WIN)]  # 31 tai
    assert rule.bonus_payments(below) == [Payment(0, 2, 1, Reason.DEALER_BONUS)]


def test_seven_pairs_and_thirteen_orphans_do_not_win() -> None:
    pairs = tw("1122334455667788m9m", win="9m")
    assert not pairs["valid"] and pairs["reason"] == "not_a_winning_hand"
    with pytest.raises(RequestError, match="17"):
        tw("19m19p19s1234567z1m")  # 14 tiles is not a tw-16 hand at all


def test_a_thirteen_tile_hand_is_refused() -> None:
    with pytest.raises(RequestError, match="winning hand has 17"):
        tw("123m456m789m234p55p")


# ------------------------------------------------------------------------------- dealer bonus


def test_a_non_dealer_self_draw_of_three_tai_the_dealer_pays_five_the_others_four() -> None:
    # RULES.md's example: closed + self draw + a dragon pung = 3 tai
    result = tw("123m456m789m234p555z99s", by="self_draw", seat="S")
    assert result["fan"] == 3
    assert result["deltas"] == {"E": -5, "S": 13, "W": -4, "N": -4}


def test_the_dealer_winning_by_self_draw_gets_one_more_from_everyone() -> None:
    result = tw("123m456m789m234p555z99s", by="self_draw", seat="E")
    assert result["deltas"] == {"E": 15, "S": -5, "W": -5, "N": -5}


def test_a_discard_between_the_dealer_and_another_carries_the_bonus_both_ways() -> None:
    hand = "123m456m789m234p567p99s"  # 1 tai: 2 points, 3 with the bonus
    assert tw(hand, seat="E", **{"from": "W"})["deltas"] == {"E": 3, "S": 0, "W": -3, "N": 0}
    assert tw(hand, seat="N", **{"from": "E"})["deltas"] == {"E": -3, "S": 0, "W": 0, "N": 3}
    assert tw(hand, seat="N", **{"from": "S"})["deltas"] == {"E": 0, "S": -2, "W": 0, "N": 2}


def test_a_robbed_kong_is_paid_by_the_robbed_player() -> None:
    result = tw("123m456m789m234p567p99s", win="7p", by="robbing_kong", seat="S", **{"from": "W"})
    assert tai(result) == {"closed_hand": 1}  # robbing a kong has no tai of its own
    assert result["deltas"] == {"E": 0, "S": 2, "W": -2, "N": 0}


def test_from_is_checked() -> None:
    hand = "123m456m789m234p567p99s"
    with pytest.raises(RequestError, match="from: a self draw"):
        tw(hand, by="self_draw", **{"from": "S"})
    with pytest.raises(RequestError, match="winner's own seat"):
        tw(hand, seat="S", **{"from": "S"})
    with pytest.raises(RequestError, match="from: 'X' is not one of"):
        tw(hand, **{"from": "X"})
    assert "deltas" not in tw(hand)  # a discard without its discarder: no settlement


# ------------------------------------------------------------------------------- play


def kinds(state: HandState, seat: int) -> set[str]:
    return {a.kind.value for a in state.legal_actions(seat)}


def pass_window(state: HandState) -> None:
    while state.phase in (Phase.CLAIMS, Phase.ROB):
        act(state, f"{state.seats_to_act()[0]} pass")


# seat 1 waits on 5p and 8p; seat 0 discards 5p first; nobody else claims 5p
WAITS = "123m456m789m123s11z67p"
DEALER = "444m555m666m777p88s9s3z" + "5p"
SEAT_3 = "678s555z66z77z9s234p11p"


def test_the_deal_gives_sixteen_each_and_the_dealer_seventeen() -> None:
    state = HandState(TW, 5)
    assert [len(state.hands[s]) + len(state.bonus[s]) for s in range(4)][1:] >= [16] * 3
    assert [len(h) for h in state.hands] == [17, 16, 16, 16]


def test_flowers_in_the_deal_are_replaced_from_the_back_repeatedly() -> None:
    seat_1 = "123m456m789m123s11z1f2f"  # 14 tiles and two flowers
    state = HandState.arranged(
        TW, [DEALER, seat_1, "234s567s22z33z44z9p9p1p1p", SEAT_3], replacements="5f7z7z"
    )
    assert state.bonus[1] == parse_tiles("1f2f5f")
    assert sorted(state.hands[1]) == sorted(parse_tiles("123m456m789m123s11z7z7z"))
    assert len(state.hands[1]) == 16


def test_the_dead_wall_of_sixteen_is_never_drawn() -> None:
    for seed in range(3):
        state = HandState(TW, seed)
        live_draws = []  # the front draws: where each came from, counted from the back
        while not state.is_over:
            seat = state.seats_to_act()[0]
            assert state.back - state.front >= 16 and state.wall_left >= 0
            if state.phase is Phase.TURN:
                tile = state.drawn if state.drawn is not None else state.hands[seat][-1]
                state.apply(Action(seat, ActionKind.DISCARD, (tile,)))
            else:
                state.apply(Action(seat, ActionKind.PASS))  # never win, never call
            live_draws.append(state.back - state.front)
        outcome = state.outcome()
        assert outcome is not None and outcome.termination is Termination.WALL_DRAW
        # the hand ends when 16 remain: the last tile drawn was the 17th from the end
        assert state.wall_left == 0 and state.back - state.front == 16
        assert min(live_draws) == 16


def test_a_passed_win_blocks_that_tile_even_by_self_draw_until_the_own_discard() -> None:
    state = HandState.arranged(
        TW, [DEALER, WAITS, "234s567s22z33z44z9p9p1p1p", SEAT_3], draws="5p5p"
    )
    act(state, "0 discard 5p")
    assert "win" in kinds(state, 1)
    act(state, "1 pass")
    assert state.turn == 1 and state.drawn == parse_tile("5p")  # complete, but blocked
    assert "win" not in kinds(state, 1)
    assert tuple(map(str, hand_view_from_state(state, 1).blocked)) == (
        "you passed 5p: no win on 5p until you discard",
    )
    act(state, "1 discard 5p")
    assert hand_view_from_state(state, 1).blocked == ()
    pass_window(state)
    act(state, "2 discard 5p")
    assert "win" in kinds(state, 1)  # after its own discard seat 1 may win on 5p again


def test_the_terminal_and_the_dm_picture_say_what_a_pass_blocks() -> None:
    hand = HandState.arranged(TW, [DEALER, WAITS, "234s567s22z33z44z9p9p1p1p", SEAT_3], "5p")
    act(hand, "0 discard 5p", "1 pass")
    seats: list[Seat | None] = [Seat(str(100 + p), f"P{p}") for p in range(4)]
    table = LiveTable(
        7, TW, TableOptions(), 1, 2, "", seats, TablePhase.PLAYING, Session(TW, 1), hand, hand_id=1
    )
    private = private_snapshot(table, 1)
    note = "you passed 5p: no win on 5p until you discard"
    assert private.hand_view is not None and tuple(map(str, private.hand_view.blocked)) == (note,)
    assert f"({note})" in hand_line(private)  # before the waits of a ready hand
    assert render_hand(private.hand_view).width > 0
    assert note not in repr(public_snapshot(table))  # the block is the player's own business


def test_while_blocked_a_different_tile_still_wins() -> None:
    state = HandState.arranged(TW, [DEALER, WAITS, "234s567s22z33z44z55p8p1p", SEAT_3])
    act(state, "0 discard 5p", "1 pass", "2 pung 5p")
    assert state.part_of(PassPart).blocked[1] == {parse_tile("5p")}  # type: ignore[union-attr]
    act(state, "2 discard 8p")
    assert "win" in kinds(state, 1)
    act(state, "1 win")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,)
    # 1 tai (closed), paid by seat 2: no dealer involved, no bonus
    assert outcome.deltas == (0, 2, -2, 0)


ROB_SEAT_2 = "234s567s22z33z44z55p8p1p"


def test_a_chow_chosen_over_a_win_and_beaten_by_a_pung_blocks_like_a_pass() -> None:
    state = HandState.arranged(TW, [DEALER, WAITS, ROB_SEAT_2, SEAT_3])
    act(state, "0 discard 5p", "1 chow 567p", "2 pung 5p")
    assert state.melds[1] == [] and state.turn == 2  # the pung beat the chow
    assert state.part_of(PassPart).blocked[1] == {parse_tile("5p")}  # type: ignore[union-attr]


def _to_the_added_kong() -> HandState:
    """Seat 2 pungs 5p (seat 1 passing its win), and after a round adds the fourth 5p."""
    state = HandState.arranged(TW, [DEALER, WAITS, ROB_SEAT_2, SEAT_3], draws="9m9m9m5p")
    act(state, "0 discard 5p", "1 pass", "2 pung 5p", "2 discard 1p")
    pass_window(state)
    act(state, "3 discard 9m")
    pass_window(state)
    act(state, "0 discard 9m")
    pass_window(state)
    act(state, "1 discard 9m")  # seat 1's own discard ends its block
    assert not state.part_of(PassPart).blocked[1]  # type: ignore[union-attr]
    pass_window(state)
    act(state, "2 added_kong 5p")
    assert state.phase is Phase.ROB and "win" in kinds(state, 1)
    return state


def test_passing_a_robbing_win_blocks_the_tile_too_and_the_kong_pays_at_once() -> None:
    state = _to_the_added_kong()
    act(state, "1 pass")
    assert state.part_of(PassPart).blocked[1] == {parse_tile("5p")}  # type: ignore[union-attr]
    assert tuple(map(str, hand_view_from_state(state, 1).blocked)) == (
        "you passed 5p: no win on 5p until you discard",
    )
    # the added kong is committed: 1 from each other player, at once
    assert state.kong_points == [-1, -1, 3, -1]


def test_an_added_kong_may_be_robbed_and_then_pays_nothing() -> None:
    state = _to_the_added_kong()
    act(state, "1 win")
    outcome = state.outcome()
    assert outcome is not None
    (win,) = outcome.wins
    assert win.by is WinBy.ROBBING_KONG and win.discarder == 2
    assert state.kong_points == [0, 0, 0, 0]
    assert outcome.deltas == (0, 2, -2, 0)


def test_several_players_win_on_one_discard_each_paid_with_the_dealer_bonus() -> None:
    seat_2 = "234s567s222z333z44z46p"  # waits on 5p; West: the 333z pung is its seat wind
    state = HandState.arranged(TW, [DEALER, WAITS, seat_2, SEAT_3])
    act(state, "0 discard 5p", "1 win", "2 win")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1, 2)
    assert [w.score.fan for w in outcome.wins] == [1, 2]
    # the dealer pays 1 + tai + 1 to each winner
    assert [w.deltas for w in outcome.wins] == [(-3, 3, 0, 0), (-4, 0, 4, 0)]
    assert outcome.paid_for(Reason.DEALER_BONUS) == [-2, 1, 1, 0]
    assert next_dealer_seat(TW.rotation, outcome) == 1


def test_an_exposed_kong_is_paid_two_by_its_discarder_at_once() -> None:
    seat_2 = "234s567s22z33z44z555p1p"
    state = HandState.arranged(TW, [DEALER, WAITS, seat_2, SEAT_3])
    act(state, "0 discard 5p", "1 pass", "2 kong 5p")
    assert state.kong_points == [-2, 0, 2, 0]
    assert state.outcome() is None


def test_a_concealed_kong_is_paid_two_by_each_other_player_and_cannot_be_robbed() -> None:
    dealer = "444m555m666m777p3333z9s"
    seat_2 = "234s567s22z44z9p9p1p1p88s"
    state = HandState.arranged(TW, [dealer, WAITS, seat_2, SEAT_3])
    act(state, "0 concealed_kong 3z")
    assert state.phase is Phase.TURN and state.turn == 0  # no robbing window
    assert state.kong_points == [6, -2, -2, -2]


def test_the_dealer_self_draw_is_paid_one_more_by_everyone() -> None:
    dealer = "123m456m789m234p555z9s" + "9s"  # complete at the deal: closed + self draw + dragon
    state = HandState.arranged(
        TW, [dealer, WAITS, "234s567s22z33z44z9p9p1p1p", "678s66z77z234p11p456m3z"]
    )
    assert "win" in kinds(state, 0)
    act(state, "0 win")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.deltas == (15, -5, -5, -5)  # 1 + 3 tai + the dealer bonus, from each
    assert next_dealer_seat(TW.rotation, outcome) == 0


def test_hong_kong_rotation_and_the_table_clock() -> None:
    assert TW.rotation is Rotation.HONG_KONG
    assert TW.time_control == TW.rated_time_control == "table"
    state = HandState(TW, 3)
    state.end_by_deal_limit()
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.DEAL_LIMIT
    assert next_dealer_seat(TW.rotation, outcome) == 0  # no win: the dealer keeps the deal


def test_the_computer_plays_whole_hands_legally() -> None:
    wins = 0
    for seed in range(8):
        state = play_out(HandState(TW, seed))
        outcome = state.outcome()
        assert outcome is not None and sum(outcome.deltas) == 0
        wins += len(outcome.wins)
    assert wins


def test_a_dealt_seventeen_tile_hand_with_flowers_is_drawn_wide_at_discords_size() -> None:
    state = HandState(TW, 52)  # the dealer holds three flowers after the deal
    view = replace(hand_view_from_state(state, 0), blocked=("you passed 5p: no win on 5p",))
    assert len(view.concealed) + (view.drawn is not None) == 17 and len(view.bonus) == 3
    image = render_hand(view)
    small = shown(image)
    assert small.width >= 400, small.size  # the 300 px embed height leaves it 400 wide
    without = render_hand(replace(view, bonus=()))
    assert image.tobytes() != without.tobytes()  # the flowers are drawn, not dropped
