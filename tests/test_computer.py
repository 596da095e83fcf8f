"""The strong computer: levels, no peeking, value planning, live tiles, defence, openings."""

from __future__ import annotations

import copy
import random
import sys
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import pytest

from engine import shapes
from engine.actions import Action, ActionKind
from engine.computer import UnknownLevelError, computer_for, decide, strong
from engine.computer.easy import choose_action
from engine.computer.shape_tables import PlanShape
from engine.computer.simulate import play_out, play_session, simulate
from engine.hand import HandState
from engine.presets import PRESETS, find_preset
from engine.rules import AfterWinPart
from engine.seat_view import SeatView
from engine.session import Session
from engine.settlement import pot_change
from engine.tiles import Meld, counts_of, parse_tile, parse_tiles

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import strength  # bench/strength.py: the duplicate-game benchmark

HKOS = find_preset("hkos-3-v1")
PRESET_IDS = sorted(PRESETS)


def test_levels_name_the_easy_and_strong_players() -> None:
    assert computer_for("easy") is choose_action
    assert computer_for("v1") is choose_action
    assert computer_for("strong") is not choose_action
    with pytest.raises(UnknownLevelError, match="known: easy, strong"):
        computer_for("grandmaster")


def test_tables_people_create_seat_the_strong_computer_and_play_offers_it_first() -> None:
    from bot.cli import _parser
    from bot.runtime import LiveTable
    from bot.runtime.computers import DEFAULT_LEVEL
    from data import TableOptions

    assert DEFAULT_LEVEL == "strong"
    assert _parser().parse_args(["play"]).level == "strong"
    assert _parser().parse_args(["simulate", "--preset", HKOS.id]).level == "easy"
    # a table stored before tables named their level was played by the easy computer
    stored = LiveTable(1, HKOS, TableOptions(extra={"seat_count": 4}))
    assert stored.level == "easy" and stored.computer is choose_action


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_strong_players_finish_whole_sessions_legally(preset_id: str) -> None:
    # apply() raises on any illegal action, and play_out on a hand that does not end
    hands = list(play_session(find_preset(preset_id), 3, seed=4, level="strong"))
    assert len(hands) == 3
    # points are conserved, the pot (Riichi's sticks) counted
    assert all(sum(h.outcome.deltas) + pot_change(h.outcome.payments) == 0 for h in hands)


def test_simulate_keeps_the_easy_player_by_default() -> None:
    easy = [h.to_json() for h in simulate(HKOS, 3, seed=2)]
    again = [h.to_json() for h in simulate(HKOS, 3, seed=2, level="easy")]
    assert easy == again
    state = play_out(Session(HKOS, 2).new_hand())
    assert state.log == play_out(Session(HKOS, 2).new_hand(), computer=choose_action).log


def _random_hand(rng: random.Random, man: list[int] | None = None) -> list[int]:
    wall = [k for k in range(34) for _ in range(4)]
    rng.shuffle(wall)
    counts = [0] * 34
    if man is not None:
        counts[:9] = man
        wall = [k for k in wall if k >= 9]
    for tile in wall:
        if sum(counts) == 13:
            break
        counts[tile] += 1
    return counts


def _improving_by_shanten(counts: list[int]) -> tuple[int, ...]:
    now = shapes.shanten(counts)
    found = []
    for kind in range(34):
        if counts[kind] < 4:
            counts[kind] += 1
            if shapes.shanten(counts) < now:
                found.append(kind)
            counts[kind] -= 1
    return tuple(found)


def test_plan_shapes_stay_right_after_the_shape_tables_are_forgotten() -> None:
    # engine.shapes.clear_caches (tests, memory measurements) renumbers the tables whose ids
    # the computer's own caches keep: they must be forgotten with them
    rng = random.Random(7)
    first = [_random_hand(rng) for _ in range(300)]
    for counts in first:
        PlanShape(counts, 4, range(34)).improving([4] * 34)
    shapes.clear_caches()
    # the same characters with other tiles beside them: tables numbered in another order
    for counts in first:
        other = _random_hand(rng, man=counts[:9])
        kinds = PlanShape(other, 4, range(34)).improving([4] * 34)[1]
        assert kinds == _improving_by_shanten(other)


