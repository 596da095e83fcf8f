"""Three-player Riichi, `sanma` (RULES.md "Riichi"), each rule with a concrete hand: the preset
in development (engine.families.riichi.presets.SANMA) on the shared loop, with its nuki part
(engine.families.riichi.sanma)."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from bot.cli import main as cli_main
from bot.runtime.words import event_lines
from bot.terminal import melds_text
from engine.actions import Action, ActionKind
from engine.computer import computer_for
from engine.computer.easy import choose_action
from engine.computer.simulate import simulate
from engine.events import Phase, Termination
from engine.families.riichi.presets import RIICHI, SANMA
from engine.families.riichi.rules import (
    NINE_TERMINALS,
    DoraPart,
    FuritenPart,
    RiichiPart,
    dora_kind,
)
from engine.families.riichi.rules import RIICHI as RIICHI_KIND
from engine.families.riichi.sanma import NUKI, NukiPart
from engine.game import GameProgress, game_over, standings
from engine.hand import HandState
from engine.hand_setup import HandSetup
from engine.i18n import Text
from engine.options import choose
from engine.scoring.base import WinBy
from engine.session import Session
from engine.table_facts import SeatTiles, table_facts
from engine.tiles import NORTH, format_tiles, kind_of, parse_tile, parse_tiles
from render.adapt import table_view_from_state
from render.views import SetAside
from tests.hands import act
from tests.test_riichi_rules import play_quietly

RICH = HandSetup(points=(35000, 35000, 35000))
NUKI_ACTION = {seat: Action(seat, NUKI, (NORTH,)) for seat in range(3)}


def dead_wall(dora: str, ura: str, replacements: str = "") -> str:
    """The tiles taken from the back, as `HandState.arranged` reads them: sanma sets its ten
    indicators apart at the deal (the five dora indicators in the order turned, then the five
    ura), then the replacements follow in draw order (the fifth on: the live wall's end)."""
    dora_tiles, ura_tiles = parse_tiles(dora), parse_tiles(ura)
    assert len(dora_tiles) == len(ura_tiles) == 5
    return format_tiles(dora_tiles + ura_tiles + parse_tiles(replacements))


QUIET = ("4p4p7p7p8s", "8s4p7p3s6s")  # indicators that make no dora in the hands below
QUIET_BACK = dead_wall(*QUIET)


def patterns(state: HandState, win: int = 0) -> dict[str, int]:
    outcome = state.outcome()
    assert outcome is not None and outcome.wins
    return {p.id: p.fan for p in outcome.wins[win].score.patterns}


def play_out(state: HandState) -> None:
    """Every seat passes its calls and discards its drawn tile (or its last) to the end."""
    while not state.is_over:
        seat = state.seats_to_act()[0]
        if state.phase is Phase.TURN:
            tile = state.drawn if state.drawn is not None else state.hands[seat][-1]
            state.apply(Action(seat, ActionKind.DISCARD, (tile,)))
        else:
            state.apply(Action(seat, ActionKind.PASS))


# ------------------------------------------------------------------------------- tiles and seats


def test_108_tiles_without_2m_to_8m_with_red_0p_and_0s_and_no_0m() -> None:
    kinds = Counter(kind_of(t) for t in SANMA.wall)
    assert len(SANMA.wall) == 108 and len(kinds) == 27
    assert not any(parse_tile(f"{n}m") in kinds for n in range(2, 9))
    assert kinds[parse_tile("1m")] == kinds[parse_tile("9m")] == kinds[NORTH] == 4
    reds = [t for t in SANMA.wall if t != kind_of(t)]
    assert sorted(reds) == sorted(parse_tiles("0p0s"))


def test_three_seats_only_and_playable() -> None:
    from engine.presets import PRESETS, find_preset

    assert SANMA.seat_counts == (3,)
    assert PRESETS["sanma"] is SANMA and find_preset("sanma") is SANMA
    assert HandState(SANMA, 1).seat_count == 3
    with pytest.raises(ValueError, match="sanma seats 3 players, not 4"):
        HandState(SANMA, 1, seat_count=4)
    assert len(Session(SANMA, 1).points) == 3


def test_its_own_rating_settled_per_game() -> None:
    assert SANMA.id not in (RIICHI.id, "riichi-majsoul") and SANMA.game.rates_per_game


# ------------------------------------------------------------------------------- no chi

CHI_HANDS = [
    "123p456p789p11s5z6z3s",  # the dealer discards 3s
    "45s19m19p2z2z3z3z5z6z6z",  # holds 45s: a chi of 3s from the left would be a run
    "258p258s369p369s1z",
]


def test_no_chi_from_the_left() -> None:
    state = HandState.arranged(SANMA, CHI_HANDS, replacements=QUIET_BACK)
    assert not SANMA.chow
    events = act(state, "0 discard 3s")
    # seat 1 (the dealer's right, who would chi) is asked nothing: no call is offered
    assert state.phase is Phase.TURN and state.turn == 1
    assert not any(e.kind == "claim_window" for e in events)


# ------------------------------------------------------------------------------- the dead wall


def test_the_dead_wall_keeps_14_tiles_and_sets_its_ten_indicators_apart() -> None:
    back = dead_wall("1m2p3p4p6p", "6p7p8p9p3s")
    state = HandState.arranged(SANMA, CHI_HANDS, replacements=back)
    assert state.wall_left == 108 - 14 - 40  # 54 draws after the dealer's 14th
    assert state.wall_part.indicators() == tuple(parse_tiles("1m2p3p4p6p6p7p8p9p3s"))
    dora = state.part_of(DoraPart)
    assert dora is not None and dora.dora_indicators() == (parse_tile("1m"),)
    assert sorted(state.tiles_in_play()) == sorted(SANMA.wall)


def test_eight_replacements_the_fifth_on_from_the_live_walls_end() -> None:
    """Four norths set aside and four concealed kongs by the dealer: the dead wall's own four
    replacement tiles, then the tiles the live wall's end moved into it, then no more."""
    hands = ["4444z1111p9999p9s1z", "258p258s367p36s2z2z", "258p258s3467s19m5z"]
    back = dead_wall("2z2z7z7z6z", "6z6z5z5z3z", "1s1s1s1s9s9s9s2s")
    state = HandState.arranged(SANMA, hands, replacements=back, setup=RICH)
    drawn = []
    for text in ["nuki 4z"] * 4 + ["concealed_kong 1p", "concealed_kong 9p", "concealed_kong 1s"]:
        act(state, f"0 {text}")
        drawn.append(state.drawn)
    assert drawn == parse_tiles("1s1s1s1s9s9s9s")
    assert state.wall_left == 54 - 7  # each replacement shortened the live wall by one
    act(state, "0 concealed_kong 9s")
    assert state.drawn == parse_tile("2s") and state.wall_left == 54 - 8
    assert not state.wall_part.can_replace()
    part = state.part_of(NukiPart)
    assert part is not None and part.count(0) == 4
    # the eight replacements are drawn: neither a kong nor a north set aside is offered now
    kinds = {a.kind for a in state.legal_actions(0)}
    assert ActionKind.DISCARD in kinds and not kinds & {NUKI, ActionKind.CONCEALED_KONG}
    assert sorted(state.tiles_in_play()) == sorted(SANMA.wall)


# ------------------------------------------------------------------------------- nuki

# the dealer holds a north; after setting it aside it waits on 1s or 5z
NUKI_HANDS = [
    "123p456p789p11s5z5z4z",
    "234s567s19m19p1z2z4z",  # holds a north too
    "258p258s369p369s1z",
]
NUKI_BACK = dead_wall(*QUIET, "5z")


def test_a_north_is_set_aside_as_nuki_dora_with_a_replacement_and_rinshan() -> None:
    state = HandState.arranged(SANMA, NUKI_HANDS, replacements=NUKI_BACK)
    assert NUKI_ACTION[0] in state.legal_actions(0)
    events = act(state, "0 nuki 4z")
    assert [e.kind for e in events] == ["nuki", "draw"] and events[0].seat == 0
    assert not events[0].private and events[1].private
    # not a call: nobody is asked (no robbing it), the dealer plays on with the replacement
    assert state.phase is Phase.TURN and state.turn == 0
    assert state.drawn == parse_tile("5z") and state.wall_left == 53
    assert NORTH not in state.hands[0] and state.melds[0] == []
    act(state, "0 win")
    found = patterns(state)
    # the dealt hand was complete only with the north set aside: no tenhou (a nuki is a call)
    assert found["nuki_dora"] == 1 and found["rinshan"] == 1 and "tenhou" not in found
    assert sorted(state.tiles_in_play()) == sorted(SANMA.wall)


def test_the_score_command_takes_nuki_and_values_the_loops_win_alike(
    capsys: pytest.CaptureFixture[str],
) -> None:
    state = HandState.arranged(SANMA, NUKI_HANDS, replacements=NUKI_BACK)
    act(state, "0 nuki 4z", "0 win")
    outcome = state.outcome()
    assert outcome is not None
    won = outcome.wins[0].score
    request = {
        "preset": "sanma",
        "hand": "123p456p789p11s555z",
        "win": "5z",
        "by": "self_draw",
        "seat": "E",
        "dora": "4p",
        "flags": ["rinshan"],
        "nuki": 1,
    }
    assert cli_main(["score", "--json", json.dumps(request)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert won.limit and answer["fu"] is None  # a limit hand (haneman) names no fu
    assert answer["han"] == won.fan
    assert {(y["id"], y["han"]) for y in answer["yaku"]} == {(p.id, p.fan) for p in won.patterns}
    assert answer["deltas"] == {
        "E": outcome.deltas[0],
        "S": outcome.deltas[1],
        "W": outcome.deltas[2],
    }
    assert ("nuki_dora", 1) in {(y["id"], y["han"]) for y in answer["yaku"]}


def test_the_score_command_refuses_first_draw_wins_after_a_nuki() -> None:
    from engine.formats.score_request import RequestError, score_request

    request = {"preset": "sanma", "hand": "123p456p789p11s555z", "win": "5z", "by": "self_draw"}
    assert score_request({**request, "seat": "E", "flags": ["tenhou"]})["valid"]
    with pytest.raises(RequestError, match="no nuki"):
        score_request({**request, "seat": "E", "flags": ["tenhou"], "nuki": 1})
    with pytest.raises(RequestError, match="no nuki"):
        score_request({**request, "seat": "S", "flags": ["chiihou"], "nuki": 1})
    with pytest.raises(RequestError, match="nuki"):
        score_request({**request, "seat": "E", "flags": ["rinshan"]})


def test_a_north_set_aside_may_be_ronned_as_a_discard_is_not_robbed_as_a_kong() -> None:
    hands = [NUKI_HANDS[0], "234s567s19m19p1z2z3z", "123s456s789s111z4z"]  # seat 2 waits on 4z
    state = HandState.arranged(SANMA, hands, replacements=NUKI_BACK)
    events = act(state, "0 nuki 4z")
    assert events[0].kind == "nuki" and state.phase is Phase.ROB
    assert Action(2, ActionKind.WIN) in state.legal_actions(2)
    act(state, "2 win")
    outcome = state.outcome()
    assert outcome is not None and [w.seat for w in outcome.wins] == [2]
    assert outcome.wins[0].by is WinBy.DISCARD  # Tenhou: a ron as on a discard, no chankan
    found = patterns(state)
    assert "chankan" not in found and "nuki_dora" not in found
    part = state.part_of(NukiPart)
    assert part is not None and part.count(0) == 0  # robbed: no nuki dora for the setter
    # the setter alone pays, as a discarder would (the dealer's north: 1,000 of the ron)
    assert outcome.deltas[1] == 0 and outcome.deltas[0] < 0 < outcome.deltas[2]
    assert outcome.deltas[0] + outcome.deltas[2] == 0
    assert sorted(state.tiles_in_play()) == sorted(SANMA.wall)


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_the_computers_ron_a_north_set_aside(level: str) -> None:
    hands = [NUKI_HANDS[0], "234s567s19m19p1z2z3z", "123s456s789s111z4z"]
    state = HandState.arranged(SANMA, hands, replacements=NUKI_BACK)
    act(state, "0 nuki 4z")
    assert computer_for(level)(state, 2) == Action(2, ActionKind.WIN)


def test_a_north_no_hand_can_win_on_is_set_aside_at_once() -> None:
    hands = [NUKI_HANDS[0], "234s567s19m19p1z2z3z", "123s456s789s11z22p"]  # waits on 1z/2p
    state = HandState.arranged(SANMA, hands, replacements=NUKI_BACK)
    act(state, "0 nuki 4z")
    assert state.phase is Phase.TURN and state.seats_to_act() == [0]
    assert state.legal_actions(2) == ()


def test_a_hand_without_a_yaku_on_the_north_is_not_offered_the_ron() -> None:
    hands = [NUKI_HANDS[0], "234s567s19m19p1z2z3z", "123s456s678s333p4z"]  # tanki on 4z, no yaku
    state = HandState.arranged(SANMA, hands, replacements=NUKI_BACK)
    assert NORTH in state.waits(state.hands[2])
    act(state, "0 nuki 4z")
    assert state.phase is Phase.TURN and state.legal_actions(2) == ()


def test_passing_the_ron_on_a_north_is_furiten_until_the_own_discard() -> None:
    hands = [NUKI_HANDS[0], "234s567s19m19p1z2z3z", "123s456s789s111z4z"]
    state = HandState.arranged(SANMA, hands, "3z6p9m", replacements=NUKI_BACK)
    furiten = state.part_of(FuritenPart)
    assert furiten is not None
    act(state, "0 nuki 4z", "2 pass")
    # nobody robbed it: set aside as usual, the replacement drawn, one nuki dora for the dealer
    nuki = state.part_of(NukiPart)
    assert nuki is not None and nuki.count(0) == 1
    assert state.phase is Phase.TURN and state.turn == 0 and state.drawn == parse_tile("5z")
    assert furiten.is_furiten(2)
    act(state, "0 discard 5z", "1 discard 3z")
    assert furiten.is_furiten(2)
    act(state, "2 discard 6p")
    assert not furiten.is_furiten(2)


def test_passing_the_ron_on_a_north_in_riichi_is_furiten_for_the_hand() -> None:
    hands = [NUKI_HANDS[0], "234s567s19m19p1z2z3z", "123s456s789s111z4z"]
    back = dead_wall(*QUIET, "7z")
    state = HandState.arranged(SANMA, hands, "9m6p3z6s9p", replacements=back, setup=RICH)
    act(state, "0 discard 1p", "1 discard 9m", "2 riichi 6p")
    act(state, "0 nuki 4z", "2 pass", "0 discard 7z", "1 discard 6s", "2 discard 9p")
    furiten = state.part_of(FuritenPart)
    assert furiten is not None and furiten.is_furiten(2)


def test_no_nuki_right_after_a_pon_only_after_a_draw() -> None:
    hands = ["123p456p789p11s5z6z7z", "234s567s19m19p7z7z4z", NUKI_HANDS[2]]
    state = HandState.arranged(SANMA, hands, replacements=NUKI_BACK)
    act(state, "0 discard 7z", "1 pung 7z")
    assert state.drawn is None and NUKI_ACTION[1] not in state.legal_actions(1)
    act(state, "1 discard 9m")
    play_quietly(state, until_turn=1)
    assert NUKI_ACTION[1] in state.legal_actions(1)


def test_nuki_breaks_ippatsu_as_a_call_does() -> None:
    hands = ["123p456p789p11s5z5z7z", "234s567s19m19p1z2z4z", NUKI_HANDS[2]]

    def play(nuki: bool) -> dict[str, int]:
        back = dead_wall(*QUIET, "6z")
        state = HandState.arranged(SANMA, hands, "9m7z5z", replacements=back, setup=RICH)
        act(state, "0 riichi 7z")
        if nuki:
            act(state, "1 nuki 4z", "1 discard 6z")
        else:
            act(state, "1 discard 9m")
        act(state, "2 discard 7z", "0 win")
        return patterns(state)

    assert "ippatsu" in play(nuki=False)
    without = play(nuki=True)
    assert "ippatsu" not in without and "double_riichi" in without  # declared before the nuki


def test_nuki_before_the_first_discard_breaks_double_riichi() -> None:
    hands = ["123p456p789p11s5z5z4z", "234s567s19m19p1z2z3z", NUKI_HANDS[2]]
    state = HandState.arranged(SANMA, hands, replacements=dead_wall(*QUIET, "7z"), setup=RICH)
    act(state, "0 nuki 4z", "0 riichi 7z")
    riichi = state.part_of(RiichiPart)
    assert riichi is not None and riichi.declared[0] and not riichi.double[0]


def test_nuki_ends_the_first_go_around_for_nine_terminals() -> None:
    orphans = "19m19p19s1234z667z"  # nine kinds of terminals and honours, and a north
    hands = [NUKI_HANDS[0], orphans, "258p258s369p369s2z"]

    def offered(nuki: bool) -> bool:
        state = HandState.arranged(SANMA, hands, draws="7z", replacements=dead_wall(*QUIET, "3p"))
        act(state, *(["0 nuki 4z", "0 discard 3p"] if nuki else ["0 discard 4z"]))
        return Action(1, NINE_TERMINALS) in state.legal_actions(1)

    assert offered(nuki=False) and not offered(nuki=True)


def test_a_hand_in_riichi_sets_aside_only_a_drawn_north() -> None:
    # the dealer waits on 4z or 5z (two pairs): a held north is part of the wait
    hands = ["123p456p789p5z5z4z4z7z", "234s567s19m19p1z2z3z", NUKI_HANDS[2]]
    draws = "1s2s8p1s2s4z"
    state = HandState.arranged(SANMA, hands, draws, replacements=QUIET_BACK, setup=RICH)
    act(state, "0 riichi 7z", "1 discard 1s", "2 discard 2s")
    assert state.drawn == parse_tile("8p") and NUKI_ACTION[0] not in state.legal_actions(0)
    act(state, "0 discard 8p", "1 discard 1s", "2 discard 2s")
    assert state.drawn == NORTH and NUKI_ACTION[0] in state.legal_actions(0)


# ------------------------------------------------------------------------------- dora


def test_the_1m_indicator_makes_9m_dora() -> None:
    hands = ["999m123p456p11s5z5z7z", "234s567s19p1z2z3z4z6z", NUKI_HANDS[2]]
    back = dead_wall("1m4p4p7p7p", "4p7p3s6s6s")
    state = HandState.arranged(SANMA, hands, draws="9p2s5z", replacements=back)
    act(state, "0 discard 7z", "1 discard 9p", "2 discard 2s", "0 win")
    assert patterns(state)["dora"] == 3  # 999m: the 1m indicator points at 9m, not 2m


@pytest.mark.parametrize(("indicator", "dora"), [("1m", "9m"), ("9m", "1m"), ("9p", "1p")])
def test_the_dora_part_names_the_dora_in_sanmas_set(indicator: str, dora: str) -> None:
    back = dead_wall(f"{indicator}4p4p7p7p", "4p7p3s6s6s")
    state = HandState.arranged(SANMA, NUKI_HANDS, replacements=back)
    part = state.part_of(DoraPart)
    assert part is not None and part.dora_kinds() == (parse_tile(dora),)


def test_in_four_player_riichi_1m_still_makes_2m_dora() -> None:
    state = HandState(RIICHI, 7)
    part = state.part_of(DoraPart)
    assert part is not None
    kinds = [dora_kind(parse_tile(t), RIICHI.tile_kinds) for t in ("1m", "9m", "4z", "7z")]
    assert kinds == parse_tiles("2m1m1z5z")
    assert part.dora_kinds() == (dora_kind(part.dora_indicators()[0], RIICHI.tile_kinds),)


def test_a_west_indicator_makes_each_north_set_aside_two_dora() -> None:
    back = dead_wall("3z4p4p7p7p", "4p7p3s6s6s", "5z")
    state = HandState.arranged(SANMA, NUKI_HANDS, replacements=back)
    act(state, "0 nuki 4z", "0 win")
    found = patterns(state)
    assert found["nuki_dora"] == 1 and found["dora"] == 1  # the north set aside, indicated


# ------------------------------------------------------------------------------- payments

RON_HANDS = [
    "123p456p789p5z5z9s9s7z",  # the dealer discards 7z, then 9s
    "11m999m123s456s77z",  # waits on 1m or 7z (7z: yakuhai chun)
    "258p258s369p369s2z",
]


@pytest.mark.parametrize("honba", [0, 2])
def test_a_ron_pays_200_a_honba(honba: int) -> None:
    setup = HandSetup(honba=honba, points=(35000, 35000, 35000))
    state = HandState.arranged(SANMA, RON_HANDS, replacements=QUIET_BACK, setup=setup)
    act(state, "0 discard 7z", "1 win")
    outcome = state.outcome()
    assert outcome is not None
    price = outcome.wins[0].score.points["discarder"]
    assert outcome.deltas == (-price - 200 * honba, price + 200 * honba, 0)


def test_a_self_draw_loses_the_missing_fourth_share_and_pays_100_a_payer_a_honba() -> None:
    setup = HandSetup(honba=1, points=(35000, 35000, 35000))
    state = HandState.arranged(SANMA, RON_HANDS, draws="7z", replacements=QUIET_BACK, setup=setup)
    act(state, "0 discard 9s", "1 win")
    outcome = state.outcome()
    assert outcome is not None and outcome.wins[0].by is WinBy.SELF_DRAW
    points = outcome.wins[0].score.points
    # the dealer's share and one other's: the fourth seat's share is lost (tsumo loss)
    dealer, other = points["dealer"] + 100, points["others"] + 100
    assert outcome.deltas == (-dealer, dealer + other, -other)


def test_tenpai_payments_are_2000_in_all() -> None:
    hands = ["123p456p789p11s5z5z7z", "234s567s19m19p1z2z3z", "258p258s369p369s2z"]
    state = HandState.arranged(SANMA, hands, replacements=QUIET_BACK)
    play_out(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.WALL_DRAW
    assert outcome.ready == (0,) and outcome.deltas == (2000, -1000, -1000)


def test_nagashi_mangan_is_a_mangan_self_draw_with_its_tsumo_loss() -> None:
    from engine.families.riichi.scoring import nagashi, wall_draw_payments

    hands = ["123p456p789p11s5z5z7z", "234s567s19m19p1z2z3z", "258p258s369p369s2z"]
    state = HandState.arranged(SANMA, hands, replacements=QUIET_BACK)
    play_out(state)
    # seat 1's discards as if every one had been a terminal or an honour, none called
    state.ponds[1][:] = parse_tiles("19m19p19s1234567z")
    assert nagashi(state, 1)
    paid = sorted((p.payer, p.payee, p.amount) for p in wall_draw_payments(SANMA, state))
    assert paid == [(0, 1, 4000), (2, 1, 2000)]  # 6,000: no fourth seat pays


def test_a_double_ron_gives_honba_and_pot_to_the_first_winner_in_turn() -> None:
    hands = [*RON_HANDS[:2], "22p33p44s66s88s99s7z"]  # both wait on 7z
    setup = HandSetup(honba=2, pot=1000, points=(35000, 35000, 35000))
    state = HandState.arranged(SANMA, hands, replacements=QUIET_BACK, setup=setup)
    act(state, "0 discard 7z", "1 win", "2 win")
    outcome = state.outcome()
    assert outcome is not None and [w.seat for w in outcome.wins] == [1, 2]
    first, second = outcome.wins
    assert first.deltas[1] == first.score.points["discarder"] + 2 * 200 + 1000
    assert second.deltas[2] == second.score.points["discarder"]  # no honba, no pot
    assert outcome.pot == -1000 and sum(outcome.deltas) + outcome.pot == 0


def test_the_same_first_wind_from_all_three_does_not_abort() -> None:
    hands = ["123p456p789p11s5z1z7z", "234s567s19m19p1z2z3z", "258p258s369p369s1z"]
    state = HandState.arranged(SANMA, hands, draws="9m9m", replacements=QUIET_BACK)
    act(state, "0 discard 1z", "1 discard 1z", "2 discard 1z")
    assert not state.is_over and state.turn == 0


# ------------------------------------------------------------------------------- the game


def test_start_35000_return_40000_uma_20_0_minus_20() -> None:
    assert SANMA.start_points == 35000
    assert [s.score for s in standings(SANMA.game, (50000, 35000, 20000))] == [45.0, -5.0, -40.0]
    # 600 or more rounds away from zero, below toward it; first place takes the rest
    assert [s.score for s in standings(SANMA.game, (45600, 36400, 23000))] == [41.0, -4.0, -37.0]


def test_a_hanchan_of_three_dealers_a_round_extends_into_west_without_40000() -> None:
    rule = SANMA.game
    reached = (41000, 34000, 30000)
    assert game_over(rule, GameProgress(hands=6, dealer_changes=6, points=reached))
    assert not game_over(rule, GameProgress(hands=5, dealer_changes=5, points=reached))
    level = (36000, 35000, 34000)
    assert not game_over(rule, GameProgress(hands=6, dealer_changes=6, points=level))
    assert game_over(rule, GameProgress(hands=9, dealer_changes=9, points=level))
    east = choose(SANMA, {"length": "east"}).game
    assert game_over(east, GameProgress(hands=3, dealer_changes=3, points=reached))
    # below zero ends it at once; the last dealer keeping the deal as the leader at 40,000 stops
    assert game_over(rule, GameProgress(hands=2, dealer_changes=1, points=(71000, 35000, -1000)))
    last = GameProgress(hands=7, dealer_changes=5, points=(30000, 34000, 41000), dealer=2)
    assert not game_over(rule, last)
    assert game_over(rule, replace(last, dealer_kept=True))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_simulate_plays_whole_games(seed: int) -> None:
    hands = list(simulate(SANMA, 200, seed))
    assert 3 <= len(hands) < 200  # the game ended by its rule, not by the count asked
    assert all(len(h.deltas) == 3 for h in hands)


def test_the_simulate_command_plays_a_whole_sanma_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["simulate", "--preset", "sanma", "--hands", "200", "--seed", "1"]) == 0
    lines = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines())
    assert lines["preset"] == "sanma" and lines["players"] == "3"
    assert 3 <= int(lines["hands"].split()[0]) < 200  # the game's end, not the count asked


# ------------------------------------------------------------------------------- random play


def random_player(rng: random.Random):  # type: ignore[no-untyped-def]
    """Takes wins, riichi and nuki most of the time, else any legal action."""

    def choose_one(state: HandState, seat: int) -> Action:
        legal = state.legal_actions(seat)
        eager = [a for a in legal if a.kind in (ActionKind.WIN, RIICHI_KIND, NUKI)]
        return eager[0] if eager and rng.random() < 0.9 else rng.choice(legal)

    return choose_one


@pytest.mark.parametrize("seed", range(6))
def test_random_whole_games_conserve_tiles_and_points(seed: int) -> None:
    rng = random.Random(seed)
    player = random_player(rng)
    session = Session(SANMA, seed)
    nuki = 0
    for _ in range(60):
        state = session.new_hand()
        while not state.is_over:
            seat = state.seats_to_act()[0]
            action = player(state, seat)
            nuki += action.kind is NUKI
            state.apply(action)
            assert sorted(state.tiles_in_play()) == sorted(SANMA.wall)
        outcome = state.outcome()
        assert outcome is not None and sum(outcome.deltas) + outcome.pot == 0
        session.finish_hand(outcome)
        assert sum(session.points) + session.pot == 3 * 35000
        if session.over:
            break
    assert session.over and nuki > 0


def test_a_north_set_aside_is_told_to_the_table_in_each_language() -> None:
    state = HandState.arranged(SANMA, NUKI_HANDS, replacements=NUKI_BACK)
    events = act(state, "0 nuki 4z")
    table: Any = SimpleNamespace(hand=state)

    def told(language: str) -> list[str]:
        return event_lines(table, events, ["A", "B", "C"], language=language)

    # the replacement draw is private: only the north set aside is told
    assert told("en") == ["A sets 4z aside as nuki dora."]
    assert told("zh-CN") == ["A拔北：4z作宝牌。"]
    assert told("zh-TW") == ["A拔北：4z作寶牌。"]


def test_the_norths_set_aside_are_public_facts_on_the_table_picture_and_line() -> None:
    state = HandState.arranged(SANMA, NUKI_HANDS, replacements=NUKI_BACK)
    assert table_facts(state).seat_tiles == ()
    act(state, "0 nuki 4z")
    assert table_facts(state).seat_tiles == (SeatTiles(0, "nuki", (NORTH,)),)
    view = table_view_from_state(state, ["A", "B", "C"])
    label = Text("pictures.set_aside.nuki")
    assert view.seats[0].set_aside == (SetAside(label, (NORTH,)),)
    assert view.seats[1].set_aside == ()
    assert melds_text(view.seats[0], frozenset(), "en") == "Nuki 4z"
    assert melds_text(view.seats[0], frozenset(), "zh-CN") == "拔北 4z"


def test_the_easy_computer_sets_a_north_aside_whenever_it_may_but_wins_first() -> None:
    state = HandState.arranged(SANMA, NUKI_HANDS, replacements=NUKI_BACK)
    assert choose_action(state, 0) == NUKI_ACTION[0]
    act(state, "0 nuki 4z")
    assert choose_action(state, 0).kind is ActionKind.WIN  # the replacement completes it
    # a complete hand holding norths is won, not broken up
    won = HandState.arranged(
        SANMA, ["123p456p789p11s4z4z4z", *NUKI_HANDS[1:]], replacements=NUKI_BACK
    )
    legal = won.legal_actions(0)
    assert NUKI_ACTION[0] in legal and any(a.kind is ActionKind.WIN for a in legal)
    assert choose_action(won, 0).kind is ActionKind.WIN
