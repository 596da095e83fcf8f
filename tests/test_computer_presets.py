"""The strong computer at every preset: the choices each family's rules call for, as positions.

hubei-laizi sets red dragons down as kongs, sets a wild down when the kong pays and keeps it
otherwise, and calls only where a win can reach the minimum; redwild keeps its wild red dragons;
hk-fw2 and hk-3fan refuse calls that leave no way to their minimum; tw-16 knows a tile passed
since an opponent's last discard cannot win for it; guangdong's horse changes nothing.
"""

from __future__ import annotations

import copy
import random
from dataclasses import replace

import pytest

from engine.actions import Action, ActionKind
from engine.computer import computer_for, decide, knows, strong
from engine.computer.easy import choose_action
from engine.hand import HandState
from engine.presets import PRESETS, Preset, find_preset, with_min_fan
from engine.rules import AfterWinPart
from engine.seat_view import SeatView
from engine.tiles import RED, Meld, counts_of, parse_tile, parse_tiles

HUBEI = find_preset("hubei-laizi")
FW2 = find_preset("hk-fw2")
NEW_FAMILIES = ("hk-fw2", "tw-16", "guangdong", "redwild", "hubei-laizi")


def t(text: str) -> int:
    return parse_tile(text)


def seat_view(
    preset: Preset,
    hand: str,
    melds: tuple[tuple[Meld, ...], ...] = ((), (), (), ()),
    **changes: object,
) -> SeatView:
    """Seat 0 on its own turn with `hand` (its concealed tiles) and `melds`; nothing else is
    seen but what `changes` add."""
    tiles = sorted(parse_tiles(hand))
    counts = counts_of(tiles)
    seen = list(counts)
    for seat_melds in melds:
        for meld in seat_melds:
            for tile in meld.tiles:
                seen[tile] += 1
    seats = len(melds)
    view = SeatView(
        preset=preset,
        seat=0,
        seat_count=seats,
        phase="turn",
        legal=tuple(Action(0, ActionKind.DISCARD, (k,)) for k in sorted(set(tiles))),
        hand=tuple(tiles),
        counts=tuple(counts),
        drawn=tiles[-1],
        removed=(),
        melds=melds,
        ponds=((),) * seats,
        bonus=((),) * seats,
        void=(None,) * seats,
        left=(False,) * seats,
        locked=(False,) * seats,
        revealed=((),) * seats,
        claim_tile=None,
        claim_from=None,
        wall_left=60,
        round_wind=0,
        points=(0,) * seats,
        visible=tuple(min(4, v) for v in seen),
        set_down=((),) * seats,
        offered=((),) * seats,
    )
    return replace(view, **changes)


def claim_view(view: SeatView, tile: str, source: int, *calls: Action) -> SeatView:
    """The same seat answering `source`'s discard of `tile` with Pass or one of `calls`."""
    seen = list(view.visible)
    seen[t(tile)] += 1
    ponds = list(view.ponds)
    ponds[source] = (*ponds[source], t(tile))
    return replace(
        view,
        phase="claims",
        legal=(Action(0, ActionKind.PASS), *calls),
        drawn=None,
        claim_tile=t(tile),
        claim_from=source,
        ponds=tuple(ponds),
        visible=tuple(min(4, v) for v in seen),
    )


def test_the_strong_computer_knows_every_preset() -> None:
    assert all(knows(preset) for preset in PRESETS.values())


# ---------------------------------------------------------------------------- hubei-laizi

WILD_9M = frozenset({t("9m")})
# every other seat has opened its hand: each would add the open hand's fan as a loser
OPENED = (
    (Meld.parse("chow 123m"),),
    (Meld.parse("pung 111s"),),
    (Meld.parse("pung 999p"),),
    (Meld.parse("pung 333s"),),
)


def test_hubei_sets_a_red_dragon_down_as_a_kong_at_once() -> None:
    view = seat_view(HUBEI, "123m456p789p55s67s7z", wilds=WILD_9M)
    choice = strong.choose(view)
    assert choice.kind is ActionKind.DISCARD and choice.tile == RED


def test_hubei_sets_a_second_wild_down_as_a_wild_kong() -> None:
    # with two wilds no small win is possible (one wild at most); as a wild kong one of them
    # leaves a ready small win and brings 2 fan, enough for the minimum with an open loser
    view = seat_view(HUBEI, "456p789p55s6s9m9m", OPENED, wilds=WILD_9M)
    choice = strong.choose(view)
    assert choice.tile == t("9m")


