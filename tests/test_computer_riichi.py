"""The strong computer at the Riichi presets: yaku first, riichi or dama, defence, placement.

Positions are arranged on the Preset objects `RIICHI` and `RIICHI_MAJSOUL` directly (they are
not in PRESETS while in development).
"""

from __future__ import annotations

import copy
import json
import random
import sys
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from engine.actions import Action, ActionKind
from engine.computer import computer_for, decide, knows, strong
from engine.computer.on_kinds import as_kinds, physical_action
from engine.computer.simulate import play_out
from engine.families.riichi.advice import danger, declare, dora_of, stakes, wait_chances
from engine.families.riichi.presets import RIICHI, RIICHI_MAJSOUL
from engine.families.riichi.rules import RIICHI as RIICHI_KIND
from engine.hand import HandState
from engine.hand_setup import HandSetup
from engine.rules import kong_keeps_waits
from engine.seat_view import SeatView
from engine.session import Session
from engine.tiles import (
    Meld,
    MeldKind,
    counts_of,
    format_tiles,
    is_red,
    parse_tile,
    parse_tiles,
    tile_name,
)

# the other seats' deals, of tiles the positions below leave free
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import strength  # bench/strength.py: the duplicate-game benchmark

FILL = ["2p2p2p3p3p3p4s4s4s5s5s5s4z", "6p6p6p7p7p7p6s6s6s7s7s7s4z", "8p8p8p9p9p9p1p1p1p8s8s8s4z"]
OFFER_FILL = ["2p2p2p8p8p8p2s2s2s8s8s8s6z", "3p3p3p7p7p7p3s3s3s7s7s7s1z"]


def t(text: str) -> int:
    return parse_tile(text)


def test_the_strong_computer_knows_riichi() -> None:
    assert knows(RIICHI)
    assert [dora_of(t(i)) for i in ("1m", "9m", "4z", "7z", "5z")] == [
        t(d) for d in ("2m", "1m", "1z", "5z", "6z")
    ]


@pytest.mark.parametrize("preset", [RIICHI, RIICHI_MAJSOUL], ids=lambda p: p.id)
def test_strong_players_finish_riichi_hands_legally(preset: object) -> None:
    session = Session(preset, seed=4)  # type: ignore[arg-type]
    strong_player = computer_for("strong")
    for _ in range(4):
        state = play_out(session.new_hand(), computer=strong_player)
        outcome = state.outcome()
        assert outcome is not None
        session.finish_hand(outcome)


# ---------------------------------------------------------------------------- yaku first


def _offered(seat1: str, discard: str) -> HandState:
    """The dealer discards `discard` (its 14th tile); seat 1 (South) holds `seat1`."""
    state = HandState.arranged(RIICHI, ["4m4m4m6m6m6m7m7m7m8m8m9m9m" + discard, seat1, *OFFER_FILL])
    state.apply(Action(0, ActionKind.DISCARD, (t(discard),)))
    return state


def _choice(state: HandState, seat: int) -> Action:
    choice = computer_for("strong")(state, seat)
    assert choice in state.legal_actions(seat)
    return choice


def test_a_pon_that_leaves_no_yaku_is_declined() -> None:
    # pon 1m: 234p 678s 99m, West and North singles: no yaku can follow (no tanyao with 1m, no
    # valued honour, no flush), so the hand would be dead; closed it can still riichi
    state = _offered("1m1m2p3p4p6s7s8s9m9m3z4z5s", "1m")
    assert ActionKind.PUNG in {a.kind for a in state.legal_actions(1)}
    assert _choice(state, 1).kind is ActionKind.PASS


def test_a_pon_of_a_dragon_is_taken() -> None:
    # a white dragon pung is a yaku and brings the hand one step nearer
    state = _offered("5z5z2m3m4m6p7p8p3s4s9s9s1p", "5z")
    assert _choice(state, 1).kind is ActionKind.PUNG


