"""The words the pictures draw, from the catalogue (domain `pictures`), in the reader's language.

Every label a picture draws comes from here or is a view field worded with `worded`: a view
field that is a sentence may be a `Text` (worded per reader) or a plain string (a name, a tile).
"""

from __future__ import annotations

from engine.i18n import Text, has, translate

PREFIX = "pictures."


def say(language: str, key: str, /, **fields: object) -> str:
    """`pictures.<key>` in `language`."""
    return translate(language, PREFIX + key, **fields)


def wind_text(wind: int) -> Text:
    """East, South, West or North (0-3)."""
    return Text(f"{PREFIX}wind.{wind}")


def suit_text(suit: str) -> Text:
    """characters, dots or bamboo (m, p, s)."""
    return Text(f"{PREFIX}suit.{suit}")


def unit_name(unit: str, language: str) -> str:
    """faan, fan, tai or points in `language`; any other unit as it is."""
    key = f"{PREFIX}unit.{unit}"
    return translate(language, key) if has(key) else unit


def value_text(value: int, unit: str, language: str) -> str:
    """'13 faan', '5 番': a score with its unit (just the number without a unit)."""
    if not unit:
        return str(value)
    return say(language, "value", value=value, unit=unit_name(unit, language))


def preset_text(preset_id: str, name: str) -> Text | str:
    """A preset's name as its players call it; a preset the catalogue lacks keeps its name."""
    key = f"{PREFIX}preset.{preset_id}"
    return Text(key) if has(key) else name
