"""Rule components (engine.rules), seats as data and settlement as payments.

Each hook point the coming presets need is proven here on a test-only preset (tests/
rule_presets.py): a dead wall, tiles set aside, a last-draw phase, pass rules, wild tiles, fixed
kong tiles, an open hand to win; and whole hands at 2 and 3 seats.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action, ActionKind
from engine.computer.easy import choose_action
from engine.computer.simulate import play_out, play_session, simulate
from engine.hand import HandState, Phase, Termination
from engine.presets import PRESETS, Preset
from engine.rules import OpenHandToWin, OpeningsPart, PassPart
from engine.scoring.base import WinBy
from engine.session import Session
from engine.settlement import Payment, Reason, deltas_of
from engine.tiles import Meld, MeldKind, parse_tile, parse_tiles
from tests.hands import act
from tests.rule_presets import (
    DEAD_WALL,
    DUO_FLOW,
    HORSE,
    SET_ASIDE,
    SMALL_HK,
    TEST_PRESETS,
    TRIO_BLOOD,
    WILD_KONGS,
)

EVERY_TABLE = [
    (preset, count) for preset in (*PRESETS.values(), *TEST_PRESETS) for count in preset.seat_counts
]
TABLE_IDS = [f"{preset.id}@{count}" for preset, count in EVERY_TABLE]


def kinds(state: HandState, seat: int) -> set[str]:
    return {a.kind.value for a in state.legal_actions(seat)}


# ------------------------------------------------------------------------------- the loop


def test_hand_state_keeps_no_rule_specific_state_of_its_own() -> None:
    """Void suits, leaving and locked winners, removed tiles and the swap live in parts."""
    for preset in PRESETS.values():
        own = set(vars(HandState(preset, 3)))
        assert not own & {"void", "left", "locked", "removed", "won_tiles", "swap_direction"}
        assert "opening_stage" not in own
        for name in ("void", "left", "locked", "won_tiles", "removed", "opening_stage"):
            assert not hasattr(HandState, name)  # the parts hold them: state.part_of(...)


# ------------------------------------------------------------------------------- seats


@pytest.mark.parametrize("count", [2, 3, 4])
def test_a_hand_deals_to_the_seats_the_table_has(count: int) -> None:
    state = HandState(SMALL_HK, 7, seat_count=count)
    assert state.seat_count == count and len(state.hands) == count
    assert [len(h) for h in state.hands] == [14] + [13] * (count - 1)
    play_out(state)
    outcome = state.outcome()
    assert outcome is not None and len(outcome.deltas) == count and sum(outcome.deltas) == 0


def test_a_preset_refuses_a_table_size_it_does_not_seat() -> None:
    with pytest.raises(ValueError, match="seats 4 players, not 3"):
        HandState(PRESETS["hkos-3-v1"], 1, seat_count=3)
    with pytest.raises(ValueError, match="seats 3 players"):
        Session(TRIO_BLOOD, 1, seat_count=4)
    assert Session(TRIO_BLOOD, 1).seat_count == 3


@pytest.mark.parametrize(("preset", "count"), [(TRIO_BLOOD, 3), (DUO_FLOW, 2), (SMALL_HK, 3)])
def test_small_tables_play_whole_sessions(preset: Preset, count: int) -> None:
    session = Session(preset, 4, seat_count=count)
    hands = list(play_session(preset, 12, 4, count))
    assert all(len(h.outcome.deltas) == count for h in hands)
    assert all(0 <= h.dealer < count for h in hands)
    for played in hands:
        session.finish_hand(played.outcome)
    assert len(session.points) == count and sum(session.points) == 0
    assert len(list(simulate(preset, 3, 4, count))) == 3


def test_the_swap_at_three_seats_moves_one_or_two_seats_on() -> None:
    directions = set()
    for seed in range(12):
        state = HandState(TRIO_BLOOD, seed)
        while state.phase is Phase.OPENING and state.require(OpeningsPart).stage == 0:
            act(state, str(choose_action(state, state.seats_to_act()[0])))
        directions.add(state.require(OpeningsPart).swap_direction)
    assert directions == {1, 2}


# ------------------------------------------------------------------------------- properties


def check_invariants(state: HandState) -> None:
    assert Counter(state.tiles_in_play()) == Counter(state.preset.wall), state.describe()
    assert sum(state.points) + state.pot_change == 0  # the seats and the pot conserve points
    assert deltas_of(state.payments, state.seat_count) == state.points
    if not state.is_over:
        assert all(state.legal_actions(seat) for seat in state.seats_to_act())


@pytest.mark.parametrize(("preset", "count"), EVERY_TABLE, ids=TABLE_IDS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), picks=st.data(), smart=st.booleans())
def test_every_table_conserves_tiles_sums_to_zero_and_replays(
    preset: Preset, count: int, seed: int, picks: st.DataObject, smart: bool
) -> None:
    live = HandState(preset, seed, seat_count=count)
    check_invariants(live)
    while not live.is_over:
        seat = picks.draw(st.sampled_from(live.seats_to_act()))
        legal = live.legal_actions(seat)
        live.apply(choose_action(live, seat) if smart else picks.draw(st.sampled_from(legal)))
        check_invariants(live)
    again = HandState.replay(preset, seed, [str(a) for a in live.log], seat_count=count)
    assert (again.hands, again.melds, again.ponds) == (live.hands, live.melds, live.ponds)
    assert again.outcome() == live.outcome()
    outcome = live.outcome()
    assert outcome is not None and list(outcome.deltas) == deltas_of(outcome.payments, count)


# ------------------------------------------------------------------------------- payments


def test_payments_are_one_way_and_sum_to_the_deltas() -> None:
    with pytest.raises(ValueError):
        Payment(1, 1, 4, Reason.WIN)
    with pytest.raises(ValueError):
        Payment(1, 2, -4, Reason.WIN)
    reasons: set[Reason] = set()
    for played in play_session(PRESETS["sichuan-bb"], 40, 2):
        outcome = played.outcome
        reasons |= {p.reason for p in outcome.payments}
        assert list(outcome.deltas) == deltas_of(outcome.payments, 4)
        state = played.state
        assert state.kong_points == outcome.paid_for(Reason.KONG)
        assert state.draw_points == outcome.paid_for(Reason.FLOWER_PIG, Reason.NOT_READY)
        for win in outcome.wins:
            assert sum(d for d in win.deltas if d > 0) == win.deltas[win.seat]
    assert {Reason.WIN, Reason.KONG, Reason.NOT_READY} <= reasons


# ------------------------------------------------------------------------------- the wall


def test_a_dead_wall_is_never_drawn() -> None:
    for seed in range(6):
        state = play_out(HandState(DEAD_WALL, seed))
        outcome = state.outcome()
        assert outcome is not None
        if not outcome.wins:
            assert outcome.termination is Termination.WALL_DRAW
            assert state.wall_left == 0 and state.back - state.front == 16


def test_tiles_set_aside_at_the_deal_stay_out_of_play() -> None:
    state = HandState(SET_ASIDE, 9)
    shuffled = HandState(SMALL_HK, 9).wall
    assert state.set_aside == shuffled[-4:][::-1]  # taken from the back, last tile first
    play_out(state)
    assert state.set_aside == shuffled[-4:][::-1]
    assert Counter(state.tiles_in_play()) == Counter(SET_ASIDE.wall)


@pytest.mark.parametrize("count", [2, 3, 4])
def test_in_the_last_draws_each_seat_draws_once_and_may_only_win(count: int) -> None:
    reached = 0
    slower = replace(WILD_KONGS, chow=False)  # chows from every discard end 2-seat hands early
    for seed in range(12):
        state = HandState(slower, seed, seat_count=count)
        in_last_draws = False
        while not state.is_over:
            seat = state.seats_to_act()[0]
            if state.phase is Phase.TURN and state.wall_left < 14:
                in_last_draws = True
                assert kinds(state, seat) <= {"win", "pass"}, state.describe()
            state.apply(choose_action(state, seat))
        outcome = state.outcome()
        assert outcome is not None
        reached += in_last_draws
        if in_last_draws and not outcome.wins:
            assert state.wall_left == 14 - count  # every seat drew one tile and kept it
        if in_last_draws and outcome.wins and outcome.termination is Termination.WIN:
            assert outcome.wins[-1].by is WinBy.SELF_DRAW
    assert reached


# ------------------------------------------------------------------------------- calls

# seat 1 waits on 5p alone; the others call nothing on 5p
PASS_HANDS = [
    "234s678s234m678m3z" + "5p",
    "123m456m789m123p5p",
    "11s99s44z19p33m77m8p",
    "22s55s66z28p44m99m1p",
]


def test_a_passed_win_blocks_that_tile_until_the_own_discard() -> None:
    state = HandState.arranged(DEAD_WALL, PASS_HANDS, draws="5p5p")
    act(state, "0 discard 5p")
    assert state.seats_to_act() == [1] and "win" in kinds(state, 1)
    act(state, "1 pass")
    # seat 1 draws the 5p itself: a complete hand, but the passed tile is blocked
    assert state.turn == 1 and state.drawn == parse_tile("5p")
    assert "win" not in kinds(state, 1)
    act(state, "1 discard 5p")
    while state.phase is Phase.CLAIMS:
        act(state, f"{state.seats_to_act()[0]} pass")
    part = state.part_of(PassPart)
    assert part is not None and not part.blocked[1]
    act(state, "2 discard 5p")  # after its own discard seat 1 may win on 5p again
    assert "win" in kinds(state, 1)


# seat 2 holds pairs of 8s and 9s; seat 1 calls nothing on them
PUNG_HANDS = [
    "123m456m789m11p36p" + "9s",
    "234m567m2p4p6p8p1s3s7s",
    "88s99s123p456p78m9m",
    "1m2m3m4m6m7m1p6p8p2s4s5s6s",
]


def test_a_passed_pung_blocks_every_pung_until_the_own_draw() -> None:
    state = HandState.arranged(WILD_KONGS, PUNG_HANDS, draws="8s3m8s")
    act(state, "0 discard 9s")
    assert state.seats_to_act() == [2] and "pung" in kinds(state, 2)
    act(state, "2 pass")
    act(state, "1 discard 8s")  # the drawn 8s: seat 2 may not pung it
    assert state.phase is Phase.TURN and state.turn == 2
    act(state, "2 discard 3m")  # seat 2 drew: the block is over
    while state.phase is Phase.CLAIMS:
        act(state, f"{state.seats_to_act()[0]} pass")
    assert state.turn == 3
    act(state, "3 discard 8s")
    assert "pung" in kinds(state, 2)


def test_wild_tiles_are_never_claimed_nor_part_of_a_call_or_kong() -> None:
    hands = ["5p5p5p5p" + "123m456m789m1s", "4p7p8p" + "234m678m3s5s7s9s", *PUNG_HANDS[2:]]
    hands[2] = "88s99s123p66p78m9m1s"
    state = HandState.arranged(WILD_KONGS, hands)
    assert "concealed_kong" not in kinds(state, 0)
    act(state, "0 discard 5p")  # nobody may claim a wild
    assert state.phase is Phase.TURN and state.turn == 1
    state = HandState.arranged(WILD_KONGS, ["6p5p5p5p" + "123m456m789m" + "5p", *hands[1:]])
    act(state, "0 discard 6p")
    chows = {a.tiles for a in state.legal_actions(1) if a.kind is ActionKind.CHOW}
    assert chows == {tuple(parse_tiles("678p"))}  # 456p would use the wild 5p


def test_a_fixed_kong_tile_is_set_down_replaced_and_blocks_a_win() -> None:
    only_fixed = replace(WILD_KONGS, rules=WILD_KONGS.rules[:1])
    hands = ["123m456m789m123p77z", "4p7p8p234m678m3s5s7s9s", *PUNG_HANDS[2:]]
    state = HandState.arranged(only_fixed, hands, replacements="9p")
    assert "win" not in kinds(state, 0)  # a complete shape, but it holds red dragons
    assert "win" in kinds(HandState.arranged(replace(only_fixed, rules=()), hands), 0)
    events = state.apply(Action.parse("0 discard 7z"))
    assert [e.kind for e in events][:2] == ["fixed_kong", "draw"]
    assert state.turn == 0 and state.phase is Phase.TURN and not state.ponds[0]
    assert state.drawn == parse_tile("9p") and len(state.hands[0]) == 14
    assert Counter(state.tiles_in_play()) == Counter(only_fixed.wall)


def test_only_an_open_hand_may_win() -> None:
    open_only = replace(WILD_KONGS, rules=(OpenHandToWin(),), last_draws=0)
    hands = ["123m456m789m123p99s", "4p7p8p234m678m3s5s7s6s", *PUNG_HANDS[2:]]
    state = HandState.arranged(open_only, hands)
    assert "win" not in kinds(state, 0)
    assert "win" in kinds(HandState.arranged(replace(open_only, rules=()), hands), 0)
    part = state.parts[-1]
    counts = state.tile_counts(0)
    state.melds[0].append(Meld(MeldKind.CONCEALED_KONG, (0,) * 4))
    assert not part.may_win(0, counts, 0, WinBy.SELF_DRAW)  # a concealed kong keeps it closed
    state.melds[0].append(Meld(MeldKind.PUNG, (1,) * 3, 1, 2))
    assert part.may_win(0, counts, 0, WinBy.SELF_DRAW)


def test_a_replayed_hand_has_parts_equal_to_the_live_ones() -> None:
    live = play_out(HandState(TRIO_BLOOD, 8))
    again = HandState.replay(TRIO_BLOOD, 8, live.log)
    assert again.parts == live.parts
    assert HandState(TRIO_BLOOD, 9).parts != live.parts


def test_a_settling_rule_turns_a_win_into_more_payments() -> None:
    """RULES.md's horse example: dealer E, horse S, S self-draws at 1 fan: E, W, N pay S 2 each;
    mirrored, W and N pay E 2 each: E +2, S +6, W -4, N -4."""
    hands = [
        "234s678s234m678m9s" + "9p",
        "123m456m789m123p5p",
        "11s99s55s19p33m77m8p",
        "22s66s44p28p44m99m1p",
    ]
    state = HandState.arranged(HORSE, hands, draws="5p")
    act(state, "0 discard 9p", "1 win")
    outcome = state.outcome()
    assert outcome is not None and outcome.wins[0].score.fan == 1
    assert outcome.deltas == (2, 6, -4, -4)
    assert outcome.paid_for(Reason.HORSE) == [4, 0, -2, -2]
    assert outcome.wins[0].deltas == outcome.deltas
