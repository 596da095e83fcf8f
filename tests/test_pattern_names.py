"""Pattern names in each variant's own terms (engine/scoring/names.py, domain `patterns`)."""

from __future__ import annotations

import pytest

from engine.families.classical import scoring as classical
from engine.families.hongkong import scoring_fourwinds as fourwinds
from engine.families.hongkong import scoring_hk3fan as hk3fan
from engine.families.hongkong import scoring_hkos as hkos
from engine.families.hubei import scoring as hubei
from engine.families.riichi import scoring as riichi
from engine.families.sichuan import scoring as sichuan
from engine.families.taiwan import scoring as taiwan
from engine.formats.score_request import score_request
from engine.i18n import LANGUAGES
from engine.presets import PRESETS
from engine.scoring.names import named_patterns, pattern_name, pattern_text, pattern_words
from render.views import pretty_pattern

FOURWINDS_PENALTIES = ("insurance_classical", "insurance_nine_tiles", "insurance_last_five")
# every pattern id each family's scoring can give
SCORED = {
    "hkos": {*hkos.FAAN, *hkos.LIMIT_PATTERNS},
    "hk3fan": {*hk3fan.FAN, *hk3fan.LIMIT_PATTERNS},
    "fourwinds": {*fourwinds.FAAN, *fourwinds.LIMIT_PATTERNS, *FOURWINDS_PENALTIES},
    "taiwan": set(taiwan.TAI),
    "sichuan": set(sichuan.FAN),
    "guangdong": {*sichuan.FAN, "thirteen_orphans"},
    "redwild": {"four_red_dragons"},
    "hubei": set(hubei.FAN),
    "riichi": {*riichi.YAKU_IDS.values(), "nuki_dora"},  # sanma names its norths apart
    "classical": {*classical.POINT_IDS, *classical.DOUBLE_IDS, *classical.LIMIT_IDS},
}


def test_every_preset_family_is_named() -> None:
    assert {preset.family for preset in PRESETS.values()} <= set(SCORED)


@pytest.mark.parametrize("family", sorted(SCORED))
def test_every_pattern_a_family_scores_has_a_name_and_no_other(family: str) -> None:
    assert sorted(named_patterns(family)) == sorted(SCORED[family])


@pytest.mark.parametrize("family", sorted(SCORED.keys() - {"riichi"}))
def test_english_names_are_the_words_the_pictures_always_used(family: str) -> None:
    for pattern in SCORED[family]:
        assert pattern_name(family, pattern, "en") == pretty_pattern(pattern)
        assert pattern_words(pattern) == pretty_pattern(pattern)


def test_riichi_names_are_the_words_riichi_players_write() -> None:
    # Riichi's ids are the romanised yaku; a few read as the community writes them, not as ids
    names = {p: pattern_name("riichi", p, "en") for p in SCORED["riichi"]}
    assert names["menzen_tsumo"] == "Menzen tsumo" and names["rinshan"] == "Rinshan kaihou"
    assert names["yakuhai_haku"] == "Yakuhai: haku" and names["tanyao"] == "Tanyao"


@pytest.mark.parametrize("family", sorted(SCORED))
@pytest.mark.parametrize("language", ["zh-CN", "zh-TW"])
def test_chinese_names_are_chinese(family: str, language: str) -> None:
    for pattern in SCORED[family]:
        name = pattern_name(family, pattern, language)
        assert name and all("\u4e00" <= ch <= "\u9fff" for ch in name), (pattern, name)


# A concrete winning hand per family and the names its patterns take, in Simplified and
# Traditional characters: each variant's own terms (all pungs is 對對糊 in Hong Kong, 碰碰胡 in
# Taiwan, Guangdong and Hubei, 大对子 in Sichuan).
HANDS = [
    (
        {"preset": "hkos-3-v1", "hand": "111m555p999s222s77m", "win": "7m"},
        ["对对胡", "无花"],
        ["對對糊", "無花"],
    ),
    (
        {"preset": "hk-3fan", "hand": "11223344556677m", "win": "7m", "by": "self_draw"},
        ["七对", "清一色", "自摸"],
        ["七對", "清一色", "自摸"],
    ),
    (
        {"preset": "hk-fw2", "hand": "123m456m789m555z11m", "win": "1m"},
        ["三元牌", "混一色", "无花"],
        ["三元牌", "混一色", "無花"],
    ),
    (
        {"preset": "tw-16", "hand": "111m222m333m444m555m77z", "win": "7z", "by": "self_draw"},
        ["门清", "自摸", "碰碰胡", "混一色"],
        ["門清", "自摸", "碰碰胡", "混一色"],
    ),
    (
        {"preset": "sichuan-bb", "hand": "111m222m333m444m55m", "win": "5m", "by": "self_draw"},
        ["大对子", "清一色", "自摸"],
        ["大對子", "清一色", "自摸"],
    ),
    (
        {"preset": "guangdong", "hand": "19m19p19s12345677z", "win": "7z", "by": "self_draw"},
        ["十三幺"],
        ["十三么"],
    ),
    (
        {"preset": "redwild", "hand": "7777z123m456p789s1s", "win": "1s", "by": "self_draw"},
        ["四红中"],
        ["四紅中"],
    ),
    (
        {
            "preset": "hubei-laizi",
            "hand": "22m",
            "win": "2m",
            "melds": [
                "pung 555m from N",
                "pung 888m from W",
                "pung 222p from S",
                "pung 555s from N",
            ],
        },
        ["将一色", "碰碰胡", "全求人", "硬胡"],
        ["將一色", "碰碰胡", "全求人", "硬胡"],
    ),
]


@pytest.mark.parametrize(
    ("request_", "simplified", "traditional"), HANDS, ids=[str(h[0]["preset"]) for h in HANDS]
)
def test_a_winning_hand_of_each_family_in_its_players_terms(
    request_: dict[str, object], simplified: list[str], traditional: list[str]
) -> None:
    result = score_request(request_)
    family = PRESETS[str(request_["preset"])].family
    ids = [str(p["id"]) for p in result["patterns"]]  # type: ignore[attr-defined]
    assert sorted(pattern_name(family, i, "zh-CN") for i in ids) == sorted(simplified)
    assert sorted(pattern_name(family, i, "zh-TW") for i in ids) == sorted(traditional)


def test_an_unnamed_id_keeps_its_words_in_every_language() -> None:
    for language in LANGUAGES:
        assert pattern_text("hkos", "basic").in_language(language) == "Basic"
