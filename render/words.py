"""The words the pictures draw, from the catalogue (domain `pictures`), in the reader's language.

Every label a picture draws comes from here or is a view field worded with `worded`: a view
field that is a sentence may be a `Text` (worded per reader) or a plain string (a name, a tile).
"""

from __future__ import annotations

from engine import names
from engine.i18n import Text, translate

PREFIX = "pictures."


def say(language: str, key: str, /, **fields: object) -> str:
    """`pictures.<key>` in `language`."""
    return translate(language, PREFIX + key, **fields)


def wind_text(wind: int) -> Text:
    """East, South, West or North (0-3), as a picture has room for (engine.names)."""
    return names.wind_name(wind, short=True)


def suit_text(suit: str) -> Text | str:
    """characters, dots or bamboo (m, p, s), as a picture has room for."""
    return names.suit_name(suit, short=True)


unit_name = names.unit_name  # faan, fan, tai or points in a language


def value_text(value: int, unit: str, language: str) -> str:
    """'13 faan', '5 番': a score with its unit (just the number without a unit)."""
    if not unit:
        return str(value)
    return say(language, "value", value=value, unit=unit_name(unit, language))


def preset_text(preset_id: str, name: str) -> Text | str:
    """A preset's name as a picture has room for; one the catalogue lacks keeps its name."""
    return names.preset_name(preset_id, name, short=True)
