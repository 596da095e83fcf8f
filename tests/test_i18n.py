"""The catalogue: every language has every key, with the same placeholders."""

from __future__ import annotations

import pytest

from engine import i18n
from engine.i18n import LANGUAGES, Text, language_of, parse_po, placeholders, translate


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_language_has_every_english_key_and_no_other(language: str) -> None:
    english = set(i18n.keys("en"))
    other = set(i18n.keys(language))
    assert sorted(english - other) == [], f"{language} lacks these keys"
    assert sorted(other - english) == [], f"{language} has keys English lacks"


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_placeholders_are_the_same_in_every_language(language: str) -> None:
    english = i18n.catalogue("en")
    other = i18n.catalogue(language)
    differ = {
        key: (placeholders(english[key]), placeholders(other[key]))
        for key in english.keys() & other.keys()
        if placeholders(english[key]) != placeholders(other[key])
    }
    assert differ == {}


def test_po_entries_continuations_and_escapes_are_read() -> None:
    source = (
        'msgid ""\nmsgstr "Language: en\\n"\n\n'
        '# a comment\nmsgid "a.b"\nmsgstr ""\n"two "\n"lines \\"quoted\\""\n\n'
        'msgid "c"\nmsgstr "x\\ny"\n'
    )
    assert parse_po(source) == {"a.b": 'two lines "quoted"', "c": "x\ny"}


def test_a_key_defined_twice_or_an_unreadable_line_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        parse_po('msgid "a"\nmsgstr "1"\n\nmsgid "a"\nmsgstr "2"\n')
    with pytest.raises(ValueError, match="cannot read"):
        parse_po('msgid "a"\nmsgstr "1"\nnonsense\n')


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