def test_an_open_hand_keeps_its_way_to_tanyao() -> None:
    # after chi 678s no plain hand pays (no yaku): tanyao (or a flush of the chi's suit) must
    state = _offered("2m3m4m5m5p5p6p7p1p3s4s6s7s", "8s")
    chi = next(a for a in state.legal_actions(1) if a.kind is ActionKind.CHOW)
    player = decide.Player(SeatView.of(state, 1))
    counts = list(state.tile_counts(1))
    for tile in (t("6s"), t("7s")):
        counts[tile] -= 1
    melds = (Meld(MeldKind.CHOW, chi.tiles, t("8s"), 0),)
    plans = player._paying_plans(counts, melds, player.plans(counts, melds), 0)
    names = [plan.name for _, plan, _ in plans]
    assert "any" not in names and "simples" in names


# ---------------------------------------------------------------------------- riichi or dama


def _dealer(hand: str) -> SeatView:
    return SeatView.of(HandState.arranged(RIICHI, [hand, *FILL]), 0)


def test_riichi_is_declared_on_a_ready_hand_with_no_yaku() -> None:
    # 123m 456p 789s 11s 57m: the 6m closed wait has no yaku without riichi
    view = _dealer("1m2m3m4p5p6p7s8s9s1s1s5m7m3z")
    assert declare(view, t("3z"))
    choice = strong.choose(view)
    assert choice.kind is RIICHI_KIND and choice.tiles == (t("3z"),)


def test_a_big_hand_stays_quiet() -> None:
    # 123 456 789m, 555z, the 1z single: honitsu, ittsu, white dragon (6 han) without riichi
    view = _dealer("1m2m3m4m5m6m7m8m9m5z5z5z1z2z")
    assert not declare(view, t("2z"))
    assert strong.choose(view).kind is ActionKind.DISCARD


def test_no_riichi_when_every_winning_tile_is_seen() -> None:
    view = _dealer("1m2m3m4p5p6p7s8s9s1s1s5m7m3z")
    seen = list(view.visible)
    seen[t("6m")] = 4
    assert not declare(replace(view, visible=tuple(seen)), t("3z"))


# ---------------------------------------------------------------------------- defence


def test_genbutsu_is_safe_and_suji_kabe_and_one_chance_thin_the_danger() -> None:
    unseen = [4] * 34
    plain = wait_chances(frozenset(), unseen)
    assert plain[t("5m")] > plain[t("3m")] > plain[t("1m")] > 0
    suji = wait_chances(frozenset({t("2m"), t("8m")}), unseen)
    assert suji[t("5m")] < 0.5 * plain[t("5m")]
    assert wait_chances(frozenset({t("5m")}), unseen)[t("5m")] == 0
    kabe = list(unseen)
    kabe[t("7p")] = 0  # every 7p seen: no 78p or 79p... shape waits on 9p or 8p
    assert wait_chances(frozenset(), kabe)[t("9p")] < plain[t("9p")] * 0.5
    one = list(unseen)
    one[t("7p")] = 1
    assert kabe[t("7p")] == 0
    assert wait_chances(frozenset(), kabe)[t("9p")] < wait_chances(frozenset(), one)[t("9p")]
    assert wait_chances(frozenset(), one)[t("9p")] < plain[t("9p")]
    honours = list(unseen)
    honours[t("1z")], honours[t("2z")] = 0, 1
    chances = wait_chances(frozenset(), honours)
    assert chances[t("1z")] == 0 < chances[t("2z")] < plain[t("3z")]


def _facing_riichi(hand: str, safe: str) -> SeatView:
    """The dealer on its own turn with `hand`; seat 2 declared riichi and discarded `safe`."""
    view = _dealer(hand)
    ponds = list(view.ponds)
    ponds[2] = tuple(parse_tiles(safe))
    seen = list(view.visible)
    for tile in ponds[2]:
        seen[tile] += 1
    return replace(
        view,
        ponds=tuple(ponds),
        visible=tuple(seen),
        riichi_at=(-1, -1, 0, -1),
        after_riichi=((), (), (), ()),
    )


def test_a_far_hand_folds_against_a_riichi() -> None:
    # a scattered hand facing a riichi: the riichi's own discard (9s) is the safe tile; without
    # the riichi a far hand would throw an isolated terminal or honour first
    hand = "1m4m7m2p5p8p3s6s9s1z2z5z6z7z"
    view = _facing_riichi(hand, "9s")
    assert strong.choose(view).tiles == (t("9s"),)
    assert danger(view, 2, [4 - v for v in view.visible]) is not None


