"""A win's words in a tenhou.net/6 log, read and written: the points line ("30符1飜1000点",
"満貫2000-4000点", "1300点∀") and the yaku ("立直(1飜)", "国士無双(役満)"), as our yaku ids
(engine.families.riichi.scoring) and han.

Tenhou names the seat and round winds with the wind ("自風 東", "場風 南"); we name them by role
(`yakuhai_seat_wind`, `yakuhai_round_wind`), so the wind is read away and written back from the
seat. A yaku worth nothing here (Tenhou lists "裏ドラ(0飜)" after every riichi win) is left out.

>>> read_win_texts(("40符3飜1300-2600点", "立直(1飜)", "自風 東(1飜)", "裏ドラ(0飜)"))
WinWords(han=2, fu=40, limit=None, yaku=(('riichi', 1), ('yakuhai_seat_wind', 1)))
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.presets import riichi_terms

WIND_NAMES = "東南西北"
SEAT_WIND, ROUND_WIND = "自風", "場風"

# Our yaku ids as Tenhou writes them (the winds with their wind: see the module's docstring), in
# the order Tenhou lists them.
YAKU_NAMES: dict[str, str] = {
    "menzen_tsumo": "門前清自摸和",
    "riichi": "立直",
    "ippatsu": "一発",
    "chankan": "槍槓",
    "rinshan": "嶺上開花",
    "haitei": "海底摸月",
    "houtei": "河底撈魚",
    "pinfu": "平和",
    "tanyao": "断幺九",
    "iipeikou": "一盃口",
    "yakuhai_seat_wind": SEAT_WIND,  # written with the seat's wind
    "yakuhai_round_wind": ROUND_WIND,  # written with the round's wind
    "yakuhai_haku": "役牌 白",
    "yakuhai_hatsu": "役牌 發",
    "yakuhai_chun": "役牌 中",
    "double_riichi": "両立直",
    "chiitoitsu": "七対子",
    "chanta": "混全帯幺九",
    "ittsu": "一気通貫",
    "sanshoku": "三色同順",
    "sanshoku_doukou": "三色同刻",
    "sankantsu": "三槓子",
    "toitoi": "対々和",
    "sanankou": "三暗刻",
    "shousangen": "小三元",
    "honroutou": "混老頭",
    "ryanpeikou": "二盃口",
    "junchan": "純全帯幺九",
    "honitsu": "混一色",
    "chinitsu": "清一色",
    "tenhou": "天和",
    "chiihou": "地和",
    "daisangen": "大三元",
    "suuankou": "四暗刻",
    "suuankou_tanki": "四暗刻単騎",
    "tsuuiisou": "字一色",
    "ryuuiisou": "緑一色",
    "chinroutou": "清老頭",
    "chuuren_poutou": "九蓮宝燈",
    "junsei_chuuren_poutou": "純正九蓮宝燈",
    "kokushi_musou": "国士無双",
    "kokushi_musou_juusanmen": "国士無双１３面",
    "daisuushii": "大四喜",
    "shousuushii": "小四喜",
    "suukantsu": "四槓子",
    "dora": "ドラ",
    "ura_dora": "裏ドラ",
    "aka_dora": "赤ドラ",
    "nuki_dora": "抜きドラ",
}
_IDS = {name: yaku for yaku, name in YAKU_NAMES.items()}
TENHOU_ORDER = {yaku: place for place, yaku in enumerate(YAKU_NAMES)}
# Mahjong Soul's names, as logs converted from it write them (Japanese and English)
_IDS |= {
    "役牌:自風牌": "yakuhai_seat_wind",
    "役牌:場風牌": "yakuhai_round_wind",
    "ダブル立直": "double_riichi",
    "国士無双十三面待ち": "kokushi_musou_juusanmen",
    "Fully Concealed Hand": "menzen_tsumo",
    "Riichi": "riichi",
    "Robbing a Kan": "chankan",
    "After a Kan": "rinshan",
    "Under the Sea": "haitei",
    "Under the River": "houtei",
    "White Dragon": "yakuhai_haku",
    "Green Dragon": "yakuhai_hatsu",
    "Red Dragon": "yakuhai_chun",
    "Seat Wind": "yakuhai_seat_wind",
    "Prevalent Wind": "yakuhai_round_wind",
    "All Simples": "tanyao",
    "Pure Double Sequence": "iipeikou",
    "Pinfu": "pinfu",
    "Half Outside Hand": "chanta",
    "Pure Straight": "ittsu",
    "Mixed Triple Sequence": "sanshoku",
    "Double Riichi": "double_riichi",
    "Triple Triplets": "sanshoku_doukou",
    "Three Quads": "sankantsu",
    "All Triplets": "toitoi",
    "Three Concealed Triplets": "sanankou",
    "Little Three Dragons": "shousangen",
    "All Terminals and Honors": "honroutou",
    "Seven Pairs": "chiitoitsu",
    "Fully Outside Hand": "junchan",
    "Half Flush": "honitsu",
    "Twice Pure Double Sequence": "ryanpeikou",
    "Full Flush": "chinitsu",
    "Ippatsu": "ippatsu",
    "Dora": "dora",
    "Red Five": "aka_dora",
    "Ura Dora": "ura_dora",
    "Kita": "nuki_dora",
    "Blessing of Heaven": "tenhou",
    "Blessing of Earth": "chiihou",
    "Big Three Dragons": "daisangen",
    "Four Concealed Triplets": "suuankou",
    "All Honors": "tsuuiisou",
    "All Green": "ryuuiisou",
    "All Terminals": "chinroutou",
    "Thirteen Orphans": "kokushi_musou",
    "Four Little Winds": "shousuushii",
    "Four Quads": "suukantsu",
    "Nine Gates": "chuuren_poutou",
    "True Nine Gates": "junsei_chuuren_poutou",
    "Single-wait Four Concealed Triplets": "suuankou_tanki",
    "Thirteen-wait Thirteen Orphans": "kokushi_musou_juusanmen",
    "Four Big Winds": "daisuushii",
}

LIMIT_NAMES = {
    riichi_terms.Limit.MANGAN: "満貫",
    riichi_terms.Limit.HANEMAN: "跳満",
    riichi_terms.Limit.BAIMAN: "倍満",
    riichi_terms.Limit.SANBAIMAN: "三倍満",
    riichi_terms.Limit.YAKUMAN: "役満",
}
_LIMITS = {name: limit for limit, name in LIMIT_NAMES.items()} | {
    "数え役満": riichi_terms.Limit.YAKUMAN
}
YAKUMAN_WORD = "役満"
ALL_PAY = "∀"  # a dealer's self draw: every other seat pays the same

# ASCII digits, and few: `\d` takes other scripts' digits, and `int` refuses 4,300 and more
_POINTS = re.compile(
    r"^(?:(?P<fu>[0-9]{1,6})符)?(?:(?P<han>[0-9]{1,6})飜)?"
    r"(?P<limit>数え役満|三倍満|満貫|跳満|倍満|役満)?"
    r"(?P<a>[0-9]{1,9})(?:-(?P<b>[0-9]{1,9}))?点(?P<all>∀)?$"
)
_YAKU = re.compile(r"^(?P<name>.+)\((?:(?P<han>[0-9]{1,6})飜|(?P<yakuman>役満))\)$")


class WinWordsError(ValueError):
    """A points line or a yaku that the log writes in no form we know."""


@dataclass(frozen=True, slots=True)
class WinWords:
    """What a win's words say: the han the yaku add up to, the fu where the points line
    gives it (limit hands name no fu), the limit named, and each yaku with its han."""

    han: int
    fu: int | None
    limit: riichi_terms.Limit | None
    yaku: tuple[tuple[str, int], ...]


def yaku_id(name: str) -> str:
    """Our id of a yaku as the log names it."""
    name = name.strip()
    if name.startswith(SEAT_WIND):
        return "yakuhai_seat_wind"
    if name.startswith(ROUND_WIND):
        return "yakuhai_round_wind"
    found = _IDS.get(name)
    if found is None:
        raise WinWordsError(f"{name!r} is not a yaku we know")
    return found


def read_win_texts(texts: Sequence[str]) -> WinWords:
    """The points line and the yaku of one win of a log (`Win.texts`)."""
    if not texts:
        raise WinWordsError("a win without its points line")
    points = _POINTS.match(texts[0])
    if points is None:
        raise WinWordsError(f"{texts[0]!r} is not a points line")
    yaku = []
    for item in texts[1:]:
        found = _YAKU.match(item)
        if found is None:
            raise WinWordsError(f"{item!r} is not a yaku with its han")
        han = riichi_terms.YAKUMAN_HAN if found["yakuman"] else int(found["han"])
        if han:
            yaku.append((yaku_id(found["name"]), han))
    fu = points["fu"]
    limit = _LIMITS.get(points["limit"] or "")
    return WinWords(sum(h for _, h in yaku), None if fu is None else int(fu), limit, tuple(yaku))


def yaku_text(yaku: str, han: int, seat_wind: int, round_wind: int) -> str:
    """One yaku as Tenhou writes it, e.g. `立直(1飜)`, `場風 南(1飜)`, `大三元(役満)`."""
    if yaku == "yakuhai_seat_wind":
        name = f"{SEAT_WIND} {WIND_NAMES[seat_wind]}"
    elif yaku == "yakuhai_round_wind":
        name = f"{ROUND_WIND} {WIND_NAMES[round_wind]}"
    else:
        name = YAKU_NAMES[yaku]
    if yaku in riichi_terms.YAKUMAN_IDS:
        return f"{name}({YAKUMAN_WORD})"
    return f"{name}({han}飜)"


def points_text(
    han: int, fu: int, limit: riichi_terms.Limit | None, points: dict[str, int], dealer: bool
) -> str:
    """The points line: `{fu}符{han}飜` or the limit's name, then the price without honba
    (a ron's, `others-dealer` of a self draw, `each∀` of a dealer's self draw)."""
    head = LIMIT_NAMES[limit] if limit is not None else f"{fu}符{han}飜"
    if "discarder" in points:
        return f"{head}{points['discarder']}点"
    if dealer:
        return f"{head}{points['each']}点{ALL_PAY}"
    return f"{head}{points['others']}-{points['dealer']}点"
