"""Tile sprites drawn with Pillow at runtime: faces, backs, turned tiles, wild badges.

Every sprite is drawn once per (tile, size, variant) at SUPERSAMPLE times its size and reduced,
which anti-aliases Pillow's hard-edged shapes, then cached; pictures are composed by pasting.
Face artwork is laid out in units on a 100 x 132 face, scaled to the sprite.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageOps

from engine.tiles import NUM_TILE_IDS, Tile, is_red, rank_of, suit_of
from render.style import FELT, SUPERSAMPLE, font

RGBA = tuple[int, int, int, int]
RGB = tuple[int, int, int]

UNIT_W, UNIT_H = 100.0, 132.0

IVORY_TOP: RGB = (255, 252, 240)
IVORY_BOTTOM: RGB = (241, 233, 210)
IVORY_SIDE: RGB = (222, 210, 178)
FACE_LINE: RGB = (150, 138, 108)
BACK: RGB = (24, 132, 96)
BACK_DARK: RGB = (12, 84, 60)
BACK_LIGHT: RGB = (120, 206, 166)

RED: RGB = (200, 30, 40)
GREEN: RGB = (22, 128, 64)
BLUE: RGB = (30, 72, 170)
INK: RGB = (24, 26, 38)
ORANGE: RGB = (232, 132, 24)
PINK: RGB = (208, 48, 110)
PURPLE: RGB = (118, 56, 164)
GOLD: RGB = (244, 184, 36)

SOLID_DOT = 0.8  # a small coin is solid, a little smaller: ivory must part its neighbours
SOLID_STICK = 1.2  # a small stick is solid and wider

NUMERALS = "一二三四五六七八九"
WINDS = "東南西北"
FLOWERS = "梅蘭菊竹"
SEASONS = "春夏秋冬"
FLOWER_COLOURS = (PINK, PURPLE, ORANGE, GREEN)
SEASON_COLOURS = (GREEN, RED, ORANGE, BLUE)


@dataclass(frozen=True, slots=True)
class Geometry:
    """Pixel sizes of an upright sprite whose width is `size`."""

    size: int

    @property
    def face_h(self) -> int:
        return round(self.size * UNIT_H / UNIT_W)

    @property
    def depth(self) -> int:
        # the visible edge under the face that gives the tile its thickness
        return max(2, round(self.size * 0.11))

    @property
    def height(self) -> int:
        return self.face_h + self.depth


class Pen:
    """Draws face artwork in face units onto a supersampled layer."""

    def __init__(self, layer: Image.Image) -> None:
        self.layer = layer
        self.draw = ImageDraw.Draw(layer)
        self.kx = layer.width / UNIT_W
        self.ky = layer.height / UNIT_H
        self.k = self.kx  # radii and widths follow the width
        # fine ornaments turn to noise on small sprites (the pond), so they draw only when large
        self.detailed = layer.width >= 44 * SUPERSAMPLE

    def pt(self, x: float, y: float) -> tuple[float, float]:
        return (x * self.kx, y * self.ky)

    def disc(self, x: float, y: float, r: float, fill: RGB) -> None:
        cx, cy = self.pt(x, y)
        rr = r * self.k
        self.draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=fill)

    def ellipse(self, x: float, y: float, rx: float, ry: float, fill: RGB) -> None:
        cx, cy = self.pt(x, y)
        self.draw.ellipse(
            (cx - rx * self.k, cy - ry * self.k, cx + rx * self.k, cy + ry * self.k), fill
        )

    def polygon(self, points: Sequence[tuple[float, float]], fill: RGB) -> None:
        self.draw.polygon([self.pt(x, y) for x, y in points], fill=fill)

    def line(self, points: Sequence[tuple[float, float]], width: float, fill: RGB) -> None:
        self.draw.line(
            [self.pt(x, y) for x, y in points],
            fill=fill,
            width=max(1, round(width * self.k)),
            joint="curve",
        )

    def rect(
        self,
        box: tuple[float, float, float, float],
        radius: float,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 0,
    ) -> None:
        x0, y0 = self.pt(box[0], box[1])
        x1, y1 = self.pt(box[2], box[3])
        self.draw.rounded_rectangle(
            (x0, y0, x1, y1),
            radius * self.k,
            fill=fill,
            outline=outline,
            width=round(width * self.k),
        )

    def paste(self, sprite: Image.Image, x: float, y: float) -> None:
        """Composite a supersampled RGBA piece centred on (x, y)."""
        cx, cy = self.pt(x, y)
        self.layer.alpha_composite(
            sprite, (round(cx - sprite.width / 2), round(cy - sprite.height / 2))
        )

    def glyph(self, text: str, x: float, y: float, box_w: float, box_h: float, fill: RGB) -> None:
        """A glyph scaled to fit box_w x box_h units, centred on its ink (not its line box)."""
        self.paste(_glyph(text, round(box_w * self.kx), round(box_h * self.ky), fill), x, y)


@lru_cache(maxsize=512)
def _glyph_ink(text: str, px: int) -> Image.Image:
    """The ink of a glyph at this font size as an 'L' mask cropped to its bounding box."""
    face = font(px)
    mask = Image.new("L", (px * len(text) * 2, px * 2))
    ImageDraw.Draw(mask).text((px // 2, px // 4), text, font=face, fill=255)
    return mask.crop(mask.getbbox())


def _glyph(text: str, box_w: int, box_h: int, fill: RGB) -> Image.Image:
    """Glyph ink fitted to a box, preserving the glyph's own proportions."""
    probe = _glyph_ink(text, 200)
    scale = min(box_w / probe.width, box_h / probe.height)
    ink = _glyph_ink(text, max(4, round(200 * scale)))
    piece = Image.new("RGBA", ink.size, (*fill, 0))
    piece.putalpha(ink)
    return piece


