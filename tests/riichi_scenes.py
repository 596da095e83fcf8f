"""Riichi hands arranged to show what a riichi player sees (tests of the pictures, the result
summary and the terminal): a table mid-hand with a riichi and a kong, a riichi win with ura
indicators, a double ron, an exhaustive draw with tenpai, an abortive draw."""

from __future__ import annotations

from engine.actions import Action, ActionKind
from engine.events import Phase
from engine.families.riichi.presets import RIICHI
from engine.hand import HandState
from engine.hand_setup import HandSetup
from engine.presets import Preset
from engine.tiles import format_tiles, parse_tiles
from tests.hands import act

POINTS = (25000, 25000, 25000, 25000)
NAMES = ("Ann", "Bo", "Cy", "Di")


def dead_wall(replacements: str, ura: str, dora: str) -> str:
    """The 14 tiles taken from the back (`HandState.arranged`): the replacement tiles in draw
    order, then the ura and the dora indicators (first turned first)."""
    tiles = [parse_tiles(part) for part in (replacements, ura, dora)]
    assert [len(t) for t in tiles] == [4, 5, 5]
    return format_tiles(tiles[0] + tiles[1][::-1] + tiles[2][::-1])


BACK = dead_wall("8p2s3s4s", "1p7z7z7z6z", "3s3m6z6z5z")  # ura 1p: 2p is ura dora

RIICHI_HANDS = [
    "234m567m234p567p9s1z",  # the dealer: riichi with 1z leaves a 9s wait
    "456m456m456p456p4s",
    "111z222z333z5s6s7s8s",  # may pon the 1z; draws the fourth 2z later
    "123s123s789s789s9m",
]


def quietly(state: HandState, steps: int) -> None:
    """`steps` more moves: the drawn tile discarded, every call passed."""
    for _ in range(steps):
        if state.is_over:
            return
        seat = state.seats_to_act()[0]
        if state.phase is Phase.TURN:
            state.apply(Action(seat, ActionKind.DISCARD, (state.drawn,)))
        else:
            state.apply(Action(seat, ActionKind.PASS))


def mid_hand(preset: Preset = RIICHI) -> HandState:
    """The dealer declares riichi with 1z; West pons it (so the dealer's next discard lies
    sideways), later makes a concealed kong of 2z (a kan dora is turned); 1 honba, one stick
    from before in the pot."""
    setup = HandSetup(honba=1, pot=1000, points=POINTS)
    hands, back = RIICHI_HANDS, BACK
    state = HandState.arranged(preset, hands, draws="9p7z3m2z", replacements=back, setup=setup)
    act(state, "0 riichi 1z", "2 pung 1z", "2 discard 5s", "3 discard 9p", "0 discard 7z")
    act(state, "1 discard 3m", "2 concealed_kong 2z")
    quietly(state, 3)
    return state


def riichi_win(preset: Preset = RIICHI) -> HandState:
    """The dealer's double riichi, won on South's 9s at once (ippatsu), ura indicator 1p."""
    setup = HandSetup(points=POINTS)
    state = HandState.arranged(preset, RIICHI_HANDS, draws="9s", replacements=BACK, setup=setup)
    act(state, "0 riichi 1z", "2 pass", "1 discard 9s", "0 win")
    for seat in state.seats_to_act():
        act(state, f"{seat} pass")
    return state


DOUBLE_RON = [
    "123m789m123p789p0s6z",  # the dealer discards the red 0s
    "234m456m345p678p5s",  # South and West both win on it
    "234m456m345p678p5s",
    "111z222z333z4z4z1s1s",
]


def played(
    preset: Preset, hands: list[str], *moves: str, setup: HandSetup | None = None
) -> HandState:
    """The arranged hands after these moves (`tests.hands.act` notation)."""
    state = HandState.arranged(preset, hands, setup=setup or HandSetup(points=POINTS))
    act(state, *moves)
    return state


def double_ron(preset: Preset = RIICHI) -> HandState:
    """Two wins on one discard, 2 honba and 2,000 in the pot: both to South, first in turn."""
    setup = HandSetup(honba=2, pot=2000, points=POINTS)
    return played(preset, DOUBLE_RON, "0 discard 0s", "1 win", "2 win", setup=setup)


DRAW_HANDS = [
    "234m567m234p567p1z9s",  # discards 9s: tanki on 1z (formal tenpai)
    "456m456m406p457p4s",
    "9s9s9s234m234p567p2z",
    "123s124s1m1m1p1p3z3z9m",
]


def exhaustive_draw(preset: Preset = RIICHI) -> HandState:
    """Nobody wins: East is tenpai, the others pay it 1,000 each."""
    state = played(preset, DRAW_HANDS, "0 discard 9s")
    quietly(state, 10_000)
    return state


NINE_KINDS = [
    "19m19p19s1234z77p2p",  # the dealer: nine kinds of terminals and honours at the deal
    "456m456m456p456p4s",
    "234m567m234p567p5s",
    "123s123s789s789s9m",
]


def nine_terminals(preset: Preset = RIICHI) -> HandState:
    """The dealer declares nine terminals and honours: an abortive draw."""
    return played(preset, NINE_KINDS, "0 nine_terminals")


FOUR_WINDS = [
    "123m789m123p789p5s1z",
    "456m456m456p457p1z",
    "234m234p56s777z1z9s",
    "124s125s789s789s1z",
]


def four_winds(preset: Preset = RIICHI) -> HandState:
    """Each seat's first discard is East: an abortive draw."""
    return played(preset, FOUR_WINDS, *(f"{seat} discard 1z" for seat in range(4)))


TRIPLE = [
    "123m789m123p789p0s6z",  # the dealer discards the red 0s
    "234m456m345p678p5s",  # three seats win on it
    "234m456m345p678p5s",
    "678m678m234p222s5s",
]


def triple_ron(preset: Preset = RIICHI) -> HandState:
    """Three wins on one discard: Tenhou aborts the hand, Mahjong Soul pays all three."""
    return played(preset, TRIPLE, "0 discard 0s", "1 win", "2 win", "3 win")
