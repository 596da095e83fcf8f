"""The catalogue: every language has every key, with the same placeholders."""

from __future__ import annotations

import pytest

from engine import i18n
from engine.i18n import LANGUAGES, Text, language_of, placeholders, translate


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_language_has_every_english_key_and_no_other(language: str) -> None:
    english = set(i18n.keys("en"))
    other = set(i18n.keys(language))
    assert sorted(english - other) == [], f"{language} lacks these keys"
    assert sorted(other - english) == [], f"{language} has keys English lacks"


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_placeholders_are_the_same_in_every_language(language: str) -> None:
    english = i18n.catalogue("en")
    other = i18n.messages(language).forms
    differ = {
        key: (placeholders(english[key]), [placeholders(form) for form in other[key]])
        for key in english.keys() & other.keys()
        if any(placeholders(english[key]) != placeholders(form) for form in other[key])
    }
    assert differ == {}


def test_every_plural_form_of_an_english_message_has_the_same_placeholders() -> None:
    differ = {
        key: forms
        for key, forms in i18n.messages("en").forms.items()
        if len({frozenset(placeholders(form)) for form in forms}) > 1
    }
    assert differ == {}


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        ("zh-CN", "zh-CN"),
        ("zh-TW", "zh-TW"),
        ("zh_HK.UTF-8", "zh-TW"),
        ("en-US", "en"),
        ("fr", "en"),
        (None, "en"),
    ],
)
def test_discord_and_posix_locales_map_to_our_languages(locale: str | None, language: str) -> None:
    assert language_of(locale) == language


def test_text_is_worded_per_language_with_nested_texts() -> None:
    name = Text("core.language_name")
    line = Text("core.language_set", {"language": name})
    assert str(line) == "Language set to English."
    assert line.in_language("zh-CN") == "语言已设为简体中文。"
    assert translate("zh-TW", "core.language_set", language="繁體中文") == "語言已設為繁體中文。"


def test_an_unknown_key_fails_where_it_is_written() -> None:
    with pytest.raises(KeyError):
        i18n.text("no.such.key")


ZH_HEADER = 'msgid ""\nmsgstr "Language: zh_CN\\n"\n\n'
EN_HEADER = 'msgid ""\nmsgstr "Language: en\\n"\n\n'


def _with_catalogues(monkeypatch: pytest.MonkeyPatch, **sources: str) -> None:
    """Make `translate` read these small .po texts (by language) instead of engine/locale."""
    read = {lang.replace("_", "-"): i18n.read_messages(src) for lang, src in sources.items()}
    monkeypatch.setattr(i18n, "messages", read.__getitem__)


def test_a_fuzzy_entry_is_not_a_translation_the_english_is_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    zh = ZH_HEADER + '#, fuzzy\nmsgid "a"\nmsgstr "猜的"\n\nmsgid "b"\nmsgstr "乙"\n'
    en = EN_HEADER + 'msgid "a"\nmsgstr "A"\n\nmsgid "b"\nmsgstr "B"\n'
    assert i18n.read_messages(zh).forms == {"b": ("乙",)}
    _with_catalogues(monkeypatch, en=en, zh_CN=zh)
    assert translate("zh-CN", "a") == "A"
    assert translate("zh-CN", "b") == "乙"


def test_a_context_keeps_two_entries_with_one_id_apart() -> None:
    source = (
        EN_HEADER + 'msgctxt "button"\nmsgid "a"\nmsgstr "Open"\n\n'
        'msgctxt "state"\nmsgid "a"\nmsgstr "open (no one seated)"\n\nmsgid "a"\nmsgstr "plain"\n'
    )
    forms = i18n.read_messages(source).forms
    assert forms[i18n.in_context("button", "a")] == ("Open",)
    assert forms[i18n.in_context("state", "a")] == ("open (no one seated)",)
    assert forms["a"] == ("plain",)


def test_plural_forms_are_chosen_by_count_under_each_languages_rule(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    en = EN_HEADER + (
        'msgid "hits"\nmsgid_plural "hits"\nmsgstr[0] "{count} hit"\nmsgstr[1] "{count} hits"\n'
    )
    zh = ZH_HEADER + 'msgid "hits"\nmsgid_plural "hits"\nmsgstr[0] "中{count}"\n'
    _with_catalogues(monkeypatch, en=en, zh_CN=zh)
    assert [translate("en", "hits", count=n) for n in (0, 1, 2)] == ["0 hits", "1 hit", "2 hits"]
    assert [translate("zh-CN", "hits", count=n) for n in (1, 2)] == ["中1", "中2"]
    with pytest.raises(TypeError, match="count"):
        translate("en", "hits", number=2)


def test_the_real_plural_messages_agree_with_their_count() -> None:
    assert translate("en", "pictures.result.hits", count=1) == "1 hit"
    assert translate("en", "pictures.result.hits", count=3) == "3 hits"
    assert translate("zh-CN", "pictures.result.hits", count=3) == translate(
        "zh-CN", "pictures.result.hits", count=1
    ).replace("1", "3")


def test_a_key_defined_twice_or_an_unreadable_catalogue_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        i18n.read_messages('msgid "a"\nmsgstr "1"\n\nmsgid "a"\nmsgstr "2"\n')
    with pytest.raises(ValueError, match="cannot read"):
        i18n.read_messages('msgid "a"\nmsgstr "1"\nnonsense\n')


def test_babel_reads_continuations_and_escapes() -> None:
    source = (
        EN_HEADER + '# a comment\nmsgid "a.b"\nmsgstr ""\n"two "\n"lines \\"quoted\\""\n\n'
        'msgid "c"\nmsgstr "x\\ny"\n\nmsgid "untranslated"\nmsgstr ""\n'
    )
    assert i18n.read_messages(source).forms == {"a.b": ('two lines "quoted"',), "c": ("x\ny",)}


@pytest.mark.parametrize(
    ("language", "points", "change"),
    [("en", "25,000", "-1,500"), ("zh-CN", "25,000", "-1,500"), ("zh-TW", "25,000", "-1,500")],
)
def test_numbers_are_written_as_each_reader_writes_them(
    language: str, points: str, change: str
) -> None:
    assert i18n.Number(25000).in_language(language) == points
    assert i18n.Number(-1500, signed=True).in_language(language) == change
    assert i18n.Number(8, signed=True).in_language(language) == "+8"