def test_a_ready_valuable_hand_pushes_against_a_riichi() -> None:
    # ready on 47m for white dragon and half flush: the 4s goes although it is not safe, where
    # the riichi's own 5m would break the hand
    hand = "5z5z5z1m2m3m4m5m6m8m8m6m7m4s"
    view = _facing_riichi(hand, "5m")
    assert strong.choose(view).tiles == (t("4s"),)


def test_the_last_hand_raises_the_leaders_stakes_and_lowers_the_last_places() -> None:
    view = _dealer("1m2m3m4p5p6p7s8s9s1s1s5m7m3z")
    last = HandSetup(dealer=3, round_wind=1, points=(40000, 20000, 20000, 20000))
    assert stakes(replace(view, setup=last)) > 1
    behind = HandSetup(dealer=3, round_wind=1, points=(10000, 30000, 30000, 30000))
    assert stakes(replace(view, setup=behind)) < 1
    earlier = HandSetup(dealer=2, round_wind=1, points=(40000, 20000, 20000, 20000))
    assert stakes(replace(view, setup=earlier)) == 1


# ---------------------------------------------------------------------------- what a seat sees


def test_a_seat_view_shows_each_riichi_and_the_tiles_passed_since() -> None:
    state = HandState(RIICHI, seed=4)
    choose = computer_for("strong")
    while not state.is_over:
        seat = state.seats_to_act()[0]
        state.apply(choose(state, seat))
        declared = [a for a in state.log if a.kind is RIICHI_KIND]
        if (
            declared
            and state.phase.value == "turn"
            and len(state.log) > state.log.index(declared[0]) + 4
        ):
            break
    assert declared, "seed 4 has a riichi"
    riichi = declared[0]
    view = SeatView.of(state, (riichi.seat + 1) % 4)
    index = view.riichi_at[riichi.seat]
    assert view.ponds[riichi.seat][index] % 34 == riichi.tiles[0] % 34 or is_red(riichi.tiles[0])
    later = state.log[state.log.index(riichi) + 1 :]
    passed = [a.tiles[0] for a in later if a.kind is ActionKind.DISCARD and a.seat != riichi.seat]
    assert list(view.after_riichi[riichi.seat]) == [counts_of([p]).index(1) for p in passed]
    assert view.dora


def _scrambled(state: HandState, seat: int, rng: random.Random) -> HandState:
    """A copy in which every tile `seat` cannot see (others' concealed tiles, the live wall) is
    dealt again at random; the dead wall (its indicators, the ura under them) stays."""
    other = copy.deepcopy(state)
    hidden = [s for s in other.seats if s != seat]
    live_end = other.wall_part.dead_end - RIICHI.dead_wall
    pool = [x for s in hidden for x in other.hands[s]] + other.wall[other.front : live_end]
    rng.shuffle(pool)
    for s in hidden:
        size = len(other.hands[s])
        other.hands[s] = pool[:size]
        other._counts[s] = counts_of(other.hands[s])
        pool = pool[size:]
    other.wall[other.front : live_end] = pool
    other._legal_cache.clear()
    return other


@pytest.mark.parametrize("preset", [RIICHI, RIICHI_MAJSOUL], ids=lambda p: p.id)
def test_the_choice_depends_only_on_what_the_seat_can_see(preset: object) -> None:
    rng = random.Random(7)
    choose = computer_for("strong")
    checked = 0
    for seed in (21, 22):
        state = HandState(preset, seed=seed)  # type: ignore[arg-type]
        while not state.is_over:
            seat = state.seats_to_act()[0]
            other = _scrambled(state, seat, rng)
            assert [other.hands[s] for s in other.seats] != [state.hands[s] for s in state.seats]
            # a seat that sees a red five decides on the hand's kinds
            view = SeatView.of(as_kinds(state, seat), seat)
            assert SeatView.of(as_kinds(other, seat), seat) == view
            assert choose(other, seat) == choose(state, seat)
            checked += 1
            state.apply(choose(state, seat))
    assert checked > 30