# ----------------------------------------------------------------------------- dots


def _dot(pen: Pen, x: float, y: float, r: float, colour: RGB) -> None:
    """One coin: coloured rim, ivory ring, coloured core with an ivory eye.

    Small (a pond at 400 px, about 17 px wide) the rings would blur into a pale smudge and
    6, 8 and 9 dots into one grey patch: there each coin is a solid disc, counted at a glance.
    """
    if not pen.detailed:
        pen.disc(x, y, r * SOLID_DOT, _shade(colour, 0.85))
        return
    pen.disc(x, y, r, colour)
    pen.disc(x, y, r * 0.78, IVORY_TOP)
    pen.disc(x, y, r * 0.58, colour)
    if pen.detailed:  # the notched core of the classic coin
        for i in range(8):
            a = i * math.pi / 4
            pen.disc(x + math.cos(a) * r * 0.40, y + math.sin(a) * r * 0.40, r * 0.085, IVORY_TOP)
    pen.disc(x, y, r * 0.2, IVORY_TOP)


def _one_dot(pen: Pen) -> None:
    x, y = 50, 66
    pen.disc(x, y, 44, GREEN)
    pen.disc(x, y, 40, IVORY_TOP)
    for i in range(16):
        a = i * math.pi / 8
        pen.disc(x + math.cos(a) * 34, y + math.sin(a) * 34, 4.2, RED)
    pen.disc(x, y, 27, BLUE)
    pen.disc(x, y, 23.5, IVORY_TOP)
    for i in range(8):
        a = i * math.pi / 4 + math.pi / 8
        pen.disc(x + math.cos(a) * 16, y + math.sin(a) * 16, 4.6, GREEN)
    pen.disc(x, y, 9, RED)
    pen.disc(x, y, 3.6, IVORY_TOP)


_DOTS: dict[int, tuple[float, Sequence[tuple[float, float, RGB]]]] = {
    2: (18, [(50, 38, GREEN), (50, 95, BLUE)]),
    3: (16, [(25, 28, BLUE), (50, 66, RED), (75, 104, GREEN)]),
    4: (17, [(29, 40, BLUE), (71, 40, GREEN), (29, 92, GREEN), (71, 92, BLUE)]),
    5: (
        14.5,
        [(25, 30, BLUE), (75, 30, GREEN), (50, 66, RED), (25, 102, GREEN), (75, 102, BLUE)],
    ),
    6: (
        14,
        [(30, 28, GREEN), (70, 28, GREEN)] + [(x, y, RED) for y in (70, 104) for x in (30, 70)],
    ),
    7: (
        12.5,
        [(22, 19, GREEN), (50, 33, GREEN), (78, 47, GREEN)]
        + [(x, y, RED) for y in (80, 110) for x in (31, 69)],
    ),
    8: (12.5, [(x, y, BLUE) for y in (22, 51, 81, 110) for x in (31, 69)]),
    9: (
        13,
        [(x, y, c) for y, c in ((28, BLUE), (66, RED), (104, GREEN)) for x in (20, 50, 80)],
    ),
}


