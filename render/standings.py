"""The final standings of a game that ended: one row a player, best place first, with their
points and final score. Drawn 800 px wide, so it reads at Discord's 400: names, places and
scores at 30 px and more there are 15 px and more on screen.

>>> view = StandingsView("Table 1", "Short game", 2, (
...     StandingRow(1, "Ann", 30, 50.0), StandingRow(2, "Bo", 0, 10.0)))
>>> render_standings(view).size
(800, 236)
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from engine.i18n import Number, Text, worded
from render.style import (
    BADGE_BROWN,
    FELT,
    FELT_DARK,
    GOLD,
    MINUS,
    PANEL,
    PLUS,
    TEXT,
    TEXT_DIM,
    fit_size,
    fit_text,
    line_height,
    paste_text,
    pill,
    rounded_box,
    text_width,
)
from render.words import say

WIDTH = 800
MARGIN = 12
HEADER = 62
ROW = 60
TITLE_PX = 26
SUB_PX = 20
ROW_PX = 30
FIRST_PLACE_PANEL = (58, 104, 60)


@dataclass(frozen=True, slots=True)
class StandingRow:
    place: int
    name: Text | str
    points: int
    score: float


@dataclass(frozen=True, slots=True)
class StandingsView:
    """A finished game: the table, its preset, how many hands, and the rows best first."""

    table_name: Text | str
    preset_name: Text | str
    hands: int
    rows: tuple[StandingRow, ...]
    channel_name: str = ""


def score_text(score: float) -> str:
    """A final score with its sign, a decimal only where it has one: '+53', '-11.6'.

    >>> score_text(53.0), score_text(-11.6), score_text(0.0), score_text(-1180.0)
    ('+53', '-11.6', '0', '-1,180')
    """
    if score == 0:
        return "0"
    return f"{score:+,.1f}".removesuffix(".0")


def render_standings(view: StandingsView, language: str = "en") -> Image.Image:
    """Draw the final standings in `language`."""
    subtitle = _subtitle_lines(view, language)
    header = HEADER + (len(subtitle) - 1) * line_height(SUB_PX)
    height = header + line_height(SUB_PX) + len(view.rows) * ROW + 2 * MARGIN
    canvas = Image.new("RGB", (WIDTH, height), FELT)
    _header(canvas, header, subtitle, language)
    y = header
    score_x, points_x = WIDTH - 2 * MARGIN, WIDTH - 2 * MARGIN - 170
    paste_text(
        canvas, (points_x, y), say(language, "standings.points"), SUB_PX, TEXT_DIM, align="r"
    )
    paste_text(canvas, (score_x, y), say(language, "standings.score"), SUB_PX, TEXT_DIM, align="r")
    y += line_height(SUB_PX)
    for row in view.rows:
        fill = FIRST_PLACE_PANEL if row.place == 1 else PANEL
        rounded_box(canvas, (MARGIN, y + 4, WIDTH - MARGIN, y + ROW - 4), 10, fill)
        text_y = y + (ROW - line_height(ROW_PX)) // 2
        paste_text(canvas, (2 * MARGIN, text_y), f"{row.place}", ROW_PX, GOLD)
        name = fit_text(worded(row.name, language), ROW_PX, points_x - 120 - 6 * MARGIN)
        paste_text(canvas, (2 * MARGIN + 48, text_y), name, ROW_PX, TEXT)
        paste_text(
            canvas,
            (points_x, text_y),
            Number(row.points).in_language(language),
            ROW_PX,
            TEXT,
            align="r",
        )
        colour = PLUS if row.score > 0 else MINUS if row.score < 0 else TEXT
        paste_text(canvas, (score_x, text_y), score_text(row.score), ROW_PX, colour, align="r")
        y += ROW
    return canvas


def _pill_width(language: str) -> int:
    return text_width(say(language, "standings.badge"), SUB_PX) + SUB_PX


def _subtitle_lines(view: StandingsView, language: str) -> list[str]:
    """Channel, table, preset and hands joined by " · ", wrapped between the parts (never cut
    inside one unless a part alone is wider than the line)."""
    room = WIDTH - 3 * MARGIN - _pill_width(language)
    channel = f"#{view.channel_name.lstrip('#')}" if view.channel_name else ""
    parts = (
        channel,
        worded(view.table_name, language),
        worded(view.preset_name, language),
        say(language, "standings.hands", hands=view.hands),
    )
    lines: list[str] = []
    for part in filter(None, parts):
        joined = f"{lines[-1]} · {part}" if lines else part
        if lines and text_width(joined, SUB_PX) <= room:
            lines[-1] = joined
        else:
            lines.append(fit_text(part, SUB_PX, room))
    return lines


def _header(canvas: Image.Image, height: int, subtitle: list[str], language: str) -> None:
    canvas.paste(FELT_DARK, (0, 0, canvas.width, height - 10))
    badge = say(language, "standings.badge")
    pill_w = _pill_width(language)
    room = WIDTH - 3 * MARGIN - pill_w
    title, size = fit_size(say(language, "standings.title"), TITLE_PX, room, SUB_PX)
    paste_text(canvas, (MARGIN, 0), title, size, TEXT)
    y = line_height(TITLE_PX) - 8
    for line in subtitle:
        paste_text(canvas, (MARGIN, y), line, SUB_PX, TEXT_DIM)
        y += line_height(SUB_PX)
    pill(canvas, (WIDTH - MARGIN - pill_w, 14), badge, SUB_PX, BADGE_BROWN, GOLD)
