"""Point sticks as the table shows them: a thousand stick (a riichi stake, one red dot) and a
hundred stick (the honba counter, black dots), small enough for a seat's card line."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.style import SUPERSAMPLE

STICK_W, STICK_H = 44, 9  # 20 x 4 px at Discord's 400
STICK_FACE = (250, 248, 240)
STICK_EDGE = (40, 40, 40)
RED_DOT = (210, 30, 30)
BLACK_DOT = (30, 30, 30)


@lru_cache(maxsize=8)
def stick_sprite(worth: int) -> Image.Image:
    """A white stick with its marks: 1000 one red dot, 100 a row of black dots (cached)."""
    s = SUPERSAMPLE
    w, h = STICK_W * s, STICK_H * s
    big = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    draw.rounded_rectangle(
        (0, 0, w - 1, h - 1), h // 2, fill=STICK_FACE, outline=STICK_EDGE, width=s
    )
    cy, r = h / 2, h * 0.28
    if worth >= 1000:
        draw.ellipse((w / 2 - r * 1.3, cy - r * 1.3, w / 2 + r * 1.3, cy + r * 1.3), fill=RED_DOT)
    else:
        for i in range(4):
            cx = w * (0.26 + 0.16 * i)
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BLACK_DOT)
    return big.convert("RGBa").reduce(s).convert("RGBA")  # premultiplied: no dark fringe
