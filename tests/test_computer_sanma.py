"""The strong computer at sanma: it sets a north aside (nuki: a dora and a replacement draw)
whenever its hand does not need the tile, and keeps it where giving it up would leave the hand
further from ready (kokushi, a chiitoitsu pair, its wait)."""

from __future__ import annotations

import pytest

from engine.actions import Action
from engine.computer import strong
from engine.families.riichi.advice import set_aside
from engine.families.riichi.presets import SANMA
from engine.families.riichi.sanma import NUKI
from engine.hand import HandState
from engine.seat_view import SeatView
from engine.tiles import NORTH

# the other two seats' deals, of tiles the dealer's hands below leave free
OTHERS = ["1m1m1m9m9m9m4s4s5s5s6s6s8s", "2p2p4p4p6p6p8p8p5s7s7s8s8s"]


def _dealer_view(hand: str) -> SeatView:
    state = HandState.arranged(SANMA, [hand, *OTHERS])
    view = SeatView.of(state, 0)
    assert Action(0, NUKI, (NORTH,)) in view.legal
    return view


@pytest.mark.parametrize(
    "hand",
    [
        "123p456p789p11s23s4z9s",  # one shanten-neutral north: it goes aside
        "123p456p789p11s23s4z4z",  # a pair of norths a standard hand does not need
    ],
)
def test_a_north_the_hand_does_not_need_is_set_aside(hand: str) -> None:
    view = _dealer_view(hand)
    assert set_aside(view, NORTH)
    assert strong.choose(view) == Action(0, NUKI, (NORTH,))


@pytest.mark.parametrize(
    "hand",
    [
        "19m19p19s1234z5z6z7z5p",  # kokushi ready after the 5p: its north stays
        "11p33p55p77p99s4z4z1s2s",  # chiitoitsu ready after the 1s: the north pair is in it
    ],
)
def test_a_north_the_hand_needs_is_kept(hand: str) -> None:
    view = _dealer_view(hand)
    assert not set_aside(view, NORTH)
    choice = strong.choose(view)
    assert choice.kind is not NUKI and choice.tiles[0] != NORTH  # a discard (or riichi) else
