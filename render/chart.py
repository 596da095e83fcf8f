"""A small line chart of a player's rating after each rated hand (or game), for /mahjong stats."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.i18n import Text, worded
from render.style import FELT, FELT_DARK, GOLD, SUPERSAMPLE, TEXT, TEXT_DIM, font
from render.words import say

CHART_SIZE = (480, 200)
_MARGIN_LEFT, _MARGIN_RIGHT, _MARGIN_TOP, _MARGIN_BOTTOM = 56, 16, 34, 24


def render_rating_chart(
    ratings: Sequence[int], title: Text | str, language: str = "en", per_game: bool = False
) -> Image.Image:
    """The ratings (oldest first) as a gold line over their range; one rating is one dot.
    Counted as rated hands, or as rated games where the preset's ratings settle per game.

    The vertical range is the ratings' own, widened to at least 20 points so small moves do not
    look like cliffs; its ends are labelled.
    """
    if not ratings:
        raise ValueError("a rating chart needs at least one rating")
    width, height = CHART_SIZE
    canvas = Image.new("RGB", CHART_SIZE, FELT)
    draw = ImageDraw.Draw(canvas)
    draw.text((12, 6), worded(title, language), font=font(16), fill=TEXT)
    low, high = min(ratings), max(ratings)
    if high - low < 20:
        middle = (high + low) / 2
        low, high = round(middle - 10), round(middle + 10)
    box = (_MARGIN_LEFT, _MARGIN_TOP, width - _MARGIN_RIGHT, height - _MARGIN_BOTTOM)
    draw.rectangle(box, fill=FELT_DARK)
    draw.text((8, box[1] - 4), str(high), font=font(12), fill=TEXT_DIM)
    draw.text((8, box[3] - 12), str(low), font=font(12), fill=TEXT_DIM)
    count = len(ratings)
    counted = say(language, "chart.games" if per_game else "chart.hands", count=count)
    draw.text((box[0], box[3] + 4), counted, font=font(12), fill=TEXT_DIM)

    def point(index: int, rating: int) -> tuple[float, float]:
        inset = 8  # the line keeps clear of the box's edges
        across = box[2] - box[0] - 2 * inset
        x = box[0] + inset + across * (index / (count - 1) if count > 1 else 0.5)
        y = box[3] - inset - (box[3] - box[1] - 2 * inset) * (rating - low) / (high - low)
        return x * SUPERSAMPLE, y * SUPERSAMPLE

    # the line is drawn at SUPERSAMPLE times the size and reduced, for smooth edges
    line = Image.new("RGBA", (width * SUPERSAMPLE, height * SUPERSAMPLE), (0, 0, 0, 0))
    pen = ImageDraw.Draw(line)
    points = [point(i, r) for i, r in enumerate(ratings)]
    if len(points) > 1:
        pen.line(points, fill=(*GOLD, 255), width=3 * SUPERSAMPLE, joint="curve")
    x, y = points[-1]
    radius = 4 * SUPERSAMPLE
    pen.ellipse((x - radius, y - radius, x + radius, y + radius), fill=(*GOLD, 255))
    small = line.resize(CHART_SIZE, Image.Resampling.LANCZOS)
    canvas.paste(small, (0, 0), small)
    return canvas