def _draw_dots(pen: Pen, rank: int) -> None:
    if rank == 1:
        _one_dot(pen)
        return
    radius, coins = _DOTS[rank]
    for x, y, colour in coins:
        _dot(pen, x, y, radius, colour)


# ----------------------------------------------------------------------------- bamboo


def _shade(colour: RGB, factor: float) -> RGB:
    """Darker (<1) or lighter (>1) version of a colour."""
    if factor < 1:
        return tuple(round(c * factor) for c in colour)  # type: ignore[return-value]
    return tuple(round(c + (255 - c) * (factor - 1)) for c in colour)  # type: ignore[return-value]


@lru_cache(maxsize=256)
def _stick(length: int, width: int, colour: RGB, angle: float, solid: bool = False) -> Image.Image:
    """One bamboo stick (pixels, supersampled): rounded, a joint at its middle, a highlight.

    A `solid` stick is one bar of a deeper colour: small, the rim, shine and joint would only
    pale it (and 6, 8 and 9 bamboo would blur into one striped patch).
    """
    pad = width
    piece = Image.new("RGBA", (width + 2 * pad, length + 2 * pad), (*colour, 0))
    draw = ImageDraw.Draw(piece)
    x0, y0, x1, y1 = pad, pad, pad + width, pad + length
    dark = _shade(colour, 0.6)
    if solid:
        draw.rounded_rectangle((x0, y0, x1, y1), width / 2, fill=_shade(colour, 0.85))
    else:
        draw.rounded_rectangle((x0, y0, x1, y1), width / 2, fill=dark)
        inset = width * 0.14
        inner = (x0 + inset, y0 + inset, x1 - inset, y1 - inset)
        draw.rounded_rectangle(inner, width / 2, fill=colour)
        sx = x0 + width * 0.28
        shine = (sx, y0 + width * 0.5, sx + width * 0.17, y1 - width * 0.5)
        draw.rounded_rectangle(shine, width * 0.08, fill=_shade(colour, 1.5))
        mid = (y0 + y1) / 2
        joint = (x0 - width * 0.2, mid - width * 0.15, x1 + width * 0.2, mid + width * 0.15)
        draw.rounded_rectangle(joint, width * 0.14, fill=dark)
    if angle:
        piece = piece.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
    return piece


def _draw_stick(
    pen: Pen, x: float, y: float, length: float, width: float, colour: RGB, angle: float = 0
) -> None:
    solid = not pen.detailed
    if solid:
        width *= SOLID_STICK
    size = (round(length * pen.ky), round(width * pen.kx))
    pen.paste(_stick(*size, colour, angle, solid), x, y)


_STICKS: dict[int, tuple[float, float, Sequence[tuple[float, float, RGB]]]] = {
    2: (46, 16, [(50, 38, GREEN), (50, 94, BLUE)]),
    3: (44, 16, [(50, 38, BLUE), (28, 94, GREEN), (72, 94, GREEN)]),
    4: (46, 16, [(29, 38, BLUE), (71, 38, GREEN), (29, 94, GREEN), (71, 94, BLUE)]),
    5: (
        40,
        15,
        [(22, 36, GREEN), (78, 36, BLUE), (50, 66, RED), (22, 96, BLUE), (78, 96, GREEN)],
    ),
    6: (46, 15, [(x, y, c) for y, c in ((38, BLUE), (94, GREEN)) for x in (22, 50, 78)]),
    7: (
        33,
        14,
        [(50, 22, RED)] + [(x, y, c) for y, c in ((66, GREEN), (106, BLUE)) for x in (22, 50, 78)],
    ),
    9: (
        34,
        14,
        [
            (x, y, RED if x == 50 else (GREEN if y == 66 else BLUE))
            for y in (25, 66, 107)
            for x in (20, 50, 80)
        ],
    ),
}


def _draw_bamboo(pen: Pen, rank: int) -> None:
    if rank == 1:
        _bird(pen)
        return
    if rank == 8:
        _eight_bamboo(pen)
        return
    length, width, sticks = _STICKS[rank]
    for x, y, colour in sticks:
        _draw_stick(pen, x, y, length, width, colour)


