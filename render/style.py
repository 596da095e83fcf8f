"""Colours, fonts, cached text labels, rounded panels and PNG encoding shared by every picture."""

from __future__ import annotations

import io
import re
from functools import lru_cache

import noto_cjk_sans_jp_bold
from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]

# The one font: Noto Sans CJK JP Bold (OFL-1.1, shipped by a pip package, so no system font is
# assumed). It has every CJK glyph we draw and a clean Latin for the labels.
FONT_PATH: str = str(noto_cjk_sans_jp_bold.FONT_PATH)

SUPERSAMPLE = 4  # Pillow's shapes are not anti-aliased: draw at 4x and reduce

FELT: RGB = (22, 74, 52)
FELT_DARK: RGB = (16, 56, 39)
PANEL: RGB = (30, 92, 66)
PANEL_TURN: RGB = (44, 112, 80)
GOLD: RGB = (240, 190, 60)
TEXT: RGB = (246, 242, 228)
TEXT_DIM: RGB = (176, 204, 186)
PLUS: RGB = (140, 230, 150)
MINUS: RGB = (255, 140, 130)
MARK: RGB = (255, 120, 40)  # latest discard frame
BADGE_RED: RGB = (196, 44, 44)
BADGE_BLUE: RGB = (44, 86, 170)
BADGE_GREEN: RGB = (40, 140, 80)
BADGE_GREY: RGB = (90, 110, 100)
BADGE_BROWN: RGB = (110, 84, 20)  # under gold text

WIND_GLYPHS = "東南西北"
WIND_NAMES = ("East", "South", "West", "North")
SUIT_GLYPHS = {"m": "萬", "p": "筒", "s": "條"}
SUIT_NAMES = {"m": "characters", "p": "dots", "s": "bamboo"}


@lru_cache(maxsize=64)
def font(px: int) -> ImageFont.FreeTypeFont:
    """The bold CJK font at this pixel size (loaded once per size)."""
    return ImageFont.truetype(FONT_PATH, px)


@lru_cache(maxsize=2048)
def text_image(text: str, px: int, colour: RGB) -> Image.Image:
    """A label as an RGBA image whose box is the font's line box, cached for reuse.

    The box is the line box (ascender to descender), not the ink, so labels in a row share a
    baseline whatever their letters.
    """
    face = font(px)
    ascent, descent = face.getmetrics()
    width = max(1, round(face.getlength(text)))
    mask = Image.new("L", (width + 2, ascent + descent))
    ImageDraw.Draw(mask).text((1, 0), text, font=face, fill=255)
    label = Image.new("RGBA", mask.size, (*colour, 0))
    label.putalpha(mask)
    return label


def words_of(text: str) -> list[str]:
    """The pieces a line may break between: words with their spaces, or, in a text with no
    space (a Chinese sentence), its characters."""
    if " " not in text.strip():
        return list(text)
    return re.findall(r"\S+\s*|\s+", text)


def fit_text(text: str, px: int, max_width: int) -> str:
    """The text, shortened with an ellipsis after its last whole word that fits max_width.

    Only a first word too long for the room on its own is cut inside.
    """
    face = font(px)
    if face.getlength(text) <= max_width:
        return text
    words = words_of(text)
    while len(words) > 1 and face.getlength("".join(words).rstrip() + "…") > max_width:
        words.pop()
    text = "".join(words).rstrip()
    while text and face.getlength(text + "…") > max_width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap_words(text: str, px: int, max_width: int) -> list[str]:
    """The text in lines no wider than max_width, broken between words (a word longer than
    the line gets a line of its own)."""
    face = font(px)
    lines = [""]
    for word in words_of(text):
        wider = lines[-1] + word
        if lines[-1].strip() and face.getlength(wider.rstrip()) > max_width:
            lines.append(word.lstrip())
        else:
            lines[-1] = wider
    return [line.rstrip() for line in lines]


