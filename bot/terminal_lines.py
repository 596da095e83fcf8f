"""The terminal's table lines as a Riichi (or any) player reads them: the hand named as players
name it, no flowers column where the preset has no flowers, the legend of the discard marks,
and every line within the terminal's 80 columns."""

from __future__ import annotations

import unicodedata

from engine.i18n import translate, worded
from engine.names import vocabulary_key
from engine.presets import find_preset
from render.views import TableView
from render.words import wind_text

WIDTH = 80  # the columns a terminal line keeps within


def columns(text: str) -> int:
    """How many terminal columns `text` takes (a Chinese character takes two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def head_text(view: TableView, language: str, extras: str) -> str:
    """The table's head: the hand as its players name it ('East 2, 1 honba · wall 50'), else
    the round's wind ('East round · wall 50')."""
    count = view.wall_left
    if view.hand_name:
        hand = worded(view.hand_name, language)
        return translate(
            language, "terminal.table.head_named", hand=hand, count=count, extras=extras
        )
    wind = wind_text(view.prevailing_wind)
    return translate(language, "terminal.table.head", wind=wind, count=count, extras=extras)


def seat_key(preset_id: str) -> str:
    """A seat line's message: with its flowers where the preset has flowers."""
    flowers = find_preset(preset_id).uses_bonus
    return "terminal.table.seat" if flowers else "terminal.table.seat_no_flowers"


def legend(preset_id: str, language: str) -> str:
    """One line saying what the discards' marks mean: '(6z)' called, '[8p]' the riichi discard."""
    vocabulary = find_preset(preset_id).vocabulary
    return translate(language, vocabulary_key("terminal.legend", vocabulary))


KEEP_TOGETHER = "\u00a0"  # a space `within` never cuts at (printed as a plain one)


def together(words: str) -> str:
    """`words` kept on one line by `within` (a standings entry: '4. You 22,000')."""
    return words.replace(" ", KEEP_TOGETHER)


def within(line: str, indent: int, width: int = WIDTH) -> list[str]:
    """`line` cut at spaces into lines of at most `width` columns, the later ones indented by
    `indent` spaces (a seat's discards go on under its line). A word longer than the room
    stays whole, and so do words joined by `together`."""
    lead = len(line) - len(line.lstrip(" "))
    lines: list[str] = []
    current = line[:lead]
    for word in line[lead:].split(" "):
        candidate = f"{current} {word}" if current.strip() else current + word
        if current.strip() and columns(candidate) > width:
            lines.append(current.rstrip())
            current = " " * indent + word
        else:
            current = candidate
    lines.append(current.rstrip())
    return [part.replace(KEEP_TOGETHER, " ") for part in lines]