def _eight_bamboo(pen: Pen) -> None:
    """Upright sticks at the sides, the middle four leaning into an M over a W.

    Small, the solid sticks are wider: the middle ones lean less and stand further in, so
    ivory still parts every stick.
    """
    fine: tuple[float, float, float, float] = (16, 38, 20, 14)
    side, middle, lean, width = fine if pen.detailed else (13, 36.5, 12, 11)
    for y in (38, 94):
        for x in (side, 100 - side):
            _draw_stick(pen, x, y, 46, width, GREEN)
    for x, angle in ((middle, -lean), (100 - middle, lean)):
        _draw_stick(pen, x, 38, 46, width, BLUE, angle)
        _draw_stick(pen, x, 94, 46, width, BLUE, -angle)


def _bird(pen: Pen) -> None:
    """The 1-bamboo peacock: crest, blue head, green body, red breast, fanned tail, legs."""
    brown = (120, 60, 30)
    for x0, x1 in ((44, 40), (55, 58)):  # legs
        pen.line([(x0, 92), (x1, 116)], 3.2, brown)
        pen.line([(x1 - 6, 117), (x1 + 6, 117)], 3, brown)
    tail = [(92, 76), (90, 100), (76, 118), (94, 58)]
    for tx, ty in tail:
        pen.line([(58, 80), (tx, ty)], 5, GREEN)
    for tx, ty in tail:
        pen.disc(tx, ty, 6.5, BLUE)
        pen.disc(tx, ty, 3.8, GOLD)
        pen.disc(tx, ty, 1.8, RED)
    pen.ellipse(52, 74, 24, 19, GREEN)  # body
    pen.ellipse(40, 78, 14, 15, RED)  # breast
    pen.ellipse(60, 70, 15, 10, _shade(GREEN, 0.7))  # wing
    pen.polygon([(26, 42), (38, 40), (46, 66), (32, 70)], BLUE)  # neck
    pen.disc(31, 38, 12, BLUE)  # head
    pen.polygon([(20, 34), (20, 42), (6, 40)], ORANGE)  # beak
    pen.disc(29, 35, 4.4, IVORY_TOP)
    pen.disc(28.4, 35, 2.2, INK)
    for cx in (26, 32, 38):  # crest
        pen.line([(31, 27), (cx, 15)], 2, RED)
        pen.disc(cx, 14, 2.8, RED)


# ----------------------------------------------------------------------------- characters, honours


def _draw_characters(pen: Pen, rank: int) -> None:
    numeral = NUMERALS[rank - 1]
    # 一 and 二 are flat: cap their height so they do not swell into bars
    height = {1: 11, 2: 32, 3: 38}.get(rank, 42)
    pen.glyph(numeral, 50, 32, 66, height, INK)
    pen.glyph("萬", 50, 92, 74, 58, RED)


def _draw_honour(pen: Pen, rank: int) -> None:
    if rank <= 4:
        pen.glyph(WINDS[rank - 1], 50, 66, 80, 88, INK)
    elif rank == 5:
        pen.rect((15, 17, 85, 115), 4, outline=BLUE, width=7)
        pen.rect((25, 27, 75, 105), 2, outline=BLUE, width=2.6)
    elif rank == 6:
        pen.glyph("發", 50, 66, 84, 92, GREEN)
    else:
        pen.glyph("中", 50, 66, 74, 96, RED)


def _blossom(pen: Pen, x: float, y: float, colour: RGB) -> None:
    for i in range(5):
        a = i * 2 * math.pi / 5 - math.pi / 2
        pen.disc(x + math.cos(a) * 5.2, y + math.sin(a) * 5.2, 4.2, colour)
    pen.disc(x, y, 3, GOLD)


def _sun(pen: Pen, x: float, y: float, colour: RGB) -> None:
    for i in range(8):
        a = i * math.pi / 4
        pen.line(
            [
                (x + math.cos(a) * 6, y + math.sin(a) * 6),
                (x + math.cos(a) * 10.5, y + math.sin(a) * 10.5),
            ],
            2.6,
            colour,
        )
    pen.disc(x, y, 5.4, colour)


