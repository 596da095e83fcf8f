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

from engine.i18n import Number, Text, has, text, translate

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


def vocabulary_key(key: str, vocabulary: str) -> str:
    """`key` as the players of a preset say it (`Preset.vocabulary`): the catalogue's
    `<key>.<vocabulary>` where it has one, else `key` itself.

    >>> vocabulary_key("bot.call.win", "riichi"), vocabulary_key("bot.call.win", "")
    ('bot.call.win.riichi', 'bot.call.win')
    """
    own = f"{key}.{vocabulary}"
    return own if vocabulary and has(own) else key


def hand_name(
    vocabulary: str,
    round_wind: int,
    number: int,
    honba: int,
    *,
    all_last: bool = False,
    short: bool = False,
) -> Text | None:
    """A hand as its players name it, where the preset's words name hands (`Preset.vocabulary`
    "riichi": 'East 2, 1 honba', 'All Last', 东2局 1本场): the `number`th deal of the
    `round_wind` round, `all_last` for the game's last hand. None where the words have no
    names for hands (the table says 'hand 3' and the round's wind instead). `short`: as a
    picture has room for it, beside the round's wind tile and the honba sticks ('All Last',
    'East 2').

    >>> str(hand_name("riichi", 0, 2, 1)), str(hand_name("riichi", 1, 4, 0, all_last=True))
    ('East 2, 1 honba', 'All Last')
    >>> hand_name("", 0, 2, 1) is None
    True
    """
    key = f"bot.hand_name.{vocabulary}"
    if not vocabulary or not has(key):
        return None
    wind = wind_name(round_wind)
    if short:
        last = f"{key}.all_last_short"
        return text(last) if all_last else text(key, wind=wind, number=number)
    name = text(f"{key}.all_last" if all_last else key, wind=wind, number=number)
    return text(f"{key}.honba", hand=name, honba=honba) if honba else name


def extra_round(vocabulary: str, round_wind: int, target: int) -> Text | None:
    """The line said as a game goes on into a round beyond its length because nobody has its
    `target` ('South round: nobody has 30,000 (南入)'); None where the words lack it."""
    key = f"bot.extra_round.{vocabulary}"
    if not vocabulary or not has(key):
        return None
    return text(key, wind=wind_name(round_wind), target=Number(target))