def test_hubei_weighs_a_wild_kong_against_the_minimum() -> None:
    # one wild, the hand ready once the 1p goes; but that small win is worth 0 fan (the wild
    # stands in) and 1 with an open loser: below the minimum. Set down, the wild brings 2 fan
    view = seat_view(HUBEI, "456p789p55s6s1p9m", OPENED, wilds=WILD_9M)
    assert strong.choose(view).tile == t("9m")


def _pung_offer(others: tuple[tuple[Meld, ...], ...], set_down: tuple[tuple[int, ...], ...]):
    """Seat 0 (closed, one from ready) may pung seat 3's 5p; after it and a 1s discard the hand
    waits on 6p or 9p for a small win: no wild (a hard win, 1 fan) and the 2p pair."""
    view = seat_view(HUBEI, "234m567m22p55p78p1s", ((), *others), wilds=WILD_9M, set_down=set_down)
    return claim_view(view, "5p", 3, Action(0, ActionKind.PUNG, (t("5p"),)))


def test_hubei_does_not_pung_when_no_win_could_reach_the_minimum() -> None:
    # nobody else shows a kong or an open hand: 1 fan for the winner, 0 for every loser
    view = _pung_offer(((), (), ()), ((), (), (), ()))
    assert strong.choose(view).kind is ActionKind.PASS


def test_hubei_pungs_when_a_losers_kongs_make_the_win_reach_the_minimum() -> None:
    # seat 3 has set two red dragons down and opened its hand: as the discarder (or a payer of
    # a self draw) it adds 3 fan, so the small win is worth the minimum
    others = ((), (), (Meld.parse("pung 333s"),))
    view = _pung_offer(others, ((), (), (), (RED, RED)))
    assert strong.choose(view).kind is ActionKind.PUNG


# ---------------------------------------------------------------------------- redwild

REDWILD = find_preset("redwild")


def test_redwild_keeps_its_red_dragons() -> None:
    # the red dragon is the tile no shape holds; it is wild, and stays
    view = seat_view(REDWILD, "11m234m567p9p89s2s5s7z", wilds=frozenset({RED}))
    choice = strong.choose(view)
    assert choice.tile != RED
    # only when nothing else is left to discard does one go
    forced = replace(view, legal=(Action(0, ActionKind.DISCARD, (RED,)),))
    assert strong.choose(forced).tile == RED


def test_redwild_counts_a_red_dragon_as_any_tile() -> None:
    player = decide.Player(seat_view(REDWILD, "11m234m567p9p89s2s5s7z", wilds=frozenset({RED})))
    with_wild = counts_of(parse_tiles("11m234m567p89s2s7z"))  # ready: 89s and the wild
    without = counts_of(parse_tiles("11m234m567p89s2s9p"))  # one from ready
    assert player.worth(with_wild, ()) > player.worth(without, ())


# ---------------------------------------------------------------------------- minimums


def _chow_offer(min_fan: int) -> HandState:
    """hk-fw2 at this minimum: the dealer discards 6m, and seat 1 may chow 678m; after it and
    the 4z the hand waits on 6s or 9s with a pung of 1s: no flowers and a self draw are all it
    can add, 2 faan at most."""
    state = HandState.arranged(
        with_min_fan(FW2, min_fan),
        [
            "1m2m3m9m9m9m1p1p6p6p3z3z5z6m",
            "7m8m2p3p4p1s1s1s5p5p7s8s4z",
            "2m2m3m4m5m5p6p7p8p9p2s3s4s",
            "4m5m6m7m8m9m3p4p6s6s7s9s9s",
        ],
    )
    state.apply(Action(0, ActionKind.DISCARD, (t("6m"),)))
    assert any(a.kind is ActionKind.CHOW for a in state.legal_actions(1))
    return state


def test_hk_fw2_at_three_faan_refuses_a_worthless_chow() -> None:
    assert computer_for("strong")(_chow_offer(3), 1).kind is ActionKind.PASS


def test_hk_fw2_without_a_minimum_takes_the_chow_to_ready() -> None:
    assert computer_for("strong")(_chow_offer(0), 1).kind is ActionKind.CHOW


def test_hk_fw2_without_a_minimum_aims_at_nearer_plans() -> None:
    # a chicken hand wins and every seat pays each win: winning first counts more than a far
    # flush, so an exchange more keeps less of a plan's chance than at a minimum
    hand, live = "123m456m78p2s5s99s9m", 12
    ratios = []
    for minimum in (0, 1, 3):
        player = decide.Player(seat_view(with_min_fan(FW2, minimum), hand))
        ratios.append(player.chance(2, live) / player.chance(1, live))
    assert ratios[0] < 0.2 < ratios[1] == ratios[2]