def _scrambled(state: HandState, seat: int, rng: random.Random) -> HandState:
    """A copy in which every tile `seat` cannot see (others' concealed tiles, the wall) is
    dealt again at random, each hand keeping its size: only hidden facts differ."""
    other = copy.deepcopy(state)
    hidden = [s for s in range(4) if s != seat and not other.require(AfterWinPart).locked[s]]
    pool = [t for s in hidden for t in other.hands[s]] + other.wall[other.front : other.back]
    rng.shuffle(pool)
    for s in hidden:
        size = len(other.hands[s])
        other.hands[s] = pool[:size]
        pool = pool[size:]
    other.wall[other.front : other.back] = pool
    return other


@pytest.mark.parametrize("preset_id", ["hkos-3-v1", "bloodflow-swap3", "sichuan-bb"])
def test_the_choice_depends_only_on_what_the_seat_can_see(preset_id: str) -> None:
    rng = random.Random(preset_id)
    state = HandState(find_preset(preset_id), seed=21)
    choose = computer_for("strong")
    checked = 0
    while not state.is_over:
        seat = state.seats_to_act()[0]
        if state.phase.value != "opening":
            other = _scrambled(state, seat, rng)
            assert [other.hands[s] for s in range(4)] != [state.hands[s] for s in range(4)]
            assert SeatView.of(other, seat) == SeatView.of(state, seat)
            assert choose(other, seat) == choose(state, seat)
            checked += 1
        state.apply(choose(state, seat))
    assert checked > 20


# ---------------------------------------------------------------------------- value planning


def _claim_state(seat1: str, discard: str) -> HandState:
    """hkos: the dealer discards `discard` (its 14th tile) and seat 1 holds `seat1`."""
    state = HandState.arranged(
        HKOS,
        [
            "234p678p234s678s3z" + discard,
            seat1,
            "5m5m8m8m3p3p5p5p9p9p1s1s4z",
            "1m2m3m7m7m9m9m4s4s7z7z6z6z",
        ],
    )
    state.apply(Action(0, ActionKind.DISCARD, (parse_tile(discard),)))
    return state


def test_a_call_that_leaves_no_way_to_the_minimum_is_declined() -> None:
    # after pung 555s the hand is ready but worthless: a man hand, a north wind, no flower
    # can never make three faan beside the s pung, so the call kills it
    state = _claim_state("12345678m4z5566s", "5s")
    assert any(a.kind is ActionKind.PUNG for a in state.legal_actions(1))
    assert choose_action(state, 1).kind is ActionKind.PUNG  # today's player calls it
    assert computer_for("strong")(state, 1).kind is ActionKind.PASS


def test_a_dragon_pung_towards_a_half_flush_is_called() -> None:
    state = _claim_state("1234567m89m55z9p1s", "5z")
    assert computer_for("strong")(state, 1).kind is ActionKind.PUNG


def _view(hand: str, **changes: object) -> SeatView:
    """A seat-0 hkos view on its own turn with `hand` (14 tiles) and nothing else seen."""
    tiles = sorted(parse_tiles(hand))
    counts = counts_of(tiles)
    legal = tuple(Action(0, ActionKind.DISCARD, (t,)) for t in sorted(set(tiles)))
    view = SeatView(
        preset=HKOS,
        seat=0,
        seat_count=4,
        phase="turn",
        legal=legal,
        hand=tuple(tiles),
        counts=tuple(counts),
        drawn=tiles[-1],
        removed=(),
        melds=((), (), (), ()),
        ponds=((), (), (), ()),
        bonus=((), (), (), ()),
        void=(None, None, None, None),
        left=(False,) * 4,
        locked=(False,) * 4,
        revealed=((), (), (), ()),
        claim_tile=None,
        claim_from=None,
        wall_left=60,
        round_wind=0,
        points=(0, 0, 0, 0),
        visible=tuple(counts),
    )
    return replace(view, **changes)


def test_a_discard_keeps_a_hand_that_can_reach_the_minimum() -> None:
    # 9p or 1s keep the shape; only dropping the 1s keeps a one-suit-and-honours hand in reach
    view = _view("1234567m89m556z9p1s")
    choice = strong.choose(view)
    assert choice.tile in (parse_tile("1s"), parse_tile("9p"))
    player = decide.Player(view)
    counts = list(view.counts)
    counts[parse_tile("6z")] -= 1
    kept_flush = player.worth(counts, ())
    counts[parse_tile("6z")] += 1
    counts[parse_tile("1m")] -= 1
    broke_run = player.worth(counts, ())
    assert kept_flush > broke_run


