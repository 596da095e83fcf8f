"""The Riichi rules that closed last (RULES.md "Riichi"; where it is silent, what Tenhou does),
each with a concrete hand: temporary furiten on a tile that completes a hand without a yaku
(passed or called by another seat), the locked hand's concealed kong that must keep the hand's
readings, and the four-kong abort that a ron on the fourth kong's discard prevents."""

from __future__ import annotations

import pytest

from engine.actions import ActionKind
from engine.events import Phase, Termination
from engine.families.riichi.presets import RIICHI, RIICHI_MAJSOUL
from engine.families.riichi.rules import FuritenPart, kong_keeps_readings
from engine.hand import HandState
from engine.hand_setup import HandSetup
from engine.presets import Preset
from engine.tiles import parse_tile, parse_tiles
from tests.hands import act
from tests.test_riichi_rules import play_quietly

BOTH = [RIICHI, RIICHI_MAJSOUL]
RICH = HandSetup(points=(25000, 25000, 25000, 25000))


def has_win(state: HandState, seat: int) -> bool:
    return any(a.kind is ActionKind.WIN for a in state.legal_actions(seat))


def legal_kinds(state: HandState, seat: int) -> set[str]:
    return {a.kind.value for a in state.legal_actions(seat)}


# ------------------------------------------------------------------------------- furiten

# West waits on 1s (sanshoku 123: a yaku) and on 4s (no yaku: a pung, no tanyao, a closed ron)
NO_YAKU_WAIT = [
    "789m789p78s1234z5z4s",  # the dealer discards 4s
    "56s1s456m456p7z7z2z2z",  # South may chi 4-5-6s with it, then discards 1s
    "123m123p999s55p23s",  # West: 4s completes the shape without a yaku
    "369m369p1z3z4z5z6z6z7z",
]


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
def test_a_yakuless_winning_tile_that_passes_is_furiten(preset: Preset) -> None:
    state = HandState.arranged(preset, NO_YAKU_WAIT, draws="1s")
    act(state, "0 discard 5z", "1 discard 1s")
    assert has_win(state, 2)  # 1s gives sanshoku: West may ron it ...
    state = HandState.arranged(preset, NO_YAKU_WAIT, draws="1s")
    act(state, "0 discard 4s")
    assert not has_win(state, 2)  # no yaku on 4s: no win offered
    act(state, "1 pass")
    furiten = state.part_of(FuritenPart)
    assert furiten is not None and furiten.passed[2]  # ... but the 4s passed West: furiten
    act(state, "1 discard 1s")
    assert not has_win(state, 2)


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
def test_a_yakuless_winning_tile_called_by_another_seat_is_furiten_too(preset: Preset) -> None:
    state = HandState.arranged(preset, NO_YAKU_WAIT)
    act(state, "0 discard 4s", "1 chow 456s")
    furiten = state.part_of(FuritenPart)
    assert furiten is not None and furiten.passed[2]  # the tile was among West's waits
    assert not furiten.passed[3] and not furiten.passed[0]
    act(state, "1 discard 1s")
    assert not has_win(state, 2)  # without the rule West would ron 1s for sanshoku


def test_the_called_tiles_furiten_ends_with_the_seats_own_discard() -> None:
    state = HandState.arranged(RIICHI, NO_YAKU_WAIT, draws="3z")
    act(state, "0 discard 4s", "1 chow 456s", "1 discard 1s", "2 pass")
    assert state.turn == 2 and state.drawn == parse_tile("3z")
    act(state, "2 discard 3z")  # West draws 3z and discards it: furiten is over
    furiten = state.part_of(FuritenPart)
    assert furiten is not None and not furiten.passed[2] and not furiten.is_furiten(2)


# ------------------------------------------------------------------------------- locked kong

OTHERS = ["258m258p258s5z5z6z6z", "369m369p369s5z6z2z2z", "147p147s9m9p9s7z7z3z3z"]


def locked_after_riichi(
    preset: Preset, dealer: str, fourth: str, others: list[str] = OTHERS
) -> HandState:
    """The dealer declares riichi with its 7z and draws `fourth` on its next turn."""
    state = HandState.arranged(preset, [dealer, *others], draws="4z4z4z" + fourth, setup=RICH)
    act(state, "0 riichi 7z")
    play_quietly(state, until_turn=0)
    assert state.drawn == parse_tile(fourth)
    return state