def _draw_bonus(pen: Pen, rank: int) -> None:
    flower = rank <= 4
    number = (rank - 1) % 4
    colour = (FLOWER_COLOURS if flower else SEASON_COLOURS)[number]
    glyph = (FLOWERS if flower else SEASONS)[number]
    pen.glyph(str(number + 1), 18, 19, 16, 20, colour)
    if flower:
        _blossom(pen, 80, 19, colour)
    else:
        _sun(pen, 80, 19, colour)
    pen.glyph(glyph, 50, 78, 78, 80, colour)


_ARTISTS: dict[str, Callable[[Pen, int], None]] = {
    "m": _draw_characters,
    "p": _draw_dots,
    "s": _draw_bamboo,
    "z": _draw_honour,
    "f": _draw_bonus,
}


def _wild_badge(pen: Pen) -> None:
    """A gold star in a red disc at the top-right corner: 'this tile is wild'."""
    x, y, r = 82, 17, 15
    pen.disc(x, y, r, (150, 20, 30))
    pen.disc(x, y, r * 0.84, RED)
    star = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = r * (0.72 if i % 2 == 0 else 0.3)
        star.append((x + math.cos(a) * rr, y + math.sin(a) * rr))
    pen.polygon(star, GOLD)


# ----------------------------------------------------------------------------- bodies


def _vertical_gradient(size: tuple[int, int], top: RGB, bottom: RGB) -> Image.Image:
    mask = Image.linear_gradient("L").resize(size)
    return Image.composite(Image.new("RGB", size, bottom), Image.new("RGB", size, top), mask)


def _rounded_mask(size: tuple[int, int], radius: float) -> Image.Image:
    mask = Image.new("L", size)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), radius, fill=255)
    return mask


def _face_surface(size: tuple[int, int], radius: float, back: bool) -> Image.Image:
    """The top surface: ivory (or the back's colour) with a soft gradient and a fine rim."""
    # a flat back: a gradient this dark bands visibly in a 128-colour PNG
    top, bottom = (BACK, BACK) if back else (IVORY_TOP, IVORY_BOTTOM)
    surface = _vertical_gradient(size, top, bottom).convert("RGBA")
    surface.putalpha(_rounded_mask(size, radius))
    rim = Image.new("RGBA", size, (0, 0, 0, 0))
    line = SUPERSAMPLE
    ImageDraw.Draw(rim).rounded_rectangle(
        (0, 0, size[0] - 1, size[1] - 1),
        radius,
        outline=(*(BACK_DARK if back else FACE_LINE), 255),
        width=line,
    )
    surface.alpha_composite(rim)
    return surface


def _body(width: int, face_h: int, depth: int, surface: Image.Image, back: bool) -> Image.Image:
    """Stack the layers of a tile seen from a little above: bottom layer, side, top surface.

    A face-up tile shows its coloured back layer as the bottom edge; a face-down tile shows the
    ivory layer instead, as real tiles do.
    """
    radius = width * 0.13 if width < face_h else face_h * 0.13
    body = Image.new("RGBA", (width, face_h + depth), (*FACE_LINE, 0))
    draw = ImageDraw.Draw(body)
    base, base_line = (IVORY_SIDE, FACE_LINE) if back else (BACK, BACK_DARK)
    line = SUPERSAMPLE
    draw.rounded_rectangle(
        (0, depth, width - 1, face_h + depth - 1), radius, fill=base, outline=base_line, width=line
    )
    side = depth * 0.42
    side_fill = BACK_DARK if back else IVORY_SIDE
    draw.rounded_rectangle(
        (0, side, width - 1, face_h + side - 1),
        radius,
        fill=side_fill,
        outline=FACE_LINE if not back else BACK_DARK,
        width=line,
    )
    body.alpha_composite(surface)
    return body


# A red five is its five's artwork in red: ink and colours by their lightness onto a ramp from
# dark red through RED to the ivory face, so whatever the five's art is, its shading stays.
RED_DARK: RGB = (150, 12, 22)  # the darkest ink: still red beside a plain five's black
RED_WASH = (236, 72, 90, 44)  # over the ivory face, a rose one


def _in_red(layer: Image.Image) -> Image.Image:
    """The same artwork recoloured in red, its transparency kept."""
    lightness = layer.convert("RGB").convert("L")
    red = ImageOps.colorize(
        lightness, RED_DARK, IVORY_TOP, RED, midpoint=110, whitepoint=235
    ).convert("RGBA")
    red.putalpha(layer.getchannel("A"))
    return red