def test_a_dead_ready_hand_is_worth_less_than_a_live_one_step_away() -> None:
    player = decide.Player(_view("123m456p789s234s11p"))
    dead_ready = counts_of(parse_tiles("111m456p789s234s1p"))  # no way to three faan
    live_far = counts_of(parse_tiles("1234567m89m55z1p1s"))  # a half flush with a dragon pair
    assert player.worth(dead_ready, ()) < player.worth(live_far, ())


def test_live_tiles_exclude_the_ones_this_seat_can_see() -> None:
    hand = counts_of(parse_tiles("123m456p789s11z46m"))  # waits on 5m only
    shape = PlanShape(hand, 4, range(34))
    unseen = [4] * 34
    assert shape.improving(unseen) == (4, (parse_tile("5m"),))
    unseen[parse_tile("5m")] = 1
    assert shape.improving(unseen)[0] == 1


def test_a_plan_shanten_counts_only_the_kept_tiles() -> None:
    hand = counts_of(parse_tiles("123m456m789m11p22s3z"))
    assert PlanShape(hand, 4, range(34)).shanten == 0
    assert PlanShape(hand, 4, range(0, 9)).shanten == 4
    pungs = counts_of(parse_tiles("111m234m11p22s3z"))
    assert PlanShape(pungs, 3, range(34), chows=False).shanten == 2


# ---------------------------------------------------------------------------- defence


def test_tiles_of_an_opponents_void_suit_are_safe_against_it() -> None:
    sichuan = find_preset("sichuan-bb")
    pond = tuple(parse_tiles("1m2m9m1p9p3m1m8m9m2m1p3m"))
    view = _view(
        "1122334455667m",
        preset=sichuan,
        void=("p", "s", "s", "s"),
        ponds=((), pond, (), ()),
        wall_left=20,
    )
    danger = decide.Player(view).dangers()
    assert danger[parse_tile("5m")] > 0
    # seat 1 has voided s: an s tile could never complete its hand
    view = replace(view, counts=tuple(counts_of(parse_tiles("1122334455667s"))))
    assert decide.Player(view).dangers()[parse_tile("5s")] == 0


def test_an_honour_with_every_other_copy_visible_is_safe() -> None:
    pond = tuple(parse_tiles("1m2m9m1p9p3m1m8m9m2m1p3m"))
    hand = "1234567m89m556z9p"
    seen = list(counts_of(parse_tiles(hand)))
    seen[parse_tile("5z")] = 4
    ponds = ((), pond, (), ())
    melds = ((), (Meld.parse("pung 777z"),), (), ())
    view = _view(hand, ponds=ponds, visible=tuple(seen), melds=melds)
    danger = decide.Player(view).dangers()
    assert danger[parse_tile("5z")] == 0
    assert danger[parse_tile("6z")] > 0


def test_a_revealed_blood_flow_hand_makes_its_waits_dangerous() -> None:
    flow = find_preset("bloodflow-swap3")
    waiting = tuple(parse_tiles("123m456m789m11s46m"))  # waits on 5m
    view = _view(
        "1122334455667s",
        preset=flow,
        void=("p", "p", "s", "s"),
        locked=(False, True, False, False),
        revealed=((), waiting, (), ()),
    )
    danger = decide.Player(view).dangers()
    assert danger[parse_tile("5m")] > 0
    assert danger[parse_tile("5s")] == 0


# ---------------------------------------------------------------------------- openings