def concealed_kongs(state: HandState, seat: int) -> list[int | None]:
    return [a.tile for a in state.legal_actions(seat) if a.kind is ActionKind.CONCEALED_KONG]


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
def test_a_locked_hand_may_kong_an_isolated_triplet(preset: Preset) -> None:
    state = locked_after_riichi(preset, "111z234m567p345s9s7z", "1z")  # 9s tanki
    assert concealed_kongs(state, 0) == [parse_tile("1z")]
    act(state, "0 concealed_kong 1z")
    assert state.drawn is not None and state.hands[0].count(parse_tile("1z")) == 0


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
def test_a_locked_hand_may_kong_a_triplet_holding_the_red_five(preset: Preset) -> None:
    others = ["147m147p147s1z2z3z4z", *OTHERS[1:]]  # no other seat holds a 5m
    state = locked_after_riichi(preset, "550m234p678p345s9s7z", "5m", others)
    assert concealed_kongs(state, 0) == [parse_tile("5m")]  # a kong names its kind
    act(state, "0 concealed_kong 5m")
    assert sorted(state.melds[0][0].tiles) == sorted(parse_tiles("550m5m"))


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
def test_a_locked_hand_may_not_kong_when_the_waits_change(preset: Preset) -> None:
    # 7778m waits on 6m, 8m, 9m; with 7777m set aside only on 8m
    state = locked_after_riichi(preset, "7778m567p234s678s7z", "7m")
    assert concealed_kongs(state, 0) == []


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
def test_a_locked_hand_may_not_kong_when_a_reading_changes(preset: Preset) -> None:
    # 1112344m waits on 1m and 4m, and so would 2344m beside a kong of 1m: the waits stay.
    # But 1112344m + 4m also reads 11 + 123 + 444: the 1m is not a triplet in every reading
    state = locked_after_riichi(preset, "1112344m567p234s7z", "1m")
    assert concealed_kongs(state, 0) == []
    assert has_win(state, 0)  # the 1m itself wins (riichi, tsumo)


def test_readings_check_on_concealed_tiles() -> None:
    hand = parse_tiles("1112344m567p234s")
    assert not kong_keeps_readings(hand, parse_tile("1m"), [parse_tile("1m"), parse_tile("4m")])
    isolated = parse_tiles("111z234m567p345s9s")
    assert kong_keeps_readings(isolated, parse_tile("1z"), [parse_tile("9s")])


# ------------------------------------------------------------------------------- four kongs

FOUR_KONGS = [
    "1111m2222m345p67p9s",  # the dealer makes two concealed kongs
    "3333s444s5s6s7s8s9s1z",  # South draws the fourth 4s: two more, then discards 6z
    "345m678m123p6z6z4z4z",  # West waits on 4z or 6z (green dragons: a yaku)
    "3m4m5m6m7m8m9m9p9p8p8p7z1z",
]


def four_kongs_then_discard(preset: Preset) -> HandState:
    state = HandState.arranged(preset, FOUR_KONGS, draws="4s", replacements="5z5z6z6z")
    act(state, "0 concealed_kong 1m", "0 concealed_kong 2m", "0 discard 5z")
    act(state, "1 concealed_kong 3s", "1 concealed_kong 4s", "1 discard 6z")
    assert state.kongs_made == 4
    return state


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
def test_a_ron_on_the_fourth_kongs_discard_stands(preset: Preset) -> None:
    state = four_kongs_then_discard(preset)
    assert state.phase is Phase.CLAIMS and has_win(state, 2)
    act(state, "2 win")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.WIN
    assert [w.seat for w in outcome.wins] == [2]


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
def test_the_fourth_kongs_discard_may_only_be_ronned_then_the_hand_aborts(preset: Preset) -> None:
    state = four_kongs_then_discard(preset)
    # West holds a pair of 6z: no pon of this discard, only the ron
    assert legal_kinds(state, 2) == {"win", "pass"}
    act(state, "2 pass")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.ABORTIVE_DRAW


@pytest.mark.parametrize("preset", BOTH, ids=lambda p: p.id)
def test_four_kongs_by_one_player_play_on(preset: Preset) -> None:
    hands = [
        "1111m2222m3333m4m4m",
        "567m567p567s1z2z3z9s",
        "678m678p678s9m9p4z4z",
        "5m6m7m8m5p6p7p8p5s6s7s8s9p",
    ]
    state = HandState.arranged(preset, hands, replacements="4m4m5z6z")
    for kind in "1234":
        act(state, f"0 concealed_kong {kind}m")
    assert state.kongs_made == 4 and sorted(state.hands[0]) == parse_tiles("5z6z")
    act(state, "0 discard 5z")
    assert not state.is_over and state.phase is Phase.TURN and state.turn == 1
    # the fifth kong is never offered (KongLimit), and a pon of a later discard is (not aborted)
    assert state.waits(state.hands[0]) == [parse_tile("6z")]
