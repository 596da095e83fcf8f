"""Tile, meld and action notation: parse and format round-trip, clear errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.actions import Action
from engine.computer.easy import choose_action
from engine.hand import HandState
from engine.presets import find_preset
from engine.tiles import (
    NUM_TILE_IDS,
    InvalidNotationError,
    Meld,
    MeldKind,
    format_tiles,
    parse_tile,
    parse_tiles,
    tile_name,
)


def test_compact_runs_expand() -> None:
    assert [tile_name(t) for t in parse_tiles("123m456p11z")] == [
        "1m",
        "2m",
        "3m",
        "4p",
        "5p",
        "6p",
        "1z",
        "1z",
    ]
    assert parse_tiles("1z 1z") == parse_tiles("11z")
    assert parse_tile("8f") == 41


@given(st.lists(st.integers(0, NUM_TILE_IDS - 1), max_size=20))
def test_tiles_round_trip(tiles: list[int]) -> None:
    assert parse_tiles(format_tiles(tiles)) == tiles


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("0z", "0z"),
        ("0f", "0f"),
        ("8z", "8z"),
        ("9f", "9f"),
        ("12x", "'x'"),
        ("m", "'m'"),
        ("12", "'12'"),
    ],
)
def test_bad_tiles_name_the_token(text: str, names: str) -> None:
    with pytest.raises(InvalidNotationError, match=names):
        parse_tiles(text)


@pytest.mark.parametrize(
    "text", ["chow 123m", "pung 555z", "kong 1111p", "added_kong 2222s", "concealed_kong 9999s"]
)
def test_melds_round_trip(text: str) -> None:
    meld = Meld.parse(text)
    assert str(meld) == text
    assert eval(repr(meld)) == meld


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("chow 124m", "consecutive"),
        ("chow 123z", "consecutive"),
        ("chow 891m", "consecutive"),
        ("pung 556z", "identical"),
        ("kong 111p", "4 tiles"),
        ("triple 111p", "unknown meld kind"),
        ("pung", "<kind> <tiles>"),
        ("pung 111f", "bonus"),
    ],
)
def test_bad_melds(text: str, fragment: str) -> None:
    with pytest.raises(InvalidNotationError, match=fragment):
        Meld.parse(text)


@pytest.mark.parametrize(
    "text",
    [
        "0 discard 5m",
        "2 chow 345m",
        "1 pung 5m",
        "3 win",
        "1 pass",
        "0 void s",
        "2 swap 123p",
        "0 concealed_kong 1z",
        "3 added_kong 9s",
    ],
)
def test_actions_round_trip(text: str) -> None:
    action = Action.parse(text)
    assert str(action) == text
    assert eval(repr(action)) == action


@pytest.mark.parametrize("text", ["4 discard 5m", "0 dance 5m", "0 void z", "discard 5m", "0"])
def test_bad_actions(text: str) -> None:
    with pytest.raises(InvalidNotationError):
        Action.parse(text)


@pytest.mark.parametrize(
    "meld",
    [
        Meld.parse("pung 555z"),
        Meld.parse("concealed_kong 9999s"),
        Meld(MeldKind.CHOW, tuple(parse_tiles("345m")), parse_tile("4m"), 3),
        Meld(MeldKind.KONG, tuple(parse_tiles("1111p")), parse_tile("1p"), 0),
        Meld(MeldKind.ADDED_KONG, tuple(parse_tiles("7777z")), parse_tile("7z"), 2),
        Meld(MeldKind.PUNG, tuple(parse_tiles("222s")), from_seat=1),
    ],
    ids=str,
)
def test_a_meld_repr_evaluates_back_to_the_meld(meld: Meld) -> None:
    assert eval(repr(meld), {"Meld": Meld}) == meld


def test_claimed_melds_of_played_hands_round_trip() -> None:
    claimed = []
    for seed in range(12):
        state = HandState(find_preset("hkos-3-v1"), seed)
        while not state.is_over:
            seat = state.seats_to_act()[0]
            state.apply(choose_action(state, seat))
        claimed += [m for melds in state.melds for m in melds if m.from_seat is not None]
    assert claimed, "no hand claimed a meld"
    assert all(eval(repr(m), {"Meld": Meld}) == m for m in claimed)
    assert any(m.claimed is not None for m in claimed)
