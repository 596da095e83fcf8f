"""Red fives sort in the place of their five wherever a hand is shown (issue 43 item 4): the
terminal's hand line, a replay's open hands, the result picture's winning hand; and the red 5m
is told from the plain one at a glance, as 0p and 0s are."""

from __future__ import annotations

from dataclasses import replace

from PIL import Image

from bot.replay import _open
from bot.runtime import PrivateSnapshot
from bot.terminal import hand_line
from data import Phase
from engine.families.riichi.presets import RIICHI
from engine.hand import HandState
from engine.tiles import format_tiles, kind_of, parse_tile, parse_tiles
from render.adapt import hand_view_from_state, table_view_from_state
from render.result import _hand_groups
from render.samples import sample_result_view
from render.tiles import tile_sprite

HANDS = ["20399m1p2p3p4s5s6s7z7z7z", "1m1m1m0p9p9p9p1s1s1s9s4z4z", "2m2m2m8m8m8m2s2s2s8s8s8s6z",
         "3m3m3m7m7m7m3s3s3s7s7s7s1z"]  # fmt: skip


def test_the_terminal_hand_line_puts_the_red_five_among_the_fives() -> None:
    state = HandState.arranged(RIICHI, HANDS)
    view = hand_view_from_state(state, 0)
    private = PrivateSnapshot(1, "t", 0, "p", "P", None, None, None, None, Phase.PLAYING)
    line = hand_line(replace(private, wind=0, hand_view=view))
    assert "23099m123p456s77z  + drew 7z" in line


def test_a_replay_shows_every_hand_with_the_red_five_in_place() -> None:
    state = HandState.arranged(RIICHI, HANDS)
    opened = _open(table_view_from_state(state), state)
    assert format_tiles(opened.seats[0].revealed) == "23099m123p456s777z"
    assert format_tiles(opened.seats[1].revealed) == "111m0999p1119s44z"


def test_the_result_picture_draws_the_winning_hand_with_the_red_five_in_place() -> None:
    win = replace(sample_result_view().wins[0], concealed=tuple(parse_tiles("0m2m3m9m9m")))
    groups, _ = _hand_groups(win, [], 40, frozenset())
    drawn = [sprite for sprite, _, _ in groups[0].pieces]
    assert drawn == [tile_sprite(t, 40) for t in parse_tiles("230m99m")]


def _ink(sprite: Image.Image) -> list[tuple[int, int, int]]:
    face = sprite.convert("RGB").crop((4, 4, sprite.width - 4, sprite.width))
    return list(face.get_flattened_data())


def _rose(pixel: tuple[int, int, int]) -> bool:
    """A pale face pixel warmer than ivory: red well above green, blue near green."""
    r, g, b = pixel
    return r > 235 and g > 185 and r - g > 25 and abs(b - g) < 20


def test_the_red_5m_differs_from_the_plain_one_as_much_as_0p_and_0s_at_a_small_size() -> None:
    """A hand picture 400 px wide draws tiles some 45 px wide: there the red five's face is rose
    and every stroke red, where the plain 5m's numeral is black on ivory."""
    for red in ("0m", "0p", "0s"):
        shown, plain = tile_sprite(parse_tile(red), 45), tile_sprite(kind_of(parse_tile(red)), 45)
        red_px, plain_px = _ink(shown), _ink(plain)
        rose = sum(1 for p in red_px if _rose(p))
        assert rose > 0.3 * len(red_px), red  # the face itself says red
        black = sum(1 for r, g, b in red_px if max(r, g, b) < 90)
        assert black == 0, red  # no black stroke on a red five
        assert sum(1 for p in plain_px if _rose(p)) < 0.05 * len(plain_px)  # stroke edges
