"""Physical tiles: the red fives 0m 0p 0s are their own ids and a five for everything else."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from engine.actions import Action
from engine.hand_tiles import shuffled
from engine.shapes import ShapeRules, is_win, shanten, waits
from engine.tiles import (
    COPIES,
    FIVES,
    NUM_KINDS,
    NUM_TILE_IDS,
    RED_FIVES,
    InvalidNotationError,
    Meld,
    counts_of,
    format_tiles,
    is_bonus,
    is_honour,
    is_red,
    is_suited,
    is_terminal,
    kind_of,
    parse_tile,
    parse_tiles,
    rank_of,
    red_five_of,
    sort_tiles,
    suit_of,
    tile_name,
    too_many,
    with_red_fives,
)
from render.tiles import tile_sprite

SPECIAL = ShapeRules(seven_pairs=True, thirteen_orphans=True)
FULL_SET = tuple(kind for kind in range(NUM_KINDS) for _ in range(COPIES))
SANMA_SET = tuple(
    kind for kind in range(NUM_KINDS) for _ in range(COPIES) if not 1 <= kind <= 7
)  # 2m-8m removed

physical_tiles = st.integers(0, NUM_TILE_IDS - 1)


def plain(tiles: list[int]) -> list[int]:
    return [kind_of(t) for t in tiles]


# ----------------------------------------------------------------------------- the ids


def test_red_fives_are_ids_42_to_44_of_the_plain_fives() -> None:
    assert RED_FIVES == (42, 43, 44) == tuple(parse_tiles("0m0p0s"))
    assert [kind_of(t) for t in RED_FIVES] == [4, 13, 22] == list(FIVES)
    assert [kind_of(t) for t in range(42)] == list(range(42))  # every other id is its own kind
    assert [red_five_of(f) for f in FIVES] == list(RED_FIVES)
    with pytest.raises(ValueError, match="no red five"):
        red_five_of(parse_tile("6m"))


@pytest.mark.parametrize(("red", "five"), [("0m", "5m"), ("0p", "5p"), ("0s", "5s")])
def test_a_red_five_is_rank_five_of_its_suit(red: str, five: str) -> None:
    r, f = parse_tile(red), parse_tile(five)
    assert is_red(r) and not is_red(f)
    assert (suit_of(r), rank_of(r)) == (suit_of(f), rank_of(f))
    assert is_suited(r) and not is_honour(r) and not is_terminal(r) and not is_bonus(r)
    assert tile_name(r) == red


def test_bonus_tiles_stay_bonus_tiles() -> None:
    assert [t for t in range(NUM_TILE_IDS) if is_bonus(t)] == list(range(34, 42))


# ----------------------------------------------------------------------------- notation


@given(st.lists(physical_tiles, max_size=20))
def test_notation_round_trips_with_red_fives(tiles: list[int]) -> None:
    text = format_tiles(tiles)
    assert parse_tiles(text) == tiles
    assert format_tiles(parse_tiles(text)) == text


def test_red_fives_read_and_write_as_zero() -> None:
    assert format_tiles(parse_tiles("3406s")) == "3406s"
    assert parse_tiles("0m5m") == [42, 4]
    assert format_tiles(sort_tiles(parse_tiles("0p5p6p5p4p"))) == "45506p"
    with pytest.raises(InvalidNotationError, match="0z"):
        parse_tiles("0z")


@given(st.lists(physical_tiles, max_size=20))
def test_sorting_puts_each_red_five_after_its_plain_fives(tiles: list[int]) -> None:
    ordered = sort_tiles(tiles)
    assert Counter(ordered) == Counter(tiles)
    keys = [(kind_of(t), is_red(t)) for t in ordered]
    assert keys == sorted(keys)


@given(st.lists(st.integers(0, 41), max_size=20))
def test_sorting_without_red_fives_is_plain_sorting(tiles: list[int]) -> None:
    assert sort_tiles(tiles) == sorted(tiles)


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("chow 340s", "3s"),
        ("chow 406s", "4s"),
        ("chow 067m", "5m"),
        ("pung 550p", "5p"),
        ("kong 5550m", "5m"),
        ("added_kong 5550s", "5s"),
        ("concealed_kong 5550p", "5p"),
    ],
)
def test_melds_with_a_red_five_round_trip_and_name_their_kind(text: str, first: str) -> None:
    meld = Meld.parse(text)
    assert str(meld) == text
    assert eval(repr(meld)) == meld
    assert meld.first == parse_tile(first)
    assert any(is_red(t) for t in meld.tiles)
    assert all(not is_red(t) for t in meld.kinds)


def test_a_meld_given_its_red_five_anywhere_sorts_it_among_the_fives() -> None:
    assert str(Meld.parse("pung 055p")) == "pung 550p"
    assert str(Meld.parse("chow 0s34s", claimed="0s", from_seat=3)) == "chow 340s"
    assert repr(Meld.parse("chow 340s", claimed="0s", from_seat=3)) == (
        "Meld.parse('chow 340s', claimed='0s', from_seat=3)"
    )


@pytest.mark.parametrize("text", ["chow 350s", "pung 056p", "chow 0m0p0s", "kong 5556m"])
def test_melds_still_refuse_what_is_not_a_set(text: str) -> None:
    with pytest.raises(InvalidNotationError):
        Meld.parse(text)


@pytest.mark.parametrize("text", ["0 discard 0m", "2 chow 340p", "1 pung 0s", "3 kong 0p"])
def test_actions_with_a_red_five_round_trip(text: str) -> None:
    action = Action.parse(text)
    assert str(action) == text
    assert any(is_red(t) for t in action.tiles)


# ----------------------------------------------------------------------------- kinds everywhere


@given(st.lists(physical_tiles, max_size=30))
def test_counts_see_a_red_five_as_its_five(tiles: list[int]) -> None:
    assert counts_of(tiles) == counts_of(plain(tiles))


def test_counts_of_a_hand_with_every_red_five() -> None:
    counts = counts_of(parse_tiles("50m0p0s1f"))
    assert [counts[f] for f in FIVES] == [2, 1, 1]
    assert sum(counts) == 4  # the flower is not a playing kind


@given(st.permutations(FULL_SET).map(lambda wall: wall[:13]), st.data())
def test_shapes_do_not_see_which_fives_are_red(hand: list[int], data: st.DataObject) -> None:
    fives = [i for i, t in enumerate(hand) if t in FIVES]
    reddened = list(hand)
    for suit in {hand[i] for i in fives}:  # at most one red five a suit, as in a real set
        spots = [i for i in fives if hand[i] == suit]
        reddened[data.draw(st.sampled_from(spots))] = red_five_of(suit)
    assert shanten(counts_of(reddened), SPECIAL) == shanten(counts_of(hand), SPECIAL)
    assert waits(counts_of(reddened), SPECIAL) == waits(counts_of(hand), SPECIAL)


def test_a_hand_holding_red_fives_wins_as_with_plain_ones() -> None:
    hand = parse_tiles("340m550p067s22z555z")
    assert is_win(counts_of(hand))
    assert is_win(counts_of(parse_tiles("1100m2255p3344s77z")), SPECIAL)  # seven pairs


def test_too_many_counts_a_red_five_with_its_kind_and_once_alone() -> None:
    assert too_many(parse_tiles("5550m")) is None
    assert too_many(parse_tiles("55550m")) == (parse_tile("5m"), 5)
    assert too_many(parse_tiles("0p5p0p")) == (parse_tile("0p"), 2)
    assert too_many(parse_tiles("1111m")) is None


# ----------------------------------------------------------------------------- walls


@pytest.mark.parametrize(
    ("tiles", "reds"), [(FULL_SET, "0m0p0s"), (SANMA_SET, "0p0s"), (FULL_SET, "")]
)
@pytest.mark.parametrize("seed", [0, 1, 20261204])
def test_a_wall_with_red_fives_conserves_physical_tiles(
    tiles: tuple[int, ...], reds: str, seed: int
) -> None:
    red_fives = parse_tiles(reds)
    wall = with_red_fives(tiles, red_fives)
    dealt = shuffled(wall, seed)
    assert Counter(dealt) == Counter(wall)  # the same physical tiles, each red five once
    assert len(dealt) == len(tiles)
    assert sorted(t for t in dealt if is_red(t)) == sorted(red_fives)
    assert counts_of(dealt) == counts_of(tiles)  # as kinds, still four of each
    assert too_many(dealt) is None


def test_a_red_five_needs_a_plain_five_to_replace() -> None:
    with pytest.raises(ValueError, match="no plain 5m"):
        with_red_fives(SANMA_SET, parse_tiles("0m"))
    with pytest.raises(ValueError, match="not a red five"):
        with_red_fives(FULL_SET, parse_tiles("5m"))


# ----------------------------------------------------------------------------- pictures


def _marks(sprite: Image.Image) -> list[tuple[int, int, int]]:
    """The face's pixels (inside the rim) that the artwork darkens: ink of any colour."""
    face = sprite.convert("RGB").crop((8, 8, sprite.width - 8, sprite.width))
    return [p for p in face.get_flattened_data() if sum(p) < 3 * 190]


def _red_share(marks: list[tuple[int, int, int]]) -> float:
    return sum(1 for r, g, b in marks if r > g + 40 and r > b + 40) / len(marks)


@pytest.mark.parametrize("red", ["0m", "0p", "0s"])
def test_a_red_five_is_drawn_as_its_five_in_red(red: str) -> None:
    red_tile = parse_tile(red)
    shown, plain_five = tile_sprite(red_tile, 60), tile_sprite(kind_of(red_tile), 60)
    assert shown.size == plain_five.size
    marks, plain_marks = _marks(shown), _marks(plain_five)
    assert _red_share(marks) > 0.9  # all its ink is red
    assert _red_share(plain_marks) < 0.6  # the plain five's is not
    assert abs(len(marks) - len(plain_marks)) < 0.25 * len(plain_marks)  # the same artwork