def test_the_void_is_the_weakest_suit_and_the_swap_gives_it_away() -> None:
    swap3 = find_preset("sichuan-swap3")
    hand = "1234567m11223p58s"
    void_view = _view(
        hand,
        preset=swap3,
        phase="opening",
        legal=tuple(Action(0, ActionKind.VOID, suit=s) for s in "mps"),
    )
    assert strong.choose(void_view).suit == "s"
    # as the engine offers them: every three tiles of one suit holding three or more
    tiles = sorted(parse_tiles(hand))
    picks = set()
    for suit in range(3):
        picks.update(combinations([t for t in tiles if t // 9 == suit], 3))
    swap_view = replace(
        void_view, legal=tuple(Action(0, ActionKind.SWAP, p) for p in sorted(picks))
    )
    choice = strong.choose(swap_view)
    # the pinzu is the weakest suit with three tiles; its 3p is the loosest and goes
    assert choice.kind is ActionKind.SWAP and all(t // 9 == 1 for t in choice.tiles)
    assert parse_tile("3p") in choice.tiles


# ---------------------------------------------------------------------------- the benchmark


class _EndState:
    """What bench/strength.py's referee reads of a finished hand, for one seat."""

    def __init__(self, hand: str, melds: list[str], bonus: list[int]) -> None:
        self.preset = HKOS
        self.round_wind = 0
        self._counts = counts_of(parse_tiles(hand))
        self.melds = [[Meld.parse(m) for m in melds]] * 4
        self.bonus = [bonus] * 4

    def tile_counts(self, seat: int) -> list[int]:
        return list(self._counts)

    def part_of(self, kind: type) -> None:
        return None  # no void suit, nor any other rule's part


def test_the_benchmark_calls_the_issues_example_dead() -> None:
    # 11123345m66s with pung 555s and someone else's flower: no wait reaches three faan
    dead = _EndState("11123345m66s", [], [])
    dead.melds = [[Meld.parse("pung 555s")]] * 4
    dead.bonus = [[35]] * 4  # flower 2: seat 1's, not seat 0's
    assert strength.hand_verdict(dead, 0) == "dead"  # type: ignore[arg-type]
    own_flowers = _EndState("11123345m66s", ["pung 555s"], [34, 38])  # seat 0's own two
    assert strength.hand_verdict(own_flowers, 0) == "live"  # type: ignore[arg-type]
    far = _EndState("1357m2468p13579s", [], [])
    assert strength.hand_verdict(far, 0) == "far"  # type: ignore[arg-type]


def _win_offer(preset_id: str, wall_left: int) -> SeatView:
    """Seat 0 may win on seat 3's 1s with 123m456m789m11s22s (waits 1s and 2s)."""
    hand = sorted(parse_tiles("123m456m789m11s22s"))
    seen = list(counts_of(hand))
    seen[parse_tile("1s")] += 1
    return replace(
        _view("123m456m789m11s22s4s"),
        preset=find_preset(preset_id),
        phase="claims",
        legal=(Action(0, ActionKind.PASS), Action(0, ActionKind.WIN)),
        hand=tuple(hand),
        counts=tuple(counts_of(hand)),
        drawn=None,
        ponds=((), (), (), (parse_tile("1s"),)),
        void=("p", "m", "m", "m"),
        claim_tile=parse_tile("1s"),
        claim_from=3,
        wall_left=wall_left,
        visible=tuple(seen),
    )


def test_a_blood_battle_win_on_a_discard_is_passed_early_for_a_self_draw() -> None:
    # a self draw pays twice the points from each of three; the hand stays ready after a pass
    assert strong.choose(_win_offer("sichuan-bb", 40)).kind is ActionKind.PASS
    # with one draw left the discard win is the surer money
    assert strong.choose(_win_offer("sichuan-bb", 4)).kind is ActionKind.WIN
    # a blood-flow winner stays and keeps winning: take it at once
    assert strong.choose(_win_offer("bloodflow-swap3", 40)).kind is ActionKind.WIN
    # and where the winner's hand ends the deal, as in hkos, the win is always taken
    assert strong.choose(_win_offer("hkos-3-v1", 40)).kind is ActionKind.WIN


def test_a_hand_one_away_is_valued_by_the_ready_hands_it_leads_to() -> None:
    player = decide.Player(_view("123m456p789s234s11p"))
    # the pung of 1m rules out all chows: with no flower these ready hands stay below three faan
    dead = counts_of(parse_tiles("111m456p789s55p19s"))
    # the same with a dragon pair: a third red dragon makes every ready hand worth three
    live = counts_of(parse_tiles("111m456p789s55z19s"))
    assert player.one_away_worth(dead, ()) == 0
    assert player.one_away_worth(live, ()) > 0
    assert player.worth(live, ()) > player.worth(dead, ())
