"""Presets, winds, suits and units in the reader's language: the one place that names them, for
the runtime's messages, the pictures and the terminal.

Each name has two forms in the catalogue: the full one a sentence or a message uses (`bot.`
keys: "万子", "湖北红中赖子杠") and the short one a picture has room for (`pictures.` keys:
"万", "红中赖子杠"). A name is a `Text`, worded per reader; a preset the catalogue lacks keeps
its own name.

>>> preset_name("hk-fw2", "HK").in_language("zh-CN"), preset_name("hk-fw2", "", short=True)
('香港 · 四风2', Text(key='pictures.preset.hk-fw2', fields={}))
"""

from __future__ import annotations

from engine.i18n import Text, has, text, translate

SUITS = {"m": "characters", "p": "dots", "s": "bamboo"}  # the suit letters, in English words


def _form(short: bool) -> str:
    return "pictures" if short else "bot"


def preset_name(preset_id: str, own_name: str, *, short: bool = False) -> Text | str:
    """A preset's name as its players call it; one the catalogue lacks keeps `own_name`."""
    key = f"pictures.preset.{preset_id}" if short else f"bot.preset.{preset_id}.name"
    return Text(key) if has(key) else own_name


def preset_summary(preset_id: str, own_summary: str) -> Text | str:
    """A preset's rules in one sentence; one the catalogue lacks keeps `own_summary`."""
    key = f"bot.preset.{preset_id}.summary"
    return text(key) if has(key) else own_summary


def wind_name(wind: int, *, short: bool = False) -> Text:
    """East, South, West or North (0-3): a seat's or a round's wind."""
    return text(f"{_form(short)}.wind.{wind}")


def suit_name(suit: str | None, *, short: bool = False) -> Text | str:
    """characters, dots or bamboo (m, p, s); an unknown letter as it is."""
    return text(f"{_form(short)}.suit.{suit}") if suit in SUITS else suit or ""


def unit_amount(unit: str, amount: int) -> Text:
    """An amount in a preset's unit ('5 faan', '2 points')."""
    return text(f"bot.unit.{unit}", amount=amount)


def unit_name(unit: str, language: str) -> str:
    """faan, fan, tai or points in `language` (the short form); any other unit as it is."""
    key = f"pictures.unit.{unit}"
    return translate(language, key) if has(key) else unit