def test_hk_3fan_refuses_a_pung_that_leaves_no_way_to_three_fan() -> None:
    # after pung 555s the hand is ready but worth a self draw's 1 fan at most
    state = HandState.arranged(
        find_preset("hk-3fan"),
        [
            "234p678p234s678s3z5s",
            "12345678m4z5566s",
            "5m5m8m8m3p3p5p5p9p9p1s1s4z",
            "1m2m3m7m7m9m9m4s4s7z7z6z6z",
        ],
    )
    state.apply(Action(0, ActionKind.DISCARD, (t("5s"),)))
    assert choose_action(state, 1).kind is ActionKind.PUNG  # the easy computer calls it
    assert computer_for("strong")(state, 1).kind is ActionKind.PASS


# ---------------------------------------------------------------------------- tw-16

TW16 = find_preset("tw-16")


def test_a_seat_view_lists_the_tiles_each_seat_let_pass_since_its_discard() -> None:
    state = HandState(TW16, seed=8)
    discards: list[tuple[int, int]] = []
    while len(discards) < 3:
        seat = state.seats_to_act()[0]
        if state.phase.value == "claims":
            state.apply(Action(seat, ActionKind.PASS))
            continue
        action = next(a for a in state.legal_actions(seat) if a.kind is ActionKind.DISCARD)
        discards.append((seat, action.tile))
        state.apply(action)
    while state.phase.value == "claims":
        state.apply(Action(state.seats_to_act()[0], ActionKind.PASS))
    (s0, x), (s1, y), (s2, z) = discards
    assert (s0, s1, s2) == (0, 1, 2)
    offered = SeatView.of(state, 3).offered
    assert sorted(offered[0]) == sorted((y, z))
    assert offered[1] == (z,) and offered[2] == ()
    assert sorted(offered[3]) == sorted((x, y, z))  # seat 3 has not discarded yet


def test_tw16_a_tile_passed_since_the_opponents_discard_is_safe() -> None:
    # seat 1 looks ready (two melds, a long pond); 5m went by it since its last discard: with
    # the hand it holds now it could not (or may not) win on a 5m
    pond = tuple(parse_tiles("1z2z9m1p9p3z1m8m9s2m1p3m"))
    melds = ((), (Meld.parse("pung 777z"), Meld.parse("chow 789s")), (), ())
    view = seat_view(TW16, "123456789m123456p78s", melds, ponds=((), pond, (), ()))
    danger = decide.Player(view).dangers()
    assert danger[t("5m")] > 0 and danger[t("5p")] > 0
    passed = replace(view, offered=((), (t("5m"),), (), ()))
    danger = decide.Player(passed).dangers()
    assert danger[t("5m")] == 0 and danger[t("5p")] > 0


# ---------------------------------------------------------------------------- no peeking


def _scrambled(state: HandState, seat: int, rng: random.Random) -> HandState:
    """A copy in which every tile `seat` cannot see (others' concealed tiles, the wall, tiles set
    aside face down: a horse, birds) is dealt again at random, each place keeping its size."""
    other = copy.deepcopy(state)
    hidden = [s for s in other.seats if s != seat and not other.require(AfterWinPart).locked[s]]
    pool = [t for s in hidden for t in other.hands[s]] + other.wall[other.front : other.back]
    pool += other.set_aside
    rng.shuffle(pool)
    for s in hidden:
        size = len(other.hands[s])
        other.hands[s] = pool[:size]
        other._counts[s] = counts_of(other.hands[s])
        pool = pool[size:]
    size = len(other.set_aside)
    other.set_aside[:] = pool[:size]
    other.wall[other.front : other.back] = pool[size:]
    other._legal_cache.clear()
    return other


@pytest.mark.parametrize("preset_id", [*NEW_FAMILIES, "hk-3fan"])
def test_the_choice_depends_only_on_what_the_seat_can_see(preset_id: str) -> None:
    rng = random.Random(preset_id)
    choose = computer_for("strong")
    checked = 0
    for seed in (21, 22):
        state = HandState(find_preset(preset_id), seed=seed)
        while not state.is_over:
            seat = state.seats_to_act()[0]
            other = _scrambled(state, seat, rng)
            assert [other.hands[s] for s in other.seats] != [state.hands[s] for s in state.seats]
            assert SeatView.of(other, seat) == SeatView.of(state, seat)
            assert choose(other, seat) == choose(state, seat)
            checked += 1
            state.apply(choose(state, seat))
    assert checked > 30