def test_a_locked_hands_kong_check_reads_a_red_five_as_its_five() -> None:
    # the fourth 5m drawn beside 0m5m5m: the kong keeps the 1s wait (the red five goes too)
    state = HandState.arranged(RIICHI, ["1m2m3m4p5p6p7s8s9s1s0m5m5m5m", *FILL])
    assert any(is_red(tile) for tile in state.hands[0])
    assert kong_keeps_waits(state, 0, t("5m"))


# ---------------------------------------------------------------------------- the bench


def test_the_bench_baseline_declares_riichi_where_the_easy_computer_discards() -> None:
    state = HandState.arranged(RIICHI, ["1m2m3m4p5p6p7s8s9s1s1s5m7m3z", *FILL])
    choice = strength.easy_with_riichi(state, 0)
    assert choice.kind is RIICHI_KIND and choice in state.legal_actions(0)


def test_the_bench_pools_runs_on_several_seeds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = tmp_path / "runs.jsonl"
    lines = []
    for seed, places in ((1, [1, 2]), (2, [4, 3])):
        zeros = {"scores": [0.0, 0.0], "points": [0, 0], "hands": 10}
        side = strength.GameSide(places=places, wins=seed, facing_riichi=4, **zeros)  # type: ignore[arg-type]
        other = strength.GameSide(places=[2, 3], **zeros)  # type: ignore[arg-type]
        record = {"preset": "riichi", "seed": seed, "levels": ["strong", "v1-riichi"]}
        record |= {"place_gains": [p - 2.5 for p in places], "score_gains": [0.0, 0.0]}
        record |= {"candidate": asdict(side), "baseline": asdict(other)}
        lines.append(json.dumps(record))
    raw.write_text("\n".join(lines) + "\n")
    strength.pool(raw)
    out = capsys.readouterr().out
    assert "seeds 1, 2  seat-games per side: 4" in out
    assert "placement_gain: 0.000" in out  # (1 + 2 + 4 + 3) / 4 - 2.5
    assert "0.150" in out  # win rate: 3 wins in 20 hands


# ---------------------------------------------------------------------------- a five to call with


def test_a_call_that_may_give_a_plain_five_or_the_red_one_is_offered_both_ways() -> None:
    chi = _offered("3m5m0m2p3p4p2s3s4s6s7s8s9s", "4m")
    assert [str(a) for a in chi.legal_actions(1)] == ["1 pass", "1 chow 345m", "1 chow 340m"]
    assert [chi.call_meld_tiles(a) for a in chi.legal_actions(1)[1:]] == [
        tuple(parse_tiles("345m")),
        tuple(parse_tiles("340m")),
    ]
    pon = _offered("5m5m0m2p3p4p2s3s4s6s7s8s9s", "5m")
    calls = [str(a) for a in pon.legal_actions(1)]
    assert calls == ["1 pass", "1 pung 5m", "1 pung 550m", "1 kong 5m"]
    # holding one five of the kind, or the red five discarded: one way only
    one = _offered("3m5m6m2p3p4p2s3s4s6s7s8s9s", "4m")
    assert [str(a) for a in one.legal_actions(1)] == ["1 pass", "1 chow 345m", "1 chow 456m"]


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_the_computers_call_with_the_red_five_and_keep_the_plain_one(level: str) -> None:
    """Either five gives the hand the same kinds; the red one in the meld is dora for good,
    where kept in hand it is lost (and given to a winner) once its kind is discarded with no
    plain five left: a computer's call gives the red five."""
    state = _offered("3m5m0m2p3p4p2s3s4s6s7s8s9s", "4m")
    assert str(physical_action(state, Action.parse("1 chow 345m"))) == "1 chow 340m"
    pon = _offered("5m5m0m2p3p4p2s3s4s6s7s8s9s", "5m")
    assert str(physical_action(pon, Action.parse("1 pung 5m"))) == "1 pung 550m"
    choice = computer_for(level)(state, 1)
    assert choice.kind in (ActionKind.PASS, ActionKind.CHOW)
    if choice.kind is ActionKind.CHOW:  # the easy computer calls: with the red five
        state.apply(choice)
        assert [tile_name(t) for t in state.melds[1][0].tiles] == ["3m", "4m", "0m"]
        assert "0m" not in format_tiles(state.hands[1]) and t("5m") in state.hands[1]