def fit_lines(
    text: str, px: int, max_width: int, smallest: int, max_lines: int = 2
) -> tuple[list[str], int]:
    """Lines of the text at the largest size from px down to smallest that needs at most
    max_lines whole-word lines; at the smallest, the last line ends at a whole word with an
    ellipsis. A sentence is wrapped or made smaller, never cut inside a word."""
    for size in range(px, smallest - 1, -1):
        lines = wrap_words(text, size, max_width)
        if len(lines) <= max_lines and all(font(size).getlength(x) <= max_width for x in lines):
            return lines, size
    lines = wrap_words(text, smallest, max_width)
    if len(lines) > max_lines:
        start = 0
        for line in lines[: max_lines - 1]:
            start = text.index(line, start) + len(line)
        rest = fit_text(text[start:].strip(), smallest, max_width)
        lines = [*lines[: max_lines - 1], rest]
    return lines, smallest


def fit_size(text: str, px: int, max_width: int, smallest: int) -> tuple[str, int]:
    """Shrink the font (down to `smallest` px) before shortening: names stay whole and distinct."""
    for size in range(px, smallest - 1, -1):
        if font(size).getlength(text) <= max_width:
            return text, size
    return fit_text(text, smallest, max_width), smallest


def paste_text(
    canvas: Image.Image, xy: tuple[int, int], text: str, px: int, colour: RGB, *, align: str = "l"
) -> int:
    """Draw a cached label with its line box's top at y; align 'l', 'c' or 'r' on x.

    Returns the label width so callers can chain labels on a line.
    """
    label = text_image(text, px, colour)
    x, y = xy
    if align == "c":
        x -= label.width // 2
    elif align == "r":
        x -= label.width
    canvas.paste(label, (x, y), label)
    return label.width


def text_width(text: str, px: int) -> int:
    return text_image(text, px, TEXT).width


def line_height(px: int) -> int:
    ascent, descent = font(px).getmetrics()
    return ascent + descent


@lru_cache(maxsize=64)
def _corner_mask(radius: int) -> Image.Image:
    """An anti-aliased disc of this radius, cut into corners by rounded_box."""
    big = Image.new("L", (radius * 2 * SUPERSAMPLE,) * 2)
    ImageDraw.Draw(big).ellipse((0, 0, big.width - 1, big.height - 1), fill=255)
    return big.reduce(SUPERSAMPLE)


def rounded_box(
    canvas: Image.Image, box: tuple[int, int, int, int], radius: int, fill: RGB
) -> None:
    """Fill a box with anti-aliased rounded corners (cheap: two rectangles and four corners)."""
    x0, y0, x1, y1 = box
    radius = max(1, min(radius, (x1 - x0) // 2, (y1 - y0) // 2))
    draw = ImageDraw.Draw(canvas)
    if x1 - radius - 1 >= x0 + radius:
        draw.rectangle((x0 + radius, y0, x1 - radius - 1, y1 - 1), fill=fill)
    if y1 - radius - 1 >= y0 + radius:
        draw.rectangle((x0, y0 + radius, x1 - 1, y1 - radius - 1), fill=fill)
    disc = _corner_mask(radius)
    r = radius
    corners = {
        (x0, y0): (0, 0, r, r),
        (x1 - r, y0): (r, 0, 2 * r, r),
        (x0, y1 - r): (0, r, r, 2 * r),
        (x1 - r, y1 - r): (r, r, 2 * r, 2 * r),
    }
    for (x, y), crop in corners.items():
        canvas.paste(fill, (x, y, x + r, y + r), disc.crop(crop))


def pill(
    canvas: Image.Image, xy: tuple[int, int], text: str, px: int, fill: RGB, colour: RGB = TEXT
) -> int:
    """A rounded badge with a label, its top-left at xy; returns its width."""
    label = text_image(text, px, colour)
    pad = px // 2
    height = line_height(px)
    x, y = xy
    rounded_box(canvas, (x, y, x + label.width + 2 * pad, y + height), height // 2, fill)
    canvas.paste(label, (x + pad, y), label)
    return label.width + 2 * pad


def to_png(image: Image.Image) -> bytes:
    """Encode as a 128-colour palette PNG: a third of the bytes of RGB, with no visible banding."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    palette = rgb.quantize(128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, format="PNG", compress_level=6)
    return out.getvalue()