def _finish(big: Image.Image) -> Image.Image:
    """Reduce a supersampled RGBA image with premultiplied alpha (no dark fringes)."""
    return big.convert("RGBa").reduce(SUPERSAMPLE).convert("RGBA")


def _artwork(tile: Tile, width: int, height: int, wild: bool) -> Image.Image:
    """The face artwork of a tile on a transparent layer of this (supersampled) size."""
    layer = Image.new("RGBA", (width, height), (*IVORY_TOP, 0))
    pen = Pen(layer)
    _ARTISTS[suit_of(tile)](pen, rank_of(tile))
    if is_red(tile):  # red ink on a rose face: told from its five at any size
        wash = Image.new("RGBA", (width, height), RED_WASH)
        wash.alpha_composite(_in_red(layer))
        layer = wash
        pen = Pen(layer)
    if wild:
        _wild_badge(pen)
    return layer


def _check(tile: Tile, size: int) -> None:
    if not 0 <= tile < NUM_TILE_IDS:
        raise ValueError(f"not a tile id: {tile!r}")
    if not 12 <= size <= 400:
        raise ValueError(f"tile size {size} out of range 12-400")


@lru_cache(maxsize=1024)
def tile_sprite(tile: Tile, size: int, *, wild: bool = False) -> Image.Image:
    """An upright face-up tile `size` pixels wide (RGBA, cached: do not modify it)."""
    _check(tile, size)
    geo = Geometry(size)
    s = SUPERSAMPLE
    width, face_h, depth = size * s, geo.face_h * s, geo.depth * s
    surface = _face_surface((width, face_h), width * 0.13, back=False)
    surface.alpha_composite(_artwork(tile, width, face_h, wild))
    return _finish(_body(width, face_h, depth, surface, back=False))


@lru_cache(maxsize=256)
def turned_sprite(tile: Tile, size: int, *, wild: bool = False) -> Image.Image:
    """A face-up tile turned sideways (a claimed tile in a meld): as tall as `size` plus edge."""
    _check(tile, size)
    geo = Geometry(size)
    s = SUPERSAMPLE
    width, face_h, depth = size * s, geo.face_h * s, geo.depth * s
    art = _artwork(tile, width, face_h, wild).rotate(90, expand=True)
    surface = _face_surface((face_h, width), width * 0.13, back=False)
    surface.alpha_composite(art)
    return _finish(_body(face_h, width, depth, surface, back=False))


@lru_cache(maxsize=64)
def back_sprite(size: int) -> Image.Image:
    """A face-down tile `size` pixels wide, the same footprint as tile_sprite (cached)."""
    _check(0, size)
    geo = Geometry(size)
    s = SUPERSAMPLE
    width, face_h, depth = size * s, geo.face_h * s, geo.depth * s
    surface = _face_surface((width, face_h), width * 0.13, back=True)
    pen = Pen(surface)
    pen.rect((11, 11, 89, 121), 9, outline=BACK_LIGHT, width=3.2)
    pen.polygon([(50, 46), (68, 66), (50, 86), (32, 66)], BACK_LIGHT)
    pen.polygon([(50, 55), (59, 66), (50, 77), (41, 66)], _shade(BACK, 0.8))
    return _finish(_body(width, face_h, depth, surface, back=True))


@lru_cache(maxsize=512)
def dimmed_sprite(tile: Tile, size: int, *, wild: bool = False) -> Image.Image:
    """A face-up tile washed towards the felt: a pond tile that another seat claimed."""
    sprite = tile_sprite(tile, size, wild=wild)
    wash = Image.new("RGBA", sprite.size, (*FELT, 255))
    dim = Image.blend(sprite, wash, 0.55)
    dim.putalpha(sprite.getchannel("A"))
    return dim


@lru_cache(maxsize=64)
def frame_sprite(size: int, colour: RGB, thickness: int = 3) -> Image.Image:
    """A rounded outline a few pixels outside an upright tile: marks the latest discard."""
    geo = Geometry(size)
    s = SUPERSAMPLE
    pad = thickness + 1
    w, h = (size + 2 * pad) * s, (geo.height + 2 * pad) * s
    big = Image.new("RGBA", (w, h), (*colour, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, w - 1, h - 1), (size * 0.13 + pad) * s, outline=(*colour, 255), width=thickness * s
    )
    return _finish(big)
