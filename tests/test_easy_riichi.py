"""The easy computer at Riichi tables: it declares riichi when its discard leaves a closed hand
ready (as a beginner does), and it never calls into a hand that has no yaku left to reach (a
call gives up riichi, menzen tsumo and pinfu). Its choices at the Chinese-family tables do not
move (tests/test_easy_choices.py pins them)."""

from __future__ import annotations

import pytest

from engine.computer.easy import choose_action
from engine.families.riichi.presets import RIICHI, RIICHI_MAJSOUL
from engine.families.riichi.rules import RIICHI as RIICHI_KIND
from engine.families.riichi.yaku_routes import open_yaku_route
from engine.hand import HandState
from engine.hand_setup import HandSetup
from engine.presets import Preset
from engine.tiles import parse_tiles
from tests.hands import act

BOTH = [RIICHI, RIICHI_MAJSOUL]
RICH = HandSetup(points=(25000, 25000, 25000, 25000))
EAST = "123m456p789s1z2z3z4z"  # the dealer's 13 tiles; its 14th is the discard offered to South


def south_answer(preset: Preset, south: str, discard: str) -> str:
    """South's easy answer when the dealer discards `discard`."""
    assert len(parse_tiles(south)) == 13
    others = ["258m258p258s5z5z6z6z", "369m369p369s5z6z7z1z"]
    state = HandState.arranged(preset, [EAST + discard, south, *others], setup=RICH)
    act(state, f"0 discard {discard}")
    assert 1 in state.pending  # South is offered a call
    return str(choose_action(state, 1))


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
@pytest.mark.parametrize(
    ("south", "discard", "answer"),
    [
        # a pon of 9m would bring the hand closer, but leaves no yaku: terminals in two suits
        # and runs, no valued pair
        ("456799m139p2347s", "9m", "1 pass"),
        # the same with a pair of red dragons (yakuhai within reach): the pon is taken
        ("456799m139p23s7z7z", "9m", "1 pung 9m"),
        # all simples after the chi: tanyao stays within reach
        ("23m56m34p67p345s88s", "4m", "1 chow 234m"),
        # four terminals left beside the chi, three suits, runs: no yaku
        ("23m56m34p67p1s9s1p9p5s", "4m", "1 pass"),
    ],
)
def test_the_easy_computer_calls_only_into_a_hand_with_a_yaku_left(
    preset: Preset, south: str, discard: str, answer: str
) -> None:
    assert south_answer(preset, south, discard) == answer


RIICHI_HANDS = [
    "234m567m234p567p9s1z",  # the dealer: discarding 1z leaves a 9s wait
    "456m456m456p456p4s",
    "111z222z333z5s6s7s8s",
    "123s123s789s789s9m",
]


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
def test_the_easy_computer_declares_riichi_when_its_discard_leaves_it_ready(
    preset: Preset,
) -> None:
    state = HandState.arranged(preset, RIICHI_HANDS, setup=RICH)
    choice = choose_action(state, 0)
    assert choice.kind is RIICHI_KIND and choice in state.legal_actions(0)
    assert choice.tile in parse_tiles("1z9s")  # either leaves the hand ready
    # without the points for the stick, no riichi is offered: the same tile goes as a discard
    poor = HandSetup(points=(999, 25000, 25000, 25000))
    state = HandState.arranged(preset, RIICHI_HANDS, setup=poor)
    assert str(choose_action(state, 0)) == f"0 discard {str(choice).split()[-1]}"


def test_yaku_routes_on_counts() -> None:
    def route(concealed: str, *melds: str, valued: str = "5z6z7z1z2z") -> bool:
        from engine.tiles import counts_of

        return open_yaku_route(
            counts_of(parse_tiles(concealed)),
            [parse_tiles(m) for m in melds],
            frozenset(parse_tiles(valued)),
        )

    assert route("23467m23p4s", "555z")  # a valued pung
    assert route("23467m23p7z7z", "999m")  # a valued pair
    assert route("23467m234p34s", "345m")  # all simples
    assert not route("23467m234p19s", "345m")  # two terminals: the next discard sheds one
    assert route("1234567m99m3z", "789m")  # one suit and honours
    assert not route("1234567m99p3z", "789m")
    assert route("1155m3399p44s", "999m")  # all triplets: pairs enough
    assert not route("1155m3399p44s", "789m")  # ... not beside a run
